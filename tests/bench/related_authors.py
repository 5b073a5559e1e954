"""Related papers scored by shared authors: a second signal beside the author keywords.

    python tests/bench/semantic.py authors RECORDS.jsonl.gz [--probes 2000] [--seed 28]
        [--titles] [--split]

Papers that share an author are far more often about the same thing than two random papers.
The records (JSON lines with `abstract` and `authors`, as the conference dump has them) are
built into paper vectors from their abstracts alone (`--titles` adds the real titles, as a
JSON dump would): authors never enter the vectors, so nothing leaks. For `--probes` papers drawn
by the seed among those with an author who has another paper in the records, `similar` returns
five papers, and a returned paper counts when it shares an author (the same spelled name) with
the probe: precision@5. Printed beside it: the scoring scripts' plain TF-IDF cosine (words of
three letters or more, (1 + log tf) x log(N/df), cosine) and random papers, in the same run and
on the same probes. `--split` scores each half of the records (the first and the second half of
the file's venue-years) as a library of its own too, so a change can be checked on more than
one library.

Names are matched as spelled, so two people who share a name count as one: the same for every
method compared, so the comparison holds while the absolute figures are a little high.
"""

from __future__ import annotations

import gzip
import json
import math
import random
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from papertui.core.semantic import similar as sim
from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vectors import PaperVectors

K = 5
_WORD = re.compile(r"[a-z][a-z0-9-]+")


def read_records(path: Path) -> list[dict[str, object]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        rows = [json.loads(line) for line in handle if line.strip()]
    return [r for r in rows if str(r.get("abstract", "")).strip() and r.get("authors")]


def author_sets(records: Sequence[dict[str, object]]) -> list[set[str]]:
    return [{str(a).strip() for a in r["authors"] if str(a).strip()} for r in records]  # type: ignore[attr-defined]


def probes_for(authors: list[set[str]], count: int, seed: int) -> list[int]:
    """`count` papers (by the seed) with an author who has another paper here, in file order."""
    freq = Counter(a for s in authors for a in s)
    pool = [i for i, s in enumerate(authors) if any(freq[a] >= 2 for a in s)]
    return sorted(random.Random(seed).sample(pool, min(count, len(pool))))


def tfidf_top(abstracts: Sequence[str], probes: Sequence[int]) -> list[list[int]]:
    """The scoring scripts' TF-IDF cosine neighbours of each probe (top `K`), with sparse maths."""
    import scipy.sparse as sp

    docs = [Counter(w for w in _WORD.findall(a.lower()) if len(w) > 2) for a in abstracts]
    df = Counter(w for d in docs for w in d)
    vocab = {w: j for j, w in enumerate(df)}
    n = len(docs)
    rows, cols, vals = [], [], []
    for i, d in enumerate(docs):
        v = {vocab[w]: (1 + math.log(c)) * math.log(n / df[w]) for w, c in d.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        for j, x in v.items():
            rows.append(i)
            cols.append(j)
            vals.append(x / norm)
    x = sp.csr_matrix((vals, (rows, cols)), shape=(n, len(vocab)), dtype=np.float32)
    out = []
    for start in range(0, len(probes), 256):
        block = list(probes[start : start + 256])
        sims = np.asarray((x[block] @ x.T).todense())
        for r, i in enumerate(block):
            sims[r, i] = -np.inf
            part = np.argpartition(-sims[r], K)[:K]
            out.append([int(j) for j in part[np.lexsort((part, -sims[r][part]))]])
    return out


def precision(authors: list[set[str]], probe: int, hits: Sequence[int]) -> float:
    return sum(bool(authors[probe] & authors[j]) for j in hits[:K]) / K


def score_library(
    records: Sequence[dict[str, object]], probes_n: int, seed: int, titles: bool
) -> dict[str, float]:
    """precision@5 by shared author of papertui's `similar`, TF-IDF cosine and random papers."""
    authors = author_sets(records)
    abstracts = [" ".join(str(r["abstract"]).split()) for r in records]
    texts = [
        (str(r.get("title", "")) if titles else "", a)
        for r, a in zip(records, abstracts, strict=True)
    ]
    vecs: PaperVectors = build([str(i) for i in range(len(records))], texts)
    probes = probes_for(authors, probes_n, seed)
    mine = [
        precision(authors, i, [int(p) for p, _ in sim.similar(vecs, [str(i)], K)]) for i in probes
    ]
    near = tfidf_top(abstracts, probes)
    base = [precision(authors, i, hits) for i, hits in zip(probes, near, strict=True)]
    rng = random.Random(seed)
    rand = [
        precision(authors, i, [j for j in rng.sample(range(len(records)), K + 1) if j != i])
        for i in probes
    ]
    return {
        "papertui": statistics.mean(mine),
        "tfidf": statistics.mean(base),
        "random": statistics.mean(rand),
        "probes": len(probes),
        "papers": len(records),
    }


def halves(records: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    """The records split by venue-year into two halves of about equal size, in file order."""
    groups: dict[tuple[str, str], list[dict[str, object]]] = {}
    for r in records:
        groups.setdefault((str(r.get("venue")), str(r.get("year"))), []).append(r)
    first: list[dict[str, object]] = []
    second: list[dict[str, object]] = []
    for key in sorted(groups, key=lambda k: (k[1], k[0])):
        (first if len(first) < len(records) / 2 else second).extend(groups[key])
    return {"first half": first, "second half": second}


def report(path: Path, probes_n: int, seed: int, titles: bool, split: bool) -> None:
    records = read_records(path)
    parts = {"all": records, **(halves(records) if split else {})}
    what = "abstracts and titles" if titles else "abstracts only"
    print(f"{path.name}: precision@{K} by shared author ({what})")
    print("| library | papers | probes | papertui | tf-idf cosine | gain | random |")
    print("|---|---|---|---|---|---|---|")
    for name, part in parts.items():
        s = score_library(part, probes_n, seed, titles)
        gain = s["papertui"] / s["tfidf"] - 1 if s["tfidf"] else 0.0
        print(
            f"| {name} | {s['papers']} | {s['probes']} | {s['papertui']:.3f} | {s['tfidf']:.3f}"
            f" | {gain:+.0%} | {s['random']:.3f} |"
        )
