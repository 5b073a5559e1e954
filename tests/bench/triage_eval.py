"""A second evaluation of the "for you" ranking: readers whose interest is a specific title phrase.

ICLR 2017's author keywords (the scoring script's readers) are a fixed list of broad areas;
later years have free-form keywords ("graph neural networks", "meta-learning", "few-shot
learning"), much more specific. This benchmark stands in for those: each simulated reader
cares about one phrase found in paper TITLES, bookmarks 5 papers whose title has it, skips 20
random papers whose title does not, and precision@20 counts the other titles with it among the
20 best unseen papers. Ranking sees the abstracts only (the vectors are built without titles).

Phrases, per venue-year, picked by a fixed rule (no list chosen by hand):

* a phrase is one or two adjacent title tokens, lower-cased and stemmed like papertui's terms
  (`vectors.stem`); a hyphenated compound ("few-shot", "self-supervised") is one token, so
  "supervised learning" does not match "self-supervised learning"; no token is a stop word
  (`vectors.STOP_WORDS`) and a single token has 3 characters or more;
* it is held by 10..100 titles (the scoring script's range for keywords);
* it is not generic: at most `MAX_SPREAD` (2.5) times as many abstracts as titles contain it
  ("neural network" is in 4x as many abstracts as titles: papers use it, they are not about
  it) and at least as many (title-only words such as "revisiting" or "towards" name no topic);
* it is not a near-copy of a phrase already taken (title sets with Jaccard overlap >= 0.8;
  phrases are taken by title count, most first, so "few-shot" wins over "few-shot learning").

Readers: one per phrase per rng seed (5 bookmarks from the phrase's titles, 20 skips from the
rest, as in the scoring script). Printed: precision@20 of `triage.train(...).rank(20)`, of the
scoring script's Rocchio (unstemmed TF-IDF, bookmarks minus a quarter of the skips) and of random
order, per venue, plus ICLR 2017's author-keyword readers over many seeds (the scoring script's
rule, every keyword held by 10..100 papers once per seed):

    python tests/bench/triage_eval.py RECORDS.jsonl.gz --keywords KEYWORDS.csv
        [--venues ICLR:2021,NeurIPS:2021] [--seeds 0-14] [--keyword-seeds 300-329]
        [--ceiling 0.25,1]

The keyword readers are also scored as the scoring script draws them (its 12, rng seed 4).
`--ceiling` adds a supervised reference per share of labels: logistic regression over the
same TF-IDF that knows the true labels of that share of four fifths of the library (see
`ceiling`); what a bag-of-words learner reaches with far more than a reader's 25 answers.

RECORDS: JSONL(.gz) with title, abstract, venue, year (the 2021-2024 conference dump);
KEYWORDS: the ICLR 2017 CSV (Title, Abstract, Keyword). `evaluations` and `precision` are
importable, so a variant of the ranking can be scored on exactly the same readers (paired).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse
from scipy.optimize import minimize

sys.path.insert(0, str(Path(__file__).resolve().parent))

from semantic import _readers, cos, load_keywords, rocchio_profile, tfidf  # noqa: E402

from papertui.core.semantic import triage  # noqa: E402
from papertui.core.semantic.vector_build import build  # noqa: E402
from papertui.core.semantic.vectors import STOP_WORDS, PaperVectors, stem  # noqa: E402

K = 20
MAX_SPREAD = 2.5  # a phrase in more than this many abstracts per title is generic
_TOKEN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")

Reader = tuple[list[int], list[int], set[int]]  # (bookmarked, skipped, wanted) rows
Ranker = Callable[[PaperVectors, list[int], list[int]], list[int]]  # -> best K unseen rows


@dataclass
class Evaluation:
    """One corpus (abstracts only), its readers and the data the baselines need."""

    name: str
    abstracts: list[str]
    readers: list[Reader]
    vectors: PaperVectors
    interests: int  # distinct phrases or keywords behind the readers
    _tfidf: list[dict[str, float]] | None = None

    @property
    def tfidf(self) -> list[dict[str, float]]:
        if self._tfidf is None:
            self._tfidf = tfidf([(a, set()) for a in self.abstracts])
        return self._tfidf


def phrases_of(text: str) -> set[str]:
    """The one- and two-token phrases of a text (see the module docstring)."""
    words = [stem(w) for w in _TOKEN.findall(text.lower())]
    out = {w for w in words if w not in STOP_WORDS and len(w) > 2}
    pairs = zip(words, words[1:], strict=False)
    out |= {f"{a} {b}" for a, b in pairs if a not in STOP_WORDS and b not in STOP_WORDS}
    return out


def pick_phrases(records: Sequence[tuple[str, str]]) -> list[tuple[str, set[int]]]:
    """(phrase, rows whose title has it) by the module docstring's rule, most titles first."""
    titles: dict[str, set[int]] = {}
    in_abstracts: Counter[str] = Counter()
    for i, (title, abstract) in enumerate(records):
        for p in phrases_of(title):
            titles.setdefault(p, set()).add(i)
        in_abstracts.update(phrases_of(abstract))
    candidates = sorted(
        (
            (p, rows)
            for p, rows in titles.items()
            if 10 <= len(rows) <= 100 and len(rows) <= in_abstracts[p] <= MAX_SPREAD * len(rows)
        ),
        key=lambda x: (-len(x[1]), x[0]),
    )
    taken: list[tuple[str, set[int]]] = []
    for p, rows in candidates:
        if all(len(rows & r) < 0.8 * len(rows | r) for _, r in taken):
            taken.append((p, rows))
    return taken


