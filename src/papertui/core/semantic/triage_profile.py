"""The liked side of the "for you" profile: what the liked papers share.

`liked_query` is the centroid of the liked papers' term vectors, each term's weight times the
share of the liked papers that hold it. A term all five bookmarks use keeps its weight; a word
only one of them uses counts a fifth, so the profile is about what the papers have in common and
not about each paper's own subject (one liked paper about chess does not bring chess). With one
liked paper every share is 1 and the profile is that paper. The LSA part is the plain centroid.
The passed-over papers' centroid is then subtracted as before (`triage.NEGATIVE_WEIGHT`); the
share shrinks the liked part, so the skips weigh a little more than before against it.

Measured (tests/bench/triage_eval.py; paired against the plain centroid on the same readers,
mean ± standard error of precision@20): title-phrase readers ICLR 2021 (270) +0.014 ± 0.002 and
NeurIPS 2021 (300) +0.022 ± 0.003, ICLR 2017 author-keyword readers over 30 seeds (390) +0.004 ±
0.002; the scoring script's 12 readers 0.367 -> 0.375. The square root of the share gave about
half of that; its square or cube helped the phrases a little more and cost the keyword readers.
Two changes raised the simulations further and were left out because they weaken what skipping
does for a real reader (the simulated skips are random papers, so ignoring them never costs
there): subtracting the skips only on liked terms (+0.022, +0.032, +0.008 with the share), and
rescaling the shared part back to the plain centroid's norm (+0.019, +0.028, +0.005); with
either, skipping a speech paper no longer pushes other speech papers down in
tests/unit/test_triage_feedback.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from papertui.core.semantic.similar import Query, papers_query
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
