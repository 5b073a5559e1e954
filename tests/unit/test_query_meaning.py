"""Every query means what it says: random queries (words, phrases, fields, years, filters, AND,
OR, NOT, `-`, parentheses) give the planner exactly the papers the plain-Python reference gives,
on the bundled corpus and on a generated one with tags, notes, read state and years; and a query
and its negation split the library between them.

Fuzzy title matches, which the planner adds to a plain query that found few papers (the name a
user half remembers), are suggestions on top of a query's meaning and are switched off here.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from query_reference import Node, Reference, write

from papertui.cli import main
from papertui.core.library import Library
from papertui.core.search.schema import STOP_WORDS

SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
FILTERS = [
    "is:bookmarked", "is:read", "is:unread", "is:new", "is:liked", "is:skipped", "has:note",
    "tag:a", "tag:to-read", "tag:none-such",
]  # fmt: skip


def vocabulary(library: Library) -> tuple[list[str], list[str]]:
    """Words and two-word phrases that stand in the papers (so no typo repair applies)."""
    words: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for paper in library.papers:
        tokens = re.findall(r"[a-z]{3,}", paper.abstract.lower())
        words.update(t for t in tokens if t not in STOP_WORDS)
        pairs.update(f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False))
    common = [w for w, _ in words.most_common(40)]
    rare = [w for w, n in words.items() if n == 2][:15]
    phrases = [p for p, n in pairs.most_common(60) if not set(p.split()) & STOP_WORDS][:15]
    return common + rare + ["the", "of"], phrases


def queries(
    words: list[str], phrases: list[str], extra: list[str], years: bool
) -> st.SearchStrategy[Node]:
    word = st.builds(
        lambda w, f: Node("word", w, f), st.sampled_from(words), st.sampled_from(["", "", "title"])
    )
    phrase = st.builds(lambda p: Node("phrase", p), st.sampled_from(phrases))
    filt = st.builds(lambda f: Node("filter", f), st.sampled_from(FILTERS + extra))
    leaves = [word, word, phrase, filt]
    if years:
        year = st.tuples(st.integers(2019, 2024), st.integers(0, 2)).map(
            lambda t: Node("year", years=(t[0], t[0] + t[1]))
        )
        author = st.builds(
            lambda n: Node("word", n, "author"), st.sampled_from(["lovelace", "noether", "turing"])
        )
        leaves += [year, author]
    leaf = st.one_of(*leaves)

    def grow(inner: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
        parts = st.lists(inner, min_size=2, max_size=3).map(tuple)
        return st.one_of(
            st.builds(lambda c, d: Node("not", children=(c,), dash=d), inner, st.booleans()),
            st.builds(lambda c, s: Node("and", children=c, spelled_and=s), parts, st.booleans()),
            st.builds(lambda c: Node("or", children=c), parts),
        )

    return st.recursive(leaf, grow, max_leaves=5)


def planner_set(library: Library, query: str) -> set[int]:
    return set(library.run_query(query, depth=None).indices)


def check(library: Library, node: Node) -> None:
    query = write(node)
    reference = Reference(library.papers, library.annotations())
    expected = reference.evaluate(node)
    assert planner_set(library, query) == expected, query
    negated = planner_set(library, f"NOT ({query})")
    assert len(expected) + len(negated) == len(library.papers), query
    assert not expected & negated, query


def annotate(library: Library, seed: int) -> None:
    rng = random.Random(seed)
    papers = library.papers
    marks = library.marks
    for paper in rng.sample(papers, max(2, len(papers) // 6)):
        marks.set_bookmark(paper, True)
    for paper in rng.sample(papers, max(2, len(papers) // 8)):
        marks.set_note(paper, "worth a second look")
    marks.set_tag(rng.sample(papers, max(2, len(papers) // 5)), "a", True)
    marks.set_tag(rng.sample(papers, max(2, len(papers) // 7)), "to-read", True)
    marks.set_read(rng.sample(papers, max(2, len(papers) // 3)), True)
    marks.like(rng.sample(papers, 3))
    marks.skip(rng.sample(papers, 3))


@pytest.fixture(scope="module")
def bundled(bundled_library: Library) -> Library:
    annotate(bundled_library, 1)
    bundled_library.planner.titles = None
    return bundled_library


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Library:
    mp = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("generated")
    mp.setenv("PAPERTUI_DATA_DIR", str(base / "data"))
    mp.setenv("PAPERTUI_CACHE_DIR", str(base / "cache"))
    rng = random.Random(7)
    topics = ["graph", "protein", "language", "image", "robot", "market", "climate", "proof"]
    verbs = ["learning", "folding", "modelling", "transport", "search", "diffusion", "planning"]
    filler = ["we", "propose", "a", "method", "for", "the", "study", "of", "with", "results"]
    authors = ["Ada Lovelace", "Emmy Noether", "Alan Turing", "Grace Hopper"]
    with (base / "gen.jsonl").open("w", encoding="utf-8") as f:
        for i in range(160):
            words = rng.choices(topics + verbs + filler, k=rng.randint(8, 30))
            record = {
                "title": f"{rng.choice(topics).title()} {rng.choice(verbs)} {i}",
                "abstract": " ".join(words) + f" number {i}.",
                "authors": rng.sample(authors, rng.randint(0, 2)),
                "venue": rng.choice(["NeurIPS", "ICML", ""]),
            }
            if rng.random() < 0.8:
                record["year"] = rng.randint(2019, 2024)
            f.write(json.dumps(record) + "\n")
    library = Library.open([base / "gen.jsonl"])
    library.indexing.ensure()
    annotate(library, 2)
    library.planner.titles = None
    yield library
    library.close()
    mp.undo()


def test_bundled_queries_mean_what_the_reference_says(bundled: Library) -> None:
    words, phrases = vocabulary(bundled)

    @SETTINGS
    @given(queries(words, phrases, ["collection:neurips", "collection:daily"], years=False))
    def run(node: Node) -> None:
        check(bundled, node)

    run()


def test_generated_queries_mean_what_the_reference_says(generated: Library) -> None:
    words, phrases = vocabulary(generated)

    @SETTINGS
    @given(queries(words, phrases, ["collection:gen"], years=True))
    def run(node: Node) -> None:
        check(generated, node)

    run()


NEGATIONS = {
    "-graph": "NOT graph",
    '-"graph neural"': 'NOT "graph neural"',
    "-graph -neural": "NOT graph NOT neural",
    "is:unread -graph": "is:unread NOT graph",
    "is:read -graph": "is:read NOT graph",
    "has:note -graph": "has:note NOT graph",
    "-year:2021 graph": "graph NOT year:2021",
    "(-graph)": "NOT graph",
    "tag:a OR -graph": "tag:a OR (NOT graph)",
    "-(graph OR neural)": "NOT graph NOT neural",
}


@pytest.mark.parametrize("query", NEGATIONS)
def test_negations_alone_and_under_filters_mean_without(bundled: Library, query: str) -> None:
    """The issue's cases: each gave "no papers match" while its NOT spelling worked."""
    found = planner_set(bundled, query)
    assert found, query
    assert found == planner_set(bundled, NEGATIONS[query])
    graph = planner_set(bundled, "graph")
    if "OR" not in query and ("-graph" in query or "-(graph" in query):
        assert not found & graph


def test_a_sign_before_not_negates_once_more(generated: Library) -> None:
    """A generated query found "NOT -NOT is:bookmarked" read as "is:bookmarked": "-NOT" was
    taken for a word where the full-text parser reads a sign and NOT."""
    marked = planner_set(generated, "is:bookmarked")
    assert marked and marked != set(range(len(generated.papers)))
    assert planner_set(generated, "NOT -NOT is:bookmarked") == planner_set(
        generated, "NOT is:bookmarked"
    )
    assert planner_set(generated, "-NOT is:bookmarked") == marked
    assert planner_set(generated, "-NOT -is:bookmarked") == planner_set(generated, "-is:bookmarked")


def test_a_negated_year_keeps_the_papers_of_other_years(generated: Library) -> None:
    years = [p.year for p in generated.papers]
    found = planner_set(generated, "-year:2021")
    assert found == {i for i, y in enumerate(years) if y != 2021}


def test_the_cli_answers_negations_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--json", "--limit", "500", "-graph"]) == 0
    without = json.loads(capsys.readouterr().out)
    assert main(["search", "--json", "--limit", "500", "graph"]) == 0
    with_graph = json.loads(capsys.readouterr().out)
    assert len(without) + len(with_graph) == 139
