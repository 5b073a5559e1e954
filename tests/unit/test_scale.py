"""The machinery that makes large corpora fast, checked on small ones: the quick CLI path, index
generations and interrupted builds, ranked depth, the trigram prefilter, the child indexer."""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from rapidfuzz import utils

from papertui.cli import main
from papertui.core.indexer import IndexFailed, index_in_child
from papertui.core.library import Library, quick_search
from papertui.core.query import fuzzy
from papertui.core.query.fuzzy import TitleMatcher
from papertui.core.search import IndexCancelled, SearchFailed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from gen_corpus import write_corpus  # noqa: E402


def append_paper(corpus: Path, abstract: str) -> None:
    """An added day: one more abstract at the end of the corpus' first file."""
    with sorted(corpus.glob("*.txt"))[0].open("a", encoding="utf-8") as handle:
        handle.write(f"\n\n{abstract}\n")


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
    library.indexing.ensure()
    view = library.run_query("learning", limit=5)
    assert [r["id"] for r in quick] == [library.papers[i].id for i in view.indices]
    assert main(["search", "learning", str(corpus), "--json", "--limit", "5"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in records] == [r["id"] for r in quick]
    assert set(records[0]) >= {"id", "title", "abstract", "collection", "bookmarked", "score"}


def test_quick_search_steps_aside_when_the_corpus_changed(corpus):
    assert main(["index", str(corpus)]) == 0
    append_paper(corpus, "A brand new zyxwvut abstract about learning.")
    assert quick_search([str(corpus)], "zyxwvut", 1) is None
    library = Library.open([str(corpus)])
    assert library.indexing.ensure().how == "updated"
    assert [library.papers[i].abstract for i in library.run_query("zyxwvut").indices] == [
        "A brand new zyxwvut abstract about learning."
    ]


def test_interrupted_build_keeps_the_previous_index(corpus):
    library = Library.open([str(corpus)])
    library.indexing.ensure()
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
    assert library.indexing.ensure().how == "updated"


def test_depth_ranks_the_best_first_and_says_there_is_more(corpus):
    library = Library.open([str(corpus)])
    library.indexing.ensure()
    shallow = library.run_query("learning", depth=10)
    deep = library.run_query("learning", depth=None)
    assert shallow.truncated and not deep.truncated
    assert len(deep.indices) > 10
    assert shallow.indices[:10] == deep.indices[:10]


def test_collection_filter_is_applied_by_the_index(corpus):
    library = Library.open([str(corpus)])
    library.indexing.ensure()
    view = library.run_query('learning collection:"collection 1"', depth=5)
    assert view.indices and all(
        "Synthetic collection 1" in library.papers[i].collections for i in view.indices
    )
    assert len(view.indices) <= 5 or view.truncated


@pytest.fixture(scope="module")
def many_titles() -> list[str]:
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


@pytest.fixture(scope="module")
def title_matcher(many_titles) -> TitleMatcher:
    return TitleMatcher(many_titles)  # its trigrams built once, at the first match


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_trigram_path_agrees_with_scanning_for_exact_substrings(many_titles, title_matcher, data):
    matcher = title_matcher
    i = data.draw(st.integers(0, len(many_titles) - 1))
    title = many_titles[i]
    start = data.draw(st.integers(0, max(0, len(title) - 6)))
    needle = title[start : start + data.draw(st.integers(3, 15))]
    assume(len(utils.default_process(needle)) >= fuzzy.MIN_QUERY)
    found = {j for j, _ in matcher.match(needle, limit=5000, cutoff=100)}
    assert i in found


def test_saved_trigram_index_serves_only_the_titles_it_was_built_for(many_titles, tmp_path):
    saved = tmp_path / "titles.trigrams"
    built = TitleMatcher(many_titles)
    built.prepare(saved)
    assert saved.exists()
    loaded = TitleMatcher(many_titles)
    loaded.prepare(saved)
    for typed in ("caligcl", "cligcl", "optimal transport 12", "graph kernel"):
        assert loaded.match(typed) == built.match(typed), typed
    # a new title in place of an old one: the saved trigrams would not know it
    changed = [*many_titles[:-1], "Zyxwvut: a quantum sparrow estimator"]
    other = TitleMatcher(changed)
    other.prepare(saved)
    assert [i for i, _ in other.match("zyxwvt")] == [len(changed) - 1]
    saved.write_bytes(b"\x00damaged")
    damaged = TitleMatcher(many_titles)
    damaged.prepare(saved)
    assert damaged.match("caligcl") == built.match("caligcl")


def test_saved_trigram_index_is_read_from_the_file_not_held(many_titles, tmp_path):
    """At a million titles the postings and the processed titles are 430 MB: a saved index
    keeps them in the file, mapped, and answers as the one built in memory does."""
    many_titles = [*many_titles, "Gödel numbering for naïve graph kernels"]  # decoded too
    saved = tmp_path / "titles.trigrams"
    in_memory = TitleMatcher(many_titles)
    in_memory.prepare()
    TitleMatcher(many_titles).prepare(saved)
    loaded = TitleMatcher(many_titles)
    loaded.prepare(saved)
    assert isinstance(loaded._titles, fuzzy.MappedTitles)
    assert isinstance(loaded._postings, memoryview)
    assert list(loaded._titles) == list(in_memory._titles)
    for typed in ("caligcl", "calgcl", "optimal transport 12", "graph kernel", "neural 39"):
        assert loaded.match(typed) == in_memory.match(typed), typed
    assert loaded.match("godel numbrin")[0][0] == len(many_titles) - 1
    rng = random.Random(7)
    for _ in range(60):  # pieces of titles, whole or reversed (scored), in a filter or not
        title = utils.default_process(rng.choice(many_titles))
        start = rng.randrange(len(title) - 3)
        typed = title[start : start + rng.randint(3, 14)]
        typed = typed[::-1] if rng.random() < 0.4 else typed
        among = set(rng.sample(range(len(many_titles)), 3500)) if rng.random() < 0.5 else None
        assert loaded.match(typed, among=among) == in_memory.match(typed, among=among), typed
    whole = saved.read_bytes()
    saved.write_bytes(whole[: len(whole) - 100])  # cut short: built again, still right
    cut = TitleMatcher(many_titles)
    cut.prepare(saved)
    assert cut.match("caligcl") == in_memory.match("caligcl")
    assert saved.stat().st_size == len(whole)


def test_titles_appended_extend_the_saved_trigram_index(many_titles, tmp_path, monkeypatch):
    """Papers appended to a large library extend the saved index (at a million titles building
    it again took 24 s); it then answers as one built afresh for all the titles does."""
    saved = tmp_path / "titles.trigrams"
    TitleMatcher(many_titles[:3500]).prepare(saved)
    grown = [*many_titles, "Zyxwvut: a quantum sparrow estimator"]  # new trigrams too
    fresh = TitleMatcher(grown)
    fresh.prepare()
    build = TitleMatcher._index
    monkeypatch.setattr(
        TitleMatcher, "_index", lambda self: build(self) if self._slots else pytest.fail("built")
    )
    extended = TitleMatcher(grown)
    extended.prepare(saved)
    for typed in ("caligcl", "zyxwvt", "sparow estimator", "optimal transport 3999", "graph 12"):
        assert extended.match(typed) == fresh.match(typed), typed
    assert [i for i, _ in extended.match("zyxwvt")] == [len(grown) - 1]
    again = TitleMatcher(grown)
    again.prepare(saved)  # saved for every title now: loaded as it is
    assert isinstance(again._postings, memoryview)
    assert again.match("caligcl") == fresh.match("caligcl")
    monkeypatch.undo()
    # the earlier titles changed (one renamed): built afresh, not extended
    renamed = [*grown[:5], "Qqqzzx frobnicated", *grown[6:]]
    monkeypatch.setattr(TitleMatcher, "_extend", lambda self, start: pytest.fail("extended"))
    other = TitleMatcher([*renamed, "one more title here"])
    other.prepare(saved)
    assert [i for i, _ in other.match("qqqzzx frobnicated")] == [5]


@settings(max_examples=150, deadline=None)
@example(["bc", "abcd x", "zabcd"], "abcd", 2, False)  # a title shorter than the needle, in it
@given(
    st.lists(st.text(alphabet="abc d", min_size=1, max_size=12), min_size=1, max_size=60),
    st.text(alphabet="abc d", min_size=3, max_size=6),
    st.integers(min_value=1, max_value=8),
    st.booleans(),
)
def test_closest_titles_are_those_rapidfuzz_ranks_first(titles, needle, limit, some):
    # the first letters typed are whole in many titles: those are taken without scoring
    # every title, and must be exactly what scoring every one gives
    from rapidfuzz import fuzz, process

    chosen = list(range(0, len(titles), 2)) if some else None
    pool = titles if chosen is None else [titles[i] for i in chosen]
    found = process.extract(
        needle, pool, scorer=fuzz.partial_ratio, processor=None, score_cutoff=80.0, limit=limit
    )
    expected = [(i if chosen is None else chosen[i], score) for _, score, i in found]
    assert fuzzy.closest(needle, titles, chosen, limit, 80.0) == expected


def test_child_indexer_reports_progress_and_builds(corpus):
    seen: list[tuple[int, int]] = []
    index_in_child([str(corpus)], lambda d, t: seen.append((d, t)), lambda: False)
    assert seen and seen[-1] == (400, 400)
    assert Library.open([str(corpus)]).indexing.is_current()


def test_deferred_open_shows_what_the_child_has_read_then_the_whole_corpus(corpus, monkeypatch):
    from papertui.core import library as library_module

    monkeypatch.setattr(library_module, "DEFER_BYTES", 0)  # parse nothing in this process
    library = Library.open_deferred([str(corpus)])
    assert library.loading and library.papers == [] and library.indexing.needs_child_process()
    assert not library.indexing.is_current()
    with pytest.raises(RuntimeError):
        library.indexing.ensure()  # not on part of the corpus
    sizes: list[int] = []

    def tick() -> None:  # what the reader's worker does while the child runs
        ready = library.load_ready()
        if ready is not None:
            sizes.append(len(ready.papers))
            library.replace_corpus(ready)

    library.indexing.run_in_child(lambda d, t: None, lambda: False, tick=tick)
    shown = list(library.papers)
    whole = library.finish_loading()  # None: the ticks took every file already
    if whole is not None:
        library.replace_corpus(whole)
    assert not library.loading and library.papers[: len(shown)] == shown
    assert sizes == sorted(sizes) and all(0 < n <= 400 for n in sizes)
    assert library.indexing.ensure().how == "reused"  # the child's index, for all 400 papers
    eager = Library.open([str(corpus)])
    eager.indexing.ensure()
    assert [p.id for p in library.papers] == [p.id for p in eager.papers]
    assert library.run_query("learning").indices == eager.run_query("learning").indices
    eager.close()
    library.close()


def test_deferred_open_of_a_cached_or_small_corpus_is_an_open(corpus):
    library = Library.open_deferred([str(corpus)])  # 400 papers: parsed at once
    assert not library.loading and len(library.papers) == 400
    library.close()


def test_child_indexer_failure_is_one_clear_line(tmp_path):
    with pytest.raises(IndexFailed, match="no papers could be read from .*missing"):
        index_in_child([str(tmp_path / "missing")], lambda d, t: None, lambda: False)


def _fake_indexer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """Make `index_in_child` start a stand-in that runs `body` instead of `papertui index`."""
    script = tmp_path / "fake_index.py"
    script.write_text(body, encoding="utf-8")
    launcher = tmp_path / "fake-python"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}"\n', encoding="utf-8")
    launcher.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(launcher))


