"""Reading the native dump format, its tolerances and its errors."""

from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papertui.core import corpus as corpus_module
from papertui.core.corpus import (
    Corpus,
    FileReport,
    Paper,
    extract_urls,
    finish_titles,
    load_corpus,
    paper_id,
    papers_containing,
)
from papertui.core.corpus import cache as corpus_cache_module
from papertui.core.corpus.cache import (
    CachedFile,
    CorpusLoader,
    load_corpus_cached,
    read_file_cache,
    write_file_cache,
)
from papertui.core.corpus.paper import STORED
from papertui.core.library import Library
from papertui.core.search import fingerprint
from papertui.core.system.paths import bundled_corpus_dir

BUNDLED = bundled_corpus_dir()


def _paragraphs(path):  # the reference: what a person sees as paragraphs in the file
    text = path.read_text("utf-8")
    return [p.strip() for p in re.split(r"\n\s*\n", text)[1:] if p.strip()]


def test_bundled_corpus_has_139_papers_in_two_collections():
    corpus = load_corpus([BUNDLED])
    assert len(corpus.papers) == 139
    # the name line "NeurIPS 2025 论文列表" ("paper list") names the collection as the README does
    assert corpus.collections == {"NeurIPS 2025": 19, "Daily Papers": 120}
    assert corpus.errors == [] and corpus.warnings == []


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("ICML 2024 Paper List", "ICML 2024"),
        ("CVPR 2023 - papers list", "CVPR 2023"),
        ("ACL 2025 论文", "ACL 2025"),
        ("Daily Papers", "Daily Papers"),
        ("Paper list", "Paper list"),  # nothing left: the line as it is
        ("My reading list", "My reading list"),
    ],
)
def test_a_paper_list_heading_names_its_venue(write_corpus, line, name):
    path = write_corpus(f"{line}\n\nAn abstract of a paper about graphs and their colouring.\n")
    assert list(load_corpus([path]).collections) == [name]


def test_bundled_abstracts_are_exactly_the_paragraphs():
    corpus = load_corpus([BUNDLED])
    expected = []
    for path in sorted(BUNDLED.glob("*.txt")):
        expected += _paragraphs(path)
    assert [p.abstract for p in corpus.papers] == expected


def test_tolerates_bom_crlf_cr_blank_runs_wrapping_and_trailing_spaces(write_corpus):
    raw = (
        "\ufeffMy dump  \r\n\r\n"
        "First abstract, hard\r\nwrapped over   \r\nthree lines.\r\n"
        "\r\n   \r\n\t\r\n\r\n"
        "Second abstract.   \r\r"
        "Third abstract after CR endings.\n\n\n\n"
    )
    corpus = load_corpus([write_corpus(raw)])
    assert [p.abstract for p in corpus.papers] == [
        "First abstract, hard wrapped over three lines.",
        "Second abstract.",
        "Third abstract after CR endings.",
    ]
    assert corpus.papers[0].collections == ("My dump",)


def test_dump_without_name_line_uses_file_name(write_corpus):
    long_first = "This dump starts with an abstract that is a long single line. " * 5
    corpus = load_corpus([write_corpus(long_first + "\n\nAnother one.", name="iclr.txt")])
    assert [p.collection for p in corpus.papers] == ["iclr", "iclr"]
    assert corpus.papers[0].abstract == long_first.strip()


def test_short_first_abstract_is_not_taken_for_a_name(write_corpus):
    first = "We propose method number 0 for graph learning with many nodes and careful analysis."
    corpus = load_corpus([write_corpus(first + "\n\nWe study a second question.", name="mine.txt")])
    assert [p.abstract for p in corpus.papers] == [first, "We study a second question."]
    assert {p.collection for p in corpus.papers} == {"mine"}
    named = load_corpus([write_corpus("NeurIPS 2025 paper list.\n\n" + first, name="n.txt")])
    assert [p.collection for p in named.papers] == ["NeurIPS 2025 paper list."]


def test_folder_reads_every_txt(tmp_path, write_corpus):
    write_corpus("A\n\nalpha paper text.", name="a.txt")
    write_corpus("B\n\nbeta paper text.", name="b.txt")
    write_corpus("ignored", name="notes.md")
    corpus = load_corpus([tmp_path / "corpora"])
    assert sorted(corpus.collections) == ["A", "B"]


