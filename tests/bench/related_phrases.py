"""Related papers scored by shared title phrases: a keyword-like signal on other venues.

    python tests/bench/semantic.py phrases RECORDS.jsonl.gz
        [--venues ICLR:2021,IJCAI:2021,ICML:2022,AAAI:2022,NeurIPS:2021]

The scoring script counts a related paper when it shares a specific author keyword, and only
ICLR 2017 has those. This stands in for other venues' keywords: each venue-year is a library
of its own (about the size of a keyword file), built from the abstracts alone, and a paper's
"keywords" are the title phrases that `triage_eval.pick_phrases` picks there (held by 10..100
titles, neither generic nor title-only; titles never enter the vectors). Every paper holding
such a phrase is a probe; printed per venue-year: precision@5 of `similar` beside the scoring
scripts' TF-IDF cosine on the same probes, and the gain.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from related_authors import K, precision, tfidf_top
from triage_eval import pick_phrases, read_venue

from papertui.core.semantic import similar as sim
from papertui.core.semantic.vector_build import build

VENUES = "ICLR:2021,IJCAI:2021,ICML:2022,AAAI:2022,NeurIPS:2021"


def score_venue(records: Sequence[tuple[str, str]]) -> dict[str, float]:
    """precision@5 by shared title phrase of `similar` and of TF-IDF cosine, one library."""
    keywords: list[set[str]] = [set() for _ in records]
    for phrase, rows in pick_phrases(records):
        for i in rows:
            keywords[i].add(phrase)
    abstracts = [a for _, a in records]
    vecs = build([str(i) for i in range(len(records))], [("", a) for a in abstracts])
    probes = [i for i, kw in enumerate(keywords) if kw]
    hits = [[int(p) for p, _ in sim.similar(vecs, [str(i)], K)] for i in probes]
    mine = [precision(keywords, i, h) for i, h in zip(probes, hits, strict=True)]
    near = tfidf_top(abstracts, probes)
    base = [precision(keywords, i, h) for i, h in zip(probes, near, strict=True)]
    return {
        "papers": len(records),
        "probes": len(probes),
        "papertui": statistics.mean(mine),
        "tfidf": statistics.mean(base),
    }


def report(path: Path, venues: str | None = None) -> None:
    print(f"{path.name}: precision@{K} by shared title phrase (abstracts only)")
    print("| venue-year | papers | probes | papertui | tf-idf cosine | gain |")
    print("|---|---|---|---|---|---|")
    for spec in (venues or VENUES).split(","):
        venue, year = spec.split(":")
        s = score_venue(read_venue(path, venue, int(year)))
        print(
            f"| {venue} {year} | {s['papers']} | {s['probes']} | {s['papertui']:.4f}"
            f" | {s['tfidf']:.4f} | {s['papertui'] / s['tfidf'] - 1:+.1%} |"
        )
