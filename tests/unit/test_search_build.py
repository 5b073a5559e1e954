"""Writing the index: the fast segment writer gives Whoosh's own files, and a build split over
two processes answers every query as a build in one does."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from whoosh import index as windex

from papertui.core.corpus import Paper, finish_titles, load_corpus
from papertui.core.search import SearchIndex, building, fastwriter, feeding, postings, spill
from papertui.core.search.schema import schema
from papertui.core.system.paths import bundled_corpus_dir


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    found = load_corpus([bundled_corpus_dir()]).papers
    finish_titles(found, None)
    return found


@pytest.fixture(scope="module")
def described(tmp_path_factory) -> list[Paper]:
    """Papers with every field the index holds: authors, venues and tracks with and without
    accents, years, arXiv categories, decisions, CJK text and translations, and values repeated
    across papers."""
    names = ["Ada Lovelace", "Hervé Jégou", "K. Gödel", "Li Wei and Zoë Ng", "J.-P. Serre"]
    venues = ["NeurIPS", "ICLR", "Conférence IA", ""]
    # Chinese, Japanese and Korean runs, as pairs, in words with Latin letters and dots too
    cjk_title = ["", " 稀疏路由", " モデル"]
    cjk_text = [
        "",
        " 我们提出一种新的深度学习模型 (GPT-4.模型s)",
        " 大規模言語モデル 模",
        " 딥러닝 모델",
    ]
    records = []
    for i in range(60):
        records.append(
            {
                "title": f"Sparse routing {i} for e.g. mixtures" + cjk_title[i % 3],
                "abstract": f"We study routing number {i} in mixtures of experts, e.g. v2.0 "
                f"of the model; experts ({i % 7}) route tokens to Café servers." + cjk_text[i % 4],
                "authors": [names[i % 5], names[(i * 3) % 5]][: 1 + i % 2],
                "venue": venues[i % 4],
                "year": 2019 + i % 4,
                "categories": ["cs.LG", "cs.CL", "stat.ML"][: 1 + i % 3],
                "status": ["oral", "poster", "spotlight talk"][i % 3],
                "track": ["main", "Datasets and Benchmarks", "Théorie"][i % 3],
            }
        )
        if i % 6 == 0:  # indexed with the paper's own title and abstract, stored apart
            records[-1].update(title_zh=f"稀疏路由 {i}", abstract_zh="我们研究专家混合模型。")
    path = tmp_path_factory.mktemp("described") / "papers.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), "utf-8")
    found = load_corpus([path]).papers
    assert len(found) == 60 and found[1].authors and found[2].meta.track
    return found


def _segment_files(directory: Path) -> dict[str, bytes]:
    """The segment's files by what they hold (their names carry a random segment id)."""
    return {
        f.name.split(".", 1)[1]: f.read_bytes()
        for f in directory.iterdir()
        if f.name.startswith("MAIN_") and "." in f.name
    }


def _write(directory: Path, papers: list[Paper], fast: bool) -> None:
    directory.mkdir()
    ix = windex.create_in(str(directory), schema())
    writer = fastwriter.FastSegmentWriter(ix, compound=False) if fast else ix.writer(compound=False)
    for paper in papers:
        feeding.add_paper(writer, paper, Counter())
    writer.commit()
    ix.close()


@pytest.mark.parametrize("which", ["bundled", "described"])
def test_fast_writer_writes_whooshs_files_byte_for_byte(
    tmp_path, papers, described, which, monkeypatch
):
    papers = papers if which == "bundled" else described
    # with each posting's positions encoded afresh (no shared bytes, which pickle would write
    # as references) every file of the segment is Whoosh's own
    monkeypatch.setattr(postings, "_ONCE", _NoMemo())
    # and its objects kept apart: left in the shared table they would pair a value with
    # another object than the one `_ONCE` holds, for the tests that run after this one
    monkeypatch.setattr(postings, "_ONCE_VALUES", {})
    _write(tmp_path / "whoosh", papers, fast=False)
    _write(tmp_path / "fast", papers, fast=True)
    ours, theirs = _segment_files(tmp_path / "fast"), _segment_files(tmp_path / "whoosh")
    assert {"pst", "trm", "_stored.col", "_abstract_len.col"} <= set(theirs)
    assert ours.keys() == theirs.keys()
    assert [name for name in theirs if ours[name] != theirs[name]] == []


