"""Related papers, topics, `~` queries, "for you", ask-me, feedback and the overview, through the
Library and the CLI, on a generated corpus with three obvious themes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papertui.cli import main
from papertui.core.library import Library
from papertui.core.search import IndexCancelled
from papertui.core.semantic.foryou import is_passed_over
from papertui.core.store import drafts

THEMES = {
    "graph": "graph neural network molecule atom bond message passing node edge chemistry "
    "molecular property prediction drug",
    "robot": "reinforcement learning robot policy reward agent control locomotion "
    "manipulation trajectory exploration simulator",
    "scan": "medical imaging scan tumour segmentation radiology mri patient clinical "
    "lesion diagnosis ultrasound",
}
COMMON = "we study a model and report experiments on benchmarks with strong baselines".split()  # noqa: SIM905


def abstract(theme: str, rng: random.Random, n: int) -> str:
    words = THEMES[theme].split()
    body = [rng.choice(words) for _ in range(25)] + rng.sample(COMMON, 5)
    rng.shuffle(body)
    return f"Paper {theme} number {n}: " + " ".join(body) + "."


def corpus_text(per_theme: int = 20, seed: int = 3) -> tuple[str, dict[str, list[int]]]:
    rng = random.Random(seed)
    blocks, where = [], {t: [] for t in THEMES}
    for n in range(per_theme):
        for theme in THEMES:
            where[theme].append(len(blocks))
            blocks.append(abstract(theme, rng, n))
    return "Themes\n\n" + "\n\n".join(blocks) + "\n", where


@pytest.fixture
def dump(write_corpus) -> Path:  # type: ignore[no-untyped-def]
    text, _ = corpus_text()
    return write_corpus(text)


@pytest.fixture
def library(dump: Path):  # type: ignore[no-untyped-def]
    lib = Library.open([dump])
    lib.indexing.ensure()
    yield lib
    lib.close()


def theme_of(lib: Library, pos: int) -> str:
    return lib.papers[pos].abstract.split()[1]


def test_semantic_state_before_and_after(library: Library) -> None:
    assert library.semantic.state() == "topics: not built"
    assert library.semantic.topic_label(1) == ""
    library.semantic.ensure()
    assert library.semantic.state() == ""
    assert library.semantic.topic_label(1)
    # a second library over the same files loads the cache instead of building
    again = Library.open(library.sources)
    again.semantic.ensure(progress=lambda d, t: pytest.fail("rebuilt"))
    assert again.semantic.ready()
    again.close()


def test_loaded_vectors_and_topics_keep_the_papers_ids_not_copies(
    library: Library, dump: Path
) -> None:
    # at a million papers each copy of the ids was 60 MB, and their positions 40 MB more
    library.semantic.ensure()
    again = Library.open(library.sources)
    again.semantic.ensure(progress=lambda d, t: pytest.fail("rebuilt"))
    vectors, topics = again.semantic.vectors(), again.semantic.cache().topics
    assert topics is not None and topics.ids is vectors.ids
    assert all(a is p.id for a, p in zip(vectors.ids, again.papers, strict=True))
    assert [vectors.position(p.id) for p in again.papers] == list(range(len(again.papers)))
    again.close()
    # one paper gone: the vectors keep its row, so their rows are no longer the papers'
    text = dump.read_text("utf-8")
    gone = library.papers[0].abstract
    dump.write_text(text.replace(gone + "\n\n", ""), "utf-8")
    fewer = Library.open(library.sources)
    assert len(fewer.papers) == len(library.papers) - 1
    fewer.indexing.ensure()
    fewer.semantic.ensure()
    vectors = fewer.semantic.vectors()
    assert len(vectors) == len(library.papers)
    assert all(vectors.ids[vectors.position(p.id)] == p.id for p in fewer.papers)
    view = fewer.semantic.similar(fewer.papers[0], limit=10)
    assert all(theme_of(fewer, i) == theme_of(fewer, 0) for i in view.indices)
    fewer.close()


def test_similar_uses_vectors_and_excludes_the_paper(library: Library) -> None:
    library.semantic.ensure()
    paper = library.papers[0]
    view = library.semantic.similar(paper, limit=10)
    assert len(view.indices) == 10
    assert 0 not in view.indices
    assert all(theme_of(library, i) == theme_of(library, 0) for i in view.indices)


def test_similar_before_vectors_falls_back_to_the_index(library: Library) -> None:
    view = library.semantic.similar(library.papers[0], limit=5)
    assert view.indices and 0 not in view.indices


def test_tilde_query_ranks_by_meaning_with_filters(library: Library) -> None:
    before = library.run_query("~robots learning to walk")
    assert any("not built" in n for n in before.remarks)
    library.semantic.ensure()
    view = library.run_query("~a robot agent learning a locomotion policy")
    assert view.indices[:10] and all(theme_of(library, i) == "robot" for i in view.indices[:10])
    library.marks.set_bookmark(library.papers[view.indices[3]], True)
    only = library.run_query("~robot locomotion is:bookmarked")
    assert only.indices == [view.indices[3]]
    unread = library.run_query("~a robot agent learning a locomotion policy is:unread")
    robots = sum(theme_of(library, i) == "robot" for i in range(len(library.papers)))
    # papers about the sentence, not every paper sharing a common word with it
    assert robots - 1 <= len(unread.indices) < len(library.papers) // 2


def test_topic_filter(library: Library) -> None:
    early = library.run_query("topic:1")
    assert any("topics not computed" in n for n in early.remarks)
    assert len(early.indices) == len(library.papers)  # ignored, not "nothing"
    library.semantic.ensure()
    groups = [set(library.run_query(f"topic:{n}").indices) for n in (1, 2, 3)]
    assert all(groups) and not groups[0] & groups[1]
    # one topic is one theme, and topic: combines with words and other filters
    assert len({theme_of(library, i) for i in groups[0]}) == 1
    first = min(groups[0])
    library.marks.set_bookmark(library.papers[first], True)
    assert library.run_query("topic:1 is:bookmarked").indices == [first]
    assert set(library.run_query("-topic:1").indices) == set(range(len(library.papers))) - groups[0]
    assert library.run_query("topic:99").remarks[-1] == "there is no topic 99"


def test_for_you_puts_the_liked_theme_first_and_sinks_negative_keywords(
    library: Library,
) -> None:
    library.semantic.ensure()
    graphs = [i for i in range(len(library.papers)) if theme_of(library, i) == "graph"]
    robots = [i for i in range(len(library.papers)) if theme_of(library, i) == "robot"]
    library.marks.like([library.papers[i] for i in graphs[:3]])
    library.marks.set_read([library.papers[i] for i in robots[:3]], True)
    view = library.run_query("", sort="foryou")
    unread = len(library.papers) - 6
    top = view.indices[: len(graphs) - 3]
    assert all(theme_of(library, i) == "graph" for i in top)
    assert set(view.indices[unread:]) == set(robots[:3] + graphs[:3])  # judged papers last
    assert view.why[top[0]].startswith("about ")
    # a negative keyword sinks the medical papers below the robots, without hiding them
    assert library.foryou.add_negative_keyword("Radiology") is None
    assert library.foryou.negative_keywords() == ["Radiology"]
    sunk = library.run_query("", sort="foryou")
    has = ["radiology" in library.papers[i].abstract for i in sunk.indices[:unread]]
    assert 0 < sum(has) < unread
    assert has == sorted(has)  # every paper with the phrase after every one without
    assert '"Radiology"' in sunk.why[sunk.indices[unread - 1]]
    assert len(library.run_query("radiology").indices) == sum(has)  # still found by search


def test_for_you_training_is_cached_per_snapshot(library: Library) -> None:
    library.semantic.ensure()
    library.marks.like([library.papers[0]])
    first = library.foryou.interest()
    assert library.foryou.interest() is first
    library.marks.skip([library.papers[1]])
    assert library.foryou.interest() is not first


def test_ask_me_and_answers(library: Library) -> None:
    library.semantic.ensure()
    library.marks.like([library.papers[0], library.papers[3]])
    library.marks.skip([library.papers[1]])
    library.marks.set_read([library.papers[2]], True)
    assert library.foryou.answers() == 4
    view = library.foryou.ask_me(limit=5)
    assert len(view.indices) == 5
    assert not {0, 1, 2, 3} & set(view.indices)
    assert view.remarks == ["learned from 2 kept, 2 passed over"]  # the skip and the read


def test_seeds_from_a_broken_file_name_each_problem_once(library: Library, write_corpus) -> None:  # type: ignore[no-untyped-def]
    """A trial's seed file with one broken entry said so, then "(and 1 more)": the same entry
    counted again."""
    rng = random.Random(4)
    good = "@article{{{k}, title={{T}}, abstract={{{a}}}}}\n"
    text = good.format(k="a", a=abstract("robot", rng, 40)) + "@article{b, title={Broken\n\n"
    text += good.format(k="c", a=abstract("robot", rng, 40)) + "@article{d, title={T}}\n"
    seeds = write_corpus(text, "seeds.bib")
    problems: list[str] = []
    assert library.foryou.add_seeds(seeds, problems) == 2
    assert len(problems) == 2, problems
    unreadable, no_abstract = problems
    assert (
        unreadable.startswith(f"{seeds}: 1 BibTeX entry could not be read") and "line" in unreadable
    )
    assert no_abstract == f"{seeds}: skipped no abstract: 1"


def test_feedback_and_seeds_persist_and_reset(library: Library, write_corpus) -> None:  # type: ignore[no-untyped-def]
    library.marks.like([library.papers[0]])
    library.marks.skip([library.papers[1]])
    rng = random.Random(9)
    seeds = write_corpus(
        "Mine\n\n" + abstract("robot", rng, 90) + "\n\n" + library.papers[2].abstract + "\n",
        "seeds.txt",
    )
    assert library.foryou.add_seeds(seeds) == 2
    again = Library.open(library.sources)
    notes = again.annotations()
    assert notes.feedback_word(library.papers[0].id) == "liked"
    assert notes.feedback_word(library.papers[1].id) == "skipped"
    assert notes.feedback_word(library.papers[2].id) == "liked"  # in the library: liked
    assert [s.abstract.split()[1] for s in notes.seeds] == ["robot"]
    assert len(again.papers) == len(library.papers)  # seeds join no collection
    again.semantic.ensure()
    top = again.foryou.rank(limit=5)
    assert top.indices  # seed + likes give a profile
    again.marks.unjudge([again.papers[0]])
    assert again.annotations().feedback_word(again.papers[0].id) is None
    again.marks.set_read([again.papers[3]], True)
    assert again.foryou.answer_counts()[1] == 2  # the skip and the read
    again.marks.reset_feedback()
    assert not again.annotations().feedback and not again.annotations().seeds
    # a fresh start: what was read before the reset no longer counts as passed over (it
    # stays read), what is read after it does, and the reset survives a reopen
    assert again.foryou.answer_counts() == (0, 0) and again.annotations().reads
    time.sleep(0.01)
    again.marks.set_read([again.papers[4]], True)
    again.close()
    third = Library.open(library.sources)
    assert third.foryou.answer_counts() == (0, 1)
    # a note typed on it and not saved yet (the terminal closed): not passed over
    assert is_passed_over(third.annotations(), third.papers[4].id)
    drafts.keep(third.papers[4].id, "worth a second read")
    assert third.foryou.answer_counts() == (0, 0)
    assert not is_passed_over(third.annotations(), third.papers[4].id)
    drafts.drop(third.papers[4].id)
    assert third.foryou.answer_counts() == (0, 1)
    third.close()


def test_overview_has_topics_with_unread_counts(library: Library) -> None:
    library.marks.set_read([library.papers[0]], True)
    plain = library.semantic.overview(list(range(len(library.papers))), terms=False)
    assert plain.topics == [] and plain.view.unread == len(library.papers) - 1
    library.semantic.ensure()
    full = library.semantic.overview(list(range(len(library.papers))))
    assert sum(t.size for t in full.topics) == len(library.papers)
    assert sum(t.unread for t in full.topics) == len(library.papers) - 1
    assert full.years is None and full.venues is None


def test_semantic_child_builds_with_progress_and_can_be_cancelled(dump: Path) -> None:
    from papertui.core.semantic.child import semantic_in_child

    seen: list[tuple[int, int]] = []
    semantic_in_child([str(dump)], lambda d, t: seen.append((d, t)), lambda: False)
    assert seen and seen[-1][0] == seen[-1][1]
    lib = Library.open([dump])
    lib.semantic.ensure(progress=lambda d, t: pytest.fail("rebuilt"), in_process=True)
    lib.close()
    with pytest.raises(IndexCancelled):
        semantic_in_child([str(dump)], lambda d, t: None, lambda: True)


def test_ui_does_not_import_numpy_at_startup() -> None:
    code = "import sys, papertui.ui.app; print('numpy' in sys.modules or 'scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- CLI --------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_rank_records_and_feedback(dump: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", str(dump), "--json")
    papers = json.loads(out)
    graph = [p["id"] for p in papers if p["abstract"].split()[1] == "graph"]
    for pid in graph[:3]:
        assert run(capsys, "like", pid, "-c", str(dump))[0] == 0
    assert run(capsys, "skip", papers[1]["id"], "-c", str(dump))[0] == 0
    code, out, _ = run(capsys, "rank", str(dump), "--limit", "5", "--json")
    assert code == 0
    ranked = json.loads(out)
    assert len(ranked) == 5
    assert set(ranked[0]) >= {"id", "title", "abstract", "read", "feedback", "score", "why"}
    assert all(r["abstract"].split()[1] == "graph" for r in ranked)
    assert not {r["id"] for r in ranked} & set(graph[:3])
    assert run(capsys, "feedback", "--reset", "-c", str(dump))[0] == 0
    code, out, err = run(capsys, "rank", str(dump), "--json")
    assert "nothing learned yet" in err
    assert run(capsys, "feedback", "-c", str(dump))[0] == 2


def test_cli_rank_explains_every_paper_it_prints(
    dump: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from papertui.core.semantic import foryou

    monkeypatch.setattr(foryou, "WHY_LIMIT", 2)  # the order explains only its top two
    _, out, _ = run(capsys, "list", str(dump), "--json")
    graph = [p["id"] for p in json.loads(out) if p["abstract"].split()[1] == "graph"]
    for pid in graph[:3]:
        run(capsys, "like", pid, "-c", str(dump))
    code, out, _ = run(capsys, "rank", str(dump), "--limit", "40", "--json")
    ranked = json.loads(out)
    assert code == 0 and len(ranked) == 40
    assert all(r["why"] for r in ranked)


def test_cli_like_file_seeds(dump: Path, write_corpus, capsys) -> None:  # type: ignore[no-untyped-def]
    seeds = write_corpus(abstract("scan", random.Random(5), 77) + "\n", "mine.txt")
    code, out, _ = run(capsys, "like", str(seeds), "-c", str(dump))
    assert (code, out.strip()) == (0, f"liked 1 paper from {seeds}")
    code, out, _ = run(capsys, "rank", str(dump), "--limit", "3", "--json")
    assert all(r["abstract"].split()[1] == "scan" for r in json.loads(out))
    code, _, err = run(capsys, "like", "nope.bib", "-c", str(dump))
    assert code == 2 and "nope.bib: no such file" in err


def test_cli_seeds_liked_from_another_library_are_liked_papers_here(  # type: ignore[no-untyped-def]
    dump: Path, write_corpus, capsys
) -> None:
    _, out, _ = run(capsys, "list", str(dump), "--json")
    papers = json.loads(out)
    graph = [p for p in papers if p["abstract"].split()[1] == "graph"][:2]
    # liked as a file while another library (the bundled one) was open: stored as seeds
    copy = write_corpus("\n\n".join(p["abstract"] for p in graph) + "\n", "two.txt")
    assert run(capsys, "like", str(copy))[0] == 0
    code, out, _ = run(capsys, "rank", str(dump), "--limit", "5", "--json")
    ranked = json.loads(out)
    assert not {r["id"] for r in ranked} & {p["id"] for p in graph}  # never recommended again
    assert all(r["abstract"].split()[1] == "graph" for r in ranked)


def test_a_seed_that_is_a_library_paper_in_other_words_is_that_paper(  # type: ignore[no-untyped-def]
    dump: Path, write_corpus, capsys
) -> None:
    """A .bib's copy of a paper often differs from the dump's (a title, a word, markup), so
    the ids differ: the copy is found by content and never recommended back."""
    _, out, _ = run(capsys, "list", str(dump), "--json")
    papers = json.loads(out)
    graph = [p for p in papers if p["abstract"].split()[1] == "graph"][:2]
    entries = [
        f"@article{{k{n},\n  title = {{A study {n}}},\n"
        f"  abstract = {{{p['abstract'].replace('the', 'a', 1)} Code is online.}}\n}}"
        for n, p in enumerate(graph)
    ]
    bib = write_corpus("\n\n".join(entries) + "\n", "mine.bib")
    assert run(capsys, "like", str(bib))[0] == 0  # the bundled library open: stored as seeds
    code, out, err = run(capsys, "rank", str(dump), "--limit", "5", "--json")
    ranked = json.loads(out)
    assert not {r["id"] for r in ranked} & {p["id"] for p in graph}  # never recommended back
    assert all(r["abstract"].split()[1] == "graph" for r in ranked)
    assert "learned from 2 kept" in err


def test_cli_overview_json_and_topic_search(dump: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "overview", str(dump), "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {
        "counts", "years", "venues", "collections", "abstract_words", "terms", "topics",
    }  # fmt: skip
    assert data["years"] is None and data["venues"] is None  # absent fields
    assert data["counts"]["view"]["papers"] == 60
    first = data["topics"][0]
    assert set(first) == {"number", "label", "size", "unread", "ids"}
    code, out, _ = run(capsys, "search", f"topic:{first['number']}", str(dump), "--json")
    assert {r["id"] for r in json.loads(out)} <= set(first["ids"])
    code, out, _ = run(
        capsys, "search", "~robot reward policy", str(dump), "--json", "--limit", "5"
    )
    assert all(r["abstract"].split()[1] == "robot" for r in json.loads(out))


def test_cli_similar_excludes_the_paper(dump: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "list", str(dump), "--json")
    first = json.loads(out)[0]
    code, out, _ = run(capsys, "similar", first["id"], str(dump), "--limit", "5", "--json")
    got = json.loads(out)
    assert code == 0 and len(got) == 5 and first["id"] not in {r["id"] for r in got}
    assert all(r["abstract"].split()[1] == first["abstract"].split()[1] for r in got)


# -- cache, store, settings, queries ----------------------------------------------------------


def test_added_papers_extend_the_cache(dump: Path) -> None:
    from papertui.core.semantic.service import SemanticCache

    lib = Library.open([dump])
    lib.semantic.ensure()
    with dump.open("a", encoding="utf-8") as f:
        f.write("\n" + abstract("robot", random.Random(11), 500) + "\n")
    grown = Library.open([dump])
    cache = SemanticCache(grown.index_store.root / "semantic")
    assert cache.ensure(grown.indexing.digest(), grown.papers) == "extended"
    new = grown.papers[-1]
    assert new.id in cache.vectors.ids and cache.topics.topic_of(new.id) >= 0  # type: ignore[union-attr]
    assert SemanticCache(cache.root).ensure(grown.indexing.digest(), grown.papers) == "reused"
    lib.close()
    grown.close()


def test_a_schema_2_store_gains_the_seeds_table(tmp_path: Path) -> None:
    import sqlite3

    from papertui.core.store import Seed, Store

    path = tmp_path / "store.sqlite"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE seeds")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    store = Store(path)
    assert store.add_seeds([Seed("s1", "", "An abstract.", "mine.txt")]) == 1
    store.close()
    again = Store(path)
    assert [s.id for s in again.snapshot().seeds] == ["s1"]
    again.close()


def test_negative_keywords_setting(tmp_path: Path) -> None:
    from papertui.core.system.settings import add_negative_keyword, load_settings, settings_path

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('theme = "nord"\nnegative_keywords = [\n  "quantum",\n]\n[keys]\nhelp = "?"\n')
    assert add_negative_keyword("  medical   imaging ") is None
    assert add_negative_keyword("QUANTUM") is None  # already there, any case
    settings = load_settings()
    assert settings.negative_keywords == ["quantum", "medical imaging"]
    assert settings.theme == "nord" and settings.keys == {"help": "?"} and not settings.problems
    assert add_negative_keyword(" ") is not None
    path.write_text("negative_keywords = 3\n")
    assert load_settings().problems


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("built")
    mp = pytest.MonkeyPatch()
    for name in ("DATA", "CACHE", "CONFIG"):
        mp.setenv(f"PAPERTUI_{name}_DIR", str(tmp / name.lower()))
    dump = tmp / "dump.txt"
    dump.write_text(corpus_text()[0], encoding="utf-8")
    lib = Library.open([dump])
    lib.indexing.ensure()
    lib.semantic.ensure()
    lib.marks.like([lib.papers[0]])
    yield lib
    lib.close()
    mp.undo()


QUERY_PARTS = ["~", "~robot", "topic:1", "-topic:2", "topic:9", "graph", "OR", "is:read", "("]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.sampled_from(QUERY_PARTS), max_size=6).map(" ".join),
    st.sampled_from(["relevance", "foryou"]),
)
def test_any_semantic_query_and_sort_gives_a_view(built: Library, query: str, sort: str) -> None:
    view = built.run_query(query, sort=sort)
    assert all(0 <= i < len(built.papers) for i in view.indices)
    assert len(set(view.indices)) == len(view.indices)
    if sort == "foryou" and not query:
        assert len(view.indices) == len(built.papers)


def test_cli_like_file_says_which_entries_it_left_out(  # type: ignore[no-untyped-def]
    dump: Path, write_corpus, capsys
) -> None:
    bib = write_corpus(
        "@article{a1,\n  title = {Graphs},\n  abstract = {Graph networks on molecules.}\n}\n\n"
        "@article{a2,\n  title = {No abstract here}\n}\n\n"
        "@article{a3\n  title = {Broken, no comma\n  abstract = {oops\n}\n\n"
        "@article{a4,\n  title = {Proteins},\n  abstract = {Protein folding from sequences.}\n}\n",
        "mine.bib",
    )
    code, out, err = run(capsys, "like", str(bib), "-c", str(dump))
    assert (code, out.strip()) == (0, f"liked 2 papers from {bib}")
    assert "could not be read" in err and "line 10" in err
    assert "no abstract: 1" in err
