"""Full-text search through the library: ranking, typos, syntax, filters and the index cache."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from papertui.core.library import Library
from papertui.core.search import IndexStore, SearchFailed, SearchIndex
from papertui.core.system.paths import bundled_corpus_dir

BUNDLED = bundled_corpus_dir()


@pytest.fixture(scope="module")
def library(bundled_library):  # type: ignore[no-untyped-def]
    return bundled_library


def titles(library: Library, query: str, **kw) -> list[str]:
    return [library.papers[i].title for i in library.run_query(query, **kw).indices]


def abstracts(library: Library, query: str) -> list[str]:
    return [library.papers[i].abstract for i in library.run_query(query).indices]


def test_typos_still_rank_optimal_transport_first(library):
    found = abstracts(library, "optmal transprt")
    assert found and "optimal transport" in found[0].lower()
    assert library.run_query("optmal transprt").corrections == {
        "optmal": "optimal",
        "transprt": "transport",
    }


def test_swapped_letters_repair_to_the_frequent_word(write_corpus):
    # "modle" is one deletion from "mode" and one swap from "model": the swap counts as one
    # edit, and of words equally near the one the corpus uses most is searched and named
    papers = [f"A diffusion model {n} for images with a model of noise." for n in range(6)]
    papers.append("A sampling mode of diffusion in this one.")
    lib = Library.open([write_corpus("C\n\n" + "\n\n".join(papers))])
    lib.indexing.ensure()
    view = lib.run_query("difusion modle")
    assert view.corrections == {"difusion": "diffusion", "modle": "model"}
    found = [lib.papers[i].abstract for i in view.indices]
    assert len(found) == 6 and all("model" in a for a in found)
    lib.close()


@pytest.mark.parametrize("query,name", [("caligcl", "CaliGCL"), ("cdflow", "CDFlow")])
def test_method_names_find_their_paper(library, query, name):
    assert titles(library, query)[0].startswith(name)


def test_misspelled_words_find_caligcl_in_top_three(library):
    assert any(t.startswith("CaliGCL") for t in titles(library, "grph contrastive")[:3])


def test_misspelled_name_found_through_titles(library):
    assert titles(library, "nopropp")[0].startswith("NoProp")


def test_all_words_must_match(library):
    for abstract in abstracts(library, "diffusion inverse"):
        low = abstract.lower()
        assert "diffusion" in low and "invers" in low


def test_phrase_or_not_and_prefix(library):
    phrase = abstracts(library, '"optimal transport"')
    assert phrase and all("optimal transport" in a.lower() for a in phrase)
    either = set(abstracts(library, "caligcl OR cdflow"))
    assert len(either) == 2
    graph = set(abstracts(library, "graph"))
    no_neural = abstracts(library, "graph -neural")
    assert no_neural and all("neural" not in a.lower() for a in no_neural)
    assert set(abstracts(library, "graph NOT neural")) == set(no_neural)
    assert set(no_neural) < graph
    assert any("invertible" in a.lower() for a in abstracts(library, "invertib*"))


@pytest.mark.parametrize("word", ["self-supervised", "fine-tuning", "zero-shot"])
def test_a_hyphen_inside_a_word_joins_it_and_does_not_negate(library, word):
    found = abstracts(library, word)
    having = [a for a in (p.abstract for p in library.papers) if word in a.lower()]
    assert having and found
    assert all(word.split("-")[1] in a.lower() for a in found)  # not "NOT tuning"
    assert set(having) <= set(found)
    assert set(abstracts(library, f"+{word}")) == set(found)  # a leading + still means "must"


@pytest.mark.parametrize(
    "query", ['"unbalanced', "AND", "(", "NOT NOT", "*", "title:", ")", "OR OR"]
)
def test_malformed_queries_never_raise(library, query):
    view = library.run_query(query)
    assert isinstance(view.indices, list)


def test_malformed_query_falls_back_to_its_words(library):
    assert titles(library, '"caligcl')[0].startswith("CaliGCL")
    assert titles(library, "(cdflow")[0].startswith("CDFlow")


def test_collection_filter_and_negation(library):
    neurips = library.run_query("collection:neurips").indices
    assert len(neurips) == 19
    assert len(library.run_query("-collection:neurips").indices) == 120
    assert len(library.run_query('c:"daily papers" graph').indices) < 120


def test_bookmark_and_note_filters(library):
    first, second = library.papers[0], library.papers[1]
    library.marks.set_bookmark(first, True)
    library.marks.set_note(second, "read for Tuesday")
    try:
        assert library.run_query("is:bookmarked").indices == [0]
        assert library.run_query("", bookmarks_only=True).indices == [0]
        assert library.run_query("has:note").indices == [1]
        assert len(library.run_query("-has:note").indices) == 138
    finally:
        library.marks.set_bookmark(first, False)
        library.marks.set_note(second, "")


def test_unknown_filter_is_reported_not_fatal(library):
    view = library.run_query("is:weird graph")
    assert view.indices and any("is:weird" in n for n in view.remarks)


def test_highlighter_marks_stemmed_query_words(library):
    view = library.run_query("graphs contrastive")
    spans = view.highlighter.spans("Graph contrastive learning on graphs, not contrast.")
    text = "Graph contrastive learning on graphs, not contrast."
    assert [text[a:b] for a, b in spans] == ["Graph", "contrastive", "graphs", "contrast"]


def test_index_reused_then_rebuilt_when_corpus_changes(tmp_path, write_corpus):
    path = write_corpus("C\n\nalpha beta gamma.\n\ndelta epsilon.")
    lib = Library.open([path])
    assert lib.indexing.ensure().how == "built"
    lib.close()
    lib = Library.open([path])
    assert lib.indexing.ensure().how == "reused"
    lib.close()
    path.write_text("C\n\nalpha beta gamma.\n\ndelta epsilon.\n\nzeta eta theta.", "utf-8")
    lib = Library.open([path])
    assert lib.indexing.ensure().how == "updated"
    assert [lib.papers[i].abstract for i in lib.run_query("zeta").indices] == ["zeta eta theta."]
    lib.close()


def test_an_updated_index_finds_what_a_fresh_build_finds(write_corpus, monkeypatch, tmp_path):
    import random

    from papertui.core.search import building

    rng = random.Random(7)
    words = [
        "graph",
        "protein",
        "robot",
        "policy",
        "fold",
        "neural",
        "kernel",
        "bandit",
        "causal",
        "shape",
    ]

    def abstract(n: int) -> str:
        return f"Study {n}: " + " ".join(rng.choice(words) for _ in range(12)) + "."

    texts = [abstract(n) for n in range(300)]
    path = write_corpus("C\n\n" + "\n\n".join(texts))
    first = Library.open([path])
    first.indexing.ensure()
    before = first.index_store.current_dir()
    assert before is not None
    first.close()
    kept = tmp_path / "kept"  # the same files (inodes) as the generation before, linked
    kept.mkdir()
    for f in before.iterdir():
        os.link(f, kept / f.name)
    files = {f.name: f.read_bytes() for f in kept.iterdir()}
    texts = texts[5:] + [abstract(n) for n in range(300, 360)]  # 5 gone, 60 new
    texts[10] = abstract(999)  # one changed
    path.write_text("C\n\n" + "\n\n".join(texts), "utf-8")
    monkeypatch.setattr(building, "MAX_SEGMENTS", 3)
    updated = Library.open([path])
    assert updated.indexing.ensure().how == "updated"
    # the new generation shares files with the one before (which a reader may still have
    # open): none of them was changed in place
    assert {f.name: f.read_bytes() for f in kept.iterdir()} == files
    monkeypatch.setenv("PAPERTUI_CACHE_DIR", str(tmp_path / "fresh"))
    fresh = Library.open([path])
    assert fresh.indexing.ensure().how == "built"
    for query in [*words, "study", "graph protein", "-robot kernel", '"neural kernel"']:
        found = {updated.papers[i].id for i in updated.run_query(query, depth=1000).indices}
        assert found == {fresh.papers[i].id for i in fresh.run_query(query, depth=1000).indices}
    updated.close()
    fresh.close()
    monkeypatch.setenv("PAPERTUI_CACHE_DIR", str(tmp_path / "cache"))
    for n in range(2):  # more updates, each a segment, up to the limit: then built afresh
        path.write_text(path.read_text("utf-8") + f"\n\nAdded later {n}.", "utf-8")
        again = Library.open([path])
        assert again.indexing.ensure().how == ("updated" if n == 0 else "built")
        again.close()


@pytest.mark.parametrize("damage", ["delete", "truncate", "garbage", "pointer"])
def test_damaged_index_is_rebuilt(write_corpus, damage):
    path = write_corpus("C\n\nalpha beta gamma.\n\ndelta epsilon.")
    lib = Library.open([path])
    lib.indexing.ensure()
    store: IndexStore = lib.index_store
    directory = store.current_dir()
    lib.close()
    assert directory is not None
    if damage == "delete":
        shutil.rmtree(directory)
    elif damage == "pointer":
        store.pointer.write_text("gen-does-not-exist", "utf-8")
    else:
        for f in directory.iterdir():
            if f.suffix not in (".json", "") and "WRITELOCK" not in f.name:
                f.write_bytes(b"" if damage == "truncate" else b"\x00garbage" * 50)
    lib = Library.open([path])
    assert lib.indexing.ensure().how in ("built", "updated")
    assert len(lib.run_query("delta").indices) == 1
    lib.close()


def test_index_damaged_while_open_is_reported_not_an_empty_result(write_corpus):
    # the files are cut under an open index: no query can be answered, and the caller must be
    # told so (not shown "no papers", as if the words were nowhere)
    path = write_corpus("C\n\nalpha beta gamma.\n\ndelta epsilon.")
    lib = Library.open([path])
    lib.indexing.ensure()
    directory = lib.index_store.current_dir()
    lib.close()
    assert directory is not None
    index = SearchIndex(directory)
    assert [pid for pid, _ in index.search("delta").hits]
    for f in directory.iterdir():
        if f.suffix in (".pst", ".trm"):
            with f.open("r+b") as handle:
                handle.truncate(0)
    with pytest.raises(SearchFailed, match="search index could not be read"):
        index.search("alpha")
    index.close()


def test_lengths_in_memory_rank_exactly_as_whoosh_reads_them(library, monkeypatch):
    # the same scores whether field lengths come from the in-memory copy or from the file
    from whoosh.codec import whoosh3

    from papertui.core.search import lengths

    queries = ["graph contrastive", "optimal transport", "diffusion", '"neural network"', "lear*"]
    directory = library.index_store.current_dir()
    fast = SearchIndex(directory)
    ours = {q: fast.search(q).hits for q in queries}
    fast.close()
    monkeypatch.setattr(whoosh3.W3PerDocReader, "_cached_reader", lengths._original)
    slow = SearchIndex(directory)
    theirs = {q: slow.search(q).hits for q in queries}
    slow.close()
    assert all(ours[q] for q in queries)
    assert ours == theirs


def _hits_both_ways(directory, queries, monkeypatch, **kw):  # type: ignore[no-untyped-def]
    """Each query's hits scored from arrays, then by Whoosh's matchers (arrays turned off)."""
    import numpy  # noqa: F401 - loaded: every word query is scored from arrays

    from papertui.core.search import searching

    index = SearchIndex(directory)
    ours = {q: index.search(q, **kw).hits for q in queries}
    index.close()
    monkeypatch.setattr(searching.ArrayScorer, "handles", lambda self, q: False)
    index = SearchIndex(directory)
    theirs = {q: index.search(q, **kw).hits for q in queries}
    index.close()
    return ours, theirs


@pytest.mark.parametrize("limit", [None, 3])
def test_word_queries_scored_from_arrays_rank_as_whoosh(library, monkeypatch, limit):
    # words, their fields, corrections, prefixes, OR and AND: the same hits, order and scores
    queries = ["graph", "grph", "lear*", "contrast*", "optmal", "diffusion", "caligcl",
               "graph contrastive", "optimal OR transport", "neural network training",
               "title:graph learning", "model"]  # fmt: skip
    directory = library.index_store.current_dir()
    ours, theirs = _hits_both_ways(directory, queries, monkeypatch, limit=limit)
    assert all(ours[q] for q in queries)
    for q in queries:
        assert [pid for pid, _ in ours[q]] == [pid for pid, _ in theirs[q]], q
        assert [s for _, s in ours[q]] == pytest.approx([s for _, s in theirs[q]], rel=1e-12), q


def test_word_queries_from_arrays_keep_filters(library, monkeypatch):
    papers = library.papers
    some = [p.id for p in papers[: len(papers) // 2]]
    collection = next(iter(papers[0].collections)).lower()
    queries = ["graph", "learning model", "lear*"]
    directory = library.index_store.current_dir()
    for only, exclude in (
        ([("id", some)], []),
        ([], [("id", some)]),
        ([("collection", [collection])], [("id", some[:5])]),
    ):
        ours, theirs = _hits_both_ways(directory, queries, monkeypatch, only=only, exclude=exclude)
        monkeypatch.undo()
        for q in queries:
            assert ours[q] and [h[0] for h in ours[q]] == [h[0] for h in theirs[q]], q
            chosen = set(some)
            if only and only[0][0] == "id":
                assert all(pid in chosen for pid, _ in ours[q])
            if exclude and exclude[0][1] is some:
                assert not any(pid in chosen for pid, _ in ours[q])


def test_word_queries_from_arrays_give_the_true_top_hits(library, monkeypatch):
    # the best `limit` of all hits as Whoosh scores them (Whoosh's own top-k skips blocks on
    # estimates and can miss some at 100k papers), ties by index order
    queries = ["learning model", "graph OR network", "diffusion"]
    directory = library.index_store.current_dir()
    top, every = {}, {}
    for q in queries:
        top[q] = _hits_both_ways(directory, [q], monkeypatch, limit=5)[0][q]
        monkeypatch.undo()
        every[q] = _hits_both_ways(directory, [q], monkeypatch, limit=None)[1][q]
        monkeypatch.undo()
    for q in queries:
        best = sorted(every[q], key=lambda h: -h[1])[:5]
        assert len(every[q]) > 5, q
        assert [s for _, s in top[q]] == pytest.approx([s for _, s in best], rel=1e-12), q


def test_arrays_wait_for_numpy_unless_the_query_is_large(library, monkeypatch):
    # a one-shot `papertui search` of a few rare words must not pay for importing numpy
    import sys

    from whoosh import query as wq

    from papertui.core.search import arrays

    index = SearchIndex(library.index_store.current_dir())
    q = wq.Or([wq.Term("title", "graph"), wq.Term("abstract", "graph")])
    try:
        monkeypatch.delitem(sys.modules, "numpy", raising=False)
        assert not index._arrays.worth(q)
        monkeypatch.setattr(arrays, "COLD_FROM", 1)
        assert index._arrays.worth(q)
        assert not index._arrays.worth(wq.Phrase("abstract", ["graph", "neural"]))
    finally:
        index.close()


def test_accents_are_folded_both_ways(write_corpus):
    dump = write_corpus(
        "Accents\n\nThe Gödel incompleteness theorems meet the Schrödinger equation in café queues."
        + "".join(
            f"\n\nPaper {i}: a model of graphs, a model of text, a model of models."
            for i in range(8)
        )
        + "\n"
    )  # "model" is one letter from "godel" and far more frequent: a repair would pick it
    library = Library.open([dump])
    library.indexing.ensure()
    for query in ("godel", "Gödel", "schrodinger", "cafe", "café"):
        found = [library.papers[i].abstract for i in library.run_query(query).indices]
        assert found and found[0].startswith("The Gödel"), query


def _with_deletions(library, tmp_path):  # type: ignore[no-untyped-def]
    """A copy of the library's index with every third paper deleted (as an update that drops
    papers leaves it), and the deleted ids."""
    import shutil

    directory = tmp_path / "deleted"
    shutil.copytree(library.index_store.current_dir(), directory)
    return directory, _delete_every_third(library, directory)


def _delete_every_third(library, directory):  # type: ignore[no-untyped-def]
    """Delete every third paper from the index at `directory`; their ids."""
    from whoosh import index as windex

    gone = [p.id for p in library.papers[::3]]
    ix = windex.open_dir(str(directory))
    writer = ix.writer()
    for pid in gone:
        writer.delete_by_term("id", pid)
    writer.commit(merge=False)
    ix.close()
    return set(gone)


def test_word_queries_from_arrays_skip_deleted_papers(library, monkeypatch, tmp_path):
    # a segment with deletions is read block by block and the deleted papers masked after:
    # the same hits, order and scores as Whoosh's own matchers, and no deleted paper
    directory, gone = _with_deletions(library, tmp_path)
    queries = ["graph", "learning model", "lear*", "optimal OR transport"]
    ours, theirs = _hits_both_ways(directory, queries, monkeypatch, limit=None)
    for q in queries:
        assert ours[q] and not any(pid in gone for pid, _ in ours[q]), q
        assert [pid for pid, _ in ours[q]] == [pid for pid, _ in theirs[q]], q
        assert [s for _, s in ours[q]] == pytest.approx([s for _, s in theirs[q]], rel=1e-12), q


@pytest.mark.parametrize("limit", [None, 5])
def test_a_query_of_no_word_lists_the_papers_in_file_order(library, tmp_path, limit):
    # typing a first letter ("a", a stop word) lists every paper the conditions admit, in file
    # order, deleted ones left out, and says how many: as Whoosh's own match of everything
    from whoosh import query as wq

    directory, gone = _with_deletions(library, tmp_path)
    order = [p.id for p in library.papers if p.id not in gone]
    some = order[1::2]
    index = SearchIndex(directory)
    try:
        plain = index.search("a", limit=limit)
        assert plain.hits == [(pid, 0.0) for pid in order[:limit]]
        assert plain.matched == len(order)
        only = index.search("a", limit=limit, only=[("id", some)], exclude=[("id", some[:3])])
        assert [pid for pid, _ in only.hits] == some[3:][:limit]
        assert only.matched == len(some) - 3
        whoosh = index._searcher.search(
            wq.Every(), limit=limit, filter=index._filter, mask=index._mask
        )
        assert [index._ids[d] for _s, d in whoosh.top_n] == [pid for pid, _ in only.hits]
    finally:
        index.close()


def test_a_search_nobody_waits_for_is_given_up(library, monkeypatch):
    # the reader gives up a search once the user has typed on: reading postings stops with
    # SearchStopped (not a failure, not the plain-words fallback); while still wanted, the
    # same answer as without the check
    import numpy  # noqa: F401 - loaded: word queries are scored from arrays

    from papertui.core.search import SearchStopped, arrays, stop_when

    monkeypatch.setattr(arrays, "STOP_EVERY", 1)
    expected = library.run_query("graph learning").indices
    with stop_when(lambda: False):
        assert library.run_query("graph learning").indices == expected
    asked = []
    with stop_when(lambda: asked.append(1) or True), pytest.raises(SearchStopped):
        library.run_query("network")  # one word: scored from arrays at any size
    assert asked
    assert library.run_query("graph learning").indices == expected  # nothing left half-done


def test_kept_word_arrays_stay_within_their_memory_bound(library, monkeypatch):
    # the arrays of common words are kept for the next query, but never more bytes of them
    # than the bound (a million papers' common words take megabytes each); answers unchanged
    import numpy  # noqa: F401 - loaded: word queries are scored from arrays

    from papertui.core.search import arrays

    monkeypatch.setattr(arrays, "KEEP_FROM_DF", 1)
    words = ["graph", "learning", "model", "network", "data", "method", "training"]
    index = SearchIndex(library.index_store.current_dir())
    try:
        free = {w: index.search(w).hits for w in words}
        sizes = [d.nbytes + s.nbytes for d, s in index._arrays._kept.values()]
        assert len(sizes) >= len(words)  # unbounded: every word's arrays kept
    finally:
        index.close()
    bound = sum(sorted(sizes)[-3:])  # room for about three words
    monkeypatch.setattr(arrays, "KEEP_BYTES", bound)
    index = SearchIndex(library.index_store.current_dir())
    try:
        for w in words * 2:
            assert index.search(w).hits == free[w], w
            kept = index._arrays._kept.values()
            assert sum(d.nbytes + s.nbytes for d, s in kept) <= bound
            assert index._arrays._kept_bytes == sum(d.nbytes + s.nbytes for d, s in kept)
        assert 1 <= len(index._arrays._kept) < len(sizes)
    finally:
        index.close()


def test_common_words_read_from_plain_arrays_score_as_whoosh(library, monkeypatch, tmp_path):
    # a segment's common words are also written as plain arrays beside it; read from there,
    # a query gives Whoosh's own hits, order and scores, with deletions, and a damaged file
    # is passed over for the blocks
    from papertui.core.search import dense
    from papertui.core.search.building import write_generation

    monkeypatch.setattr(dense, "DENSE_FROM", 5)
    directory = tmp_path / "gen"
    write_generation(directory, None, library.papers, None, None)
    files = list(directory.glob("*.dense"))
    assert len(files) == 1
    kept = dense.DenseReader.open(files[0])
    assert kept is not None and kept.postings("abstract", "graph") is not None
    assert kept.postings("abstract", "caligcl") is None  # one paper's word: not kept
    queries = ["graph", "learning model", "lear*", "optimal OR transport", "title:graph"]

    def same_as_whoosh(where, gone=frozenset()):  # type: ignore[no-untyped-def]
        ours, theirs = _hits_both_ways(where, queries, monkeypatch, limit=None)
        monkeypatch.undo()
        monkeypatch.setattr(dense, "DENSE_FROM", 5)
        for q in queries:
            assert ours[q] and not any(pid in gone for pid, _ in ours[q]), q
            assert [pid for pid, _ in ours[q]] == [pid for pid, _ in theirs[q]], q
            assert [s for _, s in ours[q]] == pytest.approx([s for _, s in theirs[q]], rel=1e-12)

    same_as_whoosh(directory)
    gone = _delete_every_third(library, directory)
    assert files[0].exists()  # deletions are kept in the table of contents, not the segment
    same_as_whoosh(directory, gone)
    with files[0].open("r+b") as damaged:
        damaged.truncate(files[0].stat().st_size - 3)
    assert dense.DenseReader.open(files[0]) is None
    same_as_whoosh(directory, gone)


def test_a_paper_changed_and_changed_back_is_indexed_as_it_now_reads(write_corpus):
    # an update compares the papers with those indexed, saved beside the index: a paper whose
    # venue went from A to B and back is indexed with A again (the index's terms still held
    # A's fingerprint after the first change, so it was taken for indexed)
    import json

    from papertui.core.search.building import FINGERPRINTS

    def write(venue: str) -> Path:
        records = [
            {"title": f"Paper {n}", "abstract": f"We study kernels number {n}.", "venue": "Old"}
            for n in range(6)
        ]
        records[2]["venue"] = venue
        return write_corpus("".join(json.dumps(r) + "\n" for r in records), "dump.jsonl")

    found = {}
    for step, venue in enumerate(["Alpha", "Beta", "Alpha"]):
        library = Library.open([write(venue)])
        assert library.indexing.ensure().how == ("built" if step == 0 else "updated")
        assert (library.index_store.current_dir() / FINGERPRINTS).exists()
        found[step] = [library.papers[i].title for i in library.run_query("venue:alpha").indices]
        library.close()
    assert found == {0: ["Paper 2"], 1: [], 2: ["Paper 2"]}


@pytest.mark.parametrize("query", ['"graph neural"', "graph", "graph -kernel"])
def test_conditions_hold_whoever_scores(library, query):
    # conditions given to Whoosh as sorted sets of papers (a phrase is scored by Whoosh, words
    # by arrays): none admitted finds nothing, and allowed and excluded papers combine
    index = SearchIndex(library.index_store.current_dir())
    try:
        assert index.search(query).hits
        assert index.search(query, only=[("id", ["no-such-paper"])]).hits == []
        some = [p.id for p in library.papers[:40]]
        found = index.search(query, only=[("id", some)], exclude=[("id", some[:20])]).hits
        assert found and all(pid in some[20:] for pid, _ in found)
    finally:
        index.close()
