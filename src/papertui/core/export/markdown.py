"""papertui's Markdown: one paper as `Y` copies it, and the export papertui reads back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from papertui.core.text.markdown_marks import (
    DERIVED_REMARK,
    escape_markup,
    export_head,
    hidden_comment,
    id_line,
)

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry


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
    body = "\n".join(_export_markdown(e) for e in entries)
    return export_head(len(entries)) + "\n" + body


def _export_markdown(e: Entry) -> str:
    """One paper of a Markdown export: `paper_markdown`, with a hidden comment under the title
    holding what the byline cannot say exactly (every author, the venue, the year, a derived
    title) and the abstract's lines escaped where they start like markup, so that papertui
    reads its export back as the same papers."""
    meta = {"authors": list(e.authors), "venue": e.venue, "year": e.year}
    meta["title_derived"] = bool(e.title_derived)
    text = paper_markdown(
        e.title,
        escape_markup(e.abstract),
        e.urls,
        e.note,
        byline(e.authors, e.venue, e.year),
        title_derived=e.title_derived,
        tags=e.tags,
    )
    first, _, rest = text.partition("\n")
    return f"{first}\n{hidden_comment(meta)}\n{rest}\n{id_line(e.collections, e.id)}\n"


def byline(authors: Sequence[str], venue: str, year: int | None) -> str:
    """ "A. Author, B. Author · NeurIPS · 2024", leaving out what is unknown."""
    people = ", ".join(authors[:8]) + (" et al." if len(authors) > 8 else "")
    return " · ".join(p for p in (people, venue, str(year) if year else "") if p)
