"""One reader per format, each on small real-world shaped fixtures written here."""

from __future__ import annotations

import gzip
import json

import pytest

from papertui.cli import main
from papertui.core.corpus import load_corpus, paper_id
from papertui.core.library import Library

from workers import workers_done

ABS1 = "We propose FooNet, a network for bar. It works well on baz."
ABS2 = "Second abstract about graphs and kernels, with a URL https://example.org/x."

HF_DAILY = [
    {
        "paper": {
            "id": "2401.12345",
            "title": "FooNet: Networks for Bar",
            "summary": ABS1,
            "authors": [{"name": "Ada Lovelace", "hidden": False}, {"name": "Alan Turing"}],
            "publishedAt": "2024-01-22T00:00:00.000Z",
        },
        "title": "FooNet: Networks for Bar",
        "numComments": 3,
    },
    {"paper": {"id": "2401.99999", "title": "No abstract here", "summary": ""}},
]


def _write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, "utf-8", newline="")
    else:
        path.write_bytes(content)
    return path


def test_hugging_face_daily_papers_json_works_as_is(tmp_path):
    path = _write(tmp_path, "daily.json", json.dumps(HF_DAILY, indent=2))
    corpus = load_corpus([path])
    (paper,) = corpus.papers
    assert paper.title == "FooNet: Networks for Bar" and paper.has_real_title
    assert paper.authors == ("Ada Lovelace", "Alan Turing") and paper.year == 2024
    assert paper.urls == ("https://arxiv.org/abs/2401.12345",)
    assert corpus.files[0].format == "json" and corpus.files[0].skipped == {"no abstract": 1}


def test_json_object_holding_a_list_minified_with_escapes(tmp_path):
    doc = {
        "conference": "X",
        "papers": [
            {
                "Title": "T1",
                "paperAbstract": "Caf\u00e9 \u2028 line sep \u00e9t\u00e9.",
                "authors": "A One; B Two",
                "venue": "NeurIPS",
                "year": "2023",
            },
            {"title": "T2", "description": ABS2, "authors": "C Three, D Four", "pdf": "x.pdf"},
            {"title": "T3"},
        ],
    }
    raw = json.dumps(doc, separators=(",", ":"))  # minified, \uXXXX escapes
    assert "\\u2028" in raw
    corpus = load_corpus([_write(tmp_path, "list.json", raw)])
    first, second = corpus.papers
    assert first.abstract == "Café line sep été." and first.venue == "NeurIPS"
    assert first.authors == ("A One", "B Two") and first.year == 2023
    assert second.authors == ("C Three", "D Four") and second.urls == ("https://example.org/x",)
    assert corpus.files[0].skipped == {"no abstract": 1}


def test_jsonl_gzip_crlf_and_a_broken_line(tmp_path):
    lines = [
        json.dumps({"title": "J1", "abstract": ABS1, "arxiv_id": "2301.00001"}),
        '{"title": "broken", "abstract": ',
        json.dumps({"title": "J2", "summary": ABS2, "date": "2022-05-01"}),
        json.dumps({"title": "J3", "abstract": "   "}),
    ]
    data = gzip.compress("\r\n".join(lines).encode("utf-8"))
    corpus = load_corpus([_write(tmp_path, "feed.jsonl.gz", data)])
    assert [p.title for p in corpus.papers] == ["J1", "J2"]
    assert corpus.papers[1].year == 2022
    report = corpus.files[0]
    assert report.format == "jsonl"
    assert report.skipped == {"no abstract": 1, "broken JSON line": 1}
    assert any("line 2" in w for w in corpus.warnings)


def test_broken_json_names_the_line(tmp_path):
    text = "[\n" + ",\n".join(json.dumps({"abstract": f"a{i}"}) for i in range(900)) + ",\n}"
    corpus = load_corpus([_write(tmp_path, "bad.json", text)])
    assert corpus.papers == []
    assert len(corpus.errors) == 1 and "broken JSON at line 902" in corpus.errors[0]