def test_errors_are_one_line_and_name_the_file(tmp_path, write_corpus):
    empty = write_corpus("", name="empty.txt")
    binary = write_corpus(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, name="image.txt")
    folder = tmp_path / "nothing-here"
    folder.mkdir()
    corpus = load_corpus([tmp_path / "missing.txt", empty, binary, folder])
    assert corpus.papers == []
    messages = "\n".join(corpus.errors)
    assert len(corpus.errors) == 4
    assert all("\n" not in e for e in corpus.errors)
    assert f"{tmp_path / 'missing.txt'}: no such file or folder" in messages
    assert f"{empty}: empty file" in messages
    assert f"{binary}: binary file" in messages
    assert f"{folder}: no corpus files" in messages


def test_invalid_utf8_loads_as_cp1252_and_warns(write_corpus):
    path = write_corpus(b"Name\n\nGood text \xff\xfe broken bytes.\n\nSecond paper.")
    corpus = load_corpus([path])
    assert len(corpus.papers) == 2
    assert corpus.papers[0].abstract == "Good text \xff\xfe broken bytes."  # cp1252: ÿþ
    assert len(corpus.warnings) == 1 and str(path) in corpus.warnings[0]
    assert "invalid UTF-8" in corpus.warnings[0]


def test_bad_file_does_not_stop_the_good_ones(tmp_path, write_corpus):
    good = write_corpus("Good\n\nA fine abstract.", name="good.txt")
    corpus = load_corpus([tmp_path / "nope.txt", good])
    assert len(corpus.papers) == 1 and len(corpus.errors) == 1


def test_id_is_stable_across_whitespace_and_files(tmp_path, write_corpus):
    a = write_corpus("One\n\nSame   abstract\nwrapped here.", name="one.txt")
    b = write_corpus("Two\n\nOther paper.\n\nSame abstract wrapped here.", name="two.txt")
    corpus = load_corpus([a, b])
    assert len(corpus.papers) == 2
    same = corpus.papers[0]
    assert same.id == paper_id("Same abstract wrapped here.")
    assert same.collections == ("One", "Two")


def test_duplicates_in_one_file_are_counted(write_corpus):
    corpus = load_corpus([write_corpus("D\n\nRepeated.\n\nRepeated.\n\nOther.")])
    assert len(corpus.papers) == 2
    assert corpus.files[0].skipped == {"duplicate": 1}


def test_urls_are_extracted_without_trailing_punctuation():
    text = (
        "Code at https://github.com/x/y. See (https://example.org/a_(b)) and "
        "http://foo.bar/baz, also https://github.com/x/y again."
    )
    assert extract_urls(text) == (
        "https://github.com/x/y",
        "https://example.org/a_(b)",
        "http://foo.bar/baz",
    )


def test_bundled_urls_found():
    corpus = load_corpus([BUNDLED])
    urls = [u for p in corpus.papers for u in p.urls]
    assert "https://github.com/jsshin98/CanonicalFusion" in urls
    assert all(not u.endswith((".", ",", ")")) or u.count("(") for u in urls)


# -- the parsed-corpus cache ------------------------------------------------------------------


def _everything(corpus):  # type: ignore[no-untyped-def]
    """All a user can see of a corpus, in order."""
    papers = [
        (p.id, p.abstract, p.title, p.has_real_title, p.collections, p.source)
        + (p.authors, p.venue, p.year, p.urls)
        for p in corpus.papers
    ]
    files = [(f.path, f.format, f.collection, f.papers, f.skipped) for f in corpus.files]
    return papers, files, corpus.errors, corpus.warnings


RICH = (
    '[{"title": "CaliGCL: calibrated graphs", "abstract": "We calibrate graph contrastive '
    'learning. Code: https://example.org/caligcl.", "authors": ["Ana Ruiz", "Li Wei"], '
    '"venue": "NeurIPS", "year": 2024},\n'
    ' {"abstract": "Untitled: \\u00e9t\\u00e9 \\ud83d\\ude00 and a lone \\ud800 surrogate."},\n'
    ' {"abstract": "We calibrate graph contrastive learning. Code: https://example.org/caligcl."}'
    ",\n {}]"
)


def test_cached_corpus_is_the_corpus_read_from_the_files(tmp_path, write_corpus):
    json_file = write_corpus(RICH, "rich.json")
    text_file = write_corpus(
        "Daily\n\nA second dump.\n\nWe calibrate graph contrastive "
        "learning. Code: https://example.org/caligcl.",
        "daily.txt",
    )
    sources = [str(json_file), str(text_file), str(tmp_path / "missing.txt")]
    cache = tmp_path / "cache" / "corpus"
    read, cached = load_corpus_cached(sources, None, cache)
    assert not cached and len(list(cache.iterdir())) == 2
    again, cached = load_corpus_cached(sources, None, cache)
    assert cached
    fresh = load_corpus(sources)
    assert _everything(read) == _everything(again) == _everything(fresh)
    assert again.papers[0].collections == ("rich", "Daily")


