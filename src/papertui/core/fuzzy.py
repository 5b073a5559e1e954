"""Typo-forgiving matching over short fields (titles), with rapidfuzz.

Whole abstracts rank badly under fuzzy matching and are slow; titles carry the names people half
remember ("cdflw", "nporop"), so this is where typos are forgiven. Scoring every title costs
~65 ms a keystroke at 100,000 papers, so large lists are first narrowed with a trigram index
(as PostgreSQL's pg_trgm does): a title within a few typos of the query shares most of its
trigrams, so it must contain at least one of the query's rarest few.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils

MIN_QUERY = 3
CUTOFF = 80.0
# Up to this many titles, scoring all of them is faster than consulting trigrams.
SCAN_ALL_UP_TO = 3000


def _trigrams(text: str) -> set[str]:
    # unpadded: the query may match anywhere inside a title, not only at a word's start
    return {text[i : i + 3] for i in range(len(text) - 2)}


def _typos_allowed(length: int) -> int:
    return 1 if length <= 12 else 2


class TitleMatcher:
    """Fuzzy lookup of a query among titles; indices refer to the sequence given."""

    def __init__(self, titles: Sequence[str]) -> None:
        self._titles = [utils.default_process(t) for t in titles]
        self._grams: dict[str, array[int]] | None = None

    def prepare(self) -> None:
        """Build the trigram index now (about a second at 100,000 titles), not on a keystroke."""
        if len(self._titles) > SCAN_ALL_UP_TO:
            self._index()

    def _index(self) -> dict[str, array[int]]:
        if self._grams is None:
            grams: dict[str, array[int]] = {}
            for i, title in enumerate(self._titles):
                for gram in _trigrams(title):
                    postings = grams.get(gram)
                    if postings is None:
                        postings = grams[gram] = array("I")
                    postings.append(i)
            self._grams = grams
        return self._grams

    def candidates(self, needle: str) -> list[int] | None:
        """Titles that can be within a few typos of `needle`; None: consider every title."""
        if len(self._titles) <= SCAN_ALL_UP_TO:
            return None
        index = self._index()
        grams = sorted(_trigrams(needle), key=lambda g: len(index.get(g, ())))
        # a typo breaks at most three trigrams: a close title keeps all but 3*typos of them,
        # so it contains at least one of the rarest 3*typos + 1
        needed = min(len(grams), 3 * _typos_allowed(len(needle)) + 1)
        found: set[int] = set()
        for gram in grams[:needed]:
            found.update(index.get(gram, ()))
        return sorted(found)

    def match(self, query: str, limit: int = 50, cutoff: float = CUTOFF) -> list[tuple[int, float]]:
        needle = utils.default_process(query)
        if len(needle) < MIN_QUERY:
            return []
        chosen = self.candidates(needle)
        pool = self._titles if chosen is None else [self._titles[i] for i in chosen]
        found = process.extract(
            needle,
            pool,
            scorer=fuzz.partial_ratio,
            processor=None,
            score_cutoff=cutoff,
            limit=limit,
        )
        if chosen is None:
            return [(index, score) for _, score, index in found]
        return [(chosen[index], score) for _, score, index in found]