def test_csv_and_tsv_with_quoted_newlines_and_header_case(tmp_path):
    csv_text = (
        "Title,Abstract,Authors,Year,URL\r\n"
        '"Quoted, title","First line\r\nsecond line, with comma",'
        '"A One, B Two",2021,https://openreview.net/forum?id=x\r\n'
        "Empty,,,,\r\n"
    )
    corpus = load_corpus([_write(tmp_path, "openreview.csv", csv_text)])
    (paper,) = corpus.papers
    assert paper.title == "Quoted, title"
    assert paper.abstract == "First line second line, with comma"
    assert paper.authors == ("A One", "B Two") and paper.year == 2021
    assert corpus.files[0].skipped == {"no abstract": 1}
    tsv = "title\tabstract\nT\tTab separated abstract text.\n"
    tsv_corpus = load_corpus([_write(tmp_path, "list.tsv", tsv)])
    assert tsv_corpus.files[0].format == "tsv" and len(tsv_corpus.papers) == 1


def test_csv_without_an_abstract_column_is_a_clear_error(tmp_path):
    corpus = load_corpus([_write(tmp_path, "x.csv", "title,year\nA,2020\n")])
    assert "no abstract column among: title, year" in corpus.errors[0]


BIB = r"""
@string{nips = "Advances in Neural Information Processing Systems"}

@inproceedings{jegou2024,
  title = {A {GCL} Model for \textit{Calibrating} Biases},
  author = {Herv\'e J\'egou and M{\"u}ller, Hans},
  booktitle = nips,
  year = 2024,
  abstract = "First paragraph of the abstract.

  Second paragraph with 92\% accuracy.",
  url = {https://example.org/a1}
}

@article{broken,
  title = {Unclosed brace,
  abstract = {never ends
}

@article{noabs, title = {No abstract}, year = {2020}}

@article{ok2, title = "Fine", abstract = {After the broken one.}, doi = {10.1/xyz}}
"""


def test_bibtex_macros_latex_blank_lines_and_a_broken_entry(tmp_path):
    corpus = load_corpus([_write(tmp_path, "refs.bib", BIB)])
    first, second = corpus.papers
    assert first.title == "A GCL Model for Calibrating Biases"
    assert first.authors == ("Hervé Jégou", "Müller, Hans")
    assert first.venue == "Advances in Neural Information Processing Systems"
    assert first.year == 2024
    assert first.abstract == "First paragraph of the abstract. Second paragraph with 92% accuracy."
    assert second.urls == ("https://doi.org/10.1/xyz",)
    report = corpus.files[0]
    assert report.format == "bibtex"
    assert report.skipped == {"no abstract": 1, "unreadable entry": 1}
    assert any("the first at line 15" in w for w in corpus.warnings)


def test_bibtex_concatenation_joins_strings_macros_and_numbers(tmp_path):
    bib = r"""@string{nips = "Advances in Neural " # "Information Processing Systems"}
@string{short = nips # " (NeurIPS)"}
@inproceedings{a, title = "Deep " # {C\# code} # " models",
  booktitle = short # " " # 33,
  abstract = "We propose " # {a {GAN}, with \# signs} # " that works." # { Say "hi".}}
@article{b, title = {Kept as is}, abstract = {C# and F# programs are "fine" here}}
"""
    first, second = load_corpus([_write(tmp_path, "cat.bib", bib)]).papers
    assert first.title == "Deep C# code models"
    assert first.venue == "Advances in Neural Information Processing Systems (NeurIPS) 33"
    assert first.abstract == 'We propose a GAN, with # signs that works. Say "hi".'
    assert second.abstract == 'C# and F# programs are "fine" here'


MARKDOWN = """# Awesome papers

## [12] FooNet: Networks for Bar
**Authors**: Ada Lovelace, Alan Turing
**URL**: [arXiv](https://arxiv.org/abs/2401.12345)
**Abstract**: We propose FooNet, a network for bar.
It works well on baz.

---

### Second Paper Title
- **Authors**: C Three
Abstract: Second abstract about graphs.

### A heading without an abstract
Just prose.
"""


def test_markdown_paper_list(tmp_path):
    corpus = load_corpus([_write(tmp_path, "list.md", MARKDOWN)])
    first, second = corpus.papers
    assert first.title == "FooNet: Networks for Bar"
    assert first.authors == ("Ada Lovelace", "Alan Turing")
    assert first.abstract == "We propose FooNet, a network for bar. It works well on baz."
    assert first.urls == ("https://arxiv.org/abs/2401.12345",)
    assert second.title == "Second Paper Title" and second.authors == ("C Three",)
    assert corpus.files[0].skipped == {"no abstract": 1}


ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=all:electron</title>
  <entry>
    <id>http://arxiv.org/abs/2401.00001v1</id>
    <published>2024-01-01T18:00:00Z</published>
    <title>Electrons in
      Boxes</title>
    <summary>  We study electrons
 in boxes.  </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    <link href="http://arxiv.org/abs/2401.00001v1" rel="alternate" type="text/html"/>
  </entry>