def test_changed_or_added_file_is_read_again(tmp_path, write_corpus):
    path = write_corpus("C\n\nalpha beta.\n\ngamma delta.")
    cache = tmp_path / "corpus"
    load_corpus_cached([str(path.parent)], None, cache)
    path.write_text("C\n\nalpha beta.\n\ngamma delta.\n\nepsilon zeta.", "utf-8")
    corpus, cached = load_corpus_cached([str(path.parent)], None, cache)
    assert not cached and [p.abstract for p in corpus.papers][-1] == "epsilon zeta."
    write_corpus("D\n\neta theta.", "more.txt")
    corpus, cached = load_corpus_cached([str(path.parent)], None, cache)
    assert not cached and len(corpus.papers) == 4
    _, cached = load_corpus_cached([str(path.parent)], "markdown", cache)
    assert not cached  # another format reads the files differently


def test_a_cached_file_is_reported_under_the_path_given_now(tmp_path, monkeypatch):
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "broken.bib").write_text(
        "@article{a,\n  abstract = {Alpha beta gamma.}\n}\n\n@article{b\n  title = {x\n",
        "utf-8",
    )
    cache = tmp_path / "corpus"
    monkeypatch.chdir(tmp_path)
    first, _ = load_corpus_cached(["files/broken.bib"], None, cache)
    assert first.warnings and first.warnings[0].startswith("files/broken.bib: ")
    monkeypatch.chdir(folder)
    again, cached = load_corpus_cached(["broken.bib"], None, cache)
    assert cached
    assert again.warnings[0].startswith("broken.bib: ") and "files/" not in again.warnings[0]
    assert [f.path for f in again.files] == ["broken.bib"]


def test_only_the_changed_file_is_parsed_again(tmp_path, write_corpus, monkeypatch):
    first = write_corpus("A\n\nalpha beta.\n\nshared text.", "a.txt")
    second = write_corpus("B\n\nshared text.\n\ngamma delta.", "b.txt")
    cache = tmp_path / "corpus"
    load_corpus_cached([str(tmp_path / "corpora")], None, cache)
    parsed: list[str] = []
    real_parse = corpus_cache_module.parse_file

    def counted(path, forced=None):  # type: ignore[no-untyped-def]
        parsed.append(path.name)
        return real_parse(path, forced)

    monkeypatch.setattr(corpus_cache_module, "parse_file", counted)
    second.write_text("B\n\nshared text.\n\ngamma delta.\n\nepsilon.", "utf-8")
    corpus, cached = load_corpus_cached([str(tmp_path / "corpora")], None, cache)
    assert parsed == ["b.txt"] and not cached
    assert _everything(corpus) == _everything(load_corpus([str(tmp_path / "corpora")]))
    assert corpus.papers[1].collections == ("A", "B")  # the shared abstract: one paper
    assert first.exists()


def test_loader_shows_the_cached_files_first_and_keeps_their_positions(tmp_path, write_corpus):
    # what a reader shows while an indexing child parses: the files it has cached, in order
    for name in "abc":
        write_corpus(f"{name.upper()}\n\n{name} one.\n\n{name} two.", f"{name}.txt")
    folder, cache = [str(tmp_path / "corpora")], tmp_path / "corpus"
    load_corpus_cached([str(tmp_path / "corpora" / "a.txt")], None, cache)  # a cached only
    loader = CorpusLoader(folder, None, cache)
    assert loader.advance(parse=False) and not loader.done
    early = loader.corpus()
    assert [p.abstract for p in early.papers] == ["a one.", "a two."]
    assert not loader.advance(parse=False)  # b is not cached: c waits behind it
    assert loader.pending_bytes() == 2 * len("B\n\nb one.\n\nb two.")
    assert loader.advance(parse=True) and loader.done
    full = loader.corpus()
    assert full.papers[: len(early.papers)] == early.papers
    assert _everything(full) == _everything(load_corpus(folder))


@pytest.mark.parametrize("damage", [b"", b"papertui-corpus\n\x01\x00", b"\x00garbage" * 40])
def test_damaged_cache_is_ignored_and_rewritten(tmp_path, write_corpus, damage):
    path = write_corpus("C\n\nalpha beta.\n\ngamma delta.")
    cache = tmp_path / "corpus"
    load_corpus_cached([str(path)], None, cache)
    (file,) = cache.iterdir()
    file.write_bytes(damage if damage else file.read_bytes()[:-5])  # "": cut short
    corpus, cached = load_corpus_cached([str(path)], None, cache)
    assert not cached and [p.abstract for p in corpus.papers] == ["alpha beta.", "gamma delta."]
    assert load_corpus_cached([str(path)], None, cache)[1]


