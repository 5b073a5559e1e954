"""The workflow's core: readable math, read/new/tag state, sorting, similarity, settings, CLI."""

from __future__ import annotations

import json
import os

import bibtexparser
import pytest

from papertui.cli import main
from papertui.core.library import Library
from papertui.core.system import paths
from papertui.core.system.settings import load_settings, remember, settings_path
from papertui.core.text.mathtext import render


@pytest.mark.parametrize(
    "raw,shown",
    [
        (r"runs in $\mathcal{O}(n^2)$ time", "runs in 𝒪(n²) time"),
        (r"accuracy of 92\%", "accuracy of 92%"),
        (r"$\alpha \leq \beta$ and $x_i$", "α ≤ β and xᵢ"),
        (r"$\mathbb{R}^d$", "ℝᵈ"),
        (r"$\frac{a}{b}$", "a/b"),
        (r"$\mathcal{O}(\frac{1}{\sqrt{T}})$", "𝒪(1/√T)"),
        (r"$\frac{a+b}{2n}$", "(a+b)/2n"),
        (r"keeps \EP4 and $\EP4$ as written", r"keeps \EP4 and \EP4 as written"),
        ("costs $5 and $6 dollars", "costs $5 and $6 dollars"),
        (r"\textit{in} italics", "in italics"),
        (r"We present {\sc LegendreTron} as a method", "We present LegendreTron as a method"),
        (r"{\em very} and \textsc{Caps}", "very and Caps"),
        (r"matches\[O\left(\sqrt{\frac{1}{n}}\right).\]We also", "matches O(√(1/n)). We also"),
        (r"a rate \(\mathcal{O}(1/\sqrt{T})\) holds", "a rate 𝒪(1/√T) holds"),
        # a group inside a fraction that is no command's argument (a trial saw "\fracVar")
        (r"$\sqrt{\frac{\mathrm{Var}_{P}{(V+r)}}{d_h}}$", "√((Var_P(V+r))/d_h)"),
        (r"$f({x}) + {a}$", "f(x) + a"),
        # a space (a wrapped line) between a fraction's two arguments (a review)
        (r"$\frac{x^{2}} {n+1}$", "x²/(n+1)"),
        (r"$\mathcal{O}(\frac{\log^{2} n} {\epsilon})$", "𝒪((log² n)/(ε))"),
        # TeX quotes read as quotes (a trial saw ``view'' as written); f'' stays a derivative
        (
            "the ``view'' and ``two, words'' here",
            "the \u201cview\u201d and \u201ctwo, words\u201d here",
        ),
        ("$f''(x)$ and it's", "f''(x) and it's"),
    ],
)
def test_readable_math(raw, shown):
    assert render(raw)[0] == shown


def test_emphasis_becomes_bold_spans():
    text, bold = render("(1) ***Similarity bias*** and **two**.")
    assert text == "(1) Similarity bias and two."
    assert [text[a:b] for a, b in bold] == ["Similarity bias", "two"]


def test_read_new_and_tag_filters(write_corpus):
    path = write_corpus("C\n\nfirst paper on graphs.\n\nsecond paper on kernels.")
    library = Library.open([path])
    assert library.marks.mark_seen() == set()  # the first time a file is opened nothing is new
    first, second = library.papers
    library.marks.set_read([first], True)
    library.marks.set_tag([first, second], "group", True)
    assert library.run_query("is:read").indices == [0]
    assert library.run_query("is:unread").indices == [1]
    assert library.run_query("tag:group").indices == [0, 1]
    assert library.run_query("tag:GROUP -is:read").indices == [1]
    library.close()
    path.write_text(path.read_text("utf-8") + "\n\nthird paper, new since last time.\n", "utf-8")
    library = Library.open([path])
    library.marks.mark_seen()
    assert [library.papers[i].abstract for i in library.run_query("is:new").indices] == [
        "third paper, new since last time."
    ]
    library.marks.set_read([library.papers[2]], True)  # new until read
    assert library.run_query("is:new").indices == []
    library.close()
    library = Library.open([path])
    library.marks.mark_seen()
    assert library.run_query("is:new").indices == []


def test_sorts(write_corpus):
    path = write_corpus("C\n\nZebra paper first.\n\nAlpha paper second.\n\nMiddle paper third.")
    library = Library.open([path])
    assert library.run_query("", sort="title").indices == [1, 2, 0]
    assert library.run_query("", sort="corpus").indices == [0, 1, 2]
    library.marks.set_bookmark(library.papers[2], True)
    library.marks.set_note(library.papers[1], "later")
    assert library.run_query("", sort="recent").indices == [1, 2, 0]


