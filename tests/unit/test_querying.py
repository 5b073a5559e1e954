"""Query planning: filters combine like words, answer the same in the CLI and the reader, and
cost time linear in what they admit."""

from __future__ import annotations

import json

import pytest

from papertui.cli import main
from papertui.core.corpus import Paper
from papertui.core.library import Library
from papertui.core.query import parse_query
from papertui.core.query.planner import Planner
from papertui.core.store import Annotations


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tagged(write_corpus):
    abstracts = [f"Paper {i} studies graph learning with method number {i}." for i in range(6)]
    abstracts += [f"Paper {i} studies protein folding with trick {i}." for i in range(6, 10)]
    path = write_corpus("T\n\n" + "\n\n".join(abstracts))
    library = Library.open([path])
    library.indexing.ensure()
    papers = library.papers
    library.marks.set_tag([papers[0]], "a", True)
    library.marks.set_tag([papers[7]], "b", True)
    library.marks.set_note(papers[8], "a note")
    library.marks.set_note(papers[1], "another")
    library.marks.set_tag([papers[1]], "to-read", True)
    library.marks.set_tag([papers[9]], "to-read", True)
    yield library, path
    library.close()


def shown(library: Library, query: str) -> set[int]:
    return set(library.run_query(query, depth=None).indices)


def test_filters_combine_with_or_not_and_parentheses(tagged):
    library, _ = tagged
    assert shown(library, "tag:a OR tag:b") == {0, 7}
    assert shown(library, "has:note OR tag:to-read") == {1, 8, 9}
    graph = shown(library, "graph")
    assert graph == set(range(6))
    assert shown(library, "graph OR has:note") == graph | {8}
    assert shown(library, "graph AND NOT tag:a") == graph - {0}
    assert shown(library, "(tag:a OR tag:b) protein") == {7}
    assert shown(library, "graph -tag:a") == graph - {0}  # the plain AND path still works
    view = library.run_query("graph OR has:note", depth=None)
    assert view.indices[0] in graph and view.indices[-1] == 8  # ranked hits, then the rest


def test_cli_answers_or_filters_like_the_reader(tagged, capsys):
    _, path = tagged
    code, out, _ = run(capsys, "search", "tag:a OR tag:b", str(path), "--json")
    assert code == 0 and {r["tags"][0] for r in json.loads(out)} == {"a", "b"}


def test_a_field_no_paper_has_is_named(tagged):
    library, _ = tagged
    view = library.run_query("year:2024")
    assert view.indices == [] and "no paper here has a year" in view.remarks
    assert "no paper here has a venue" in library.run_query("venue:nips").remarks


def test_query_starting_with_minus_is_a_query_not_an_option(tagged, capsys):
    _, path = tagged
    code, out, err = run(capsys, "search", "-protein graph", str(path), "--limit", "3", "--json")
    assert code == 0, err
    assert len(json.loads(out)) == 3 and all("graph" in r["abstract"] for r in json.loads(out))
    code, out, err = run(capsys, "search", "-tag:a", str(path), "--json", "--limit", "20")
    assert code == 0 and len(json.loads(out)) == 9, err


def test_is_new_answers_the_same_in_the_cli_and_the_reader(write_corpus, capsys):
    path = write_corpus("N\n\nFirst abstract about graphs.\n\nSecond abstract about graphs.")
    assert run(capsys, "list", str(path), "--json")[0] == 0  # the file is seen for the first time
    with path.open("a", encoding="utf-8") as f:
        f.write("\n\nThird abstract about graphs.\n\nFourth abstract about graphs.\n")
    code, out, _ = run(capsys, "search", "is:new", str(path), "--json")
    new = {r["abstract"].split()[0] for r in json.loads(out)}
    assert code == 0 and new == {"Third", "Fourth"}
    listed = json.loads(run(capsys, "list", str(path), "--json")[1])
    assert {r["abstract"].split()[0] for r in listed if r["new"]} == new
    library = Library.open([path])
    library.marks.mark_seen()
    assert {library.papers[i].abstract.split()[0] for i in shown(library, "is:new")} == new
    library.close()


def test_search_answered_from_the_index_alone_carries_the_user_state(write_corpus, capsys):
    abstracts = [f"Graph paper number {i} on message passing." for i in range(30)]
    path = write_corpus("Q\n\n" + "\n\n".join(abstracts))
    listed = json.loads(run(capsys, "list", str(path), "--json")[1])
    pid = listed[0]["id"]
    run(capsys, "index", str(path))
    run(capsys, "tag", pid, "later", "-c", str(path))
    run(capsys, "read", pid, "-c", str(path))
    code, out, _ = run(capsys, "search", "graph", str(path), "--json", "--limit", "30")
    record = next(r for r in json.loads(out) if r["id"] == pid)
    assert code == 0 and record["tags"] == ["later"] and record["read"] is True
    assert record["new"] is False and set(record) >= set(listed[0])  # the same record shape


class Counting(dict):
    """A tag index that counts its look-ups."""

    calls = 0

    def get(self, key, default=None):  # type: ignore[override]
        Counting.calls += 1
        return super().get(key, default)


def test_filters_cost_time_linear_in_what_they_admit():
    n, tags = 100_000, 1_000
    papers = [Paper(f"{i:012x}", f"abstract {i}", ["C"], "c.txt") for i in range(n)]
    # 1,000 tags on 2,000 papers: t7 is on papers 350 and 50,350
    tagged = {f"{k * 50:012x}": frozenset({f"t{k % tags}"}) for k in range(2 * tags)}
    reads = {f"{i:012x}": 1.0 for i in [*range(1, n, 2), 50_350]}  # odd papers and 50,350
    notes = Annotations(tags=tagged, reads=reads)
    planner = Planner(papers, {p.id: i for i, p in enumerate(papers)})
    index = Counting(planner.sets.tag_index(notes))
    planner.sets._tag_index = (notes, index)
    view = planner.run("tag:t7", notes)
    assert view.indices == [350, 50_350]
    assert Counting.calls == 1  # one look-up for the filter, not one per paper
    assert len(planner.run("-tag:t7", notes).indices) == n - 2
    assert planner.run("is:unread tag:t7", notes).indices == [350]
    assert Counting.calls == 3
    parsed = parse_query("tag:t7 OR tag:t8")
    assert parsed.tree is not None and len(planner.run("tag:t7 OR tag:t8", notes).indices) == 4


def test_cli_search_says_which_words_it_repaired(tagged, capsys):
    _, path = tagged
    code, out, err = run(capsys, "search", "grph", str(path), "--json")
    assert code == 0 and json.loads(out) and "searched grph→graph" in err
