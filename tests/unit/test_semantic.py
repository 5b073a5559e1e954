"""Paper vectors, related papers and the "for you" ranking on small corpora with obvious answers."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papertui.core.semantic import similar as sim
from papertui.core.semantic import triage
from papertui.core.semantic import vectors as vectors_module
from papertui.core.semantic.triage import weights
from papertui.core.semantic.triage.phrases import matching_rows, word_forms
from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vector_terms import LEAD_WORDS, lead_sentence
from papertui.core.semantic.vectors import FORMAT, MAX_DIMS, PaperVectors, stem

TOPICS = {
    "graph": "graph neural network message passing node embedding molecule edge",
    "speech": "speech recognition acoustic audio waveform speaker phoneme spectrogram",
    "rl": "reinforcement learning policy reward agent environment exploration bandit",
    "vision": "image segmentation pixel convolutional detection object camera",
}
FILLER = ["we", "study", "training", "models", "data", "learning", "performance", "large"]


def corpus(per_topic: int = 12, seed: int = 0) -> tuple[list[str], list[tuple[str, str]], dict]:
    """Abstracts that mix one topic's words with shared filler; ids say the topic."""
    rng = random.Random(seed)
    ids, texts, topic_of = [], [], {}
    for topic, words in TOPICS.items():
        vocab = words.split()
        for i in range(per_topic):
            body = rng.choices(vocab, k=14) + rng.choices(FILLER, k=10)
            rng.shuffle(body)
            pid = f"{topic}{i}"
            if topic == "vision" and i % 3 == 2:
                body += ["for", "medical", "imaging"]
            ids.append(pid)
            texts.append(("", " ".join(body) + "."))
            topic_of[pid] = topic
    return ids, texts, topic_of


@pytest.fixture(scope="module")
def built() -> tuple[PaperVectors, dict]:
    ids, texts, topic_of = corpus()
    return build(ids, texts), topic_of


def test_similar_returns_same_topic_and_never_the_query(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    for pid in ("graph0", "speech3", "rl5", "vision7"):
        got = sim.similar(vecs, [pid], 5)
        assert pid not in [g for g, _ in got]
        assert [topic_of[g] for g, _ in got] == [topic_of[pid]] * 5
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)


@pytest.mark.parametrize("stored", [False, True], ids=["in memory", "saved and mapped"])
def test_in_a_huge_library_related_papers_come_from_the_nearest_share(  # type: ignore[no-untyped-def]
    built, monkeypatch, tmp_path, stored
) -> None:
    vecs, topic_of = built
    monkeypatch.setattr(vectors_module, "dims_for", lambda n: MAX_DIMS)  # every stored one
    if stored:  # mapped vectors choose the nearest share by their int8 rows
        vecs.save(tmp_path)
        vecs = PaperVectors.load(tmp_path)
        assert vecs.rough_dense_scores(np.ones(vecs.dims) / np.sqrt(vecs.dims)) is not None
    exact = {pid: sim.similar(vecs, [pid], 5) for pid in ("graph0", "speech3", "rl5", "vision7")}
    monkeypatch.setattr(sim, "PREFILTER_FROM", 0)  # as if it held a million papers
    monkeypatch.setattr(sim, "CANDIDATE_SHARE", 4)  # a quarter: its own topic's papers
    for pid, expected in exact.items():
        got = sim.similar(vecs, [pid], 5)
        assert [g for g, _ in got] == [g for g, _ in expected]  # the same five, the same order
        assert [s for _, s in got] == pytest.approx([s for _, s in expected])
        nearest = sim.similar(vecs, [pid], 40)  # only the nearest share, the paper itself out
        assert len(nearest) == len(vecs) // 4 - 1
        assert {topic_of[g] for g, _ in nearest} == {topic_of[pid]}


def test_the_prefilter_rows_are_close_to_the_lsa_cosines_and_written_for_old_saves(  # type: ignore[no-untyped-def]
    built, tmp_path, monkeypatch
) -> None:
    vecs, _ = built
    monkeypatch.setattr(vectors_module, "dims_for", lambda n: MAX_DIMS)  # every stored one
    vecs.save(tmp_path)
    (tmp_path / "prefilter.npy").unlink()  # as saved before the prefilter rows existed
    loaded = PaperVectors.load(tmp_path)
    assert (tmp_path / "prefilter.npy").exists()
    for pid in ("graph0", "speech3"):
        q = sim.papers_query(loaded, [loaded.position(pid) or 0]).normalised().dense
        rough = loaded.rough_dense_scores(q[: loaded.dims])
        assert rough is not None
        exact = loaded.dense_scores(q[: loaded.dims])
        assert np.abs(rough - exact).max() < 0.02
        rows = np.array([0, 5, 17])
        exact_rows = loaded.dense_scores_of(q[: loaded.dims], rows)
        assert exact_rows == pytest.approx(exact[rows], abs=1e-6)