def phrase_readers(
    n: int, interests: Sequence[tuple[str, set[int]]], seeds: Sequence[int]
) -> list[Reader]:
    """One reader per interest per seed: 5 bookmarks with it, 20 skips without it."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        for _, have in interests:
            pos = rng.sample(sorted(have), 5)
            neg = rng.sample([i for i in range(n) if i not in have], 20)
            out.append((pos, neg, set(have) - set(pos)))
    return out


def read_venue(path: Path, venue: str, year: int) -> list[tuple[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    out = []
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            abstract = " ".join((r.get("abstract") or "").split())
            if r.get("venue") == venue and r.get("year") == year and abstract:
                out.append((" ".join((r.get("title") or "").split()), abstract))
    return out


def _vectors(abstracts: Sequence[str]) -> PaperVectors:
    return build([str(i) for i in range(len(abstracts))], [("", a) for a in abstracts])


def evaluations(
    records: Path | None,
    venues: Sequence[tuple[str, int]],
    seeds: Sequence[int],
    keywords: Path | None,
    keyword_seeds: Sequence[int],
) -> list[Evaluation]:
    out = []
    for venue, year in venues if records else ():
        assert records is not None
        recs = read_venue(records, venue, year)
        interests = pick_phrases(recs)
        abstracts = [a for _, a in recs]
        out.append(
            Evaluation(
                f"{venue} {year} title phrases ({len(abstracts)} papers)",
                abstracts,
                phrase_readers(len(recs), interests, seeds),
                _vectors(abstracts),
                len(interests),
            )
        )
    if keywords is not None:
        rows = load_keywords(keywords)
        readers = _readers(rows, keyword_seeds)
        freq = Counter(k for _, kw in rows for k in kw)
        abstracts = [a for a, _ in rows]
        vecs = _vectors(abstracts)
        interests = sum(10 <= n <= 100 for n in freq.values())
        name = f"ICLR 2017 author keywords ({len(rows)} papers)"
        out.append(Evaluation(name, abstracts, readers, vecs, interests))
        official = script_readers(rows)
        name = "the same, the scoring script's readers"
        out.append(Evaluation(name, abstracts, official, vecs, len(official)))
    return out


def script_readers(rows: Sequence[tuple[str, set[str]]], readers: int = 12) -> list[Reader]:
    """The readers of `score_triage.py` (its rng, seed 4, drawn in its order)."""
    freq = Counter(k for _, kw in rows for k in kw)
    interests = sorted(k for k, n in freq.items() if 10 <= n <= 100)
    rng = random.Random(4)
    rng.shuffle(interests)
    out = []
    for kw in interests[:readers]:
        have = [i for i, (_, k) in enumerate(rows) if kw in k]
        pos = rng.sample(have, 5)
        neg = rng.sample([i for i, (_, k) in enumerate(rows) if kw not in k], 20)
        seen = set(pos) | set(neg)
        rng.sample([i for i in range(len(rows)) if i not in seen], K)  # its random baseline
        out.append((pos, neg, set(have) - set(pos)))
    return out


def papertui_ranker(vecs: PaperVectors, pos: list[int], neg: list[int]) -> list[int]:
    model = triage.train(vecs, [str(i) for i in pos], [str(i) for i in neg])
    return [int(r.id) for r in model.rank(K, why=False)]


def precision(ev: Evaluation, ranker: Ranker) -> np.ndarray:
    """precision@K of `ranker` for each of the evaluation's readers."""
    got = [sum(r in want for r in ranker(ev.vectors, p, n)[:K]) / K for p, n, want in ev.readers]
    return np.asarray(got)


def rocchio(ev: Evaluation) -> np.ndarray:
    """The scoring script's Rocchio baseline (unstemmed TF-IDF, gamma 0.25), per reader."""
    base, n, got = ev.tfidf, len(ev.abstracts), []
    for pos, neg, want in ev.readers:
        prof = rocchio_profile(base, pos, neg)
        seen = set(pos) | set(neg)
        unseen = [j for j in range(n) if j not in seen]
        best = sorted(unseen, key=lambda j: -cos(base[j], prof))[:K]
        got.append(sum(j in want for j in best) / K)
    return np.asarray(got)


def random_order(ev: Evaluation) -> np.ndarray:
    rng, n, got = random.Random(1), len(ev.abstracts), []
    for pos, neg, want in ev.readers:
        seen = set(pos) | set(neg)
        pick = rng.sample([j for j in range(n) if j not in seen], K)
        got.append(sum(j in want for j in pick) / K)
    return np.asarray(got)


