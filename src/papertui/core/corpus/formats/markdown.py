"""Markdown paper lists, in the shapes conference lists on GitHub use.

A paper starts at a heading (`## [12] Title`, `### [Title](https://...)`) or at a `**Title**:`
line. After it come labelled lines, bold or plain (`**Authors**: ...`, `**Authors:** ...`,
`- Authors: ...`), an author line in emphasis alone (`*Ada Lovelace, Alan Turing*`), and the
abstract after an `**Abstract**:` label, up to a rule, the next heading or the next bold label
(`**Keywords**:`, `**TL;DR**:`, which are not kept). Emphasis is markup, not data: it is
stripped from every value. A venue with a year in it (`**Conference**: *nips 2022*`) gives
both: venue "nips", year 2022.
"""

from __future__ import annotations

import re
from typing import Any

from papertui.core.corpus.formats.base import ParsedFile, decode
from papertui.core.corpus.formats.fields import parse_year
from papertui.core.corpus.formats.structured import _collect
from papertui.core.text.markdown_marks import (
    DERIVED_REMARK,
    EXPORT_HEAD,
    ID_LINE,
    read_hidden_comment,
    unescape_markup,
)

_HEADING = re.compile(r"^#{2,4}\s+(?:\[\d+\]\s*)?(.+?)\s*#*\s*$")
_LABEL = re.compile(
    # "**Authors**: x" and "**Authors:** x": the closing ** before or after the colon
    r"^\s*(?:[-*+]\s+)?(\*\*|__)?([A-Za-z][A-Za-z /;.]{1,24}?)(\1)?"
    r"\s*:\s*(?(3)|(?:\1)?)\s*(.*)$"
)
_LINK = re.compile(r"\[([^\]]*)\]\((https?://[^)\s]+)\)")
_RULE = re.compile(r"[-*_= ]{3,}")
_EMPHASIS_LINE = re.compile(r"^\s*(\*{1,2}|_{1,2})(?!\s)(.+?)(?<!\s)\1\s*$")
_YEAR_IN = re.compile(r"(?<![\d'])'?((?:19|20)\d\d)(?!\d)")
KNOWN = {
    "title": "title",
    "paper title": "title",
    "authors": "authors",
    "author": "authors",
    "url": "url",
    "link": "url",
    "links": "url",
    "paper": "url",
    "pdf": "url",
    "arxiv": "url",
    "openreview": "url",
    "code": "code",
    "abstract": "abstract",
    "summary": "abstract",
    "venue": "venue",
    "conference": "venue",
    "published in": "venue",
    "publication": "venue",
    "journal": "venue",
    "year": "year",
}


def _plain(text: str) -> str:
    """Links as their text (or URL, when the text is one), without emphasis markers."""
    text = _LINK.sub(lambda m: m.group(2) if m.group(1).startswith("http") else m.group(1), text)
    return _strip_emphasis(text)


def _strip_emphasis(text: str) -> str:
    text = re.sub(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])", r"\2", text)
    return text.strip().strip("*_").strip()


def _authors(text: str) -> str:
    """An author line without emphasis and the "..." / "et al." that stand for the rest."""
    text = _plain(text)
    text = re.sub(r"(?:,\s*)?(?:\.\.\.|…|\bet al\.?)\s*$", "", text.strip())
    return text.strip(" ,;")


def _venue_year(item: dict[str, str]) -> None:
    """'nips 2022' -> venue 'nips', year 2022 (the venue keeps its spelling)."""
    venue = item.get("venue", "")
    match = _YEAR_IN.search(venue)
    if not match:
        return
    if "year" not in item and parse_year(match.group(1)) is not None:
        item["year"] = match.group(1)
    rest = venue[: match.start()] + venue[match.end() :]
    rest = re.sub(r"\(\s*\)|\[\s*\]", "", rest)
    item["venue"] = " ".join(rest.split()).strip(" ,;-–—")


