"""The corpus' words as typed (unstemmed), with the number of abstracts using each: what typo
repair and prefix queries choose from. Written beside each index generation (`vocab.json`)."""

from __future__ import annotations

import bisect
import json
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA, Levenshtein

from papertui.core.search import cjk


class Vocabulary:
    """Read on first use (typing a typo or a prefix), not when the index opens."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._words: list[str] | None = None
        self._counts: dict[str, int] = {}
        self._by_length: dict[int, list[str]] = {}  # words typo repair may give
        self._pairs: dict[str, list[str]] = {}  # CJK character -> the pairs holding it

    def _load(self) -> list[str]:
        if self._words is None:
            try:
                data = json.loads(self._path.read_text("utf-8"))
            except (OSError, ValueError):
                data = {}
            self._counts = data if isinstance(data, dict) else {}
            self._words = sorted(self._counts)
            by_length: dict[int, list[str]] = {}
            pairs: dict[str, list[str]] = {}
            for word in self._words:
                if not word.isascii() and cjk.has_cjk(word):
                    # never what a typo is repaired to: CJK words are their pairs
                    for char in dict.fromkeys(word):
                        pairs.setdefault(char, []).append(word)
                    continue
                by_length.setdefault(len(word), []).append(word)
            self._by_length, self._pairs = by_length, pairs
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

    def pairs_with(self, char: str, limit: int) -> list[str]:
        """The CJK pairs holding `char` (`cjk.bigrams`), the `limit` most used, most used first."""
        self._load()
        found = self._pairs.get(char, [])
        return sorted(found, key=lambda w: -self._counts.get(w, 0))[:limit]

    def nearest(self, word: str) -> list[str]:
        """Words within a small edit distance of `word`, nearest first and, among words equally
        near, the most frequent first. A swap of two neighbouring letters is one edit ("modle"
        is as near to "model" as to "mode", and "model" is the common one)."""
        if len(word) < 3 or word.isdigit() or cjk.has_cjk(word):
            return []  # a CJK pair is no misspelling of a word
        self._load()
        limit = 1 if len(word) <= 4 else 2
        # only words whose length is within `limit` can be within `limit` edits
        pool = [
            w
            for n in range(len(word) - limit, len(word) + limit + 1)
            for w in self._by_length.get(n, ())
        ]
        found = process.extract(word, pool, scorer=OSA.distance, score_cutoff=limit, limit=None)
        found.sort(key=lambda r: (r[1], _unlikely(word, r[0]), -self._counts.get(r[0], 0)))
        best = found[0][1] if found else 0
        return [w for w, d, _ in found if d == best][:4]


# neighbouring keys on a QWERTY keyboard: hitting one for the other is a common typo
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEAR_KEYS = {
    a + b for row in _ROWS for a, b in zip(row, row[1:], strict=False) for a, b in ((a, b), (b, a))
}


def _unlikely(typed: str, word: str) -> int:
    """How many of the edits from `typed` to `word` are unlikely slips of the hand: a letter
    missed or typed twice next to its twin ("ofline" for "offline"), two letters swapped and
    a neighbouring key are likely; any other letter is not ("ofline" is not "online")."""
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and typed[diff[0]] == word[diff[1]]:
            return 0 if typed[diff[1]] == word[diff[0]] else 1  # a swap
    cost = 0
    for edit in Levenshtein.editops(typed, word):
        op, i, j = edit.tag, edit.src_pos, edit.dest_pos
        if op == "insert":  # word has word[j] where typed has none
            twin = word[j - 1 : j] == word[j] or word[j + 1 : j + 2] == word[j]
        elif op == "delete":  # typed has typed[i] too many
            twin = typed[i - 1 : i] == typed[i] or typed[i + 1 : i + 2] == typed[i]
        else:
            twin = typed[i] + word[j] in _NEAR_KEYS
        cost += 0 if twin else 1
    return cost
