"""Inputs people have: RIS from reference managers, the arXiv metadata snapshot, the arXiv
mailing-list digest, proceedings volumes' BibTeX, and binary files named like text."""

from __future__ import annotations

from papertui.core.corpus import load_corpus

RIS = (
    """TY  - CONF
TI  - Sparse Kernels for Graphs
AU  - Lovelace, Ada
AU  - Turing, Alan
PY  - 2023
T2  - Proceedings of NeurIPS
AB  - We make graph kernels sparse and show they keep their accuracy.
UR  - https://example.org/sparse
DO  - 10.1000/xyz
KW  - graphs
ER  -{END}
TY  - JOUR
T1  - No Abstract Here
AU  - Nobody
ER  -{END}"""
).replace("{END}", " \n")


def test_ris_from_a_reference_manager(write_corpus):
    corpus = load_corpus([write_corpus(RIS, "library.ris")])
    (paper,) = corpus.papers
    assert paper.title == "Sparse Kernels for Graphs" and paper.has_real_title
    assert paper.authors == ("Lovelace, Ada", "Turing, Alan")
    assert (paper.venue, paper.year) == ("Proceedings of NeurIPS", 2023)
    assert paper.urls == ("https://example.org/sparse",)
    assert corpus.files[0].summary() == "ris, 1 paper (skipped no abstract: 1)"