def test_a_writer_that_spills_its_postings_to_disk_writes_the_same_files(
    tmp_path, papers, monkeypatch
):
    # a million papers do not fit the pool: every few papers it goes to disk as a run, and the
    # runs are merged when the segment is written; the segment is the one a single pool gives
    _write(tmp_path / "whole", papers, fast=True)
    monkeypatch.setattr(spill, "SPILL_DOCS", 7)
    spilled: list[int] = []
    real_spill = spill.Runs.spill
    monkeypatch.setattr(
        spill.Runs, "spill", lambda self, terms: spilled.append(1) or real_spill(self, terms)
    )
    _write(tmp_path / "spilled", papers, fast=True)
    assert len(spilled) == len(papers) // 7
    ours, whole = _segment_files(tmp_path / "spilled"), _segment_files(tmp_path / "whole")
    assert ours.keys() == whole.keys()
    assert [name for name in whole if ours[name] != whole[name]] == []
    assert not [f for f in (tmp_path / "spilled").iterdir() if f.name.startswith(".run-")]


class _NoMemo(dict):  # type: ignore[type-arg]
    def get(self, key, default=None):  # type: ignore[no-untyped-def]
        return None


@pytest.mark.parametrize("which", ["bundled", "described"])
def test_fast_writer_postings_equal_whooshs(tmp_path, papers, described, which):
    papers = papers if which == "bundled" else described
    _write(tmp_path / "whoosh", papers, fast=False)
    _write(tmp_path / "fast", papers, fast=True)
    with (
        windex.open_dir(str(tmp_path / "whoosh")).reader() as theirs,
        windex.open_dir(str(tmp_path / "fast")).reader() as ours,
    ):
        terms = list(theirs.all_terms())
        assert terms == list(ours.all_terms()) and len(terms) > (
            1000 if which == "bundled" else 250
        )
        for fieldname, text in terms:
            if fieldname in ("title", "abstract", "author", "venue", "track"):
                want = list(theirs.postings(fieldname, text).items_as("positions"))
                got = list(ours.postings(fieldname, text).items_as("positions"))
            else:
                want = list(theirs.postings(fieldname, text).items_as("weight"))
                got = list(ours.postings(fieldname, text).items_as("weight"))
            assert got == want, (fieldname, text)


def test_two_process_build_answers_as_one_process(tmp_path, papers, monkeypatch):
    one, two = tmp_path / "one", tmp_path / "two"
    building._build(one, papers, None, None)
    monkeypatch.setattr(building, "needs_child_process", lambda count: True)
    monkeypatch.setattr(spill, "SPILL_DOCS", 20)  # each process spills its pool to disk too
    seen: list[tuple[int, int]] = []
    building._build(two, papers, lambda done, total: seen.append((done, total)), None)
    assert seen[-1] == (len(papers), len(papers))
    assert (one / "vocab.json").read_text() == (two / "vocab.json").read_text()
    a, b = SearchIndex(one), SearchIndex(two)
    try:
        assert len(b._searcher.reader().leaf_readers()) == 2
        assert a.doc_count == b.doc_count == len(papers)
        for query in ("graph", '"optimal transport"', "contrast*", "title:diffusion", "grph"):
            ra, rb = a.search(query), b.search(query)
            assert ra.hits and [h[0] for h in ra.hits] == [h[0] for h in rb.hits], query
            assert [h[1] for h in ra.hits] == pytest.approx([h[1] for h in rb.hits]), query
    finally:
        a.close()
        b.close()


def test_failing_second_process_fails_the_build(tmp_path, papers, monkeypatch):
    monkeypatch.setattr(building, "needs_child_process", lambda count: True)

    def broken(directory: Path, part: list[Paper], conn, parents) -> None:  # type: ignore[no-untyped-def]
        parents.close()
        conn.send("OSError: no space left on device")
        conn.close()

    monkeypatch.setattr(feeding, "write_segment", broken)
    with pytest.raises(RuntimeError, match="no space left"):
        building._build(tmp_path / "ix", papers, None, None)


def test_second_process_killed_without_a_word_fails_the_build(tmp_path, papers, monkeypatch):
    monkeypatch.setattr(building, "needs_child_process", lambda count: True)

    def killed(directory: Path, part: list[Paper], conn, parents) -> None:  # type: ignore[no-untyped-def]
        os._exit(9)  # as if the system had killed it (out of memory)

    monkeypatch.setattr(feeding, "write_segment", killed)
    with pytest.raises(RuntimeError, match=r"index writer stopped \(exit code 9\)"):
        building._build(tmp_path / "ix", papers, None, None)


@given(st.text(alphabet="ab Z9_.,-'", max_size=60))
def test_the_words_counted_for_suggestions_are_those_between_the_index_words_dots(text):
    # the fast writer splits ASCII text into words that may hold dots ("e.g", "2.0"); the
    # vocabulary counts the words between them, as splitting the text on \w+ gives
    split = fastwriter._ASCII_WORD.findall(text.lower())
    assert feeding.words_of(split) == set(re.findall(r"\w+", text.lower()))
