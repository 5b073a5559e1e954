"""The arXiv mailing-list digest: the daily e-mail of new submissions, saved as a text file.

After a header of dashes and subscription notes, each paper is a block that opens with a `\\\\`
line: `arXiv:ID`, `Date:`, `Title:` (wrapped onto indented lines), `Authors:`, `Categories:`,
optional `Comments:` and others, then a `\\\\` line, the abstract, and `\\\\ ( URL , size)`.
Replacements without an abstract are skipped (counted). A block without an arXiv id, or cut
short (no abstract, or no closing URL line), is named in a warning and the rest is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from papertui.core.corpus.formats.base import CorpusError, ParsedFile, decode
from papertui.core.corpus.formats.structured import _collect

# a paper's first line after its opening "\\" line
_ID = re.compile(r"^arXiv:(\S+)")
_FIELD = re.compile(r"^([A-Z][A-Za-z-]*):\s?(.*)$")
_END = re.compile(r"^\\\\ \(\s*(https?://\S+)\s*,.*\)$")  # "\\ ( URL ,  512kb)": the block's end
_RULE = re.compile(r"^-{20,}$")


def parse_arxiv_mail(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    lines = decode(path, data, warnings).split("\n")
    items: list[dict[str, object]] = []
    broken: list[str] = []
    replaced = 0  # replacements without an abstract
    i = 0
    while i < len(lines):
        if lines[i].strip() != "\\\\" or i + 1 >= len(lines) or _RULE.match(lines[i + 1]):
            i += 1
            continue
        start = i + 1  # the block's first line, counted from 1 in what is said
        item, i, problem = _block(lines, i + 1)
        if problem:
            broken.append(f"the block at line {start} {problem}")
        elif item.get("abstract"):
            items.append(item)
        else:
            replaced += 1
    if not items and not broken:
        raise CorpusError(path, "no papers in this arXiv digest")
    parsed = _collect(path, "arxiv-mail", items, warnings)
    parsed.collection = Path(path).stem
    if replaced:
        parsed.skipped["no abstract"] = parsed.skipped.get("no abstract", 0) + replaced
    if broken:
        parsed.skipped["broken block"] = len(broken)
        more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
        warnings.append(f"{path}: {broken[0]}{more}; skipped, the rest were read")
    return parsed


def _block(lines: list[str], i: int) -> tuple[dict[str, object], int, str]:
    """One paper's block from line `i` (after its opening "\\\\"): its fields, the line after
    it, and what is wrong with it ("" when nothing)."""
    found = _ID.match(lines[i].strip())
    fields: dict[str, str] = {}
    last = ""
    while i < len(lines) and lines[i].strip() != "\\\\":
        line = lines[i]
        if _END.match(line.strip()):  # a replacement: its URL line right after the fields
            return {}, i + 1, "" if found else "has no arXiv id"
        if _RULE.match(line.strip()):
            return {}, i, "is cut short (no abstract)"
        field = _FIELD.match(line)
        if field and not line[:1].isspace():
            last = field.group(1).lower()
            fields[last] = field.group(2).strip()
        elif line.startswith(" ") and last:  # a wrapped value
            fields[last] += " " + line.strip()
        elif line.startswith("replaced with"):
            fields["date"] = line
        i += 1
    if found is None:
        return {}, i + 1, "has no arXiv id"
    if i >= len(lines):
        return {}, i, "is cut short (no abstract)"
    abstract: list[str] = []
    i += 1
    while i < len(lines):
        line = lines[i].strip()
        end = _END.match(line)
        if end:
            return _record(found.group(1), fields, abstract, end.group(1)), i + 1, ""
        if line == "\\\\" or _RULE.match(line):
            break
        abstract.append(line)
        i += 1
    return {}, i, "is cut short (no closing URL line)"


def _record(arxiv: str, fields: dict[str, str], abstract: list[str], url: str) -> dict[str, object]:
    return {
        "title": fields.get("title", ""),
        "authors": fields.get("authors", ""),
        "abstract": " ".join(line for line in abstract if line),
        "arxiv_id": arxiv,
        "url": url,
        "categories": fields.get("categories", ""),
        "date": fields.get("date", ""),
        "venue": "arXiv",
    }
