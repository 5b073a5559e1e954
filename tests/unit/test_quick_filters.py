"""`papertui search` with tag, bookmark, note, read and like filters answers from the index and
the store, without reading the corpus, and gives what the full path gives."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from papertui.cli import main
from papertui.core.library import Library, quick_search

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from gen_corpus import write_corpus  # noqa: E402

# a paper whose title the words miss but a fuzzy title match finds: "multi" and "modal" are
# indexed words (of other papers), "Multimodal" is one word in its title
DESIGNED = [
    ("Multimodal Fusion of Touch and Sight", "We fuse touch and sight for grasping robots."),
    ("A Multi Stage Planner", "A multi stage planner over modal logic formulas for agents."),
]

QUERIES = [
    "tag:x learning",
    "tag:X model",
    "tag:x multi modal",
    "is:bookmarked learning",
    "has:note model",
    "is:read learning",
    "is:unread learning",
    "-tag:x learning",
    "tag:x -is:read model",
    "is:liked model",
    "is:skipped learning",
    "tag:nosuch learning",
    "tag:x learning model",
]


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    write_corpus(folder, 300, files=2, seed=5)
    lines = [json.dumps({"title": t, "abstract": a}) for t, a in DESIGNED]
    (folder / "designed.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _annotate(library: Library) -> None:
    papers = library.papers
    rng = random.Random(7)
    picked = rng.sample(range(len(papers)), 80)
    designed = [p for p in papers if p.title == DESIGNED[0][0]]
    library.marks.set_tag([papers[i] for i in picked[:12]] + designed, "x", True)
    for i in picked[12:20]:
        library.marks.set_bookmark(papers[i], True)
    for i in picked[20:26]:
        library.marks.set_note(papers[i], "to reread")
    library.marks.set_read([papers[i] for i in picked[:60:2]], True)
    library.marks.like([papers[i] for i in picked[60:66]])
    library.marks.skip([papers[i] for i in picked[66:72]])


def test_filtered_searches_give_what_the_full_path_gives(library_dir):
    paths = [str(library_dir)]
    library = Library.open(paths)
    try:
        library.indexing.ensure()
        _annotate(library)
        answered = set()
        for query in QUERIES:
            for limit in (3, 20, 60):
                quick = quick_search(paths, query, limit)
                full = library.run_query(query, limit=limit, depth=max(100, limit))
                want = [library.papers[i].id for i in full.indices][:limit]
                if quick is not None:
                    answered.add((query, limit))
                    assert [r["id"] for r in quick] == want, (query, limit)
                    titles = [library.papers[i].title for i in full.indices][:limit]
                    assert [r["title"] for r in quick] == titles, query
    finally:
        library.close()
    # the filters that need no corpus were answered without it, at every length
    for query in QUERIES:
        assert all((query, limit) in answered for limit in (3, 20, 60)), query


def test_a_fuzzy_title_match_among_a_tag_is_found_without_the_corpus(library_dir):
    paths = [str(library_dir)]
    library = Library.open(paths)
    try:
        library.indexing.ensure()
        _annotate(library)
        full = library.run_query("tag:x multi modal", limit=20)
        assert [library.papers[i].title for i in full.indices] == [DESIGNED[0][0]]
    finally:
        library.close()
    quick = quick_search(paths, "tag:x multi modal", 20)
    assert quick is not None and [r["title"] for r in quick] == [DESIGNED[0][0]]


def test_the_search_command_reads_no_corpus_for_a_tag_filter(library_dir, capsys, monkeypatch):
    assert main(["index", str(library_dir)]) == 0
    capsys.readouterr()
    library = Library.open([str(library_dir)])
    try:
        library.indexing.ensure()
        _annotate(library)
        want = [library.papers[i].id for i in library.run_query("tag:x learning").indices]
    finally:
        library.close()

    def no_corpus(*args, **kwargs):  # the full path opens the library: it must not be needed
        raise AssertionError("the corpus was read")

    monkeypatch.setattr("papertui.commands.papers.open_library", no_corpus)
    assert main(["search", "tag:x learning", str(library_dir), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in records] == want[: len(records)] and records