def test_vectors_whose_prefilter_cannot_be_written_still_find_related_papers(  # type: ignore[no-untyped-def]
    built, tmp_path, monkeypatch
) -> None:
    vecs, topic_of = built
    vecs.save(tmp_path)
    (tmp_path / "prefilter.npy").unlink()  # saved before such rows, and a full disk now

    def full(directory: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(vectors_module, "write_prefilter", full)
    monkeypatch.setattr(sim, "PREFILTER_FROM", 0)  # as if it held a million papers
    monkeypatch.setattr(sim, "CANDIDATE_SHARE", 4)
    loaded = PaperVectors.load(tmp_path)
    assert loaded.prefilter is None and not (tmp_path / "prefilter.npy").exists()
    got = sim.similar(loaded, ["graph0"], 5)
    assert [g for g, _ in got] == [g for g, _ in sim.similar(vecs, ["graph0"], 5)]
    assert {topic_of[g] for g, _ in got} == {"graph"}


def test_similar_to_several_papers_excludes_them_and_the_exclusions(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    got = [g for g, _ in sim.similar(vecs, ["rl0", "rl1"], 20, exclude={"rl2", "rl3"})]
    assert not {"rl0", "rl1", "rl2", "rl3"} & set(got)
    assert {topic_of[g] for g in got[:8]} == {"rl"}


def test_similar_with_unknown_ids_or_no_limit_is_empty(built) -> None:  # type: ignore[no-untyped-def]
    vecs, _ = built
    assert sim.similar(vecs, ["nope"], 5) == []
    assert sim.similar(vecs, ["rl0"], 0) == []


def test_feedback_keeps_the_topic(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    got = sim.similar(vecs, ["speech1"], 5, feedback=True)
    assert {topic_of[g] for g, _ in got} == {"speech"}


def test_free_text_search_finds_the_topic(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    got = sim.search(vecs, "an agent learns a policy from reward", 5)
    assert got and {topic_of[g] for g, _ in got} == {"rl"}
    assert sim.search(vecs, "zzz qqq", 5) == []


def test_reader_who_liked_a_topic_gets_it_first(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    model = triage.train(vecs, ["graph0", "graph1", "graph2"], ["speech0", "rl0", "vision0"])
    ranked = model.rank(9)
    assert [topic_of[r.id] for r in ranked] == ["graph"] * 9
    judged = {"graph0", "graph1", "graph2", "speech0", "rl0", "vision0"}
    assert not judged & {r.id for r in model.rank(100)}
    first = ranked[0]
    assert first.closest in {"graph0", "graph1", "graph2"}
    assert first.terms and set(first.terms[0].split()) <= set(TOPICS["graph"].split())
    assert first.why.startswith("about ")


def test_seed_text_alone_ranks_its_topic_first(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    model = triage.train(vecs, [], seed_texts=["acoustic models for speech and speaker audio"])
    assert {topic_of[r.id] for r in model.rank(10)} == {"speech"}
    assert triage.train(vecs, []).empty


def test_one_seed_text_weighs_as_one_liked_paper_not_as_all_of_them(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    liked = [p for p in vecs.ids if topic_of[p] == "graph"][:5]
    model = triage.train(vecs, liked, seed_texts=["acoustic models for speech and speaker audio"])
    top = [topic_of[r.id] for r in model.rank(12)]
    assert top[:7] == ["graph"] * 7, top  # five liked papers outweigh one seed
    assert "speech" in top  # and the seed still counts, next


def test_negative_phrase_sinks_papers_without_hiding_them(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    ids, texts, _ = corpus()
    text = {p: a for p, (_, a) in zip(ids, texts, strict=True)}
    liked = ["vision0", "vision1"]
    plain = triage.train(vecs, liked)
    # a third of the vision papers are about medical imaging: they must sink below the rest
    with_text = triage.train(vecs, liked, negative_phrases=["Medical  imaging"], text_of=text)
    with_terms = triage.train(vecs, liked, negative_phrases=["medical imaging"])
    hit = {p for p in ids if "medical imaging" in text[p]} - set(liked)
    assert hit and hit != {p for p in ids if topic_of[p] == "vision"} - set(liked)
    for model in (with_text, with_terms):
        ranked = model.rank(1000)
        assert {r.id for r in ranked} == {r.id for r in plain.rank(1000)}  # nothing hidden
        order = [r.id for r in ranked]
        clean_vision = [p for p in order if topic_of[p] == "vision" and p not in hit]
        assert max(order.index(p) for p in clean_vision) < min(order.index(p) for p in hit)
        assert all(r.penalised for r in ranked if r.id in hit)
        assert not any(r.penalised for r in ranked if r.id not in hit)


def test_a_negative_phrase_sinks_papers_even_when_the_profile_is_about_it(built) -> None:  # type: ignore[no-untyped-def]
    vecs, topic_of = built
    ids, texts, _ = corpus()
    text = {p: a for p, (_, a) in zip(ids, texts, strict=True)}
    liked = [p for p in ids if topic_of[p] == "vision"][:3]
    model = triage.train(vecs, liked, negative_phrases=["pixel"], text_of=text)
    order = [r.id for r in model.rank(1000)]
    hit = [p for p in order if "pixel" in text[p]]
    assert hit and len(order) == len(ids) - len(liked)  # sunk, never hidden
    assert min(order.index(p) for p in hit) >= len(order) // 2  # below most papers


def test_a_negative_keyword_matches_its_plural_and_singular() -> None:
    texts = [
        ("", "Graph networks for one molecule and its bonds."),
        ("", "Graph networks for molecules and their bonds."),
        ("", "Graph networks for molecular dynamics with bonds."),
        ("", "Graph networks on policies, bonds and atoms."),
        ("", "Graph networks on a policy with bonds and atoms."),
        ("", "Graph networks for social bonds."),
    ]
    ids = [f"p{i}" for i in range(len(texts))]
    vecs = build(ids, texts)
    text = {p: a for p, (_, a) in zip(ids, texts, strict=True)}
    for phrase, hit in (("molecules", {"p0", "p1"}), ("policy", {"p3", "p4"})):
        model = triage.train(vecs, ["p5"], negative_phrases=[phrase], text_of=text)
        assert {r.id for r in model.rank(10) if r.penalised} == hit, phrase


_PHRASE_WORDS = ["policy", "Policies", "molecule", "MOLECULES", "graph", "graphs", "image"]
_GLUE = [" ", ", ", "-", " the ", "s ", "x", "\n", "Étude "]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(_PHRASE_WORDS + _GLUE), min_size=1, max_size=12),
        min_size=2,
        max_size=6,
    ),
    st.lists(st.sampled_from(_PHRASE_WORDS), min_size=1, max_size=2),
)
def test_negative_keyword_matching_finds_exactly_what_its_pattern_finds(
    parts: list[list[str]], words: list[str]
) -> None:
    # the fast substring test in front of the pattern must never drop a paper it matches
    texts = ["".join(p) for p in parts]
    ids = [f"p{i}" for i in range(len(texts))]
    vecs = build(ids, [("", t) for t in texts])
    phrase = " ".join(words)
    text = dict(zip(ids, texts, strict=True))
    forms = ("(?:" + "|".join(map(re.escape, word_forms(w))) + ")" for w in words)
    rx = re.compile(r"(?<!\w)" + r"\W+".join(forms) + r"(?!\w)", re.I)
    want = [r for r, pid in enumerate(vecs.ids) if rx.search(text[pid])]
    assert matching_rows(vecs, phrase, text) == want


def test_ask_me_asks_about_papers_between_what_was_kept_and_passed_over() -> None:
    rng = random.Random(3)
    rl, graph = TOPICS["rl"].split(), TOPICS["graph"].split()
    ids, texts = [], []
    for name, vocab in (("rl", rl), ("graph", graph), ("both", rl + graph)):
        for i in range(16):
            body = rng.choices(vocab, k=14) + rng.choices(FILLER, k=8)
            ids.append(f"{name}{i}")
            texts.append(("", " ".join(body) + "."))
    vecs = build(ids, texts)
    # many kept, few passed over: kept papers score themselves high, as after a long session
    kept, passed = [f"rl{i}" for i in range(12)], [f"graph{i}" for i in range(2)]
    model = triage.train(vecs, kept, passed)
    asked = [a.id for a in model.ask_order(8)]
    assert sum(a.startswith("both") for a in asked) >= 6, asked  # the undecided ones
    ranked = [r.id for r in model.rank(4, why=False)]
    assert not set(ranked) & set(asked[:4])  # not simply the top of "for you"
    assert not set(asked) & set(kept + passed)


def test_ask_me_asks_once_about_a_paper_with_near_copies(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(3)
    rl, graph = TOPICS["rl"].split(), TOPICS["graph"].split()
    ids, texts = [], []
    for name, vocab in (("rl", rl), ("graph", graph), ("both", rl + graph)):
        for i in range(16):
            body = rng.choices(vocab, k=14) + rng.choices(FILLER, k=8)
            ids.append(f"{name}{i}")
            texts.append(("", " ".join(body) + "."))
    kept, passed = [f"rl{i}" for i in range(12)], [f"graph{i}" for i in range(2)]
    first = triage.train(build(ids, texts), kept, passed).ask_order(1)[0].id
    # eight versions of the paper asked about first, each with a word added
    for c in range(8):
        ids.append(f"copy{c}")
        texts.append(("", texts[ids.index(first)][1] + " " + FILLER[c]))
    model = triage.train(build(ids, texts), kept, passed)
    versions = {first} | {f"copy{c}" for c in range(8)}
    asked = [a.id for a in model.ask_order(12)]
    assert len(asked) == 12 and len(versions & set(asked)) == 1, asked
    assert sum(a.startswith("both") for a in asked) >= 6, asked  # still the undecided ones
    # when nothing else is left, the copies are still asked about
    assert versions <= {a.id for a in model.ask_order(len(ids))}
    monkeypatch.setattr(weights, "DUPLICATE_COSINE", 2.0)  # no copy detection: they stack up
    assert len(versions & {a.id for a in model.ask_order(12)}) >= 3


def test_save_load_round_trip(built, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vecs, _ = built
    vecs.save(tmp_path / "v")
    back = PaperVectors.load(tmp_path / "v")
    assert back.ids == vecs.ids
    assert isinstance(back.dense, np.memmap)
    assert sim.similar(back, ["graph4"], 7) == sim.similar(vecs, ["graph4"], 7)
    (tmp_path / "v" / "meta.json").unlink()
    with pytest.raises(ValueError):
        PaperVectors.load(tmp_path / "v")


def test_incremental_add_matches_a_rebuild_for_known_words(tmp_path: Path) -> None:
    ids, texts, topic_of = corpus()
    base = build(ids, texts)
    base.save(tmp_path / "v")
    loaded = PaperVectors.load(tmp_path / "v")  # add works on read-only memory maps too
    new = [("extra", "", texts[0][1]), ("graph0", "", "ignored: id already present")]
    assert loaded.add(new) == 1
    assert loaded.ids[-1] == "extra"
    row = loaded.position("extra")
    assert row is not None
    # the same text as graph0 under a new id gets exactly graph0's vectors
    assert np.array_equal(loaded.term_ids[row], base.term_ids[0])
    assert np.array_equal(loaded.term_weights[row], base.term_weights[0])
    assert np.allclose(
        np.asarray(loaded.dense[row], np.float32), np.asarray(base.dense[0], np.float32), atol=2e-3
    )
    assert sim.similar(loaded, ["extra"], 1)[0][0] == "graph0"
    loaded.save(tmp_path / "v2")
    assert PaperVectors.load(tmp_path / "v2").ids == [*ids, "extra"]


def test_build_is_deterministic_and_reports_progress() -> None:
    ids, texts, _ = corpus(seed=3)
    seen: list[tuple[int, int]] = []
    a = build(ids, texts, progress=lambda d, t: seen.append((d, t)))
    b = build(ids, texts)
    assert seen[-1] == (len(ids), len(ids))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert np.array_equal(a.dense, b.dense) and np.array_equal(a.term_ids, b.term_ids)


def test_empty_and_one_paper_corpora() -> None:
    empty = build([], [])
    assert len(empty) == 0 and sim.similar(empty, ["x"], 5) == []
    assert triage.train(empty, ["x"]).rank(5) == []
    one = build(["only"], [("", "a single abstract about graphs")])
    assert sim.similar(one, ["only"], 5) == []
    assert triage.train(one, ["only"]).rank(5) == []
    assert [r.id for r in triage.train(one, []).rank(5)] == ["only"]


def test_titles_count_when_given() -> None:
    ids = ["a", "b", "c"]
    texts = [
        ("Speech synthesis", "we study models."),
        ("", "we study models of speech."),
        ("", "we study models of graphs."),
    ]
    vecs = build(ids, texts)
    assert "speech" in {vecs.vocab.term(int(c)) for c in vecs.term_ids[0] if c < 65535}


def test_a_titleless_papers_first_sentence_weighs_more() -> None:
    # q shares its first sentence's words with s and later words with g, equally rare:
    # without the lead sentence counting twice the two would tie, and g (listed first) win
    ids = ["q", "g", "s", "x1", "x2", "x3"]
    abstracts = [
        "Speech acoustics matter. We use graph nodes.",
        "Results on graph nodes.",
        "Results on speech acoustics.",
        "Protein folding kinetics.",
        "Market pricing auctions.",
        "Robot arm grasping.",
    ]
    vecs = build(ids, [("", a) for a in abstracts])
    assert [p for p, _ in sim.similar(vecs, ["q"], 2)] == ["s", "g"]


def test_sentence_ends_break_word_pairs() -> None:
    def terms(abstracts: list[str]) -> set[str]:
        others = ["Protein folding.", "Market pricing.", "Robot grasping.", "Speech audio."]
        texts = [("", a) for a in abstracts + others]
        vecs = build([f"p{i}" for i in range(len(texts))], texts)
        return {vecs.vocab.term(c) for c in range(len(vecs.vocab.keys))}

    apart = ["Each node is a graph. Networks follow.", "A small graph. Networks again."]
    assert "graph network" not in terms(apart * 2)
    assert "graph network" in terms([a.replace(". N", " n") for a in apart] * 2)


def test_lead_sentence() -> None:
    assert lead_sentence("Graphs are everywhere. We study them. More.") == "Graphs are everywhere"
    assert lead_sentence("Models, e.g. transformers. Fine?") == "Models, e.g. transformers"
    assert lead_sentence("no sentence end here") == "no sentence end here"
    long = " ".join(f"w{i}" for i in range(200)) + ". Next."
    assert lead_sentence(long).split() == long.split()[:LEAD_WORDS]


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab .!?\nAB", max_size=120))
def test_lead_sentence_is_a_prefix(text: str) -> None:
    lead = lead_sentence(text).split()
    assert " ".join(text.split()).startswith(" ".join(lead))
    assert len(lead) <= LEAD_WORDS


def test_vectors_of_another_format_are_refused(built, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vecs, _ = built
    vecs.save(tmp_path / "v")
    meta = tmp_path / "v" / "meta.json"
    meta.write_text(meta.read_text().replace(f'"format": {FORMAT}', f'"format": {FORMAT - 1}'))
    with pytest.raises(ValueError, match="format"):
        PaperVectors.load(tmp_path / "v")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_stem_is_idempotent_on_plurals(word: str) -> None:
    assert stem(stem(word + "s")) == stem(word + "s")
    assert len(stem(word)) >= min(len(word), 3)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=80), min_size=0, max_size=6))
def test_any_text_builds_and_answers(texts: list[str]) -> None:
    ids = [f"p{i}" for i in range(len(texts))]
    vecs = build(ids, [("", t) for t in texts])
    for pid in ids:
        got = sim.similar(vecs, [pid], 3)
        assert pid not in [g for g, _ in got]
    assert isinstance(sim.search(vecs, " ".join(texts)[:50], 3), list)


def test_a_shared_rare_word_counts_more_toward_related_papers_than_a_shared_common_one(
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    ids, texts, _ = corpus()
    # "zeolite" is in two papers only; "acoustic" in most of the speech papers
    ids += ["query", "rare", "common"]
    texts += [
        ("", "zeolite catalysis acoustic pores."),
        ("", "zeolite adsorption kinetics."),
        ("", "acoustic schedules warmup."),
    ]
    vecs = build(ids, texts)

    def gap() -> float:
        got = dict(sim.similar(vecs, ["query"], len(ids)))
        return got["rare"] - got["common"]

    sharpened = gap()
    monkeypatch.setattr(sim, "QUERY_IDF_POWER", 0.0)
    assert sharpened > gap()
