"""How close derived titles come to real ones, on any dump that carries real titles.

    python tests/bench/titles.py FILE... [--show N] [--by venue|year|venue-year] [--seed S]

Reads the files with papertui's own readers (`load_corpus`: JSON/JSONL, CSV, BibTeX, ... with a
title field), sets each paper's real title aside, derives a title from the abstract alone and
prints, beside a first-sentence baseline (cut at 80 characters):

  ROUGE-1 F1   content words (lower case, [a-z0-9]+, stop words and 1-char tokens dropped, Porter
               stemmed), clipped counts; mean over papers.
  name recall  papers whose real title holds a method name (a token with an inner capital or two
               capitals in a row: DiWA, NeurOLight, GPT-style "SAM") that also occurs in the
               abstract: the share whose derived title holds one of those names.
  own names    the same, counting only names in at most 3 of the titles read (a paper's own
               method, not a field's acronym such as "NLP", "RL" or "GNN" that many titles
               share); read it on a large file (all 23,478 conference papers), where a field's
               acronym is common.
  cut          share of derived titles that end with an ellipsis.
  opener       share of derived titles that begin like an abstract, not a title ("We ...",
               "This paper ...", "In this work ...", "Recent ...").

and the time `derive_title` takes per abstract (median and p95, microseconds). `--by venue`
adds one row per venue (or year, or venue and year), so a rule tuned on one venue can be checked
on another.
Not collected by pytest; prints a table, asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import defaultdict

from whoosh.lang.porter import stem

from papertui.core.corpus import Paper, load_corpus
from papertui.core.titles import MAX_TITLE, derive_title

_STOP_WORDS = (
    "a an the of for and or in on to with by from via using under over is are be as at its it this "
    "that we our their into than based towards toward learning"
)
STOP = set(_STOP_WORDS.split())
NAME = re.compile(r"\b[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z])[A-Za-z0-9]*\b")
OPENER = re.compile(
    r"^(we|our|this (paper|work|study)|in this|here,? we|recent(ly)?|despite|although|while|"
    r"existing|current|many|most|however)\b",
    re.I,
)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
BASELINE_CUT = 80  # the scoring script's first-sentence baseline is cut at 80 characters


def words(text: str) -> list[str]:
    return [stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 1]


def rouge1(pred: str, ref: str) -> float:
    p, r = words(pred), words(ref)
    if not p or not r:
        return 0.0
    left: dict[str, int] = defaultdict(int)
    for w in r:
        left[w] += 1
    hit = 0
    for w in p:
        if left[w] > 0:
            hit += 1
            left[w] -= 1
    return 2 * hit / (len(p) + len(r)) if hit else 0.0


def first_sentence(abstract: str) -> str:
    s = SENTENCE.split(abstract, 1)[0].rstrip(".")
    return s if len(s) <= BASELINE_CUT else s[: BASELINE_CUT - 1].rsplit(" ", 1)[0] + "…"


def shared_names(titles: list[str], most: int = 3) -> set[str]:
    """The name-shaped tokens in more than `most` of the titles: a field's, not a paper's."""
    seen: dict[str, int] = defaultdict(int)
    for title in titles:
        for name in set(NAME.findall(title)):
            seen[name] += 1
    return {name for name, count in seen.items() if count > most}


def score(rows: list[tuple[str, str, str]], shared: set[str] | None = None) -> dict[str, float]:
    """rows: (real title, abstract, derived title); `shared`: names left out of own names."""
    named = [(t, a, d) for t, a, d in rows if any(n in a for n in NAME.findall(t))]
    own = [
        [x for x in NAME.findall(t) if x in a and x not in (shared or set())] for t, a, _ in named
    ]
    owned = [(names, d) for names, (_, _, d) in zip(own, named, strict=True) if names]
    n = max(1, len(rows))
    return {
        "own_recall": sum(any(x in d for x in names) for names, d in owned) / max(1, len(owned)),
        "owned": len(owned),
        "rouge1": statistics.fmean(rouge1(d, t) for t, _, d in rows) if rows else 0.0,
        "name_recall": sum(any(x in d for x in NAME.findall(t) if x in a) for t, a, d in named)
        / max(1, len(named)),
        "cut": sum(d.rstrip().endswith(("…", "...")) for _, _, d in rows) / n,
        "opener": sum(bool(OPENER.match(d)) for _, _, d in rows) / n,
        "papers": len(rows),
        "named": len(named),
    }


def timed_titles(papers: list[Paper]) -> tuple[list[str], list[float]]:
    titles: list[str] = []
    micros: list[float] = []
    clock = time.perf_counter
    for paper in papers:
        t0 = clock()
        titles.append(derive_title(paper.abstract))
        micros.append((clock() - t0) * 1e6)
    return titles, micros


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--show", type=int, default=0, help="print N sample titles side by side")
    ap.add_argument(
        "--by", choices=("venue", "year", "venue-year"), help="one row per venue or year as well"
    )
    ap.add_argument("--seed", type=int, default=0, help="which samples --show picks")
    args = ap.parse_args()

    corpus = load_corpus(args.files)
    for error in corpus.errors:
        print(f"error: {error}", file=sys.stderr)
    papers = [p for p in corpus.papers if p.has_real_title and p.abstract.strip()]
    if not papers:
        print("no papers with real titles", file=sys.stderr)
        return 2
    real = [" ".join(p.title.split()) for p in papers]
    abstracts = [" ".join(p.abstract.split()) for p in papers]
    derived, micros = timed_titles(papers)
    rows = list(zip(real, abstracts, derived, strict=True))

    groups: dict[str, list[tuple[str, str, str]]] = {"all": rows}
    if args.by:
        for paper, row in zip(papers, rows, strict=True):
            key = " ".join(str(getattr(paper, k) or "?") for k in args.by.split("-"))
            groups.setdefault(key, []).append(row)

    print(f"{len(rows)} papers from {len(args.files)} file(s)")
    print(
        f"{'':24}{'papers':>7}{'named':>7}{'ROUGE-1 F1':>12}{'name recall':>13}"
        f"{'own names':>11}{'cut …':>8}{'opener':>8}"
    )
    shared = shared_names(real)
    for label, group in groups.items():
        for method, pick in (("papertui", None), ("first sentence", first_sentence)):
            s = score(group if pick is None else [(t, a, pick(a)) for t, a, _ in group], shared)
            print(
                f"{label + ' ' + method:24}{s['papers']:>7}{s['named']:>7}{s['rouge1']:>12.3f}"
                f"{s['name_recall']:>13.1%}{s['own_recall']:>11.1%}{s['cut']:>8.0%}"
                f"{s['opener']:>8.0%}"
            )
    micros.sort()
    print(
        f"derive_title: median {statistics.median(micros):.0f} µs, "
        f"p95 {micros[int(0.95 * (len(micros) - 1))]:.0f} µs, max {micros[-1]:.0f} µs"
    )
    too_long = sum(len(d) > MAX_TITLE for d in derived)
    if too_long:
        print(f"{too_long} derived titles longer than {MAX_TITLE} characters")
    if args.show:
        for t, _, d in random.Random(args.seed).sample(rows, min(args.show, len(rows))):
            print(f"\n  real:    {t}\n  derived: {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
