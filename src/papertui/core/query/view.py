"""What a list shows: a query's result as positions into the library's papers, with what to
tell the user about it."""

from __future__ import annotations

from dataclasses import dataclass, field

from papertui.core.search import Highlighter


@dataclass(slots=True)
class View:
    """What a query shows: positions into the library's papers, best first."""

    query: str
    indices: list[int]
    highlighter: Highlighter = field(default_factory=Highlighter)
    corrections: dict[str, str] = field(default_factory=dict)
    remarks: list[str] = field(default_factory=list)  # things to tell the user about this query
    scores: dict[int, float] = field(default_factory=dict)  # full-text score per position
    depth: int | None = None  # how many full-text hits were asked for
    truncated: bool = False  # there may be more full-text hits than were ranked
    matched: int | None = None  # how many papers the full text matches, when truncated
    why: dict[int, str] = field(default_factory=dict)  # position -> why "for you" ranked it
