"""Ids that papertui computes differently now (TeX quotes, dashes and ties read as LaTeX, control
characters left out, BibTeX decoded by papertui's own decoder) keep what the user made of the
papers: the store moves bookmarks, notes, tags and read marks to the new ids."""

from __future__ import annotations

from papertui.core.corpus import Paper, load_corpus
from papertui.core.store import Store
from papertui.core.store.reconcile import _v2_id, _v3_id
from papertui.core.system import paths

QUOTED = "We study the ``view'' of a model -- roughly ~50% of it."
BELL = "An abstract with a bell\x07 inside it."
BREAK = "The rate is $\\min\\\\{1, a\\\\}$ for a line break before a brace."


def test_annotations_under_the_ids_computed_before_move_to_todays(write_corpus):
    path = write_corpus(f"C\n\n{QUOTED}\n\n{BELL}\n\nA plain abstract.")
    quoted, bell, plain = load_corpus([path]).papers
    olds = {quoted.id: _v2_id(QUOTED), bell.id: _v2_id(BELL)}
    assert all(old != new for new, old in olds.items()) and _v2_id(plain.abstract) == plain.id
    store = Store(paths.store_path())
    store.set_bookmark(Paper(olds[quoted.id], QUOTED, ["C"], str(path)), True)
    store.set_note(Paper(olds[bell.id], BELL, ["C"], str(path)), "my note")
    store.set_read([olds[quoted.id]], True)
    assert store.reconcile([quoted, bell, plain]) == 2
    assert store.is_bookmarked(quoted.id) and quoted.id in store.reads
    assert store.note(bell.id) == "my note"
    assert store.current_id(olds[quoted.id]) == quoted.id  # the old id stays findable
    store.close()


def test_a_bibtex_paper_decoded_another_way_before_keeps_its_bookmark(write_corpus):
    """An older papertui read `\\cite{x}` in a .bib as "<cit.>": the same paper (its real title,
    nearly its abstract) gets the bookmark made on it then."""
    bib = (
        "@article{k, title={Sparse {GP} Kernels}, year={2021},"
        " abstract={As shown by \\cite{smith20}, sparse kernels scale to large data sets"
        " and keep their accuracy on every benchmark we tried.}}\n"
    )
    (paper,) = load_corpus([write_corpus(bib, "refs.bib")]).papers
    assert paper.abstract.startswith("As shown by smith20, sparse")
    before = paper.abstract.replace("smith20", "<cit.>")
    old = Paper("0123456789ab", before, ["refs"], "refs.bib", title="Sparse GP Kernels")
    old.has_real_title = True
    store = Store(paths.store_path())
    store.set_bookmark(old, True)
    other = Paper("ba9876543210", "Unrelated.", ["refs"], "refs.bib", title="Sparse GP Kernels")
    other.has_real_title = True
    store.set_bookmark(other, True)  # the same title, another abstract: stays where it is
    assert store.reconcile([paper]) == 1
    assert store.is_bookmarked(paper.id) and store.is_bookmarked("ba9876543210")
    store.close()


def test_a_note_on_a_paper_with_a_line_break_before_a_brace_follows_its_new_id(write_corpus):
    """`\\\\{` in math (a line break, then a brace) counted as an escaped brace, which lost a
    backslash: such a paper's id changed when that was fixed, and its note moves with it."""
    path = write_corpus(f"C\n\n{BREAK}\n\n{QUOTED}")
    paper, quoted = load_corpus([path]).papers
    old = _v3_id(BREAK)
    assert old != paper.id and _v3_id(QUOTED) == quoted.id  # only such papers changed
    store = Store(paths.store_path())
    store.set_note(Paper(old, BREAK, ["C"], str(path)), "check the bound")
    assert store.reconcile([paper, quoted]) == 1
    assert store.note(paper.id) == "check the bound"
    store.close()
