"""One LaTeX normalisation for every reader: a paper's id does not depend on whether a reader
decoded its LaTeX, and what the BibTeX export writes comes back as the same paper."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from papertui.core.corpus import Paper, paper_id
from papertui.core.corpus.formats import read_corpus_file
from papertui.core.export import render
from papertui.core.export.entries import entries_for
from papertui.core.store import Annotations
from papertui.core.text import identity_text, legacy_identity_text
from papertui.core.text.latex import plain_text

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))

# what abstracts and titles are made of, LaTeX and the characters it treats specially included
TOKENS = [
    "word", "Graph", " ", "  ", "\n", ".", ",", "(", ")", "-", "--", "---", "~", "`", "``", "'",
    "''", '"', "“", "”", "–", "{", "}", "\\{", "\\}", "$", "$x$", "$\\alpha$", "$50%$",
    "$\\{x_i\\}$", "\\", "\\\\", "\\'e", "\\\"{o}", "{\\\"U}", "\\c{c}", "\\ss", "\\emph{x}",
    "\\textbf{B}", "{\\sc Sc}", "\\cite{a,b}", "\\url{http://x.org/~u}", "http://y.edu/~me",
    "\\href{https://g.io/x}{here}", "\\%", "%", "&", "\\&", "#", "\\_", "_", "\\,", "é",
    "e\u0301", "中文", "\t", "\x1b[31m", "\x07", "\u00a0",
]  # fmt: skip
text = st.lists(st.sampled_from(TOKENS), max_size=30).map("".join)


def _read_back(paper: Paper, fmt: str) -> Paper:
    data = render(entries_for([paper], Annotations()), fmt).encode()
    (record,) = read_corpus_file(f"export.{fmt}", data, fmt).records
    title = record.title or None
    return Paper(paper_id(record.abstract), record.abstract, ["x"], "x", title=title)


@SETTINGS
@given(st.lists(st.sampled_from([t for t in TOKENS if t.isprintable()]), max_size=30).map("".join))
@example("a ``view'' and a range 1--2 and ~50%")
@example("as in \\cite{Gregor10}, we")
def test_an_id_is_the_same_whether_or_not_a_reader_decoded_the_latex(abstract):
    """(Control characters are left out here: every export drops them before a reader sees the
    text, which the BibTeX round trip below checks.)"""
    assert identity_text(plain_text(abstract)) == identity_text(abstract)


@SETTINGS
@given(text.filter(str.strip))
@example("\\url{https://github.com/x/y*.")
@example("$P_T< \\! \\! {a}, b = {c")
@example("rate $\\min\\\\{1, a\\\\}$ holds")  # a real abstract's "\\\\{" in math
@example("$\\\\{$")  # a line break, then a lone brace BibTeX needs escaped: "\\\\\\{"
def test_an_abstract_written_to_bibtex_reads_back_as_the_same_paper(abstract):
    paper = Paper(paper_id(abstract), abstract, ["x"], "x", title="T")
    if not identity_text(abstract):
        return  # nothing left of it: not a paper any reader keeps
    assert _read_back(paper, "bibtex").id == paper.id


# what a title papertui derives is made of: LaTeX is rendered or dropped, controls are out
PLAIN = [t for t in TOKENS if not any(c in t for c in "\\{}$\x1b\x07")]


@SETTINGS
@given(st.lists(st.sampled_from(PLAIN), max_size=30).map(lambda t: " ".join("".join(t).split())))
@example("Title:x AND OR NOT unbalanced ? ~2")
@example("``Quoted'' -- and 50% & #1 ~ tie")
def test_a_derived_title_written_to_bibtex_reads_back_as_written(title):
    paper = Paper("0", "An abstract.", ["x"], "x", title=title or "x", has_real_title=False)
    assert _read_back(paper, "bibtex").title == (title or "x")


def test_ids_computed_before_still_hold_for_text_without_typography_or_controls():
    """Only abstracts with TeX quotes, dashes or ties written without other LaTeX, or with
    control characters, got new ids; the store moves their annotations (`reconcile`)."""
    for abstract in ("Plain text.", "Herv\\'e and $\\alpha$ -- with LaTeX", "é and ‘quotes’"):
        assert identity_text(abstract) == legacy_identity_text(abstract)
    for abstract in ("a ``view''", "a--b", "~50%", "bell\x07"):
        assert identity_text(abstract) != legacy_identity_text(abstract)


def test_a_link_keeps_its_text_and_its_address_apart():
    """`\\href{URL}{here}` was read as "URLhere": the link went into the paper's links as a
    glued word, and the round trip of 19 real abstracts through BibTeX changed their links."""
    assert plain_text(r"Code at \href{https://g.io/x}{here}.") == "Code at here (https://g.io/x)."
    assert plain_text(r"See \href{https://g.io/x}{https://g.io/x}") == "See https://g.io/x"
    assert plain_text(r"See \href{https://g.io/x}{}") == "See https://g.io/x"