</feed>
"""


def test_arxiv_atom_feed(tmp_path):
    corpus = load_corpus([_write(tmp_path, "export.xml", ATOM)])
    (paper,) = corpus.papers
    assert paper.title == "Electrons in Boxes" and paper.abstract == "We study electrons in boxes."
    assert paper.authors == ("Ada Lovelace", "Alan Turing") and paper.year == 2024
    assert paper.urls == ("http://arxiv.org/abs/2401.00001v1",) and paper.venue == "arXiv"
    bad = load_corpus([_write(tmp_path, "bad.xml", ATOM[:300])])
    assert "broken XML at line" in bad.errors[0]


def test_format_is_sniffed_and_can_be_forced(tmp_path):
    noext = _write(tmp_path, "download", json.dumps(HF_DAILY))
    assert load_corpus([noext]).files[0].format == "json"
    as_txt = _write(tmp_path, "feed.txt", ATOM)
    assert load_corpus([as_txt]).files[0].format == "arxiv"
    assert load_corpus([as_txt], "text").files[0].format == "text"


def test_folder_reads_every_supported_file(tmp_path):
    folder = tmp_path / "dumps"
    folder.mkdir()
    _write(folder, "a.json", json.dumps(HF_DAILY))
    _write(folder, "b.bib", BIB)
    _write(folder, "c.md", MARKDOWN)
    _write(folder, "d.txt", "Text dump\n\nA plain abstract.")
    _write(folder, "e.png", b"\x89PNG....")
    corpus = load_corpus([folder])
    assert sorted(f.format for f in corpus.files) == ["bibtex", "json", "markdown", "text"]


def test_same_abstract_from_text_and_json_is_one_paper_and_keeps_its_bookmark(tmp_path, capsys):
    text = _write(tmp_path, "dump.txt", f"NeurIPS\n\n{ABS1}\n")
    library = Library.open([text])
    library.marks.set_bookmark(library.papers[0], True)
    library.close()
    rich = _write(tmp_path, "daily.json", json.dumps(HF_DAILY))
    library = Library.open([text, rich])
    (paper,) = library.papers
    assert paper.id == paper_id(ABS1) and library.marks.is_bookmarked(paper)
    assert paper.collections == ("NeurIPS", "daily") and paper.title.startswith("FooNet")
    assert paper.authors == ("Ada Lovelace", "Alan Turing")


def test_author_venue_year_are_searchable_and_exported(tmp_path, capsys):
    path = _write(tmp_path, "refs.bib", BIB)
    _write(tmp_path, "daily.json", json.dumps(HF_DAILY))
    folder = str(tmp_path)

    def ids(query: str) -> list[str]:
        code = main(["search", query, folder, "--json"])
        found = [r["title"] for r in json.loads(capsys.readouterr().out)]
        assert code == (0 if found else 1)  # as grep: 1 when nothing matched
        return found

    assert ids("author:jegou") == ["A GCL Model for Calibrating Biases"]
    assert ids("author:hervé") == ids("author:herve")
    assert ids("venue:neural") == ["A GCL Model for Calibrating Biases"]
    both = {"A GCL Model for Calibrating Biases", "FooNet: Networks for Bar"}
    assert set(ids("year:2024")) == both and set(ids("year:2023-2024")) == both
    assert ids("year:2020..2021") == []
    assert main(["list", folder, "--json"]) == 0
    out, err = capsys.readouterr()
    record = next(r for r in json.loads(out) if r["title"].startswith("A GCL"))
    assert record["authors"] == ["Hervé Jégou", "Müller, Hans"] and record["year"] == 2024
    assert f"{path}: bibtex, 2 papers (skipped no abstract: 1, unreadable entry: 1)" in err
    library = Library.open([folder])
    library.marks.set_bookmark(next(p for p in library.papers if p.title.startswith("A GCL")), True)
    library.close()
    assert main(["export", "--format", "bibtex", "-c", folder]) == 0
    bib = capsys.readouterr().out
    assert "author = {Hervé Jégou and Müller, Hans}" in bib and "year = {2024}" in bib


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "bibtex", "markdown", "arxiv"])
def test_every_format_opens_in_the_reader(tmp_path, fmt):
    import asyncio

    from papertui.ui.app import make_app

    content = {
        "json": json.dumps(HF_DAILY),
        "jsonl": json.dumps({"title": "J", "abstract": ABS1}),
        "csv": f"title,abstract\nC,{ABS2.replace(',', ' ')}\n",
        "bibtex": BIB,
        "markdown": MARKDOWN,
        "arxiv": ATOM,
    }[fmt]
    ext = {"bibtex": "bib", "markdown": "md", "arxiv": "xml"}.get(fmt, fmt)
    path = _write(tmp_path, f"in.{ext}", content)

    async def run() -> None:
        app = make_app([path], clipboard=lambda t: None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await workers_done(app)
            assert app.reader.paper_list.rows and app.reader.current_paper is not None
            assert app.reader.current_paper.has_real_title

    asyncio.run(run())


GITHUB_LISTS = """# Federated learning papers

