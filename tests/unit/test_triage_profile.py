"""The "for you" profile weights a liked paper's terms by the share of liked papers holding them."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic_papers import SyntheticPapers

from papertui.core.semantic import triage
from papertui.core.semantic.similar import DENSE_WEIGHT, papers_query
from papertui.core.semantic.triage import training, weights
from papertui.core.semantic.triage.profile import holders, liked_query, profile_terms
from papertui.core.semantic.vectors import PaperVectors

CORE = ["graph", "node", "edge", "message", "neighbour", "vertex"]
OWN = [
    ["chess", "opening", "endgame", "board"],
    ["music", "melody", "chord", "rhythm"],
    ["protein", "folding", "residue", "amino"],
    ["traffic", "road", "vehicle", "junction"],
    ["weather", "rainfall", "climate", "storm"],
]
OTHER = ["speech", "audio", "image", "pixel", "policy", "reward", "token", "parsing"]
FILLER = ["we", "study", "training", "models", "data", "learning", "performance", "benchmark"]
LIKED = [f"liked{i}" for i in range(len(OWN))]


@functools.cache  # each hypothesis example reads the same papers; none changes them
def shared_field(seed: int) -> PaperVectors:
    """Five liked papers that each say a little about one shared field (graphs) and mostly
    about a subject of their own (chess, music, ...); ten more papers on the shared field, six
    on each liked paper's own subject, and thirty on other things."""
    rng = random.Random(seed)
    papers = SyntheticPapers(rng, FILLER, filler_words=6)
    paper = papers.paper

    for pid, own in zip(LIKED, OWN, strict=True):
        paper(pid, rng.sample(CORE, 3) + rng.choices(own, k=10))
    for i in range(10):
        paper(f"field{i}", rng.sample(CORE, 3) + rng.choices(FILLER, k=6))
    for j, own in enumerate(OWN):
        for i in range(6):
            paper(f"own{j}-{i}", rng.choices(own, k=8))
    for i in range(30):
        paper(f"other{i}", rng.choices(OTHER, k=8))
    return papers.vectors()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_what_the_liked_papers_share_comes_before_what_one_of_them_says(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    vecs = shared_field(seed)
    top = [r.id for r in triage.train(vecs, LIKED).rank(10, why=False)]
    assert sum(p.startswith("field") for p in top) >= 7
    # the plain centroid of the liked papers fills the list with their separate subjects
    monkeypatch.setattr(
        training, "liked_query", lambda v, rows: papers_query(v, rows) * (1.0 / len(rows))
    )
    plain = [r.id for r in triage.train(vecs, LIKED).rank(10, why=False)]
    assert sum(p.startswith("field") for p in plain) <= 5


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 59), min_size=1, max_size=6, unique=True))
def test_shared_terms_keep_the_centroid_weight_and_one_off_terms_lose_it(rows: list[int]) -> None:
    vecs = shared_field(0)
    q = liked_query(vecs, rows)
    centroid = papers_query(vecs, rows) * (1.0 / len(rows))
    held = holders(vecs, rows)
    assert np.array_equal(q.dense, centroid.dense)
    everyone = held == len(rows)
    assert np.allclose(q.terms[everyone], centroid.terms[everyone])
    assert np.allclose(q.terms, centroid.terms * held / len(rows))
    assert np.all(held[centroid.terms > 0] >= 1)  # a weighted term is held by some liked paper
    if len(rows) == 1:  # one liked paper: the profile is that paper
        assert np.allclose(q.terms, centroid.terms)


def test_the_lsa_part_counts_as_much_as_it_finds_a_liked_paper_left_out() -> None:
    from test_triage_feedback import LIKED as FIELD_LIKED
    from test_triage_feedback import SKIPPED, field_corpus

    # liked papers of one field, in the same words: the LSA part finds each from the others
    coherent = triage.train(field_corpus()[0], FIELD_LIKED, SKIPPED)
    coherent.scores()
    assert coherent.dense_weight is not None and coherent.dense_weight > DENSE_WEIGHT
    # liked papers that agree in a few words and are otherwise about five subjects: it does not
    scattered = triage.train(shared_field(0), LIKED)
    scattered.scores()
    assert scattered.dense_weight is not None and scattered.dense_weight < 0.1
    # too few liked papers to leave one out: the fixed weight
    two = triage.train(shared_field(0), LIKED[:2])
    two.scores()
    assert two.dense_weight == DENSE_WEIGHT


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 59), min_size=1, max_size=6, unique=True))
def test_a_profile_weighs_word_pairs_less_than_single_words(rows: list[int]) -> None:
    # the pairs liked papers share are mostly set phrases ("neural network") that their two
    # words already say; in the profile a pair counts PROFILE_PAIR_WEIGHT of a paper's weight
    vecs = shared_field(0)
    terms = liked_query(vecs, rows).terms
    kept = profile_terms(vecs, terms)
    pairs = np.asarray(vecs.vocab.keys) >= vecs.vocab.width
    assert pairs.any() and (~pairs).any()
    positive = kept[kept > 0]
    if len(positive):  # the cut keeps ties at its weight, so count those above it
        assert np.count_nonzero(positive > positive.min()) < weights.PROFILE_TERMS
    on = kept != 0
    expected = np.where(pairs, weights.PROFILE_PAIR_WEIGHT, 1.0) * terms
    assert np.allclose(kept[on], expected[on], rtol=1e-5)
    # every word or pair left out weighs no more than the lightest one kept
    if on.any() and (~on & (expected > 0)).any():
        assert expected[~on & (expected > 0)].max() <= kept[kept > 0].min() + 1e-6


def test_a_reader_neither_part_can_find_keeps_some_of_the_lsa_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_triage_feedback import LIKED as FIELD_LIKED
    from test_triage_feedback import SKIPPED, field_corpus

    # five liked papers on five subjects that share a few words: leaving one out, the LSA part
    # does not find it and the terms barely do, so five answers cannot say which part serves
    scattered = triage.train(shared_field(0), LIKED)
    weak_now = scattered.scores().copy()
    assert scattered.weak and scattered.dense_weight == 0.0
    coherent = triage.train(field_corpus()[0], FIELD_LIKED, SKIPPED)
    coherent_now = coherent.scores().copy()
    assert not coherent.weak
    # the weak reader's order still uses the LSA part (at the floor), the other's is untouched
    monkeypatch.setattr(weights, "WEAK_DENSE_WEIGHT", 0.0)
    assert not np.allclose(triage.train(shared_field(0), LIKED).scores(), weak_now)
    again = triage.train(field_corpus()[0], FIELD_LIKED, SKIPPED).scores()
    assert np.allclose(again, coherent_now)


def test_the_feedback_papers_give_more_of_the_lsa_direction_only_where_it_was_not_confirmed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_triage_feedback import LIKED as FIELD_LIKED
    from test_triage_feedback import SKIPPED, field_corpus

    light = triage.train(shared_field(0), LIKED)
    light_now = light.scores().copy()
    confirmed = triage.train(field_corpus()[0], FIELD_LIKED, SKIPPED)
    confirmed_now = confirmed.scores().copy()
    assert light.dense_weight is not None and light.dense_weight < DENSE_WEIGHT
    assert confirmed.dense_weight is not None and confirmed.dense_weight >= DENSE_WEIGHT
    monkeypatch.setattr(weights, "FEEDBACK_DENSE_WEIGHT", weights.FEEDBACK_WEIGHT)
    assert not np.allclose(triage.train(shared_field(0), LIKED).scores(), light_now)
    again = triage.train(field_corpus()[0], FIELD_LIKED, SKIPPED).scores()
    assert np.allclose(again, confirmed_now)
