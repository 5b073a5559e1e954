"""Where derived titles lose ROUGE-1 and names, against what the abstract allows.

    python tests/bench/title_oracle.py FILE... [--by venue|year|venue-year] [--span 16]

For every paper with a real title (read as `titles.py` reads them), beside papertui's derived
title, with hindsight (the real title chooses; nothing here can be shipped):

  sentence ceiling  the best whole sentence of the abstract by ROUGE-1 against the real title
  span ceiling      the best run of at most `--span` words of one sentence (an extractive title
                    that may start and stop anywhere)
  P / R             the derived titles' ROUGE-1 precision and recall (content words)
  words             content words in the derived title and in the real one (means)

and, for the papers whose real title holds a name found in the abstract (`titles.py`'s name
recall), why a name was missed: `none` (the derived title holds no name-shaped token), `other`
(it holds another one: a baseline, a data set, a module), `case` (the name is there in another
case). Prints a table; asserts nothing; not collected by pytest.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from titles import NAME, SENTENCE, rouge1, words  # noqa: E402

from papertui.core.corpus import load_corpus  # noqa: E402
from papertui.core.titles import derive_title  # noqa: E402


def precision_recall(pred: str, ref: str) -> tuple[float, float]:
    p, r = words(pred), words(ref)
    if not p or not r:
        return 0.0, 0.0
    left = Counter(r)
    hit = 0
    for w in p:
        if left[w] > 0:
            hit += 1
            left[w] -= 1
    return hit / len(p), hit / len(r)


def best_span(abstract: str, ref: str, span: int) -> float:
    best = 0.0
    for sentence in SENTENCE.split(abstract):
        tokens = sentence.split()
        for i in range(len(tokens)):
            for j in range(i + 1, min(len(tokens), i + span) + 1):
                best = max(best, rouge1(" ".join(tokens[i:j]), ref))
    return best


def name_miss(real: str, abstract: str, derived: str) -> str | None:
    """None when the title keeps a name of the real title (or the real title has none in the
    abstract); else why it was missed."""
    names = [n for n in NAME.findall(real) if n in abstract]
    if not names or any(n in derived for n in names):
        return None
    if any(n.lower() in derived.lower() for n in names):
        return "case"
    return "other" if NAME.search(derived) else "none"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--by", choices=("venue", "year", "venue-year"))
    ap.add_argument("--span", type=int, default=16, help="longest extract, in words")
    args = ap.parse_args()
    corpus = load_corpus(args.files)
    papers = [p for p in corpus.papers if p.has_real_title and p.abstract.strip()]
    groups: dict[str, list[dict[str, object]]] = defaultdict(list)
    for paper in papers:
        real, abstract = " ".join(paper.title.split()), " ".join(paper.abstract.split())
        derived = derive_title(paper.abstract)
        p, r = precision_recall(derived, real)
        row = {
            "ours": rouge1(derived, real),
            "sentence": max(rouge1(s, real) for s in SENTENCE.split(abstract)),
            "span": best_span(abstract, real, args.span),
            "p": p,
            "r": r,
            "ours_words": len(words(derived)),
            "real_words": len(words(real)),
            "named": any(n in abstract for n in NAME.findall(real)),
            "miss": name_miss(real, abstract, derived),
        }
        groups["all"].append(row)
        if args.by:
            key = " ".join(str(getattr(paper, k) or "?") for k in args.by.split("-"))
            groups[key].append(row)
    print(
        f"{'':18}{'papers':>7}{'ours':>7}{'sent.':>7}{'span':>7}{'P':>7}{'R':>7}"
        f"{'words':>12}{'named':>7}{'missed: none/other/case':>25}"
    )
    for label, rows in groups.items():

        def mean(key: str, rows: list[dict[str, object]] = rows) -> float:
            return statistics.fmean(float(row[key]) for row in rows)  # type: ignore[arg-type]

        misses = Counter(row["miss"] for row in rows if row["miss"])
        named = sum(bool(row["named"]) for row in rows)
        print(
            f"{label:18}{len(rows):>7}{mean('ours'):>7.3f}{mean('sentence'):>7.3f}"
            f"{mean('span'):>7.3f}{mean('p'):>7.3f}{mean('r'):>7.3f}"
            f"{mean('ours_words'):>6.1f}/{mean('real_words'):<5.1f}{named:>7}"
            f"{misses['none']:>13}/{misses['other']}/{misses['case']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
