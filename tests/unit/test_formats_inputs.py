"""Inputs people have: RIS from reference managers, the arXiv metadata snapshot, the arXiv
mailing-list digest, proceedings volumes' BibTeX, and binary files named like text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papertui.core.corpus import load_corpus
from papertui.core.corpus.formats.arxiv_mail import parse_arxiv_mail
from papertui.core.corpus.formats.base import CorpusError

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


RULE = "-" * 78
HEADER = f"""{RULE}
{RULE}
Send any comments regarding submissions directly to submitter.
{RULE}
Archives at http://arxiv.org/
To unsubscribe, e-mail To: cs@arXiv.org, Subject: cancel
{RULE}
 Submissions to:
Machine Learning
 received from  Tue  2 Dec 25 19:00:00 GMT  to  Wed  3 Dec 25 19:00:00 GMT
{RULE}
{RULE}
"""


def _paper(n: int, title: str, authors: str, extra: str = "") -> str:
    return f"""\\\\
arXiv:2512.0{n:04d}
Date: Wed, 3 Dec 2025 1{n}:03:11 GMT   (512kb)

Title: {title}
Authors: {authors}
Categories: cs.LG stat.ML
{extra}License: http://creativecommons.org/licenses/by/4.0/
\\\\
  We study problem number {n} and propose a method for it. It is
