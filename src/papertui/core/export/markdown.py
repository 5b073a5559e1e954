"""papertui's Markdown: one paper as `Y` copies it, and the export papertui reads back."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry

DERIVED_REMARK = "title derived from the abstract by papertui"


def paper_markdown(
    title: str,
    abstract: str,
    urls: Sequence[str],
    note: str = "",
    byline: str = "",
    *,
    title_derived: bool | None = False,
    tags: Sequence[str] = (),
) -> str:
    """One paper as Markdown: what `Y` copies and what the reading list is made of."""
    parts = [f"## {title}", ""]
    if title_derived:
        parts += [f"*({DERIVED_REMARK})*", ""]
    parts += ([f"*{byline}*", ""] if byline else []) + [abstract]
    if urls:
        parts += ["", *[f"- <{u}>" for u in urls]]
    if tags:
        parts += ["", "**Tags:** " + ", ".join(tags)]
    if note.strip():
        parts += ["", "**Note:**", "", *[f"> {line}" for line in note.splitlines()]]
    return "\n".join(parts) + "\n"


def to_markdown(entries: Sequence[Entry]) -> str:
    head = f"# papertui export ({len(entries)} paper{'s' if len(entries) != 1 else ''})\n"
    body = "\n".join(_export_markdown(e) for e in entries)
    return head + "\n" + body


# what leads a line that Markdown would read as a heading, list, quote, emphasis or comment:
# escaped in an export's abstract, and unescaped when papertui reads the export back
MARKUP_START = r"[#*>+\-_<`=|~]|\d+[.)]\s"
_MARKUP_LINE = re.compile(rf"^(?={MARKUP_START})", re.M)


def _export_markdown(e: Entry) -> str:
    """One paper of a Markdown export: `paper_markdown`, with a hidden comment under the title
    holding what the byline cannot say exactly (every author, the venue, the year, a derived
    title) and the abstract's lines escaped where they start like markup, so that papertui
    reads its export back as the same papers."""
    meta = {"authors": list(e.authors), "venue": e.venue, "year": e.year}
    meta["title_derived"] = bool(e.title_derived)
    # "--" cannot occur in an HTML comment: JSON's escape keeps it out
    hidden = json.dumps(meta, ensure_ascii=False).replace("--", "-\\u002d")
    text = paper_markdown(
        e.title,
        _MARKUP_LINE.sub("\\\\", e.abstract),
        e.urls,
        e.note,
        byline(e.authors, e.venue, e.year),
        title_derived=e.title_derived,
        tags=e.tags,
    )
    first, _, rest = text.partition("\n")
    return (
        f"{first}\n<!-- papertui {hidden} -->\n{rest}\n*{', '.join(e.collections)} · id {e.id}*\n"
    )


def byline(authors: Sequence[str], venue: str, year: int | None) -> str:
    """ "A. Author, B. Author · NeurIPS · 2024", leaving out what is unknown."""
    people = ", ".join(authors[:8]) + (" et al." if len(authors) > 8 else "")
    return " · ".join(p for p in (people, venue, str(year) if year else "") if p)
