"""Typo-forgiving matching over short fields (titles), with rapidfuzz.

Whole abstracts rank badly under fuzzy matching and are slow; titles carry the names people half
remember ("cdflw", "nporop"), so this is where typos are forgiven. Scoring every title costs
~65 ms a keystroke at 100,000 papers, so large lists are first narrowed with a trigram index
(as PostgreSQL's pg_trgm does): a title within a few typos of the query shares most of its
trigrams, so it must contain at least one of the query's rarest few.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
from array import array
from collections.abc import Collection, Sequence
from pathlib import Path

from rapidfuzz import fuzz, process, utils

MIN_QUERY = 3
CUTOFF = 80.0
# Up to this many titles, scoring all of them is faster than consulting trigrams.
SCAN_ALL_UP_TO = 3000
_SAVED_VERSION = 1


def _trigrams(text: str) -> set[str]:
    # unpadded: the query may match anywhere inside a title, not only at a word's start
    return {text[i : i + 3] for i in range(len(text) - 2)}


def _typos_allowed(length: int) -> int:
    return 1 if length <= 12 else 2


class TitleMatcher:
    """Fuzzy lookup of a query among titles; indices refer to the sequence given.

    The trigram index is compact (every title number of every trigram in one array, with
    offsets; ~30 MB at 100,000 titles) and can be saved: building it costs seconds of Python at
    that size, loading it back a few milliseconds, so a warm start reuses the one saved for the
    same titles.
    """

    def __init__(self, titles: Sequence[str]) -> None:
        self._titles = [utils.default_process(t) for t in titles]
        self._slots: dict[str, int] | None = None  # trigram -> its number
        self._offsets = array("I")  # postings of trigram n: _postings[_offsets[n]:_offsets[n+1]]
        self._postings = array("I")

    def prepare(self, saved: Path | None = None) -> None:
        """Build the trigram index now (seconds at 100,000 titles), not on a keystroke; with
        `saved`, load it from there when it was saved for these titles, else save it there."""
        if len(self._titles) <= SCAN_ALL_UP_TO or self._slots is not None:
            return
        key = self._key()
        if saved is not None and self._load(saved, key):
            return
        self._index()
        if saved is not None:
            self._save(saved, key)

    def _key(self) -> bytes:
        joined = "\n".join(self._titles).encode("utf-8", "surrogatepass")
        return hashlib.blake2b(joined, digest_size=16).digest()

    def _load(self, path: Path, key: bytes) -> bool:
        try:
            data = marshal.loads(path.read_bytes())
            if data["version"] != _SAVED_VERSION or data["key"] != key:
                return False
            offsets, postings = array("I"), array("I")
            offsets.frombytes(data["offsets"])
            postings.frombytes(data["postings"])
            grams = data["grams"]
        except (OSError, ValueError, EOFError, TypeError, KeyError):
            return False
        if len(offsets) != len(grams) + 1 or offsets[-1] != len(postings):
            return False
        self._slots = {gram: n for n, gram in enumerate(grams)}
        self._offsets, self._postings = offsets, postings
        return True

    def _save(self, path: Path, key: bytes) -> None:
        assert self._slots is not None
        data = {
            "version": _SAVED_VERSION,
            "key": key,
            "grams": list(self._slots),
            "offsets": self._offsets.tobytes(),
            "postings": self._postings.tobytes(),
        }
        tmp = path.with_name(f".{path.name}-{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(marshal.dumps(data))
            os.replace(tmp, path)
        except OSError:  # a cache: never a reason to fail
            with contextlib.suppress(OSError):
                tmp.unlink()

    def _index(self) -> dict[str, int]:
        if self._slots is None:
            grams: dict[str, array[int]] = {}
            for i, title in enumerate(self._titles):
                for gram in _trigrams(title):
                    postings = grams.get(gram)
                    if postings is None:
                        postings = grams[gram] = array("I")
                    postings.append(i)
            offsets, flat = array("I", [0]), array("I")
            for postings in grams.values():
                flat.extend(postings)
                offsets.append(len(flat))
            self._slots = {gram: n for n, gram in enumerate(grams)}
            self._offsets, self._postings = offsets, flat
        return self._slots

    def _count(self, gram: str) -> int:
        n = self._index().get(gram)
        return 0 if n is None else self._offsets[n + 1] - self._offsets[n]

    def _titles_with(self, gram: str) -> array[int]:
        n = self._index().get(gram)
        if n is None:
            return array("I")
        return self._postings[self._offsets[n] : self._offsets[n + 1]]

    def candidates(self, needle: str) -> list[int] | None:
        """Titles that can be within a few typos of `needle`; None: consider every title."""
        if len(self._titles) <= SCAN_ALL_UP_TO:
            return None
        grams = sorted(_trigrams(needle), key=self._count)
        # a typo breaks at most three trigrams: a close title keeps all but 3*typos of them,
        # so it contains at least one of the rarest 3*typos + 1
        needed = min(len(grams), 3 * _typos_allowed(len(needle)) + 1)
        found: set[int] = set()
        for gram in grams[:needed]:
            found.update(self._titles_with(gram))
        return sorted(found)

    def match(
        self,
        query: str,
        limit: int = 50,
        cutoff: float = CUTOFF,
        among: Collection[int] | None = None,
    ) -> list[tuple[int, float]]:
        """The `limit` titles closest to `query`, best first; with `among`, only those titles
        are considered (a filter's papers), all of them when they are few, as for a short list."""
        needle = utils.default_process(query)
        if len(needle) < MIN_QUERY:
            return []
        if among is not None and len(among) <= SCAN_ALL_UP_TO:
            chosen: list[int] | None = sorted(among)
        else:
            chosen = self.candidates(needle)
            if among is not None:
                chosen = sorted(among) if chosen is None else [i for i in chosen if i in among]
        return closest(needle, self._titles, chosen, limit, cutoff)


def closest(
    needle: str, titles: Sequence[str], chosen: Sequence[int] | None, limit: int, cutoff: float
) -> list[tuple[int, float]]:
    """Fuzzy scores of the processed `needle` against processed `titles` (only the positions
    `chosen`, when given): the best `limit` at `cutoff` or above."""
    pool = titles if chosen is None else [titles[i] for i in chosen]
    found = process.extract(
        needle, pool, scorer=fuzz.partial_ratio, processor=None, score_cutoff=cutoff, limit=limit
    )
    if chosen is None:
        return [(index, score) for _, score, index in found]
    return [(chosen[index], score) for _, score, index in found]
