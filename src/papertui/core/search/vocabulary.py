"""The corpus' words as typed (unstemmed), with the number of abstracts using each: what typo
repair and prefix queries choose from. Written beside each index generation (`vocab.json`)."""

from __future__ import annotations

import bisect
import json
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA


class Vocabulary:
    """Read on first use (typing a typo or a prefix), not when the index opens."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._words: list[str] | None = None
        self._counts: dict[str, int] = {}
        self._by_length: dict[int, list[str]] = {}

    def _load(self) -> list[str]:
        if self._words is None:
            try:
                data = json.loads(self._path.read_text("utf-8"))
            except (OSError, ValueError):
                data = {}
            self._counts = data if isinstance(data, dict) else {}
            self._words = sorted(self._counts)
            by_length: dict[int, list[str]] = {}
            for word in self._words:
                by_length.setdefault(len(word), []).append(word)
            self._by_length = by_length
        return self._words

    def count(self, word: str) -> int:
        """How many abstracts use `word`."""
        self._load()
        return self._counts.get(word, 0)

    def starting_with(self, prefix: str, limit: int = 256) -> list[str]:
        """Up to `limit` words that start with `prefix`, in alphabetical order."""
        words = self._load()
        start = bisect.bisect_left(words, prefix)
        found = []
        for word in words[start : start + limit]:
            if not word.startswith(prefix):
                break
            found.append(word)
        return found

    def nearest(self, word: str) -> list[str]:
        """Words within a small edit distance of `word`, nearest first and, among words equally
        near, the most frequent first. A swap of two neighbouring letters is one edit ("modle"
        is as near to "model" as to "mode", and "model" is the common one)."""
        if len(word) < 3 or word.isdigit():
            return []
        self._load()
        limit = 1 if len(word) <= 4 else 2
        # only words whose length is within `limit` can be within `limit` edits
        pool = [
            w
            for n in range(len(word) - limit, len(word) + limit + 1)
            for w in self._by_length.get(n, ())
        ]
        found = process.extract(word, pool, scorer=OSA.distance, score_cutoff=limit, limit=None)
        found.sort(key=lambda r: (r[1], -self._counts.get(r[0], 0)))
        best = found[0][1] if found else 0
        return [w for w, d, _ in found if d == best][:4]
