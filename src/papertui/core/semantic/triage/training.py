"""Training the interest model: the reader's profile from what they kept and passed over."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from papertui.core.semantic.similar import Query, papers_query, query_vector
from papertui.core.semantic.triage import weights
from papertui.core.semantic.triage.model import InterestModel
from papertui.core.semantic.triage.phrases import TextOf
from papertui.core.semantic.triage.profile import liked_query, profile_terms
from papertui.core.semantic.vectors import PaperVectors


def train(
    vectors: PaperVectors,
    positives: Sequence[str],
    negatives: Sequence[str] = (),
    seed_texts: Sequence[str] = (),
    negative_phrases: Sequence[str] = (),
    text_of: TextOf | None = None,
) -> InterestModel:
    """Learn a reader's interest.

    positives: ids of papers kept (bookmarked, noted, tagged, liked); negatives: ids read and
    not kept, or skipped (an id in both counts as positive). seed_texts: free text describing
    an interest (e.g. an abstract not in the library). negative_phrases: phrases whose papers
    are pushed down; matched in `text_of(id)` (a callable or mapping) when given, else in the
    papers' stored terms (approximate: only a paper's heaviest terms are stored).
    """
    pos = [r for r in (vectors.position(p) for p in dict.fromkeys(positives)) if r is not None]
    posset = set(pos)
    neg = [
        r
        for r in (vectors.position(p) for p in dict.fromkeys(negatives))
        if r is not None and r not in posset
    ]
    k = vectors.dims
    anchors = []
    if pos:
        block = np.asarray(vectors.dense[np.asarray(pos), :k], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        anchors.append(block / norms)
    seed_part = None
    seeds = [q for q in (query_vector(vectors, t) for t in seed_texts) if q]
    if seeds:
        seed_part = Query(np.zeros_like(seeds[0].terms), np.zeros(k, np.float32))
        for q in seeds:
            seed_part = seed_part + q
        seed_part = seed_part * (1.0 / len(seeds))
        anchors.append(np.stack([q.dense[:k] for q in seeds]))
    anchor_arr = np.concatenate(anchors) if anchors else np.zeros((0, k), np.float32)
    model = InterestModel(
        vectors,
        pos,
        neg,
        _profile(vectors, pos, neg, seed_part, len(seeds)),
        anchor_arr,
        [p.strip() for p in negative_phrases if p.strip()],
        text_of,
    )
    if pos or seeds:
        liked = vectors.term_vector(pos) if pos else np.zeros(len(vectors.vocab.keys), np.float32)
        for q in seeds:
            liked = liked + q.terms
        model.contrast = (liked, len(pos) + len(seeds))
    if len(pos) >= weights.LEAVE_ONE_OUT_MIN and k:
        step = max(1, len(pos) // weights.LEAVE_ONE_OUT_MAX)
        left_out = list(range(0, len(pos), step))[: weights.LEAVE_ONE_OUT_MAX]
        model.held_rows = [pos[i] for i in left_out]
        model.held_out = lambda: [
            _profile(vectors, pos[:i] + pos[i + 1 :], neg, seed_part, len(seeds)) for i in left_out
        ]
    return model


def _profile(
    vectors: PaperVectors,
    pos: list[int],
    neg: list[int],
    seed_part: Query | None,
    seeds: int = 0,
) -> Query:
    """The unit profile of liked papers `pos`, the mean of `seeds` seed texts (`seed_part`) and
    passed-over papers `neg`. A seed text counts as much as one liked paper."""
    if pos:
        profile = liked_query(vectors, pos)
        if seed_part:
            profile = profile + _as_liked(seed_part, profile, seeds / len(pos))
    elif seed_part:
        profile = seed_part
    else:
        return Query(
            np.zeros(len(vectors.vocab.keys), np.float32), np.zeros(vectors.dims, np.float32)
        )
    if neg:
        profile = profile + papers_query(vectors, neg) * (-weights.NEGATIVE_WEIGHT / len(neg))
    profile = profile.normalised()
    return Query(profile_terms(vectors, profile.terms), profile.dense).normalised()


def _as_liked(seed_part: Query, liked: Query, ratio: float) -> Query:
    """The seed texts' mean, scaled (in each space) to the liked papers' centroid times `ratio`
    (seeds per liked paper): one seed then weighs as one liked paper, not as all of them (a
    seed is a unit vector, a centroid of several papers a shorter one)."""
    unit = seed_part.normalised()
    terms = unit.terms * float(np.linalg.norm(liked.terms)) * ratio
    dense = unit.dense * float(np.linalg.norm(liked.dense)) * ratio
    return Query(terms, dense)
