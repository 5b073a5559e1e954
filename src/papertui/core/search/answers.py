"""What a query against the index gives back, and how a damaged index is told apart from an
odd query string."""

from __future__ import annotations

from dataclasses import dataclass

from papertui.core.search.highlight import Highlighter


class SearchFailed(Exception):
    """The index could not answer a query (its files are damaged, gone or unreadable); `str()`
    says why in one line. A query string alone never causes it: the UI and CLI show it and may
    rebuild the index."""


# what reading a damaged or vanished index raises, as opposed to what odd query strings do
_INDEX_ERRORS = (OSError, EOFError)


def _why(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"the search index could not be read ({text})"


@dataclass(slots=True)
class SearchResult:
    hits: list[tuple[str, float]]  # (paper id, score), best first
    highlighter: Highlighter
    corrections: dict[str, str]  # typed word -> word searched instead
    fallback: bool = False  # the query could not be parsed and was searched as plain words
    matched: int | None = None  # how many papers match in all (None: not known)