### [Ex-Ante Fair Federated Learning](https://openreview.net/forum?id=abc)
*Yucheng Ding, Chaoyue Niu, Fan Wu, ...*
**Conference**: *nips 2022*
**Abstract**: We study *fairness* in federated
learning across clients.

## Vision

**Title**: Masked Autoencoders Are Scalable
**Authors:** Kaiming He, Xinlei Chen
**Venue:** ICLR 2023
**Keywords:** vision, masking
**Abstract:** We show that masked autoencoders scale.

**TL;DR:** they scale.
**OpenReview:** https://openreview.net/forum?id=xyz

- **Title**: Third paper
- **Authors**: __A B__, C D
- **Year**: 2021
- **Abstract**: Third abstract text.
"""


def test_markdown_lists_from_github_lose_their_emphasis_and_give_venue_and_year(tmp_path):
    first, second, third = load_corpus([_write(tmp_path, "fl.md", GITHUB_LISTS)]).papers
    assert first.title == "Ex-Ante Fair Federated Learning"
    assert first.authors == ("Yucheng Ding", "Chaoyue Niu", "Fan Wu")
    assert first.venue == "nips" and first.year == 2022
    assert first.abstract == "We study fairness in federated learning across clients."
    assert first.urls == ("https://openreview.net/forum?id=abc",)
    assert second.title == "Masked Autoencoders Are Scalable"
    assert second.authors == ("Kaiming He", "Xinlei Chen")
    assert (second.venue, second.year) == ("ICLR", 2023)
    assert second.abstract == "We show that masked autoencoders scale."  # no keywords, no TL;DR
    assert second.urls == ("https://openreview.net/forum?id=xyz",)
    assert third.title == "Third paper" and third.authors == ("A B", "C D")
    assert third.year == 2021 and third.abstract == "Third abstract text."


LATEX_ABSTRACT = r"Herv\'e J\'egou's {GCL} calibrates \emph{biases} in 92\% of cases -- always."


def test_same_abstract_from_bibtex_and_a_latex_text_dump_is_one_paper(tmp_path):
    bib = _write(
        tmp_path, "refs.bib", f"@article{{k, title = {{GCL}}, abstract = {{{LATEX_ABSTRACT}}}}}"
    )
    text = _write(tmp_path, "dump.txt", f"Dump\n\n{LATEX_ABSTRACT}\n")
    corpus = load_corpus([bib, text])
    (paper,) = corpus.papers
    assert paper.abstract.startswith("Hervé Jégou")  # the BibTeX copy, decoded
    assert paper.collections == ("refs", "Dump")
    assert paper_id(LATEX_ABSTRACT) == paper_id(paper.abstract)
    # plain text keeps its id (no LaTeX, no migration); different math stays different
    assert paper_id("Plain text.") == paper_id(" Plain  text. ")
    assert paper_id(r"A $\alpha$-loss.") != paper_id(r"A $\beta$-loss.")


def test_a_large_latin1_file_loads_in_one_pass(tmp_path):
    import threading

    line = "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 of a d\u00e9j\u00e0 vu abstract.\n\n"
    data = (line * (2_000_000 // len(line))).encode("latin-1")
    path = _write(tmp_path, "latin1.txt", data)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(load_corpus([path])), daemon=True)
    worker.start()
    worker.join(timeout=60)  # generous: one pass takes well under a second
    assert not worker.is_alive(), "counting the invalid bytes re-decoded the file per bad byte"
    (corpus,) = result
    count = data.count(b"\n\n")  # every paragraph, read as cp1252
    assert any(f"({count} paragraphs read as cp1252)" in w for w in corpus.warnings)
    assert corpus.papers[0].abstract == line.strip()
