"""The liked side of the "for you" profile: what the liked papers share, and how much the LSA
part of the score counts for this reader.

`liked_query` is the centroid of the liked papers' term vectors, each term's weight times the
share of the liked papers that hold it. A term all five bookmarks use keeps its weight; a word
only one of them uses counts a fifth, so the profile is about what the papers have in common and
not about each paper's own subject (one liked paper about chess does not bring chess). With one
liked paper every share is 1 and the profile is that paper. The LSA part is the plain centroid.
The passed-over papers' centroid is then subtracted as before (`weights.NEGATIVE_WEIGHT`); the
share shrinks the liked part, so the skips weigh a little more than before against it.

`dense_weight`: with 3 or more liked papers, each is left out of the profile in turn and each
part of the score (terms, LSA) is asked how far above the library's scores it puts the paper
left out; the LSA part's weight follows the ratio of the two separations (standardised), instead
of the fixed `similar.DENSE_WEIGHT`. Readers of a specific phrase get mostly terms (their liked
papers share words, not a region of LSA space); readers of a broad area keep the LSA part. When
neither part finds the papers left out (the LSA part not at all, the terms by less than
`weights.WEAK_SEPARATION` deviations), five answers cannot tell which part serves the reader:
the LSA part keeps `weights.WEAK_DENSE_WEIGHT` instead of 0 (see `model`).

What was measured, and the variants that lost: docs/lab-notes/for-you.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from papertui.core.semantic.similar import Query, papers_query
from papertui.core.semantic.triage import weights
from papertui.core.semantic.vectors import PAD, PaperVectors


def holders(vectors: PaperVectors, rows: Sequence[int]) -> np.ndarray:
    """How many of the papers at `rows` hold each vocabulary term (among their stored terms)."""
    count = np.zeros(PAD + 1, dtype=np.float32)
    for r in rows:
        ids = np.unique(np.asarray(vectors.term_ids[r]))
        count[ids] += 1.0
    return count[: len(vectors.vocab.keys)]


def liked_query(vectors: PaperVectors, rows: Sequence[int]) -> Query:
    """The liked papers' centroid, each term weighted by the share of them that hold it."""
    centroid = papers_query(vectors, rows) * (1.0 / len(rows))
    if len(rows) < 2:
        return centroid
    share = holders(vectors, rows) / len(rows)
    return Query(centroid.terms * share, centroid.dense)


class DenseWeight(NamedTuple):
    """The LSA part's weight for one reader, and whether neither part found the liked papers
    left out (`weak`: the scores then use at least `weights.WEAK_DENSE_WEIGHT`)."""

    weight: float
    weak: bool


def dense_weight(
    vectors: PaperVectors,
    rows: Sequence[int],
    held_out: Sequence[Query],
    term_scores: np.ndarray,
    dense_scores: np.ndarray,
    default: float,
) -> DenseWeight:
    """The LSA part's weight for one reader: how well each part of the profile finds a liked
    paper left out of it, in standard deviations of that part's scores over the library.

    `held_out[i]` is the (unit) profile without the liked paper at `rows[i]`; `term_scores` and
    `dense_scores` are every paper's scores by the whole profile. With mean separations z_t
    (terms) and z_d (LSA), the score t + w d weighs the two standardised parts in proportion
    to z_t and z_d: w = (z_d / z_t) (sd_t / sd_d). `default` when the terms do not separate.
    Weak: z_d <= 0 < z_t < `weights.WEAK_SEPARATION` (ICLR 2017's broad keyword readers; the
    terms of a title phrase's readers separate by 3 to 4)."""
    mt, st = float(term_scores.mean()), float(term_scores.std()) or 1.0
    md, sd = float(dense_scores.mean()), float(dense_scores.std()) or 1.0
    k = len(held_out[0].dense) if held_out else 0
    zt = zd = 0.0
    for r, q in zip(rows, held_out, strict=True):
        ids = np.asarray(vectors.term_ids[r]).astype(np.int64)
        real = ids < len(q.terms)
        t = float(q.terms[ids[real]] @ np.asarray(vectors.term_weights[r], np.float32)[real])
        u = np.asarray(vectors.dense[r, :k], np.float32)
        d = float(u @ q.dense) / (float(np.linalg.norm(u)) or 1.0)
        zt += (t - mt) / st
        zd += (d - md) / sd
    zt /= len(rows) or 1
    zd /= len(rows) or 1
    if zt <= 0:
        return DenseWeight(default, False)
    return DenseWeight(max(zd, 0.0) / zt * st / sd, zd <= 0 < zt < weights.WEAK_SEPARATION)


def profile_terms(vectors: PaperVectors, terms: np.ndarray) -> np.ndarray:
    """A profile's terms as it scores with them: word pairs weighing
    `weights.PROFILE_PAIR_WEIGHT` of a single word, then only the `weights.PROFILE_TERMS`
    heaviest kept."""
    vocab = vectors.vocab
    pairs = np.asarray(vocab.keys) >= vocab.width  # a pair's key is (a + 1) * width + b
    damped = np.where(pairs, terms * weights.PROFILE_PAIR_WEIGHT, terms).astype(terms.dtype)
    return heaviest(damped, weights.PROFILE_TERMS)


def heaviest(terms: np.ndarray, n: int) -> np.ndarray:
    """`terms` with only its `n` largest positive weights kept (negative weights all kept)."""
    if n <= 0 or np.count_nonzero(terms > 0) <= n:
        return terms
    cut = np.partition(terms, len(terms) - n)[len(terms) - n]
    return np.where((terms >= cut) | (terms < 0), terms, 0.0).astype(terms.dtype)
