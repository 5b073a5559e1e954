"""The store's copy of an annotated paper, kept so exports and notes outlive the corpus file."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from papertui.core.corpus import Paper


@dataclass(slots=True)
class SavedPaper:
    """A paper as the store remembers it (for export when the corpus is not loaded)."""

    id: str
    title: str
    abstract: str
    collections: list[str]
    urls: list[str]
    has_real_title: bool | None = None  # None: saved by papertui before this was kept
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    source: str = ""


def remember(conn: sqlite3.Connection, paper: Paper) -> None:
    """Save (or refresh) the copy of `paper`, inside the caller's transaction."""
    conn.execute(
        "INSERT OR REPLACE INTO papers (id, title, abstract, collections, urls, real_title,"
        " authors, venue, year, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            paper.id,
            paper.title,
            paper.abstract,
            json.dumps(paper.collections, ensure_ascii=False),
            json.dumps(list(paper.urls)),
            int(paper.has_real_title),
            json.dumps(list(paper.authors), ensure_ascii=False),
            paper.venue,
            paper.year,
            paper.source,
        ),
    )


def saved_paper(row: dict[str, object]) -> SavedPaper:
    real = row.get("real_title")
    year = row.get("year")
    return SavedPaper(
        id=str(row["id"]),
        title=str(row["title"]),
        abstract=str(row["abstract"]),
        collections=json.loads(str(row["collections"])),
        urls=json.loads(str(row["urls"])),
        has_real_title=None if real is None else bool(real),
        authors=json.loads(str(row.get("authors") or "[]")),
        venue=str(row.get("venue") or ""),
        year=year if isinstance(year, int) else None,
        source=str(row.get("source") or ""),
    )
