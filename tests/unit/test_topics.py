"""Topics: separated themes come out as topics with readable labels, deterministically."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papertui.core.semantic import topics as tp
from papertui.core.semantic.phrases import GENERIC_WORDS, STOP_WORDS

THEMES = {
    "astro": [
        "galaxies",
        "dark matter",
        "telescope images",
        "redshift surveys",
        "stellar spectra",
        "cosmic rays",
    ],
    "protein": [
        "protein folding",
        "amino acid sequences",
        "molecular dynamics",
        "binding sites",
        "enzyme kinetics",
        "protein structures",
    ],
    "speech": [
        "speech recognition",
        "acoustic features",
        "phoneme boundaries",
        "spoken utterances",
        "speaker verification",
        "noisy audio",
    ],
    "traffic": [
        "traffic flow",
        "road networks",
        "travel times",
        "congestion pricing",
        "urban mobility",
        "vehicle trajectories",
    ],
}
FILLER = [
    "We propose a novel method for {a} that uses {b}.",
    "Our results show that {a} improves over previous work on {b} in 2021.",
    "In this paper we study {a} and {b} with 3 new datasets.",
    "Experiments on {b} demonstrate the effectiveness of our approach to {a}.",
    "The proposed framework models {a} and achieves state-of-the-art results on {b}.",
    "We analyse {b} and report 95.2% accuracy.",
]


def theme_corpus(per_theme: int = 30, seed: int = 1) -> tuple[list[str], list[str], list[str]]:
    """(texts, ids, theme of each) of abstracts that each talk about one theme."""
    rng = random.Random(seed)
    texts: list[str] = []
    themes: list[str] = []
    for theme, phrases in THEMES.items():
        for _ in range(per_theme):
            sentences = []
            for template in rng.sample(FILLER, 4):
                a, b = rng.sample(phrases, 2)
                sentences.append(template.format(a=a, b=b))
            texts.append(" ".join(sentences))
            themes.append(theme)
    ids = [f"p{i:04d}" for i in range(len(texts))]
    return texts, ids, themes


def label_words(label: str) -> list[str]:
    return [w for phrase in label.split(tp.SEPARATOR) for w in phrase.split()]


def test_topic_count_rule() -> None:
    assert tp.topic_count(0) == 0
    assert tp.topic_count(1) == 1
    assert tp.topic_count(5) == 1
    assert tp.topic_count(30) == 8
    assert tp.topic_count(490) == 12
    assert tp.topic_count(1000) == 15
    assert tp.topic_count(23_480) == 40
    assert tp.topic_count(100_000) == 40


@given(st.integers(0, 300_000), st.integers(0, 300_000))
def test_topic_count_grows_with_the_corpus_within_bounds(a: int, b: int) -> None:
    small, big = sorted((a, b))
    assert tp.topic_count(small) <= tp.topic_count(big)
    if big >= 24:
        assert tp.MIN_TOPICS <= tp.topic_count(big) <= tp.MAX_TOPICS


def test_separated_themes_become_topics_named_after_them() -> None:
    texts, ids, themes = theme_corpus()
    model = tp.compute_topics(texts, ids, n_topics=4)
    assert len(model.topics) == 4
    theme_of = dict(zip(ids, themes, strict=True))
    vocab = {t: {w for p in ps for w in p.split()} for t, ps in THEMES.items()}
    found = set()
    for topic in model.topics:
        members = {theme_of[i] for i in topic.ids}
        assert len(members) == 1, topic
        theme = members.pop()
        found.add(theme)
        assert topic.size == 30
        assert 2 <= len(topic.phrases) <= 4
        # every label word comes from the theme's own phrases
        assert set(label_words(topic.label)) <= vocab[theme], topic.label
    assert found == set(THEMES)


def test_default_topic_count_splits_themes_without_mixing_them() -> None:
    texts, ids, themes = theme_corpus(per_theme=40)
    model = tp.compute_topics(texts, ids)
    assert len(model.topics) == tp.topic_count(160)
    theme_of = dict(zip(ids, themes, strict=True))
    mixed = [t for t in model.topics if len({theme_of[i] for i in t.ids}) > 1]
    assert len(mixed) <= 1
    assert sum(t.size for t in model.topics) == 160


def test_labels_show_the_corpus_spelling_not_stems() -> None:
    texts, ids, _ = theme_corpus()
    model = tp.compute_topics(texts, ids, n_topics=4)
    words = {w for t in model.topics for w in label_words(t.label)}
    # plurals as written ("galaxies", "sequences"), never folded forms like "galaxy"
    assert not words & {"galaxy", "spectrum", "ray", "structure", "utterance", "trajectory"}
    assert words & {"galaxies", "dark", "telescope", "redshift", "stellar", "cosmic"}


def test_labels_have_no_stop_words_numbers_or_generic_words() -> None:
    texts, ids, _ = theme_corpus(per_theme=25, seed=5)
    model = tp.compute_topics(texts, ids, n_topics=4)
    for topic in model.topics:
        for phrase in topic.phrases:
            words = [w.lower() for w in phrase.split()]
            assert not any(re.fullmatch(r"[\d.,%]+", w) for w in words), phrase
            assert not any(w in STOP_WORDS for w in words), phrase
            assert not all(w in GENERIC_WORDS for w in words), phrase
            assert not {"paper", "propose", "results", "method", "state-of-the-art"} & set(words)


def test_same_corpus_same_topics_in_any_order() -> None:
    texts, ids, _ = theme_corpus(per_theme=20)
    first = tp.compute_topics(texts, ids)
    again = tp.compute_topics(texts, ids)
    assert [t.label for t in first.topics] == [t.label for t in again.topics]
    assert np.array_equal(first.assignments, again.assignments)
    order = list(range(len(texts)))
    random.Random(3).shuffle(order)
    shuffled = tp.compute_topics([texts[i] for i in order], [ids[i] for i in order])
    assert {(t.label, frozenset(t.ids)) for t in shuffled.topics} == {
        (t.label, frozenset(t.ids)) for t in first.topics
    }
    assert shuffled.topic_of(ids[0]) == first.topic_of(ids[0]) or (
        shuffled.topics[shuffled.topic_of(ids[0])].label
        == first.topics[first.topic_of(ids[0])].label
    )


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_tiny_corpora(n: int) -> None:
    texts, ids, _ = theme_corpus(per_theme=2)
    model = tp.compute_topics(texts[:n], ids[:n])
    assert len(model.assignments) == n
    assert sum(t.size for t in model.topics) + int((model.assignments < 0).sum()) == n
    assert len(model.topics) <= max(1, n)


def test_papers_without_words_have_no_topic() -> None:
    texts, ids, _ = theme_corpus(per_theme=10)
    texts = [*texts, "", "1 2 3 4.5", "We propose the method of the paper."]
    ids = [*ids, "e1", "e2", "e3"]
    model = tp.compute_topics(texts, ids, n_topics=4)
    assert [model.topic_of(i) for i in ("e1", "e2", "e3")] == [-1, -1, -1]
    assert model.topic_of("not-a-paper") == -1
    assert sum(t.size for t in model.topics) == 40


def test_progress_reports_rise_to_the_total() -> None:
    texts, ids, _ = theme_corpus(per_theme=10)
    calls: list[tuple[int, int]] = []
    tp.compute_topics(texts, ids, progress=lambda d, t: calls.append((d, t)))
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert calls[-1][0] == calls[-1][1]


def test_raising_from_progress_cancels() -> None:
    texts, ids, _ = theme_corpus(per_theme=10)

    def stop(done: int, total: int) -> None:
        if done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tp.compute_topics(texts, ids, progress=stop)


def test_save_load_round_trip(tmp_path: Path) -> None:
    texts, ids, _ = theme_corpus(per_theme=15)
    model = tp.compute_topics(texts, ids, n_topics=4)
    model.save(tmp_path / "topics")
    loaded = tp.TopicModel.load(tmp_path / "topics", ids[::-1])  # the key ignores order
    assert loaded is not None
    assert [(t.label, t.ids) for t in loaded.topics] == [(t.label, t.ids) for t in model.topics]
    assert np.array_equal(loaded.assignments, model.assignments)
    assert loaded.assign(texts[:5]).tolist() == model.assign(texts[:5]).tolist()
    # saving again replaces the old copy
    model.save(tmp_path / "topics")
    assert tp.TopicModel.load(tmp_path / "topics") is not None


def test_load_refuses_other_papers_and_damage(tmp_path: Path) -> None:
    texts, ids, _ = theme_corpus(per_theme=10)
    model = tp.compute_topics(texts, ids, n_topics=4)
    model.save(tmp_path / "t")
    assert tp.TopicModel.load(tmp_path / "t", ids[:-1]) is None
    assert tp.TopicModel.load(tmp_path / "missing") is None
    (tmp_path / "t" / "assignments.npy").write_bytes(b"garbage")
    assert tp.TopicModel.load(tmp_path / "t") is None
    (tmp_path / "t" / "topics.json").write_text("{", encoding="utf-8")
    assert tp.TopicModel.load(tmp_path / "t") is None


def test_assign_places_new_papers_in_their_theme() -> None:
    texts, ids, themes = theme_corpus(per_theme=20)
    model = tp.compute_topics(texts, ids, n_topics=4)
    new = [
        "We measure dark matter in galaxies from telescope images and redshift surveys.",
        "A study of speech recognition with acoustic features of spoken utterances.",
        "",
    ]
    got = model.assign(new)
    astro = model.topic_of(ids[themes.index("astro")])
    speech = model.topic_of(ids[themes.index("speech")])
    assert got.tolist() == [astro, speech, -1]


def test_extend_adds_new_papers_to_their_topics(tmp_path: Path) -> None:
    texts, ids, themes = theme_corpus(per_theme=20)
    old = [i for i in range(80) if i % 20 < 15]  # 15 papers of each theme now, 5 later
    model = tp.compute_topics([texts[i] for i in old], [ids[i] for i in old], n_topics=4)
    bigger = model.extend(ids, texts)
    assert len(bigger.assignments) == 80 and bigger.key == tp.corpus_key(ids)
    assert [bigger.topic_of(ids[i]) for i in old] == [model.topic_of(ids[i]) for i in old]
    for topic in bigger.topics:  # each new paper joined the topic of its theme
        assert len({themes[ids.index(i)] for i in topic.ids}) == 1
        assert topic.size == 20
    assert model.extend([ids[i] for i in old], [texts[i] for i in old]) is model
    bigger.save(tmp_path / "t")
    assert tp.TopicModel.load(tmp_path / "t", ids) is not None


def test_given_vectors_decide_the_grouping() -> None:
    texts, ids, themes = theme_corpus(per_theme=10)
    # vectors that group papers by parity of their index, against the words
    vectors = np.array([[1.0, 0.0] if i % 2 else [0.0, 1.0] for i in range(len(texts))])
    model = tp.compute_topics(texts, ids, vectors=vectors, n_topics=2)
    groups = {frozenset(int(i[1:]) % 2 for i in t.ids) for t in model.topics}
    assert groups == {frozenset({0}), frozenset({1})}
    assert model.assign(vectors=vectors[:2]).tolist() == model.assignments[:2].tolist()
    with pytest.raises(ValueError):
        model.assign(["text only"])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(max_size=200), max_size=12))
def test_any_text_is_handled(texts: list[str]) -> None:
    model = tp.compute_topics(texts)
    assert len(model.assignments) == len(texts)
    for topic in model.topics:
        assert topic.label == tp.SEPARATOR.join(topic.phrases)


def test_a_label_does_not_say_the_same_thing_twice() -> None:
    from papertui.core.semantic.phrases import overlaps

    assert overlaps(("attention",), {"transformer", "self-attention"})
    assert overlaps(("fair",), {"fairness"})
    assert overlaps(("network",), {"graph", "neural", "network"})
    assert not overlaps(("graph",), {"language", "model"})
    assert not overlaps(("dark", "matter"), {"telescope", "image"})


def test_a_paper_that_fits_no_topic_is_left_out_of_all() -> None:
    from papertui.core.semantic import topics as tp

    graph = [
        f"Graph neural networks pass messages between nodes of a graph {i}; node classification "
        f"and link prediction on citation graphs improve with deeper message passing {i}."
        for i in range(12)
    ]
    images = [
        f"Diffusion models edit real images after inversion {i}; text-guided image editing keeps "
        f"the layout of the image while the prompt changes its style {i}."
        for i in range(12)
    ]
    odd = "Molecular orbitals of transition metal complexes computed with coupled cluster theory."
    model = tp.compute_topics([*graph, *images, odd], n_topics=2, seed=0)
    assert model.assignments[-1] == -1  # the chemistry abstract joins neither topic
    assert (model.assignments[:-1] >= 0).all()
    assert model.assign([odd])[0] == -1  # nor would it, added later


def modifier_corpus(seed: int = 3) -> list[str]:
    """Two themes; in the first, "variational" is in every abstract but always before another
    word, none of which follows it in half of its uses."""
    rng = random.Random(seed)
    heads = ["inference"] * 4 + ["bounds"] * 3 + ["posteriors"] * 3
    models = ["topic models", "mixture models", "sparse regression", "hidden Markov models"]
    places = ["road networks", "travel times", "urban mobility", "vehicle trajectories"]
    bayes = [
        f"We study {rng.choice(models)} with variational {rng.choice(heads)}. It scales to "
        f"{rng.choice(models)} of any size."
        for _ in range(24)
    ]
    traffic = [
        f"We predict traffic flow from {rng.choice(places)}. It helps {rng.choice(places)} in "
        "large cities."
        for _ in range(24)
    ]
    return bayes + traffic


def test_a_word_that_only_modifies_is_named_by_the_phrase_it_starts(monkeypatch) -> None:
    from papertui.core.semantic.phrases import Tokens, head_rates
    from papertui.core.semantic.topics import labels

    # pairs weighed as they did before the rule, so that the rule alone decides
    monkeypatch.setattr(labels, "PAIR_BOOST", 1.5)

    texts = modifier_corpus()
    tokens = Tokens()
    for text in texts:
        tokens.add(text)
    tokens.flush()
    rates = head_rates(tokens)
    # "variational inference." ends a run on "inference", never on "variational"
    assert rates[tokens.terms["variational"]] == 0.0
    assert rates[tokens.terms["inference"]] > 0.5
    model = tp.compute_topics(texts, n_topics=2, seed=0)
    bayes = next(t for t in model.topics if "variational" in t.label)
    assert "variational" not in bayes.phrases  # never alone: it names no field
    assert any(p.startswith("variational ") for p in bayes.phrases), bayes.label


def test_a_label_does_not_hold_a_phrase_and_the_longer_one_it_grew_into() -> None:
    from papertui.core.semantic.topics.labels import _drop_contained

    clustering, incomplete, multiview, approx, algorithm = range(5)
    grown = [(clustering,), (incomplete, multiview, clustering), (approx, algorithm)]
    assert _drop_contained(grown) == [(incomplete, multiview, clustering), (approx, algorithm)]
    assert _drop_contained([(clustering,), (approx, algorithm)]) == [
        (clustering,),
        (approx, algorithm),
    ]