def test_similar_papers_and_cli(capsys, bundled_library):
    library = bundled_library
    caligcl = library.papers[library.run_query("caligcl").indices[0]]
    view = library.semantic.similar(caligcl, 5)
    assert len(view.indices) == 5 and library.by_id[caligcl.id] not in view.indices
    assert main(["similar", caligcl.id[:6], "--json", "--limit", "3"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 3 and all(r["id"] != caligcl.id for r in records)


def test_cli_tag_list_fields_and_export_by_query_and_tag(capsys, tmp_path):
    pid = json.loads((main(["search", "caligcl", "--json"]), capsys.readouterr().out)[1])[0]["id"]
    assert main(["tag", pid[:6], "reading-group"]) == 0
    assert main(["tag", pid, "two words"]) == 2
    capsys.readouterr()
    assert main(["list", "--json"]) == 0
    record = next(r for r in json.loads(capsys.readouterr().out) if r["id"] == pid)
    assert record["tags"] == ["reading-group"] and record["read"] is False
    assert record["new"] is False
    out = tmp_path / "group.bib"
    assert main(["export", "--tag", "reading-group", "--format", "bibtex", "-o", str(out)]) == 0
    parsed = bibtexparser.parse_string(out.read_text("utf-8"))
    paper = next(p for p in Library.open(None).papers if p.id == pid)
    titles = [e.fields_dict["title"].value for e in parsed.entries]
    assert [t.replace("{", "").replace("}", "") for t in titles] == [paper.title]
    assert titles[0].startswith("{CaliGCL}: ")  # the name braced: styles keep its case
    assert main(["export", "--query", "optmal transprt", "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported and "optimal transport" in exported[0]["abstract"].lower()
    assert main(["tag", pid, "reading-group", "--remove"]) == 0
    assert main(["read", pid[:7]]) == 0
    capsys.readouterr()
    assert main(["search", "is:read", "--json"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == [pid]
    assert main(["read", pid, "--unread"]) == 0


def test_bibtex_export_reads_back_with_authors_year_abstract_url_note(tmp_path, capsys):
    library = Library.open(None)
    paper = library.papers[library.run_query("canonicalfusion").indices[0]]
    library.marks.set_note(paper, "Compare {with} SEGA }")  # unbalanced brace in a note
    library.marks.set_bookmark(paper, True)
    library.close()
    assert main(["export", "--format", "bibtex"]) == 0
    entry = bibtexparser.parse_string(capsys.readouterr().out).entries[0]
    fields = {k: f.value for k, f in entry.fields_dict.items()}
    assert fields["url"] == "https://github.com/jsshin98/CanonicalFusion"
    assert "SEGA" in fields["note"] and fields["abstract"].startswith("We present")


def test_settings_load_problems_and_theme_memory():
    assert load_settings() == load_settings()  # no file: defaults, no problems
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        'default_paths = 3\nwrong = 1\n[keys]\nnot_an_action = "x"\ntoggle_bookmark = "x"\n'
    )
    settings = load_settings({"toggle_bookmark"})
    assert settings.keys == {"toggle_bookmark": "x"} and settings.default_paths == []
    assert len(settings.problems) == 3 and all(str(path) in p for p in settings.problems)
    assert remember("theme", "nord") is None
    assert load_settings({"toggle_bookmark"}).theme == "nord"
    assert 'toggle_bookmark = "x"' in path.read_text()
    path.write_text("theme = [")
    assert "not valid TOML" in load_settings().problems[0]
    path.write_text('sort = 3\nnegative_keywords = ["quantum"]\n')
    settings = load_settings()
    assert settings.sort == "" and "sort must be the name of an order" in settings.problems[0]
    assert settings.negative_keywords == ["quantum"] and len(settings.problems) == 1


def test_settings_default_paths_open_when_no_path_given(capsys, write_corpus):
    dump = write_corpus("Mine\n\nMy own abstract about sheaves.")
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(f"default_paths = [{json.dumps(str(dump))}]\n")
    assert main(["list", "--json"]) == 0
    assert [r["collection"] for r in json.loads(capsys.readouterr().out)] == ["Mine"]
    assert os.environ["PAPERTUI_CONFIG_DIR"] in str(paths.config_dir())


def test_a_second_reader_sees_and_never_undoes_the_first_readers_bookmark(tmp_path):
    from papertui.core.library import Library

    a, b = Library.open(), Library.open()  # two readers on one data dir (bundled corpus)
    paper_a, paper_b = a.papers[0], b.papers[0]
    b.marks.set_bookmark(paper_b, True)
    assert not a.marks.is_bookmarked(paper_a)  # a's copy is stale until it looks again
    a.marks.refresh_if_changed()
    assert a.marks.is_bookmarked(paper_a)
    a.marks.refresh_if_changed()  # nothing new: no reload needed, nothing changes
    assert a.marks.is_bookmarked(paper_a)


def test_tags_keep_one_spelling_and_refuse_commas_and_leading_minus():
    from papertui.core.library import Library
    from papertui.core.library.marks import tag_problem

    library = Library.open()
    first, second = library.papers[:2]
    library.marks.set_tag([first], "reading-group", True)
    library.marks.set_tag([second], "Reading-Group", True)  # the same tag, as first spelled
    assert library.marks.all_tags() == ["reading-group"]
    assert library.marks.tags_of(second) == ["reading-group"]
    assert tag_problem("to-read") is None
    for bad in ("a,b", "-neg", "two words", ""):
        assert tag_problem(bad), bad
