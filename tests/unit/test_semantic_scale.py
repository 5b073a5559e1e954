"""Vectors and topics of libraries larger than what is held in memory at once: the streamed
build gives the vectors the whole-matrix build gives, a library past the samples still finds
related papers and topics of one theme, and adding papers extends the files on disk.

The sample sizes and chunk lengths are made tiny here, so that a few dozen papers take the
paths a million would."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papertui.core.semantic import similar as sim
from papertui.core.semantic import vector_build as vb
from papertui.core.semantic.service import SemanticCache
from papertui.core.semantic.topics import streamed
from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vector_files import write_prefilter
from papertui.core.semantic.vectors import PaperVectors

THEMES = {
    "graph": "graph neural network message passing node embedding molecule edge",
    "speech": "speech recognition acoustic audio waveform speaker phoneme spectrogram",
    "rl": "reinforcement learning policy reward agent environment exploration bandit",
    "vision": "image segmentation pixel convolutional detection object camera",
}
FILLER = ["we", "study", "training", "models", "data", "learning", "performance", "large"]


def corpus(per_theme: int = 15, seed: int = 0) -> tuple[list[str], list[tuple[str, str]]]:
    """Ids that name the theme, and (title, abstract) pairs mixing its words with filler."""
    rng = random.Random(seed)
    ids, texts = [], []
    for i in range(per_theme):
        for theme, words in THEMES.items():
            body = rng.choices(words.split(), k=14) + rng.choices(FILLER, k=10)
            rng.shuffle(body)
            ids.append(f"{theme}{i}")
            texts.append(("", " ".join(body) + "."))
    return ids, texts


def theme(pid: str) -> str:
    return pid.rstrip("0123456789")


def test_vectors_streamed_in_chunks_to_files_are_those_built_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    ids, texts = corpus()
    whole = build(ids, texts)
    monkeypatch.setattr(vb, "CHUNK", 7)  # 60 papers: nine chunks, the last one short
    streamed_build = build(ids, iter(texts), directory=tmp_path / "vectors")
    assert isinstance(streamed_build.term_ids, np.memmap)  # on disk, mapped: not held
    assert streamed_build.ids == whole.ids
    for name in ("term_ids", "term_weights", "dense", "basis"):
        assert np.array_equal(getattr(streamed_build, name), getattr(whole, name)), name
    assert not list(tmp_path.glob(".streams-*"))  # the scratch file is gone


def test_a_library_past_the_svd_sample_still_finds_related_papers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vb, "SVD_SAMPLE", 24)  # the basis is fitted on 24 of 60 papers
    monkeypatch.setattr(vb, "CHUNK", 9)
    ids, texts = corpus()
    vecs = build(ids, texts)
    assert len(vecs) == 60 and vecs.dense.shape[0] == 60
    for pid in ("graph3", "speech11", "rl0", "vision14"):
        got = [g for g, _ in sim.similar(vecs, [pid], 5)]
        assert [theme(g) for g in got] == [theme(pid)] * 5


def texts_of(ids: list[str], pairs: list[tuple[str, str]]) -> list[str]:
    return [abstract for _, abstract in pairs]


def test_topics_past_the_sample_place_every_paper_with_its_theme(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(streamed, "TOPIC_SAMPLE", 30)  # topics from 30 of 80 papers
    monkeypatch.setattr(streamed, "BATCH", 11)
    ids, pairs = corpus(per_theme=20)
    texts = texts_of(ids, pairs)
    model = streamed.topics_of_library(ids, texts.__getitem__)
    assert len(model.assignments) == 80 and model.ids == ids
    assert sum(t.size for t in model.topics) == 80  # every paper is in a topic
    for topic in model.topics:  # of one theme, whichever way its papers came in
        assert len(topic.ids) == len(set(topic.ids))
        assert {theme(pid) for pid in topic.ids} == {theme(topic.ids[0])}
    # the same library in another order: the same topics
    order = list(range(80))
    random.Random(5).shuffle(order)
    again = streamed.topics_of_library([ids[i] for i in order], lambda i: texts[order[i]])
    assert sorted(map(sorted, (t.ids for t in again.topics))) == sorted(
        map(sorted, (t.ids for t in model.topics))
    )


def test_adding_papers_copies_the_saved_rows_and_appends_the_new(tmp_path: Path) -> None:
    ids, texts = corpus()
    saved = build(ids[:40], texts[:40], directory=tmp_path / "old")
    more = [(pid, t, a) for pid, (t, a) in zip(ids[40:], texts[40:], strict=True)]
    grown = saved.add_into(tmp_path / "new", more + more[:3])  # repeats are added once
    assert grown.ids == ids and isinstance(grown.dense, np.memmap)
    in_memory = PaperVectors.load(tmp_path / "old", mmap=False)
    in_memory.add(more)
    for name in ("term_ids", "term_weights", "dense"):
        assert np.array_equal(getattr(grown, name), getattr(in_memory, name)), name
    assert np.array_equal(grown.dense[:40], saved.dense)
    # the prefilter's rows extended too, as a whole write of them would make them
    assert grown.prefilter is not None and saved.prefilter is not None
    assert np.array_equal(grown.prefilter[:40], saved.prefilter)
    (tmp_path / "whole").mkdir()
    shutil.copy(tmp_path / "new" / "dense.npy", tmp_path / "whole" / "dense.npy")
    write_prefilter(tmp_path / "whole")
    assert np.array_equal(grown.prefilter, np.load(tmp_path / "whole" / "prefilter.npy"))


def test_a_build_killed_midway_leaves_no_files_behind_for_long(tmp_path: Path) -> None:
    cache = SemanticCache(tmp_path)
    tmp_path.mkdir(exist_ok=True)
    dead = tmp_path / ".build-999999999-x"  # a process that no longer runs
    (dead / "vectors").mkdir(parents=True)
    fresh = cache._fresh()
    assert not dead.exists() and fresh.exists()
    assert cache._fresh().exists() and fresh.exists()  # this process' own build stays


def test_vectors_of_papers_with_few_distinct_texts_load_back(tmp_path: Path) -> None:
    """Fetched papers can repeat a handful of texts (a listing's placeholders): the SVD then
    finds fewer directions than asked for, and the saved rows must say how many there are
    (the files claimed more, and loading them failed with "mmap length is greater than file
    size")."""
    ids, texts = corpus(per_theme=3)
    ids = [f"{pid}-{copy}" for copy in range(10) for pid in ids]
    texts = texts * 10  # 120 papers, 12 distinct texts: rank 12, far below the dims asked
    whole = build(ids, texts)
    assert 0 < whole.dense.shape[1] < 96
    on_disk = build(ids, iter(texts), directory=tmp_path / "vectors")
    again = PaperVectors.load(tmp_path / "vectors")
    for name in ("term_ids", "term_weights", "dense", "basis"):
        assert np.array_equal(getattr(again, name), getattr(whole, name)), name
    assert on_disk.ids == again.ids == ids


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.integers(0, 300), max_size=60), st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_term_counts_merged_chunk_by_chunk_are_the_counts_of_everything(chunks) -> None:
    # the vocabulary is chosen from these counts: merging in place must count as one pass does
    counts = vb.Counts()
    everything = []
    for keys, merge_now in chunks:
        part = np.asarray(sorted(set(keys)), dtype=np.int64)  # a paper's distinct keys
        everything.append(part)
        counts.add(part)
        if merge_now:
            counts.merge()
    counts.merge()
    keys, df = np.unique(np.concatenate(everything), return_counts=True)
    assert counts.keys.tolist() == keys.tolist()
    assert counts.df.tolist() == df.tolist()