def test_warm_start_reads_no_dump(tmp_path, write_corpus, monkeypatch):
    path = write_corpus(RICH, "rich.json")
    first = Library.open([path])
    ids = [p.id for p in first.papers]
    first.close()

    def no_parsing(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the dump was parsed again")

    monkeypatch.setattr(corpus_module, "parse_file", no_parsing)
    monkeypatch.setattr(corpus_cache_module, "parse_file", no_parsing)
    second = Library.open([path])
    assert [p.id for p in second.papers] == ids
    assert second.papers[0].title == "CaliGCL: calibrated graphs"
    second.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from("ab é\\{}😀$\u0301"), min_size=1, max_size=12),
        min_size=1,
        max_size=8,
    )
)
def test_cached_abstracts_with_latex_are_found_without_decoding(tmp_path, abstracts):
    # what reconciling the store relies on to skip the abstracts that cannot have an older id
    corpus = Corpus([Paper(str(i), a, ["C"], "s") for i, a in enumerate(abstracts)], [], [], [])
    cache = tmp_path / "latex.bin"
    report = FileReport("s", "text", "C", len(abstracts))
    assert write_file_cache(cache, CachedFile(corpus.papers, report, []), ["s", 1, 2], None)
    cached = read_file_cache(cache, ["s", 1, 2], None)
    assert cached is not None
    expected = [p.id for p in corpus.papers if any(c in p.abstract for c in "\\{}")]
    assert [p.id for p in papers_containing(cached.papers, "\\{}")] == expected
    assert [p.id for p in papers_containing(corpus.papers, "\\{}")] == expected


_FIELD_TEXT = st.text(alphabet=st.sampled_from("ab é\x1f\x1e\n😀\ud800"), max_size=10)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.none() | _FIELD_TEXT,  # title: None is a title not derived yet
            st.lists(_FIELD_TEXT, max_size=3),  # authors: "\x1f" is the cache's separator
            _FIELD_TEXT,  # the record's links
        ),
        min_size=1,
        max_size=6,
    )
)
def test_titles_authors_and_links_come_back_from_the_cache_unheld(tmp_path, fields):
    # at a million papers the titles, authors and links held as strings were 290 MB of the
    # reader: they are read from the mapped cache, and read back as they were written
    papers = [
        Paper(f"id{i}", f"Abstract {i}.", ["C"], "s", title=title, authors=tuple(names))
        for i, (title, names, _url) in enumerate(fields)
    ]
    for paper, (_t, _a, url) in zip(papers, fields, strict=True):
        paper.extra_url = url
    cache = tmp_path / "fields.bin"
    report = FileReport("s", "text", "C", len(papers))
    assert write_file_cache(cache, CachedFile(papers, report, []), ["s", 1, 2], None)
    cached = read_file_cache(cache, ["s", 1, 2], None)
    assert cached is not None
    for paper, back in zip(papers, cached.papers, strict=True):
        assert back.known_title == paper.known_title
        assert back.authors == paper.authors and back.extra_url == paper.extra_url
        assert back.urls == paper.urls
        # held only where nothing is to be read: an empty field, an untitled paper
        assert back._title in (None, "", STORED) and back._extra_url in ("", STORED)
        if back.known_title is None:
            assert back.title == paper.title  # derived from the abstract, as before
    # a cache written again from papers that read their fields from a cache keeps them
    again = tmp_path / "again.bin"
    assert write_file_cache(again, cached, ["s", 1, 3], None)
    reread = read_file_cache(again, ["s", 1, 3], None)
    assert reread is not None
    assert [(p.known_title, p.authors, p.extra_url) for p in reread.papers] == [
        (p.known_title, p.authors, p.extra_url) for p in papers
    ]
    # and in another order, with a paper of its own between, and a title changed: the runs
    # of papers that follow each other in the cache are copied in one piece, the rest alone
    half = len(papers) // 2
    fresh = Paper("fresh", "Fresh abstract.", ["C"], "s", title="Fresh", authors=("Zoë",))
    fresh.extra_url = "https://example.org/fresh"
    mixed = [*reread.papers[half:], fresh, *reread.papers[:half]]
    mixed[-1].title = "Changed"
    expected = [(p.known_title, p.authors, p.extra_url) for p in mixed]
    moved = tmp_path / "moved.bin"
    report = FileReport("s", "text", "C", len(mixed))
    assert write_file_cache(moved, CachedFile(mixed, report, []), ["s", 1, 4], None)
    back_again = read_file_cache(moved, ["s", 1, 4], None)
    assert back_again is not None
    assert [(p.known_title, p.authors, p.extra_url) for p in back_again.papers] == expected