def _matrix(rows: Sequence[dict[str, float]]) -> sparse.csr_matrix:
    vocab: dict[str, int] = {}
    r, c, v = [], [], []
    for i, d in enumerate(rows):
        for w, x in d.items():
            r.append(i)
            c.append(vocab.setdefault(w, len(vocab)))
            v.append(x)
    return sparse.csr_matrix((v, (r, c)), shape=(len(rows), len(vocab)))


def _logistic(x: sparse.csr_matrix, y: np.ndarray, c: float) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression with balanced class weights (scikit-learn's
    objective: C times the weighted log loss plus half the squared weights, intercept free)."""
    n, d = x.shape
    t = np.where(y, 1.0, -1.0)
    cw = np.where(y, n / (2 * y.sum()), n / (2 * (~y).sum()))

    def loss(wb: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = wb[:d], wb[d]
        z = t * (x @ w + b)
        g = -c * cw * t / (1 + np.exp(z))
        value = c * float(np.sum(cw * np.logaddexp(0, -z))) + 0.5 * float(w @ w)
        return value, np.concatenate([x.T @ g + w, [g.sum()]])

    res = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return res.x[:d], float(res.x[d])


def ceiling(
    ev: Evaluation, share: float = 1.0, folds: int = 5, repeats: int = 3, c: float = 10.0
) -> np.ndarray:
    """precision@K of a learner far better informed than any reader: logistic regression over
    the scoring script's TF-IDF, trained on the true labels of `share` of the other papers
    (`folds`-fold cross-validation: with share 1, 4/5 of the library labelled, about 390
    papers at ICLR 2017 against a reader's 25), each paper scored by the fold that did not
    see it, averaged over `repeats` shuffles. Per reader, its unseen papers are ranked by
    those scores. It bounds what a bag-of-words learner can reach on the evaluation."""
    x = _matrix(ev.tfidf)
    n = x.shape[0]
    cache: dict[frozenset[int], list[np.ndarray]] = {}
    got = []
    for pos, neg, want in ev.readers:
        have = frozenset(want | set(pos))
        if have not in cache:
            y = np.zeros(n, dtype=bool)
            y[list(have)] = True
            runs = []
            for seed in range(repeats):
                rng = np.random.default_rng(seed)
                order = rng.permutation(n)
                s = np.zeros(n)
                for k in range(folds):
                    test = order[k::folds]
                    train = np.setdiff1d(order, test)
                    train = train[: max(2, round(share * len(train)))]  # order is shuffled
                    if y[train].all() or not y[train].any():
                        continue  # one class only: the fold's papers stay at 0
                    w, b = _logistic(x[train], y[train], c)
                    s[test] = x[test] @ w + b
                runs.append(s)
            cache[have] = runs
        seen = set(pos) | set(neg)
        hits = []
        for s in cache[have]:
            best = [j for j in np.argsort(-s, kind="stable") if j not in seen][:K]
            hits.append(sum(j in want for j in best) / K)
        got.append(float(np.mean(hits)))
    return np.asarray(got)


def paired(a: np.ndarray, b: np.ndarray) -> str:
    """Mean of a - b with its standard error."""
    d = a - b
    se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0
    return f"{d.mean():+.3f} ± {se:.3f}"


def _range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="?", type=Path, help="JSONL(.gz) with title, abstract, venue")
    ap.add_argument("--keywords", type=Path, help="ICLR 2017 keywords CSV")
    ap.add_argument("--venues", default="ICLR:2021,NeurIPS:2021")
    ap.add_argument("--seeds", default="0-14", help="rng seeds of the phrase readers")
    ap.add_argument("--keyword-seeds", default="300-329")
    ap.add_argument("--show", action="store_true", help="list the phrases picked")
    ap.add_argument(
        "--ceiling",
        default="",
        help="shares of the other papers' labels for the supervised ceiling, e.g. 0.1,0.5,1",
    )
    args = ap.parse_args()
    venues = [(v, int(y)) for v, y in (x.split(":") for x in args.venues.split(",") if x)]
    evs = evaluations(
        args.records, venues, _range(args.seeds), args.keywords, _range(args.keyword_seeds)
    )
    print(f"precision@{K} of unseen papers (5 bookmarks, 20 skips per reader)")
    shares = [float(x) for x in args.ceiling.split(",") if x]
    extra = "".join(f" supervised, {x:g} of labels |" for x in shares)
    print(
        "| evaluation | interests | readers | for you | rocchio (tf-idf) | random"
        f" | for you - rocchio (SE) |{extra}"
    )
    print("|---|---|---|---|---|---|---|" + "---|" * len(shares))
    for ev in evs:
        mine, roc, rnd = precision(ev, papertui_ranker), rocchio(ev), random_order(ev)
        tops = "".join(f" {ceiling(ev, x).mean():.3f} |" for x in shares)
        print(
            f"| {ev.name} | {ev.interests} | {len(ev.readers)} | {mine.mean():.3f}"
            f" | {roc.mean():.3f} | {rnd.mean():.3f} | {paired(mine, roc)} |{tops}"
        )
    if args.show and args.records:
        for venue, year in venues:
            picked = pick_phrases(read_venue(args.records, venue, year))
            print(f"{venue} {year}: " + ", ".join(f"{p} ({len(r)})" for p, r in picked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
