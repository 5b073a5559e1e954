"""BibTeX with abstracts, read by bibtexparser: @string macros, `#` concatenation, braces and
quotes, LaTeX accents and commands turned into Unicode (Herv\\'e -> Hervé, \\textit{x} -> x) by
papertui's own decoder (`latex`), the one its ids use: an abstract written to BibTeX and read
back is the same paper."""

from __future__ import annotations

import logging
import re
from typing import Any

import bibtexparser
from bibtexparser import Library, middlewares

from papertui.core.corpus.formats.base import CorpusError, ParsedFile, decode
from papertui.core.corpus.formats.fields import CITE_FIELD, DERIVED_TITLE_FIELD, SHORT_FIELDS
from papertui.core.corpus.formats.structured import _collect
from papertui.core.text.latex import plain_text
from papertui.core.text.markdown_marks import DERIVED_REMARK

# bibtexparser logs every failed block itself; we report them in our own one-line form
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


# a key LaTeX can cite: no space, comma, brace, quote, percent or backslash
_CITE_KEY = re.compile(r"[^\s,{}()\"'%#~\\=]{1,200}")


def parse_bibtex(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
        reused = _keep_reused_keys(library)
        _concatenate(library)
        for step in (
            middlewares.ResolveStringReferencesMiddleware(True),
            middlewares.RemoveEnclosingMiddleware(True),
        ):
            library = step.transform(library)
    except Exception as exc:  # noqa: BLE001 - the parser's own errors, as one line
        raise CorpusError(path, f"BibTeX could not be read: {exc}") from None
    items = []
    entries = library.entries
    raws = [{k.lower(): f.value for k, f in e.fields_dict.items()} for e in entries]
    by_key = {str(e.key).strip().lower(): raw for e, raw in zip(entries, raws, strict=True)}
    # a proceedings volume's file (PMLR's): it begins with its one @Proceedings, then the papers
    volumes = [r for e, r in zip(entries, raws, strict=True) if _kind(e) == "proceedings"]
    volume = raws[0] if len(volumes) == 1 and volumes[0] is raws[0] else None
    for entry, raw in zip(entries, raws, strict=True):
        if _kind(entry) == "proceedings" and not raw.get("abstract"):
            continue  # the volume itself, not a paper
        crossref = raw.get("crossref")
        if isinstance(crossref, str):
            _inherit(raw, by_key.get(crossref.strip().lower()))
        _inherit(raw, volume)
        names = raw.pop("author", None)
        # titles, names and venues are decoded by `record_from_fields`, as in every format
        fields = {
            k: plain_text(v) if isinstance(v, str) and k not in SHORT_FIELDS else v
            for k, v in raw.items()
        }
        fields.setdefault("venue", fields.get("booktitle") or fields.get("journal") or "")
        if isinstance(names, str):  # BibTeX separates names by "and" only: "Smith, Jane" is one
            fields["author"] = _names(names)
        if fields.get("addendum", "").strip() == DERIVED_REMARK and fields.get("title"):
            # papertui derived this title: kept as derived (the abstract comes back decoded,
            # and a title derived again from it could read differently); without the mark of
            # a collision, which the corpus it is read into gives again if it still is one
            fields[DERIVED_TITLE_FIELD] = _COLLISION.sub("", fields.pop("title"))
        kind, key = _kind(entry), str(entry.key).strip()
        if (
            _CITE_KEY.fullmatch(key) and kind.isalpha() and _REUSED not in key
        ):  # kept for exports: \cite{key} works
            fields[CITE_FIELD] = f"{kind} {key}"
        items.append(fields)
    if reused:
        warnings.append(
            f"{path}: {reused} entr{'y uses' if reused == 1 else 'ies use'} a key an earlier entry "
            "has; read all the same (exports give such an entry a key of its own)"
        )
    parsed = _collect(path, "bibtex", items, warnings)
    failed = library.failed_blocks
    if failed:
        parsed.skipped["unreadable entry"] = len(failed)
        first = failed[0]
        line = getattr(first, "start_line", None)
        where = f"at line {line + 1}" if isinstance(line, int) else "somewhere"
        warnings.append(
            f"{path}: {len(failed)} BibTeX entr{'y' if len(failed) == 1 else 'ies'} could not "
            f"be read, the first {where} (an unclosed brace or quote?); the rest were read"
        )
    if not items and failed:
        raise CorpusError(path, warnings[-1].split(": ", 1)[1])
    return parsed


def _kind(entry: bibtexparser.model.Entry) -> str:
    return str(entry.entry_type).lower()


# what a paper takes from the entry its `crossref` names, or from the file's @Proceedings,
# when it lacks it (as BibTeX does): PMLR volumes name the venue and year only there
_INHERITED = ("booktitle", "journal", "year", "date", "publisher", "series", "volume")


def _inherit(paper: dict[str, Any], parent: dict[str, Any] | None) -> None:
    if parent is None or parent is paper:
        return
    for name in _INHERITED:
        if name in parent and not paper.get(name):
            paper[name] = parent[name]
    # a volume's title is its papers' booktitle (BibTeX's crossref rule)
    if not paper.get("booktitle") and not paper.get("journal"):
        venue = parent.get("title") or parent.get("shortname")
        if venue:
            paper["booktitle"] = venue


_COLLISION = re.compile(r" \[[0-9a-f]{6}\]$")


def _names(value: str) -> list[str]:
    """The names of an author field: separated by "and" outside braces ("{Smith and Sons}" is
    one name)."""
    names, depth, start = [], 0, 0
    text = " ".join(value.split())
    for match in re.finditer(r"(?<!\\)[{}]|\s+and\s+", text, re.IGNORECASE):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            names.append(text[start : match.start()])
            start = match.end()
    names.append(text[start:])
    return [n for n in names if n.strip()]


_REUSED = "\x00reused"  # marks the key of an entry whose key an earlier entry has


def _keep_reused_keys(library: Library) -> int:
    """Entries whose key an earlier entry has are failed blocks to bibtexparser; they are
    papers all the same (hand-made files reuse keys): add them back under marked keys.
    Returns how many."""
    reused = [
        b for b in library.failed_blocks if isinstance(b, bibtexparser.model.DuplicateBlockKeyBlock)
    ]
    for n, block in enumerate(reused):
        entry = block.ignore_error_block
        library.remove(block)
        if isinstance(entry, bibtexparser.model.Entry):
            entry.key = f"{entry.key}{_REUSED}{n}"
            library.add(entry)
    return len(reused)


def _concatenate(library: Library) -> None:
    """Join `#` expressions ("Advances in " # nips # {33}) into one braced value, with @string
    macros put in (bibtexparser leaves them as written: its issue 396)."""
    macros: dict[str, str] = {}
    for block in library.strings:  # in file order: a macro may use the ones before it
        value = str(block.value)
        joined = _join(value, macros)
        macros[str(block.key).lower()] = joined if joined is not None else _bare(value, macros)
        if joined is not None:
            block.value = "{" + joined + "}"
    for entry in library.entries:
        for field in entry.fields:
            joined = _join(str(field.value), macros)
            if joined is not None:
                field.value = "{" + joined + "}"


def _bare(value: str, macros: dict[str, str]) -> str:
    """One operand's text: a braced or quoted string without its delimiters, a number, or a
    macro's value (an unknown name stays as written)."""
    value = value.strip()
    if len(value) >= 2 and (value[0], value[-1]) in (("{", "}"), ('"', '"')):
        return value[1:-1]
    return macros.get(value.lower(), value)


def _join(value: str, macros: dict[str, str]) -> str | None:
    """The text of a `#` expression; None when `value` is a single operand."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(value):
        if ch == "\\" or (i and value[i - 1] == "\\"):
            continue  # a character after a backslash is text, as bibtexparser reads it
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    if not parts:
        return None
    parts.append(value[start:])
    return "".join(_bare(p, macros) for p in parts)
