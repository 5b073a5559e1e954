"""Markdown paper lists: a heading per paper (`## [12] Title`, `### Title`), optional
`**Authors**:` and `**URL**:` lines, and the abstract after an `**Abstract**:` label."""

from __future__ import annotations

import re

from papertui.core.formats.base import ParsedFile, decode
from papertui.core.formats.structured import _collect

_HEADING = re.compile(r"^#{2,4}\s+(?:\[\d+\]\s*)?(.+?)\s*#*\s*$")
_LABEL = re.compile(
    r"^\s*[-*]?\s*(?:\*\*|__)?([A-Za-z ]{2,20}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$"
)
_LINK = re.compile(r"\[([^\]]*)\]\((https?://[^)\s]+)\)")
KNOWN = {
    "authors": "authors",
    "author": "authors",
    "url": "url",
    "link": "url",
    "paper": "url",
    "pdf": "url",
    "code": "code",
    "abstract": "abstract",
    "venue": "venue",
    "year": "year",
    "conference": "venue",
}


def _plain(text: str) -> str:
    return _LINK.sub(lambda m: m.group(2) if m.group(1).startswith("http") else m.group(1), text)


def parse_markdown(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    items: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    field: str | None = None
    for line in text.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            current = {"title": _plain(heading.group(1)).strip("* ")}
            items.append(current)
            field = None
            continue
        if current is None:
            continue
        if re.fullmatch(r"[-*_= ]{3,}", line.strip()):  # a rule between papers
            field = None
            continue
        label = _LABEL.match(line)
        key = KNOWN.get(label.group(1).strip().lower()) if label else None
        if label and key:
            field = key
            value = label.group(2).strip()
            if key == "url":
                links = _LINK.findall(value)
                value = links[0][1] if links else value.strip("<>")
            current[key] = (current.get(key, "") + " " + _plain(value)).strip()
        elif field == "abstract" and line.strip():
            current["abstract"] += " " + _plain(line.strip().lstrip("> "))
        elif not line.strip() and field != "abstract":
            field = None
    return _collect(path, "markdown", items, warnings)