def parse_markdown(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    if EXPORT_HEAD.match(text.lstrip("\ufeff")):
        return _collect(path, "markdown", parse_export(text), warnings)
    items: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    field: str | None = None

    def start(title: str, url: str = "") -> dict[str, str]:
        item = {"title": title}
        if url:
            item["url"] = url
        items.append(item)
        return item

    for line in text.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            links = _LINK.findall(heading.group(1))
            current = start(_plain(heading.group(1)), links[0][1] if links else "")
            field = None
            continue
        label = _LABEL.match(line)
        key = KNOWN.get(label.group(2).strip().lower()) if label else None
        if label and key == "title" and (current is None or "abstract" in current):
            value = label.group(4)
            links = _LINK.findall(value)
            current = start(_plain(value), links[0][1] if links else "")
            field = None
            continue
        if current is None:
            continue
        if _RULE.fullmatch(line.strip()):  # a rule between papers
            field = None
            continue
        if label and key:
            field = key
            value = label.group(4).strip()
            if key == "url":
                links = _LINK.findall(value)
                if links:
                    value = links[0][1]
                elif not value.strip("<>").startswith("http"):
                    continue  # "PDF: (not available)"
                value = value.strip("<>")
                if current.get("url"):
                    continue  # the first link given is the paper's
                current["url"] = value
                continue
            value = _authors(value) if key == "authors" else _plain(value)
            if key == "title":  # "**Title**:" under a section heading names the paper
                current["title"] = value
            else:
                current[key] = (current.get(key, "") + " " + value).strip()
        elif label and label.group(1):  # a bold label we do not use (Keywords, TL;DR...)
            field = "other"
        elif field == "abstract" and line.strip():
            current["abstract"] += " " + _plain(line.strip().lstrip("> "))
        elif not line.strip() and field != "abstract":  # abstracts may have paragraphs
            field = None
        elif field is None and "authors" not in current and "abstract" not in current:
            emphasis = _EMPHASIS_LINE.match(line)
            if emphasis:  # *Ada Lovelace, Alan Turing* under the title
                current["authors"] = _authors(emphasis.group(2))
    for item in items:
        _venue_year(item)
    return _collect(path, "markdown", items, warnings)


# papertui's own Markdown export (`export.markdown.to_markdown`): its abstract is a plain
# paragraph, not a labelled one, and its emphasis lines are a remark, a byline and an id line
_EXPORT_URL = re.compile(r"^- <(https?://[^>\s]+)>$")


def parse_export(text: str) -> list[dict[str, str]]:
    """The papers of a papertui Markdown export: title (left out when papertui derived it, so
    it is derived again in full), byline (authors · venue · year), abstract and links. An
    export with the hidden comment under each title (`markdown_marks.hidden_comment`) is
    read exactly; an older one by the byline's shape."""
    items: list[dict[str, str]] = []
    for section in re.split(r"(?m)^## ", text)[1:]:
        lines = section.split("\n")
        item: dict[str, Any] = {"title": lines[0].strip()}
        meta = read_hidden_comment(lines[1].strip()) if len(lines) > 1 else None
        if meta is not None:
            lines = lines[1:]
            item.update({k: meta[k] for k in ("authors", "venue", "year") if meta.get(k)})
            if meta.get("title_derived"):
                item["title"] = ""
        # before the abstract: the derived-title remark and the byline (the byline only
        # when the comment says there is one)
        fields = ("authors", "venue", "year")
        bylines = 1 if meta is None else int(any(meta.get(k) for k in fields))
        body: list[str] = []
        links: list[str] = []
        head = True
        for line in lines[1:]:
            stripped = line.strip()
            if head and not stripped:
                continue
            if head and stripped == f"*({DERIVED_REMARK})*":
                item["title"] = ""  # derived: derived again, in full
                continue
            if head and bylines and _EMPHASIS_LINE.match(stripped) and not ID_LINE.match(stripped):
                bylines -= 1
                if meta is None:
                    item.update(_byline(stripped[1:-1]))
                continue
            head = False
            url = _EXPORT_URL.match(stripped)
            if url:
                links.append(url.group(1))
            elif stripped.startswith(("**Tags:**", "**Note:**")) or ID_LINE.match(stripped):
                break  # what follows the links is the reader's own, not the paper's
            elif not links:
                body.append(line)
        abstract = "\n".join(body).strip()
        item["abstract"] = unescape_markup(abstract) if meta is not None else abstract
        if links:  # the paper's own link: the first its abstract does not hold
            item["url"] = next((u for u in links if u not in abstract), links[0])
        items.append(item)
    return items


def _byline(text: str) -> dict[str, str]:
    """ "A. Author, B. Author · NeurIPS · 2024", any part left out when unknown."""
    parts = [p.strip() for p in text.split(" · ") if p.strip()]
    out: dict[str, str] = {}
    if parts and parse_year(parts[-1]) is not None and parts[-1].isdigit():
        out["year"] = parts.pop()
    if len(parts) >= 2:
        out["venue"] = parts.pop()
    if parts:
        people = parts[0]
        if "," in people or " " in people.strip():
            out["authors"] = _authors(people)
        else:
            out["venue"] = people
    return out
