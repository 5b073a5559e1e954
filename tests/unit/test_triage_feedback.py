"""The "for you" model's feedback round and profile cut, on small corpora with obvious answers."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from synthetic_papers import RL_WORDS, SyntheticPapers

from papertui.core.semantic import triage
from papertui.core.semantic.triage import weights
from papertui.core.semantic.triage.profile import heaviest
from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vectors import PaperVectors

NEAR = [
    "kernel",
    "gaussian",
    "process",
    "covariance",
    "bayesian",
    "inference",
    "posterior",
    "prior",
]
FAR = [
    "hyperparameter",
    "marginal",
    "likelihood",
    "sparse",
    "inducing",
    "points",
    "variational",
    "bound",
]
OTHER = {
    "speech": [
        "speech",
        "recognition",
        "acoustic",
        "audio",
        "waveform",
        "speaker",
        "phoneme",
        "spectrogram",
    ],
    "rl": RL_WORDS,
    "vision": [
        "image",
        "segmentation",
        "pixel",
        "convolutional",
        "detection",
        "object",
        "camera",
        "video",
    ],
    "text": [
        "language",
        "translation",
        "sentence",
        "token",
        "parsing",
        "grammar",
        "dialogue",
        "corpus",
    ],
}
FILLER = [
    "we",
    "study",
    "training",
    "models",
    "data",
    "learning",
    "performance",
    "large",
    "benchmark",
]


def field_corpus(seed: int = 0) -> tuple[PaperVectors, dict[str, str]]:
    """One field written in two vocabularies: papers in `NEAR` words only (what the reader
    liked), in both (the bridge), and in `FAR` words only, beside four unrelated fields and
    decoys that borrow one `NEAR` word. Ids say which group a paper is in."""
    rng = random.Random(seed)
    papers = SyntheticPapers(rng, FILLER)
    paper = papers.paper

    for i in range(12):
        paper(f"near{i}", rng.choices(NEAR, k=12))
        paper(f"bridge{i}", rng.choices(NEAR, k=6) + rng.choices(FAR, k=6))
        paper(f"far{i}", rng.choices(FAR, k=12))
    for name, words in OTHER.items():
        for i in range(20):
            extra = [rng.choice(NEAR)] if i % 2 == 0 else []
            paper(f"{name}{i}", rng.choices(words, k=12) + extra)
    vecs = papers.vectors()
    return vecs, {p: p.rstrip("0123456789") for p in papers.ids}


@pytest.fixture(scope="module")
def field() -> tuple[PaperVectors, dict[str, str]]:
    return field_corpus()


LIKED = ["near0", "near1", "near2", "near3", "near4"]
SKIPPED = ["speech0", "rl1", "vision2", "text3"]


def _order(vecs: PaperVectors) -> list[str]:
    return [r.id for r in triage.train(vecs, LIKED, SKIPPED).rank(len(vecs), why=False)]


def test_feedback_brings_the_field_written_in_other_words_sooner(field, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    vecs, group = field
    order = _order(vecs)
    # the liked papers' own words bring the other "near" papers and the bridge first ...
    assert {group[p] for p in order[:19]} == {"near", "bridge"}
    # ... and the feedback round, through the bridge, brings the field's "far" papers into the
    # next 24 places, ahead of most of the other fields' papers (half of which share a liked
    # word: the contrast score, which counts the liked papers' words, puts a few of those first)
    assert sum(group[p] == "far" for p in order[19:43]) >= 11
    monkeypatch.setattr(weights, "FEEDBACK_PAPERS", 0)
    without = _order(vecs)
    assert {group[p] for p in without[:19]} == {"near", "bridge"}

    def mean_far_rank(o: list[str]) -> float:
        return float(np.mean([i for i, p in enumerate(o) if group[p] == "far"]))

    assert mean_far_rank(order) < mean_far_rank(without) - 2.0


def test_feedback_never_uses_judged_or_penalised_papers(field) -> None:  # type: ignore[no-untyped-def]
    vecs, group = field
    text = {p: " ".join(["hyperparameter"] * 3) if group[p] == "bridge" else "" for p in vecs.ids}
    model = triage.train(vecs, LIKED, SKIPPED, negative_phrases=["hyperparameter"], text_of=text)
    s = model.scores()
    fed = model._feedback_rows(s)
    judged = {vecs.position(p) for p in LIKED + SKIPPED}
    assert len(fed) == weights.FEEDBACK_PAPERS
    assert not judged & {int(r) for r in fed}
    assert all(group[vecs.ids[int(r)]] != "bridge" for r in fed)
    ranked = model.rank(1000)
    assert {group[r.id] for r in ranked if r.penalised} == {"bridge"}  # sunk, not hidden
    assert len(ranked) == len(vecs) - len(judged)


def test_small_library_gets_little_or_no_feedback() -> None:
    words = ["graph node", "graph edge", "node edge", "speech audio", "audio speaker"]
    texts = [("", f"{words[i % 5]} {words[(i + 1) % 5]}") for i in range(12)]
    vecs = build([f"p{i}" for i in range(12)], texts)
    model = triage.train(vecs, ["p0"], ["p3"])
    assert len(model._feedback_rows(model.scores())) == 1  # a tenth of the 10 unjudged
    tiny = build(["a", "b", "c"], [("", "graph node"), ("", "graph edge"), ("", "node edge")])
    model = triage.train(tiny, ["a"])
    assert len(model._feedback_rows(model.scores())) == 0
    assert {r.id for r in model.rank(5)} == {"b", "c"}


def test_why_names_the_liked_words(field) -> None:  # type: ignore[no-untyped-def]
    vecs, group = field
    first = triage.train(vecs, LIKED, SKIPPED).rank(1)[0]
    assert group[first.id] in {"near", "bridge"}
    assert first.closest in LIKED
    assert first.terms and set(first.terms[0].split()) <= set(NEAR)


def test_why_never_shows_a_word_twice() -> None:
    rng = random.Random(3)
    texts = [
        " ".join(
            rng.choice(["diffusion model", "image", "denoise", "score", "sample"])
            for _ in range(30)
        )
        for _ in range(12)
    ] + [" ".join(rng.sample(OTHER["speech"], 5) * 5) for _ in range(30)]
    vecs = build([str(i) for i in range(len(texts))], [("", t) for t in texts])
    for item in triage.train(vecs, ["0", "1", "2"]).rank(6):
        words = [w for term in item.terms for w in term.split()]
        assert item.terms and len(words) == len(set(words)), item.terms


@given(
    arrays(np.float32, st.integers(0, 60), elements=st.floats(-4, 4, width=32)),
    st.integers(0, 70),
)
def test_heaviest_keeps_the_n_largest_positive_weights_and_every_negative(
    terms: np.ndarray, n: int
) -> None:
    cut = heaviest(terms, n)
    assert cut.shape == terms.shape
    kept = cut != 0
    assert np.array_equal(cut[kept], terms[kept])  # weights kept are unchanged
    assert np.array_equal(cut < 0, terms < 0)  # every negative weight stays
    positive = np.sort(terms[terms > 0])[::-1]
    if n <= 0 or len(positive) <= n:
        assert np.array_equal(cut, terms)
    else:
        dropped = terms[(terms > 0) & ~kept]
        assert np.count_nonzero(cut > 0) >= n  # ties at the cut are all kept
        assert dropped.size == 0 or dropped.max() <= positive[n - 1]
        assert cut[cut > 0].min() >= positive[n - 1]
