"""A large file nothing has cached yet shows its first papers at once: the head read apart gives
the first papers of the whole file, in order, with the same ids, titles and collection; the
whole file then takes their place without moving them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papertui.core import library as library_module
from papertui.core.corpus import load_corpus
from papertui.core.corpus.preview import head_corpus
from papertui.core.library import Library

WORDS = ["graph", "neural", "protein", "fold", "robot", "policy", "é", "naïve", "x"]


def jsonl(abstracts: list[str]) -> str:
    return "".join(json.dumps({"abstract": a, "title": a[:20]}) + "\n" for a in abstracts)


def native(abstracts: list[str]) -> str:
    return "A list of papers\n\n" + "\n\n".join(a.replace(". ", ".\n") for a in abstracts)


def whole_ids(path: Path) -> list[str]:
    return [p.id for p in load_corpus([path]).papers]


def abstracts(count: int) -> list[str]:
    return [
        f"We study {WORDS[i % 6]} number {i}. It works on {WORDS[i % 4]} data."
        for i in range(count)
    ]


@pytest.mark.parametrize(("name", "write"), [("d.jsonl", jsonl), ("d.txt", native)])
def test_the_head_is_the_first_papers_of_the_whole_file(tmp_path, name, write):
    path = tmp_path / name
    texts = abstracts(400)
    texts[30] = texts[3]  # a duplicate joins its first copy and moves nothing
    path.write_text(write(texts), encoding="utf-8")
    head = head_corpus(path, None, budget=4000)
    assert head is not None
    whole = load_corpus([path])
    n = len(head.papers)
    assert 10 < n < 100  # whole records only, fewer than the file holds
    assert [p.id for p in head.papers] == [p.id for p in whole.papers[:n]]
    assert [p.title for p in head.papers] == [p.title for p in whole.papers[:n]]
    assert head.files[0].collection == whole.files[0].collection


def test_a_record_cut_by_the_budget_is_left_for_the_whole_read(tmp_path):
    path = tmp_path / "d.jsonl"
    texts = abstracts(50)
    path.write_text(jsonl(texts), encoding="utf-8")
    first_line = len(jsonl(texts[:1]).encode())
    head = head_corpus(path, None, budget=first_line + 5)  # one line and a bit of the next
    assert head is not None and [p.abstract for p in head.papers] == [texts[0]]


def test_small_files_and_formats_read_only_whole_give_no_head(tmp_path):
    texts = abstracts(200)
    small = tmp_path / "small.jsonl"
    small.write_text(jsonl(texts[:3]), encoding="utf-8")
    assert head_corpus(small, None, budget=4000) is None  # read whole at once anyway
    packed = tmp_path / "d.jsonl.gz"
    packed.write_bytes(gzip.compress(jsonl(texts).encode()))
    bib = tmp_path / "d.bib"
    bib.write_text(
        "".join(f"@article{{k{i},\n  abstract = {{{t}}}\n}}\n" for i, t in enumerate(texts)),
        encoding="utf-8",
    )
    array = tmp_path / "d.json"
    array.write_text(json.dumps([{"abstract": t} for t in texts]), encoding="utf-8")
    for path in (packed, bib, array):
        assert head_corpus(path, None, budget=2000) is None, path.name


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    picks=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=12), min_size=2, max_size=40
    ),
    budget=st.integers(min_value=20, max_value=3000),
    text_format=st.booleans(),
)
def test_any_head_is_a_prefix_of_the_whole_file(tmp_path, picks, budget, text_format):
    path = tmp_path / ("p.txt" if text_format else "p.jsonl")
    texts = [" ".join(words) + "." for words in picks]
    path.write_text((native if text_format else jsonl)(texts), encoding="utf-8")
    head = head_corpus(path, None, budget=budget)
    if head is None:
        return
    ids = [p.id for p in head.papers]
    assert ids == whole_ids(path)[: len(ids)]


def test_a_cold_open_shows_the_head_then_the_whole_file_keeps_its_positions(tmp_path, monkeypatch):
    path = tmp_path / "big.jsonl"
    path.write_text(jsonl(abstracts(600)), encoding="utf-8")
    monkeypatch.setattr(library_module, "DEFER_BYTES", 0)  # "large": left to the indexing child
    monkeypatch.setattr("papertui.core.corpus.preview.PREVIEW_BYTES", 8000)
    library = Library.open_deferred([str(path)])
    shown = [p.id for p in library.papers]
    assert library.loading and 20 < len(shown) < 600
    library.indexing.run_in_child(lambda d, t: None, lambda: False, tick=lambda: None)
    whole = library.load_ready() or library.finish_loading()
    assert whole is not None
    library.replace_corpus(whole)
    assert not library.loading and len(library.papers) == 600
    assert library.positions_kept and [p.id for p in library.papers[: len(shown)]] == shown
    library.close()


def test_a_warm_start_of_a_large_file_shows_its_head_and_reads_the_cache_after(
    tmp_path, monkeypatch
):
    path = tmp_path / "big.jsonl"
    path.write_text(jsonl(abstracts(600)), encoding="utf-8")
    first = Library.open([str(path)])
    first.indexing.ensure()  # cached and indexed, as after any earlier session
    first.close()
    monkeypatch.setattr(library_module, "WARM_BYTES", 1000)  # "a million papers"
    monkeypatch.setattr("papertui.core.corpus.preview.PREVIEW_BYTES", 8000)
    library = Library.open_deferred([str(path)])
    shown = [p.id for p in library.papers]
    assert library.loading and 20 < len(shown) < 600
    assert library.indexing.is_current()  # nothing to parse or index: the worker reads the cache
    whole = library.finish_loading()
    assert whole is not None
    library.replace_corpus(whole)
    assert not library.loading and library.positions_kept and len(library.papers) == 600
    assert [p.id for p in library.papers[: len(shown)]] == shown
    assert library.indexing.ensure().how == "reused"
    library.close()
