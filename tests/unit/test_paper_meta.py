"""What fetched dumps carry beyond title and authors (arXiv id, categories, upvotes, listing day,
a conference's decision) is read, kept through the corpus cache and the index, searchable and
sortable; copies of one paper from two sources are one paper, and keep what was made on either."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.library import Library
from papertui.core.system import paths

ABSTRACT_A = "We study graph transformers for molecules and show they scale with data."
ABSTRACT_B = "A kernel method for spectral clustering that runs in linear time on sparse graphs."
# the same paper's abstract as another source words it (an updated arXiv version)
ABSTRACT_A2 = "We study graph transformers for molecules, and show that they scale with data."


def _jsonl(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def _hf(abstract, arxiv, upvotes, listed="2025-09-08"):
    return {
        "title": "T " + arxiv,
        "abstract": abstract,
        "authors": ["Ada Lovelace"],
        "arxiv_id": arxiv,
        "url": f"https://huggingface.co/papers/{arxiv}",
        "upvotes": upvotes,
        "listed": listed,
        "fetched_at": "2025-09-08T07:00:00Z",
    }


def _arxiv(abstract, arxiv, categories):
    return {
        "title": "T " + arxiv,
        "abstract": abstract,
        "authors": ["Ada Lovelace"],
        "arxiv_id": arxiv,
        "url": f"https://arxiv.org/abs/{arxiv}",
        "categories": categories,
    }


def test_jsonl_fields_survive_the_cache_and_reach_json_records(tmp_path):
    dump = _jsonl(
        tmp_path / "d.jsonl",
        [
            {**_hf(ABSTRACT_A, "2509.01234v2", 42), "categories": "cs.LG cs.CV"},
            {
                "title": "A venue paper",
                "abstract": ABSTRACT_B,
                "status": "Oral",
                "track": "Datasets & Benchmarks",
                "rating": "5;6;7",
            },
        ],
    )
    for _ in range(2):  # parsed, then read back from the corpus cache
        library = Library.open([dump])
        first, second = (library.record(p) for p in library.papers)
        library.close()
        assert first["arxiv_id"] == "2509.01234"
        assert first["categories"] == ["cs.LG", "cs.CV"]
        assert first["upvotes"] == 42
        assert first["listed"] == "2025-09-08"
        assert first["fetched_at"] == "2025-09-08T07:00:00Z"
        assert "https://huggingface.co/papers/2509.01234v2" in first["urls"]
        assert second["status"] == "Oral"
        assert second["track"] == "Datasets & Benchmarks"
        assert second["rating_avg"] == 6.0
    # papertui's own JSON of these records reads back as the same records
    again = _jsonl(tmp_path / "again.jsonl", [first, second])
    library = Library.open([again])
    records = [library.record(p) for p in library.papers]
    assert records[0]["categories"] == ["cs.LG", "cs.CV"] and records[0]["upvotes"] == 42
    assert records[1]["status"] == "Oral"


def test_hf_listing_shape_gives_upvotes_and_the_listing_day(tmp_path):
    item = {
        "publishedAt": "2025-09-09T13:00:00.000Z",
        "title": "Graph transformers",
        "paper": {
            "id": "2509.01234",
            "title": "Graph transformers",
            "summary": ABSTRACT_A,
            "authors": [{"name": "Ada Lovelace"}],
            "publishedAt": "2025-09-05T17:59:00.000Z",
            "upvotes": 17,
        },
    }
    dump = tmp_path / "daily.json"
    dump.write_text(json.dumps([item]), "utf-8")
    record = Library.open([dump]).record(Library.open([dump]).papers[0])
    assert (record["upvotes"], record["listed"], record["arxiv_id"]) == (
        17,
        "2025-09-09",
        "2509.01234",
    )
    assert record["year"] == 2025


def test_category_status_and_track_are_searchable_and_upvotes_an_order(tmp_path):
    data = paths.data_dir()
    _jsonl(
        data / "x" / "hf.jsonl",
        [_hf(ABSTRACT_A, "2509.00001", 3), _hf(ABSTRACT_B, "2509.00002", 90)],
    )
    _jsonl(
        data / "x" / "venue.jsonl",
        [
            {
                "title": "C",
                "abstract": "Diffusion models for audio with oral decisions.",
                "status": "Oral",
                "track": "main",
            }
        ],
    )
    _jsonl(
        data / "x" / "arxiv.jsonl",
        [_arxiv("Protein folding with language models.", "2509.00003", ["q-bio.BM", "cs.LG"])],
    )
    library = Library.open([data / "x"])
    library.indexing.ensure()

    def titles(query, sort="relevance"):
        return [library.papers[i].title for i in library.run_query(query, sort=sort).indices]

    assert titles("category:cs.LG") == ["T 2509.00003"]
    assert titles("category:q-bio") == ["T 2509.00003"]  # a whole archive
    assert titles("-category:cs.lg protein") == []
    assert titles("status:oral") == ["C"]
    assert titles("track:main") == ["C"]
    assert titles("status:poster") == []
    assert titles("", sort="upvotes")[:2] == ["T 2509.00002", "T 2509.00001"]


def test_one_paper_from_two_sources_is_one_paper_with_both_links(tmp_path):
    folder = tmp_path / "f"
    _jsonl(folder / "a-arxiv.jsonl", [_arxiv(ABSTRACT_A2, "2509.01234", ["cs.LG"])])
    _jsonl(folder / "b-hf.jsonl", [_hf(ABSTRACT_A, "2509.01234", 12)])
    for _ in range(2):  # parsed, then from the cache
        library = Library.open([folder])
        assert len(library.papers) == 1
        record = library.record(library.papers[0])
        assert record["categories"] == ["cs.LG"] and record["upvotes"] == 12
        assert "https://arxiv.org/abs/2509.01234" in record["urls"]
        assert "https://huggingface.co/papers/2509.01234" in record["urls"]
        assert record["collections"] == ["a-arxiv", "b-hf"]
        library.close()


def test_a_bookmark_on_one_copy_stays_when_the_other_copy_arrives(tmp_path):
    folder = tmp_path / "f"
    _jsonl(folder / "b-hf.jsonl", [_hf(ABSTRACT_A, "2509.01234", 12)])
    library = Library.open([folder])
    library.marks.mark_seen()
    hf_copy = library.papers[0]
    library.marks.set_bookmark(hf_copy, True)
    library.marks.set_note(hf_copy, "read this")
    library.close()
    # the arXiv feed's copy (another wording) arrives, in a file read first
    _jsonl(folder / "a-arxiv.jsonl", [_arxiv(ABSTRACT_A2, "2509.01234", ["cs.LG"])])
    library = Library.open([folder])
    library.marks.mark_seen()
    (paper,) = library.papers
    assert paper.id != hf_copy.id
    assert library.marks.is_bookmarked(paper)
    assert library.marks.note(paper) == "read this"


def test_fetched_dumps_count_as_one_source_for_new(tmp_path):
    hf = paths.fetched_dir() / "hf"
    _jsonl(hf / "2025-09-08.jsonl", [_hf(ABSTRACT_A, "2509.00001", 1)])
    library = Library.open([hf / "2025-09-08.jsonl"])
    first = library.marks.mark_seen()
    assert first == {library.papers[0].id}  # what was fetched is new at the first look too
    library.close()
    # the next day's file is a file never opened before, and still its papers are new
    _jsonl(hf / "2025-09-09.jsonl", [_hf(ABSTRACT_B, "2509.00002", 1, "2025-09-09")])
    library = Library.open([hf / "2025-09-08.jsonl", hf / "2025-09-09.jsonl"])
    library.marks.set_read([library.papers[0]], True)
    new = library.marks.mark_seen()
    assert new == {library.papers[1].id}
    library.close()
    library = Library.open([hf / "2025-09-08.jsonl", hf / "2025-09-09.jsonl"])
    assert library.marks.mark_seen() == {library.papers[1].id}  # new until read


_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz.-0123456789", min_size=1, max_size=8)


@given(
    arxiv=_word,
    categories=st.lists(_word, max_size=3),
    upvotes=st.none() | st.integers(min_value=0, max_value=10**6),
    status=_text,
    track=_text,
    rating=st.none()
    | st.floats(min_value=0, max_value=10, allow_nan=False).map(lambda x: round(x, 2)),
    aliases=st.lists(_word, max_size=2),
)
def test_meta_encoding_round_trips(arxiv, categories, upvotes, status, track, rating, aliases):
    meta = PaperMeta(
        arxiv=arxiv,
        categories=tuple(categories),
        upvotes=upvotes,
        status=status.replace("\x1f", " "),
        track=track.replace("\x1f", " "),
        rating=rating,
        aliases=tuple(aliases),
    )
    assert PaperMeta.decode(meta.encode()) == meta
    # what an added day looks up in every earlier record, read without decoding the rest
    assert PaperMeta.arxiv_of(meta.encode()) == meta.arxiv
    assert PaperMeta.aliases_of(meta.encode()) == meta.aliases
