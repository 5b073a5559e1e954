"""Chinese, Japanese and Korean text as index terms: overlapping character bigrams.

These scripts write no spaces between words (Korean writes them between phrases), so a run of
their characters is one `\\w+` word to a Latin tokenizer, and a query for one word of it finds
nothing. Each run is indexed instead as its overlapping pairs of characters ("深度学习" is 深度,
度学, 学习; a lone character is itself), as Lucene's CJK analyzer does: a query's run is split
the same way and its pairs searched as a phrase, so "模型" finds every text holding 模型. The
pairs are neither stemmed nor accent-folded, and never dropped as too short.
"""

from __future__ import annotations

import re

# Han (with its extensions and compatibility ideographs), kana, Hangul (syllables and jamo),
# bopomofo, the iteration and closing marks 々 〆 〇, and the half-width kana and Hangul forms
_RANGES = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c"
    "\u3040-\u30ff\u3100-\u318f\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uffdc"
    "\U00020000-\U0003134f"
)
RUN = re.compile(f"[{_RANGES}]+")


def has_cjk(text: str) -> bool:
    """Whether `text` holds a Chinese, Japanese or Korean character (ASCII never does)."""
    return not text.isascii() and RUN.search(text) is not None


def is_piece(word: str) -> bool:
    """Whether `word` is a CJK term (a pair or a lone character), as `pieces` gives them."""
    return not word.isascii() and RUN.match(word) is not None


def bigrams(run: str) -> list[str]:
    """A run of CJK characters as its overlapping pairs; a single character stays itself."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def pieces(word: str) -> list[tuple[str, int, int, bool]]:
    """A word holding CJK characters split into terms-to-be, in order, with where each starts
    and ends in `word` and whether it is CJK: each CJK run's pairs (`bigrams`), and the other
    parts as they are, without the dots at their ends ("GPT-4.模型" -> "4", "模型"; a word
    with no CJK character is one piece)."""
    found: list[tuple[str, int, int, bool]] = []
    at = 0
    for match in RUN.finditer(word):
        _other(word, at, match.start(), found)
        start = match.start()
        run = match.group()
        if len(run) == 1:
            found.append((run, start, start + 1, True))
        else:
            found.extend(
                (run[i : i + 2], start + i, start + i + 2, True) for i in range(len(run) - 1)
            )
        at = match.end()
    _other(word, at, len(word), found)
    return found


def _other(word: str, start: int, end: int, found: list[tuple[str, int, int, bool]]) -> None:
    """The part of `word` from `start` to `end` (no CJK in it), its end dots left out."""
    part = word[start:end]
    stripped = part.strip(".")
    if stripped:
        begin = start + (len(part) - len(part.lstrip(".")))
        found.append((stripped, begin, begin + len(stripped), False))


def words(text: str) -> list[str]:
    """The `\\w+` words of `text`, each CJK run as its pairs: the words the vocabulary counts
    (typo repair and prefixes choose from them)."""
    out: list[str] = []
    for word in re.findall(r"\w+", text):
        if has_cjk(word):
            out.extend(p[0] for p in pieces(word))
        else:
            out.append(word)
    return out
