"""The contrast part of the "for you" score: the terms that set the liked papers apart from the
library, weighted by how far apart.

For each term, the liked papers' mean weight m (a paper without the term counts 0) is compared
with the library's mean weight mu and spread sd by a t statistic, t = (m - mu) / sqrt(sd^2 / n +
`EPSILON`) over the n liked papers (0 when the liked papers use the term less than the
library). A term every liked paper uses and few others do gets a large t; a common word, or a
word one liked paper uses a lot, a small one. The contrast query is m t^`POWER`, and every
paper's contrast score is its term vector's dot product with it. `model` adds the contrast
score, standardised, to its own (also standardised) with weight `weights.CONTRAST_WEIGHT`.

What was measured, and the variants that lost: docs/lab-notes/for-you.md.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from papertui.core.semantic.vectors import PAD, PaperVectors

POWER = 2.0  # the t statistic's exponent in a term's contrast weight
EPSILON = 1e-6  # added to the t statistic's variance: a term no other paper has stays finite


_SPREADS: weakref.WeakKeyDictionary[PaperVectors, tuple[int, tuple[np.ndarray, np.ndarray]]]
_SPREADS = weakref.WeakKeyDictionary()


def library_spread(vectors: PaperVectors) -> tuple[np.ndarray, np.ndarray]:
    """Each vocabulary term's mean weight over the library's papers and its standard deviation
    (papers without the term count 0), in one pass over the stored terms; kept per vectors
    object until papers are added (a reader's next like trains again on the same library)."""
    known = _SPREADS.get(vectors)
    if known is not None and known[0] == len(vectors):
        return known[1]
    spread = _spread(vectors)
    _SPREADS[vectors] = (len(vectors), spread)
    return spread


def _spread(vectors: PaperVectors) -> tuple[np.ndarray, np.ndarray]:
    n = max(len(vectors), 1)
    total = np.zeros(PAD + 1, dtype=np.float64)
    squares = np.zeros(PAD + 1, dtype=np.float64)
    step = 16384
    for s in range(0, len(vectors), step):
        ids = np.asarray(vectors.term_ids[s : s + step]).ravel()
        w = np.asarray(vectors.term_weights[s : s + step], dtype=np.float64).ravel()
        total += np.bincount(ids, weights=w, minlength=PAD + 1)
        squares += np.bincount(ids, weights=w * w, minlength=PAD + 1)
    v = len(vectors.vocab.keys)
    mean = total[:v] / n
    var = np.maximum(squares[:v] / n - mean * mean, 0.0)
    return mean.astype(np.float32), np.sqrt(var).astype(np.float32)


def contrast_query(
    vectors: PaperVectors,
    liked: np.ndarray,
    count: int,
    spread: tuple[np.ndarray, np.ndarray],
) -> np.ndarray:
    """The contrast query (vocabulary length) of `count` liked papers whose summed term vectors
    are `liked`, against the library's `spread` (`library_spread`)."""
    if count <= 0:
        return np.zeros(len(vectors.vocab.keys), dtype=np.float32)
    mean, sd = spread
    m = liked / count
    t = np.maximum(m - mean, 0.0) / np.sqrt(sd * sd / count + EPSILON)
    return (m * t**POWER).astype(np.float32)


def standardised(s: np.ndarray, rows: Sequence[int] = ()) -> np.ndarray:
    """`s` minus its mean over the papers, divided by its standard deviation (1 if 0); the
    papers at `rows` (the judged ones) left out of the mean and deviation."""
    keep = np.ones(len(s), dtype=bool)
    keep[np.asarray(rows, dtype=np.int64)] = False
    ref = s[keep] if keep.any() else s
    if not len(ref):
        return s
    return ((s - float(ref.mean())) / (float(ref.std()) or 1.0)).astype(np.float32)