def _fingerprint_as_first_defined(paper: Paper) -> str:
    """What `fingerprint` is defined to give: every index on disk holds fingerprints made so,
    and any other would make it update every paper."""
    key = "\x1f".join(
        [
            paper.id,
            *paper.collections,
            paper.title if paper.has_real_title else "",
            *paper.authors,
            paper.venue,
            str(paper.year or ""),
            paper._meta,
        ]
    )
    return hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=8).hexdigest()


_NAME_TEXT = st.text(alphabet=st.sampled_from("ab é한\x1f\n😀\ud800"), max_size=6)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.none() | _NAME_TEXT,  # title: None is derived, not fingerprinted
            st.lists(_NAME_TEXT, max_size=3),  # ("",) and names holding "\x1f" included
            _NAME_TEXT,  # venue
            st.none() | st.integers(min_value=1990, max_value=2030),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_a_fingerprint_is_the_same_from_memory_and_from_the_cache(tmp_path, records):
    papers = [
        Paper(f"id{i}", f"Abstract {i}.", ["C", "D"], "s", title=t, authors=tuple(a))
        for i, (t, a, _v, _y) in enumerate(records)
    ]
    for paper, (_t, _a, venue, year) in zip(papers, records, strict=True):
        paper.venue, paper.year = venue, year
    expected = [_fingerprint_as_first_defined(p) for p in papers]
    assert [fingerprint(p) for p in papers] == expected
    cache = tmp_path / "fp.bin"
    report = FileReport("s", "text", "C", len(papers))
    assert write_file_cache(cache, CachedFile(papers, report, []), ["s", 1, 2], None)
    cached = read_file_cache(cache, ["s", 1, 2], None)
    assert cached is not None
    for back in cached.papers:  # the collections are the library's: as the papers' above
        back.collections = ("C", "D")
    assert [fingerprint(p) for p in cached.papers] == expected


LINKED = (
    '[{"title": "CaliGCL: calibrated graphs", "abstract": "We calibrate graph contrastive '
    'learning.", "authors": ["Ana Ruiz", "Li Wei"], "url": "https://example.org/caligcl"}]'
)


def test_a_parsed_file_drops_the_fields_its_cache_holds(tmp_path, write_corpus):
    path = write_corpus(LINKED, "linked.json")
    corpus, cached = load_corpus_cached([str(path)], None, tmp_path / "corpus")
    assert not cached
    (first,) = corpus.papers
    assert first._title is STORED and first._authors is STORED and first._extra_url is STORED
    assert first.title == "CaliGCL: calibrated graphs"
    assert first.authors == ("Ana Ruiz", "Li Wei")
    assert first.urls == ("https://example.org/caligcl",)
    first.title = "Renamed"  # a paper's own change wins over what its cache holds
    assert first.title == "Renamed" and first._title == "Renamed"


def test_a_cache_cut_inside_its_links_is_read_as_no_cache(tmp_path, write_corpus):
    path = write_corpus(LINKED, "linked.json")
    cache = tmp_path / "corpus"
    load_corpus_cached([str(path)], None, cache)
    (file,) = cache.iterdir()
    data = file.read_bytes()
    assert data.endswith(b"https://example.org/caligcl")  # the links end the file
    file.write_bytes(data[:-5])
    corpus, cached = load_corpus_cached([str(path)], None, cache)
    assert not cached and corpus.papers[0].urls == ("https://example.org/caligcl",)
    assert load_corpus_cached([str(path)], None, cache)[1]  # written again, whole


def test_derived_titles_that_repeat_are_told_apart_and_real_ones_kept():
    def paper(n: int, title: str, real: bool) -> Paper:
        return Paper(
            f"{n:06d}abcdef", f"Abstract {n}.", ["C"], "s", title=title, has_real_title=real
        )

    papers = [
        paper(1, "Graph learning", False),
        paper(2, "Graph learning", False),
        paper(3, "Robot control", True),
        paper(4, "Robot control", False),  # derived, the same as a real title
        paper(5, "Unique", False),
    ]
    finish_titles(papers)
    assert [p.title for p in papers] == [
        "Graph learning [000001]",
        "Graph learning [000002]",
        "Robot control",
        "Robot control [000004]",
        "Unique",
    ]
    real = [paper(6, "Same", True), paper(7, "Same", True)]
    finish_titles(real)
    assert [p.title for p in real] == ["Same", "Same"]  # a venue's own titles are never changed
