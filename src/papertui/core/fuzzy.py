"""Typo-forgiving matching over short fields (titles), with rapidfuzz.

Whole abstracts rank badly under fuzzy matching and are slow; titles carry the names people half
remember ("cdflw", "nporop"), so this is where typos are forgiven.
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils

MIN_QUERY = 3
CUTOFF = 80.0


class TitleMatcher:
    """Fuzzy lookup of a query among titles; indices refer to the sequence given."""

    def __init__(self, titles: Sequence[str]) -> None:
        self._titles = [utils.default_process(t) for t in titles]

    def match(self, query: str, limit: int = 50, cutoff: float = CUTOFF) -> list[tuple[int, float]]:
        needle = utils.default_process(query)
        if len(needle) < MIN_QUERY:
            return []
        found = process.extract(
            needle,
            self._titles,
            scorer=fuzz.partial_ratio,
            processor=None,
            score_cutoff=cutoff,
            limit=limit,
        )
        return [(index, score) for _, score, index in found]