shown to work on many benchmarks, with lines wrapped as the
digest wraps them.
\\\\ ( https://arxiv.org/abs/2512.0{n:04d} ,  512kb)
{RULE}
"""


DIGEST = (
    HEADER
    + _paper(
        1,
        "Sparse Graph Kernels That Stay Accurate on Every\n  Benchmark We Tried",
        "Ada Lovelace, Alan Turing and Grace Hopper",
    )
    + _paper(
        2,
        "Optimal Transport for Everyone",
        "Ada Lovelace and\n  Alan Turing",
        "Comments: 12 pages, 3 figures\n",
    )
    + _paper(3, "A Third Paper", "Grace Hopper")
    + _paper(4, "A Fourth Paper", "Emmy Noether")
    + _paper(5, "A Fifth Paper (*cross-listing*)", "Kurt G\\\"odel")
    + f"""\\\\
arXiv:2511.09999
replaced with revised version Wed, 3 Dec 2025 10:00:00 GMT   (600kb)

Title: A Replaced Paper
Authors: Someone Else
Categories: cs.LG
\\\\ ( https://arxiv.org/abs/2511.09999 ,  600kb)
{RULE}
\\\\
Date: Wed, 3 Dec 2025 11:00:00 GMT   (100kb)

Title: A Block That Lost Its Id
Authors: Nobody
\\\\
  An abstract whose block has no arXiv id line.
\\\\ ( https://arxiv.org/abs/2512.09998 ,  100kb)
{RULE}
"""
)  # fmt: skip


def test_the_arxiv_digest_is_read_by_its_content(write_corpus):
    """A trial read a 5-paper digest as 6 untitled papers, the header one of them."""
    corpus = load_corpus([write_corpus(DIGEST, "cs-2025-12-03.txt")])
    papers = corpus.papers
    assert [p.title for p in papers] == [
        "Sparse Graph Kernels That Stay Accurate on Every Benchmark We Tried",
        "Optimal Transport for Everyone",
        "A Third Paper",
        "A Fourth Paper",
        "A Fifth Paper (*cross-listing*)",
    ]
    assert all(p.has_real_title for p in papers)
    first, second = papers[:2]
    assert first.authors == ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    assert second.authors == ("Ada Lovelace", "Alan Turing")
    assert papers[4].authors == ("Kurt Gödel",)
    assert first.urls == ("https://arxiv.org/abs/2512.00001",)
    assert first.year == 2025 and first.meta.categories == ("cs.LG", "stat.ML")
    assert first.abstract.startswith("We study problem number 1 and propose a method for it. It is")
    assert "\n" not in first.abstract and first.abstract.endswith("as the digest wraps them.")
    report = corpus.files[0]
    assert report.format == "arxiv-mail"
    assert report.skipped == {"no abstract": 1, "broken block": 1}
    (warning,) = corpus.warnings
    assert "the block at line" in warning and "has no arXiv id" in warning


def test_a_digest_cut_short_keeps_the_papers_before_the_cut(write_corpus):
    cut = HEADER + _paper(1, "First", "A B") + _paper(2, "Second", "C D")[:-120]
    corpus = load_corpus([write_corpus(cut, "digest.txt")])
    assert [p.title for p in corpus.papers] == ["First"]
    (warning,) = corpus.warnings
    assert "is cut short" in warning and "digest.txt" in warning


SNAPSHOT = [
    {
        "id": "0704.0001",
        "submitter": "Pavel Nadolsky",
        "authors": "C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
        "title": (
            "Calculation of prompt diphoton production cross sections at Tevatron and\n"
            "  LHC energies"
        ),
        "comments": "37 pages, 15 figures; published version",
        "journal-ref": "Phys.Rev.D76:013009,2007",
        "doi": "10.1103/PhysRevD.76.013009",
        "report-no": "ANL-HEP-PR-07-12",
        "categories": "hep-ph",
        "license": None,
        "abstract": (
            "  A fully differential calculation in perturbative quantum chromodynamics is\n"
            "presented for the production of massive photon pairs at hadron colliders.\n"
        ),
        "versions": [
            {"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"},
            {"version": "v2", "created": "Tue, 24 Jul 2007 20:10:27 GMT"},
        ],
        "update_date": "2008-11-13",
        "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""]],
    },
    {
        "id": "2301.01234",
        "authors": "Ada Lovelace, Alan Turing and Grace Hopper",
        "title": "Sparse graph kernels",
        "categories": "cs.LG stat.ML",
        "abstract": "  We make graph kernels sparse.\nThey stay accurate on every graph.\n",
        "versions": [],
        "update_date": "2023-01-05",
    },
    {
        "id": "math/0406123",
        "authors": "Smith and Jones",
        "title": "An old-style id",
        "categories": "math.PR math.ST",
        "abstract": "  Old style ids\nare read too.\n",
        "versions": [{"version": "v1", "created": "Sun, 6 Jun 2004 10:00:00 GMT"}],
        "update_date": "2009-01-01",
    },
]  # fmt: skip


def test_the_arxiv_metadata_snapshot_as_it_is(write_corpus):
    """A trial: the snapshot's link, year and categories were lost, "A, B and C" was two
    authors."""
    import json

    from papertui.core.library import Library

    text = "".join(json.dumps(r) + "\n" for r in SNAPSHOT)
    path = write_corpus(text, "arxiv-metadata-oai-snapshot.json")  # named .json, one a line
    diphoton, sparse, old = load_corpus([path]).papers
    assert diphoton.urls == ("https://arxiv.org/abs/0704.0001",)
    assert diphoton.year == 2007  # the first version's, not the last update's
    assert diphoton.authors == ("C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan")
    assert diphoton.title.endswith("at Tevatron and LHC energies")
    assert diphoton.abstract.startswith("A fully differential calculation in perturbative")
    assert "\n" not in diphoton.abstract and "  " not in diphoton.abstract
    assert sparse.authors == ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    assert sparse.year == 2023  # no versions: the update date's
    assert old.urls == ("https://arxiv.org/abs/math/0406123",) and old.year == 2004
    library = Library.open([path])
    try:
        library.indexing.ensure()
        found = {library.papers[i].id for i in library.run_query("category:cs.LG").indices}
        assert found == {sparse.id}
        found = {library.papers[i].id for i in library.run_query("category:math").indices}
        assert found == {old.id}
    finally:
        library.close()


def test_one_record_of_the_snapshot_alone(write_corpus):
    """`head -1` of the snapshot saved as .json is one object, not a list: its `versions` list
    was taken for the records and nothing was read."""
    import json

    path = write_corpus(json.dumps(SNAPSHOT[0]) + "\n", "one-paper.json")
    (paper,) = load_corpus([path]).papers
    assert paper.urls == ("https://arxiv.org/abs/0704.0001",) and paper.year == 2007
    assert paper.abstract.startswith("A fully differential calculation")


PMLR = """@Proceedings{MIDL-2024,
  booktitle = {Medical Imaging with Deep Learning},
  name = {Medical Imaging with Deep Learning},
  shortname = {MIDL},
  editor = {Burgos, Ninon and Petitjean, Caroline},
  volume = {250},
  year = {2024},
  start = {2024-07-03},
  end = {2024-07-05},
  address = {Paris, France},
  conference_url = {https://2024.midl.io/}
}

@InProceedings{pmlr-v250-a24a,
  title = {Segmenting Organs with Few Labels},
  author = {Lovelace, Ada and Turing, Alan},
  pages = {1-12},
  abstract = {We segment organs in scans with few labels and keep the accuracy.}
}

@InProceedings{pmlr-v250-b24b,
  title = {Registering Scans Quickly},
  author = {Hopper, Grace},
  pages = {13-24},
  abstract = {We register scans quickly and show it on three data sets.}
}
"""

CROSSREF = """@inproceedings{paper1,
  title = {A Paper With a Crossref},
  author = {Noether, Emmy},
  crossref = {conf23},
  abstract = {This paper takes its venue and year from the entry its crossref names.}
}

@article{paper2,
  title = {A Journal Paper},
  author = {Hopper, Grace},
  journal = {Journal of Things},
  abstract = {This journal paper has no year and takes none from any volume.}
}

@proceedings{conf23,
  title = {Proceedings of the Conference on Things 2023},
  year = {2023}
}
"""


def test_papers_of_a_proceedings_volume_take_its_venue_and_year(write_corpus):
    """A trial: no paper of the MIDL 2024 volume had a year or venue; year:2024 found nothing."""
    from papertui.core.library import Library

    path = write_corpus(PMLR, "midl-2024.bib")
    corpus = load_corpus([path])
    assert [(p.venue, p.year) for p in corpus.papers] == [
        ("Medical Imaging with Deep Learning", 2024),
        ("Medical Imaging with Deep Learning", 2024),
    ]
    assert corpus.files[0].skipped == {}  # the volume is not a paper without an abstract
    library = Library.open([path])
    try:
        library.indexing.ensure()
        assert len(library.run_query("year:2024").indices) == 2
    finally:
        library.close()


def test_a_crossref_gives_what_the_paper_lacks(write_corpus):
    with_ref, journal = load_corpus([write_corpus(CROSSREF, "refs.bib")]).papers
    assert (with_ref.venue, with_ref.year) == ("Proceedings of the Conference on Things 2023", 2023)
    assert (journal.venue, journal.year) == ("Journal of Things", None)


def test_a_file_with_nul_bytes_near_its_start_is_binary(write_corpus):
    """A trial: a 3 KB random file with 12 NULs named .txt loaded as one paper."""
    import random

    rng = random.Random(3)
    data = bytearray(rng.choice(b"abcdefgh ijk.\n") for _ in range(3000))
    for i in rng.sample(range(3000), 12):
        data[i] = 0
    corpus = load_corpus([write_corpus(bytes(data), "notes.txt")])
    assert corpus.papers == []
    (error,) = corpus.errors
    assert error.endswith("notes.txt: binary file, not a text corpus") and "\n" not in error


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(min_value=0, max_value=400), max_size=12), st.integers(0, 3000))
def test_a_damaged_digest_gives_papers_or_one_clean_line(dropped, cut):
    """Lines lost anywhere, the file cut anywhere: papers, warnings of one line, or an error."""
    lines = [line for i, line in enumerate(DIGEST.split("\n")) if i not in set(dropped)]
    data = "\n".join(lines)[: len(DIGEST) - cut].encode()
    try:
        parsed = parse_arxiv_mail("digest.txt", data)
    except CorpusError as exc:
        assert str(exc).startswith("digest.txt: ") and "\n" not in str(exc)
        return
    assert all(w.startswith("digest.txt: ") and "\n" not in w for w in parsed.warnings)
    for record in parsed.records:
        assert record.abstract and record.url.startswith("https://arxiv.org/abs/")
