"""The machinery that makes large corpora fast, checked on small ones: the quick CLI path, index
generations and interrupted builds, ranked depth, the trigram prefilter, the child indexer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rapidfuzz import utils

from papertui.cli import main
from papertui.core import fuzzy
from papertui.core.fuzzy import TitleMatcher
from papertui.core.indexer import IndexFailed, index_in_child
from papertui.core.library import Library, quick_search
from papertui.core.search import IndexCancelled

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from gen_corpus import write_corpus  # noqa: E402


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "synthetic"
    write_corpus(folder, 400, files=2, seed=3)
    return folder


def test_generator_is_deterministic(tmp_path):
    a = write_corpus(tmp_path / "a", 50, files=1, seed=9)[0].read_bytes()
    b = write_corpus(tmp_path / "b", 50, files=1, seed=9)[0].read_bytes()
    assert a == b and a.count(b"\n\n") == 51


def test_index_command_builds_then_reuses(capsys, corpus):
    assert main(["index", str(corpus)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("built index: 400 papers in ")
    assert main(["index", str(corpus)]) == 0
    assert capsys.readouterr().out.startswith("reused index: 400 papers")


def test_quick_search_matches_the_full_path(capsys, corpus):
    assert main(["index", str(corpus)]) == 0
    capsys.readouterr()
    quick = quick_search([str(corpus)], "learning", 5)
    assert quick is not None and len(quick) == 5
    library = Library.open([str(corpus)])
    library.ensure_index()
    view = library.run_query("learning", limit=5)
    assert [r["id"] for r in quick] == [library.papers[i].id for i in view.indices]
    assert main(["search", "learning", str(corpus), "--json", "--limit", "5"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in records] == [r["id"] for r in quick]
    assert set(records[0]) >= {"id", "title", "abstract", "collection", "bookmarked", "score"}


def test_quick_search_steps_aside_when_the_corpus_changed(corpus):
    assert main(["index", str(corpus)]) == 0
    target = sorted(corpus.glob("*.txt"))[0]
    with target.open("a", encoding="utf-8") as handle:
        handle.write("\n\nA brand new zyxwvut abstract about learning.\n")
    assert quick_search([str(corpus)], "zyxwvut", 1) is None
    library = Library.open([str(corpus)])
    assert library.ensure_index().how == "updated"
    assert [library.papers[i].abstract for i in library.run_query("zyxwvut").indices] == [
        "A brand new zyxwvut abstract about learning."
    ]


def test_interrupted_build_keeps_the_previous_index(corpus):
    library = Library.open([str(corpus)])
    library.ensure_index()
    before = library.index_store.current_dir()
    library.close()
    target = sorted(corpus.glob("*.txt"))[0]
    target.write_text(target.read_text("utf-8") + "\n\nOne more abstract.\n", "utf-8")
    library = Library.open([str(corpus)])
    calls = []

    def cancelled() -> bool:
        calls.append(1)
        return True  # the user quit while indexing

    with pytest.raises(IndexCancelled):
        library.index_store.ensure(library.papers, library.sources, None, cancelled)
    assert calls and library.index_store.current_dir() == before
    gens = [p for p in before.parent.iterdir() if p.name.startswith("gen-")]
    assert gens == [before]  # the half-written generation is gone
    assert library.ensure_index().how == "updated"


def test_depth_ranks_the_best_first_and_says_there_is_more(corpus):
    library = Library.open([str(corpus)])
    library.ensure_index()
    shallow = library.run_query("learning", depth=10)
    deep = library.run_query("learning", depth=None)
    assert shallow.truncated and not deep.truncated
    assert len(deep.indices) > 10
    assert shallow.indices[:10] == deep.indices[:10]


def test_collection_filter_is_applied_by_the_index(corpus):
    library = Library.open([str(corpus)])
    library.ensure_index()
    view = library.run_query('learning collection:"collection 1"', depth=5)
    assert view.indices and all(
        "Synthetic collection 1" in library.papers[i].collections for i in view.indices
    )
    assert len(view.indices) <= 5 or view.truncated


@pytest.fixture(scope="module")
def many_titles() -> list[str]:
    import random

    rng = random.Random(1)
    words = ["graph", "neural", "diffusion", "kernel", "flow", "transport", "optimal", "model"]
    titles = [
        " ".join(rng.choice(words) for _ in range(rng.randint(3, 7))) + f" {i}" for i in range(4000)
    ]
    titles[1234] = "CaliGCL: GCL model for calibrating the biases"
    return titles


def test_trigram_path_is_used_and_finds_names_with_typos(many_titles):
    assert len(many_titles) > fuzzy.SCAN_ALL_UP_TO
    matcher = TitleMatcher(many_titles)
    matcher.prepare()
    candidates = matcher.candidates("caligcl")
    assert candidates is not None and len(candidates) < len(many_titles) // 10
    for typed in ("caligcl", "calgcl", "caligcll", "cligcl"):
        assert 1234 in [i for i, _ in matcher.match(typed)], typed


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_trigram_path_agrees_with_scanning_for_exact_substrings(many_titles, data):
    matcher = TitleMatcher(many_titles)
    i = data.draw(st.integers(0, len(many_titles) - 1))
    title = many_titles[i]
    start = data.draw(st.integers(0, max(0, len(title) - 6)))
    needle = title[start : start + data.draw(st.integers(3, 15))]
    assume(len(utils.default_process(needle)) >= fuzzy.MIN_QUERY)
    found = {j for j, _ in matcher.match(needle, limit=5000, cutoff=100)}
    assert i in found


def test_child_indexer_reports_progress_and_builds(corpus):
    seen: list[tuple[int, int]] = []
    index_in_child([str(corpus)], lambda d, t: seen.append((d, t)), lambda: False)
    assert seen and seen[-1] == (400, 400)
    assert Library.open([str(corpus)]).index_is_current()


def test_child_indexer_failure_is_one_clear_line(tmp_path):
    with pytest.raises(IndexFailed, match="no papers could be read from .*missing"):
        index_in_child([str(tmp_path / "missing")], lambda d, t: None, lambda: False)