def _run_in_thread(target, seconds: float):  # type: ignore[no-untyped-def]
    """Run `target` in a thread; (finished, exception raised or None, seconds taken)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            target()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    start = time.perf_counter()
    thread.start()
    thread.join(seconds)
    return bool(outcome), (outcome[0] if outcome else None), time.perf_counter() - start


def test_child_with_many_warnings_finishes(tmp_path, monkeypatch):
    # 2 MB of warnings: far more than a pipe holds, written before any progress line
    _fake_indexer(
        tmp_path,
        monkeypatch,
        "import sys\n"
        "for i in range(40000):\n"
        "    print(f'warning {i}: a record without an abstract was skipped', file=sys.stderr)\n"
        'print(\'{"done": 7, "total": 7}\', flush=True)\n',
    )
    seen: list[tuple[int, int]] = []
    children: list[subprocess.Popen[str]] = []
    finished, error, _ = _run_in_thread(
        lambda: index_in_child(
            ["x"], lambda d, t: seen.append((d, t)), lambda: False, children.append
        ),
        30,
    )
    for child in children:
        child.kill()  # a hung child (the defect) must not outlive the test
    assert finished, "the build hung: the child's stderr pipe was never drained"
    assert error is None and seen == [(7, 7)]


def test_cancel_stops_a_silent_child_promptly(tmp_path, monkeypatch):
    _fake_indexer(tmp_path, monkeypatch, "import time\ntime.sleep(60)\n")
    asked = time.perf_counter()
    children: list[subprocess.Popen[str]] = []
    finished, error, took = _run_in_thread(
        lambda: index_in_child(
            ["x"], lambda d, t: None, lambda: time.perf_counter() - asked > 0.3, children.append
        ),
        20,
    )
    for child in children:
        child.kill()
    assert finished and isinstance(error, IndexCancelled)
    assert took < 5, f"cancelling took {took:.1f} s"
    assert children and children[0].poll() is not None  # the child was ended, not left running


def test_child_failure_reports_its_last_error_line_even_after_many(tmp_path, monkeypatch):
    _fake_indexer(
        tmp_path,
        monkeypatch,
        "import sys\n"
        "for i in range(20000):\n"
        "    print(f'warning {i}', file=sys.stderr)\n"
        "print('papertui: the disk is full', file=sys.stderr)\n"
        "sys.exit(1)\n",
    )
    finished, error, _ = _run_in_thread(
        lambda: index_in_child(["x"], lambda d, t: None, lambda: False), 30
    )
    assert finished and isinstance(error, IndexFailed)
    assert str(error) == "papertui: the disk is full"


def test_one_threshold_for_child_process_and_parallel_writer(tmp_path, monkeypatch):
    # the reader asks `needs_child_process`; an in-process build below it must never fork
    from papertui.core.search import building, needs_child_process

    assert not needs_child_process(building.PARALLEL_FROM - 1)
    assert needs_child_process(building.PARALLEL_FROM) == ((os.cpu_count() or 1) > 1)
    forked: list[int] = []

    class Child:
        def __init__(self, directory: object, papers: list[object]) -> None:
            forked.append(len(papers))
            raise RuntimeError("forked")

    monkeypatch.setattr(building, "SegmentChild", Child)
    monkeypatch.setattr(building, "add_paper", lambda writer, paper, vocab: None)
    monkeypatch.setattr(building, "_save_fingerprints", lambda directory, papers: None)
    papers = [object()] * building.PARALLEL_FROM
    for n in (building.PARALLEL_FROM - 1, building.PARALLEL_FROM):
        with contextlib.suppress(RuntimeError):
            building._build(tmp_path / str(n), papers[:n], None, None)  # type: ignore[arg-type]
        assert bool(forked) == needs_child_process(n)
    assert forked in ([], [building.PARALLEL_FROM // 2])


def test_index_of_a_forced_format_is_not_taken_for_the_files_own(tmp_path):
    path = tmp_path / "dump.csv"
    path.write_text("title,abstract\n\nA,alpha beta gamma delta\n\nB,epsilon zeta eta theta\n")
    forced = Library.open([str(path)], "text")
    forced.indexing.ensure()
    assert forced.papers and forced.indexing.is_current()
    forced.close()
    own = Library.open([str(path)])  # read as CSV: other papers from the same unchanged file
    assert [p.abstract for p in own.papers] != [p.abstract for p in forced.papers]
    assert not own.indexing.is_current()
    assert quick_search([str(path)], "alpha", 1) is None
    own.indexing.ensure()
    assert own.indexing.is_current()
    own.close()


def test_index_that_opens_but_cannot_answer_is_reported_then_rebuilt(corpus):
    library = Library.open([str(corpus)])
    library.indexing.ensure()
    assert library.index is not None
    directory = library.index.directory
    library.close()
    for f in directory.iterdir():
        if f.suffix == ".pst":  # the postings: the index still opens, no query can run
            f.write_bytes(b"")
    assert quick_search([str(corpus)], "learning", 5) is None  # steps aside, never raises
    library = Library.open([str(corpus)])
    library.indexing.ensure()
    assert library.index is not None
    with pytest.raises(SearchFailed):
        library.index.search("learning")
    assert library.indexing.ensure(rebuild=True).how == "built"
    assert library.run_query("learning").indices
    library.close()


def test_update_derives_titles_only_for_new_papers(corpus, monkeypatch):
    from papertui.core import library as library_module
    from papertui.core.corpus import paper as paper_module  # where Paper.title derives

    monkeypatch.setattr(library_module, "EAGER_TITLES", 0)  # as for a large corpus
    first = Library.open([str(corpus)])
    first.indexing.ensure()
    titles = {p.id: p.title for p in first.papers}
    first.close()
    append_paper(corpus, "We propose Zyxwvut, a sparrow estimator for quantum flocks.")
    derived: list[str] = []
    real = paper_module.derive_title
    monkeypatch.setattr(
        paper_module, "derive_title", lambda text: derived.append(text) or real(text)
    )
    second = Library.open([str(corpus)])
    assert second.indexing.ensure().how == "updated"
    assert len(derived) == 1 and "Zyxwvut" in derived[0]
    assert {p.id: p.title for p in second.papers if p.id in titles} == titles
    second.close()


def test_an_update_fingerprints_each_paper_once(corpus, monkeypatch):
    from papertui.core.library import indexing as indexing_module
    from papertui.core.search import building, generations

    first = Library.open([str(corpus)])
    first.indexing.ensure()
    first.close()
    append_paper(corpus, "We propose Qwertyx, a lantern estimator for tidal flocks.")
    counted: list[str] = []
    real = building.fingerprint
    for module in (building, generations, indexing_module):  # every module that calls it
        monkeypatch.setattr(module, "fingerprint", lambda p: counted.append(p.id) or real(p))
    second = Library.open([str(corpus)])
    report = second.indexing.ensure()
    assert report.how == "updated"
    assert sorted(counted) == sorted(p.id for p in second.papers)  # the digest's pass only
    assert len(second.indexing.index.search("qwertyx").hits) == 1
    second.close()


def test_the_digest_of_unchanged_files_is_the_indexs_own(corpus, monkeypatch):
    # the vectors' cache is keyed by the corpus digest: at a million papers, computing it is
    # 4 s of every start and every `papertui semantic`
    from papertui.core.search import building, corpus_digest, generations

    first = Library.open([str(corpus)])
    first.indexing.ensure()
    expected = corpus_digest(first.papers)
    first.close()
    counted: list[str] = []
    real = building.fingerprint
    monkeypatch.setattr(generations, "fingerprint", lambda p: counted.append(p.id) or real(p))
    second = Library.open([str(corpus)])
    assert second.indexing.digest() == expected and not counted
    second.close()
    append_paper(corpus, "We propose Vexillum, a banner estimator for windy flocks.")
    third = Library.open([str(corpus)])  # the files changed: computed from the papers
    changed = third.indexing.digest()
    assert len(counted) == len(third.papers)
    assert changed == corpus_digest(third.papers) != expected
    third.close()


def test_cancelling_a_parallel_build_ends_every_process_it_started(tmp_path):
    # a build this large forks a segment writer of its own; quitting the reader mid-build
    # used to leave that writer blocked on a pipe nobody read, holding the child's output
    # open, so the reader's quit waited for it forever
    from papertui.core.search import building

    folder = tmp_path / "big"
    write_corpus(folder, building.PARALLEL_FROM, files=1, seed=5)
    if not building.needs_child_process(building.PARALLEL_FROM):
        pytest.skip("one CPU: a build never forks a segment writer")
    seen: list[int] = []
    children: list[subprocess.Popen[str]] = []
    finished, error, took = _run_in_thread(
        lambda: index_in_child(
            [str(folder)],
            lambda d, t: seen.append(d),
            lambda: bool(seen) and seen[-1] > 2000,
            children.append,
        ),
        60,
    )
    left = _processes_naming(str(folder))
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
    assert finished, f"the cancelled build hung; still running: {left}"
    assert isinstance(error, IndexCancelled)
    assert not left, f"processes left running after the cancel: {left}"
    library = Library.open([str(folder)])  # nothing half-written is taken for an index
    assert not library.indexing.is_current()
    assert library.indexing.ensure().how == "built"
    assert len(library.run_query("learning", limit=3).indices) == 3
    library.close()


def _processes_naming(text: str) -> list[int]:
    """Ids of the running processes whose command line holds `text` (Linux /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            argv = (entry / "cmdline").read_bytes().decode("utf-8", "replace")
            status = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
            if text in argv and status != "Z":
                found.append(int(entry.name))
    return found


def test_search_before_the_index_is_built_matches_the_words_in_file_order(corpus):
    # a first open of 100,000 papers indexes for a minute: a query then said "search starts
    # when indexing is done" and showed nothing
    library = Library.open([str(corpus)])
    assert library.index is None
    papers = library.papers
    word = papers[7].abstract.split()[3].strip(".,;:()").lower()
    view = library.run_query(word, depth=None)
    has = [i for i, p in enumerate(papers) if word in p.abstract.lower()]
    assert view.indices == has and 7 in has
    assert any("index not ready" in n for n in view.remarks)
    other = papers[7].abstract.split()[5].strip(".,;:()").lower()
    both = library.run_query(f"{word.upper()} -{other}", depth=None).indices
    assert both == [i for i in has if other not in papers[i].abstract.lower()]
    assert 7 not in both
    first = library.run_query(word, depth=3)
    assert first.indices == has[:3] and first.truncated  # scrolling on asks for more
    assert library.run_query(f"{word} year:1850", depth=None).indices == []
    library.close()


def test_a_warm_start_reads_each_title_once_and_keeps_no_list_of_them(many_titles, tmp_path):
    # the titles come from the corpus cache, decoded on each read: at a million, a list of them
    # and one of their processed forms were 260 MB more at the reader's peak
    from papertui.core.corpus import Paper
    from papertui.core.query.fuzzy import PaperTitles

    reads = []

    class Counted(Paper):
        __slots__ = ()

        @property
        def title(self) -> str:
            reads.append(1)
            return str(self._title)

    papers = [Counted(str(n), "x", ["C"], "s", title=t) for n, t in enumerate(many_titles)]
    saved = tmp_path / "titles.trigrams"
    TitleMatcher(PaperTitles(papers)).prepare(saved)
    reads.clear()
    warm = TitleMatcher(PaperTitles(papers))
    warm.prepare(saved)
    assert len(reads) == len(papers)
    assert isinstance(warm._processed, fuzzy.MappedTitles)
    assert [i for i, _ in warm.match("cligcl")][:1] == [1234]
    # papers appended: the saved index is extended, each title still read once (the hash of
    # the earlier titles is taken on the way, the processed titles kept from the same pass)
    papers.append(Counted("new", "x", ["C"], "s", title="Zyxwvut sparrow estimator"))
    reads.clear()
    grown = TitleMatcher(PaperTitles(papers))
    grown.prepare(saved)
    assert len(reads) == len(papers)
    assert [i for i, _ in grown.match("zyxwvut sparow")][:1] == [len(papers) - 1]
