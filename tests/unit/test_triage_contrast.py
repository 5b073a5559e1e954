"""The "for you" contrast score: what sets the liked papers apart from the rest of the library."""

from __future__ import annotations

import functools
import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from synthetic_papers import RL_WORDS, SyntheticPapers

from papertui.core.semantic import triage
from papertui.core.semantic.triage import weights
from papertui.core.semantic.triage.contrast import contrast_query, library_spread, standardised
from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vectors import PaperVectors

FIELD = RL_WORDS
NICHE = ["offline", "logged", "conservative", "batch"]
ELSEWHERE = {
    "speech": ["speech", "recognition", "acoustic", "audio", "waveform", "speaker"],
    "vision": ["image", "segmentation", "pixel", "convolutional", "detection", "camera"],
    "text": ["language", "translation", "sentence", "token", "parsing", "dialogue"],
}
FILLER = ["we", "study", "training", "models", "data", "learning", "performance", "benchmark"]


@functools.cache
def niche_corpus(seed: int) -> PaperVectors:
    """A field of 50 papers of which 10 are on a niche (two niche words among ten of the
    field's), beside three other fields; ids say which group a paper is in."""
    rng = random.Random(seed)
    papers = SyntheticPapers(rng, FILLER)
    paper = papers.paper

    for i in range(10):
        paper(f"niche{i}", rng.sample(NICHE, 2) + rng.choices(FIELD, k=10))
    for i in range(40):
        paper(f"field{i}", rng.choices(FIELD, k=12))
    for name, words in ELSEWHERE.items():
        for i in range(20):
            paper(f"{name}{i}", rng.choices(words, k=12))
    return papers.vectors()


def _mean_niche_rank(vecs: PaperVectors) -> float:
    liked = [f"niche{i}" for i in range(5)]
    order = [r.id for r in triage.train(vecs, liked, ["speech0", "vision1"]).rank(200)]
    return float(np.mean([i for i, p in enumerate(order) if p.startswith("niche")]))


def test_liking_papers_on_a_niche_brings_the_niche_before_the_rest_of_its_field(
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    corpora = [niche_corpus(seed) for seed in range(5)]
    with_contrast = [_mean_niche_rank(v) for v in corpora]
    monkeypatch.setattr(weights, "CONTRAST_WEIGHT", 0.0)
    without = [_mean_niche_rank(v) for v in corpora]
    # the five other niche papers come sooner in every library, by a place or more on average
    assert all(a <= b for a, b in zip(with_contrast, without, strict=True))
    assert np.mean(with_contrast) <= np.mean(without) - 1.0
    assert np.mean(with_contrast) < 8.0  # ahead of most of the field's 40 other papers


def test_library_spread_is_each_terms_mean_and_deviation_over_the_papers() -> None:
    vecs = niche_corpus(0)
    mean, sd = library_spread(vecs)
    dense = np.zeros((len(vecs), len(vecs.vocab.keys)))
    for r in range(len(vecs)):
        ids = np.asarray(vecs.term_ids[r]).astype(np.int64)
        real = ids < len(vecs.vocab.keys)
        dense[r, ids[real]] = np.asarray(vecs.term_weights[r], np.float64)[real]
    assert np.allclose(mean, dense.mean(axis=0), atol=1e-5)
    assert np.allclose(sd, dense.std(axis=0), atol=1e-4)


@given(
    st.lists(st.floats(0, 1, width=32), min_size=6, max_size=6),
    st.lists(st.floats(0, 1, width=32), min_size=6, max_size=6),
    st.integers(1, 6),
)
def test_a_term_counts_only_when_the_liked_papers_use_it_more_than_the_library(
    liked_mean: list[float], library_mean: list[float], count: int
) -> None:
    vecs = niche_corpus(0)
    v = len(vecs.vocab.keys)
    mean = np.zeros(v, np.float32)
    mean[:6] = library_mean
    spread = (mean, np.full(v, 0.1, np.float32))
    liked = np.zeros(v, np.float32)
    liked[:6] = np.asarray(liked_mean, np.float32) * count
    q = contrast_query(vecs, liked, count, spread)
    assert q.shape == (v,)
    assert np.all(q >= 0)
    above = np.asarray(liked_mean) > np.asarray(library_mean) + 1e-6
    assert np.all(q[:6][~above] <= 1e-9)
    assert np.all(q[:6][above] > 0)
    assert not np.any(q[6:])


def test_standardised_leaves_the_judged_papers_out_of_the_mean_and_deviation() -> None:
    s = np.array([100.0, 1.0, 2.0, 3.0], np.float32)
    z = standardised(s, [0])
    assert np.allclose(z[1:], [-np.sqrt(1.5), 0.0, np.sqrt(1.5)], atol=1e-5)
    assert z[0] > 100  # the judged paper is scaled like the others, not hidden
    assert np.array_equal(standardised(np.ones(3, np.float32)), np.zeros(3, np.float32))


def test_library_spread_follows_papers_added_to_the_library() -> None:
    vecs = build(["a", "b"], [("", "graph neural network"), ("", "graph kernel method")])
    before = library_spread(vecs)
    assert library_spread(vecs) is before  # kept while the library is unchanged
    vecs.add([("c", "", "neural kernel network")])
    mean, _ = library_spread(vecs)
    assert len(vecs) == 3
    assert not np.allclose(mean, before[0])
    assert np.allclose(mean * 3, np.asarray(vecs.term_vector([0, 1, 2])), atol=1e-5)
