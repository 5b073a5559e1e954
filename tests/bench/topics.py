"""Topic quality against author keywords, topic labels on real dumps, and speed at scale.

    python tests/bench/topics.py lift KEYWORDS.csv [--seeds 3]
    python tests/bench/topics.py labels RECORDS.jsonl[.gz] [--show 40]
    python tests/bench/topics.py label-quality KEYWORDS.csv|RECORDS.jsonl[.gz] [--sample 2000]
    python tests/bench/topics.py label-pairs SOURCE module.NAME=value OUT.json [--sample 2000]
    python tests/bench/topics.py scale RECORDS.jsonl[.gz] [--n 100000]

`lift`: pairs of papers in the same topic share a specific author keyword (one held by fewer
than 10% of the papers) this many times as often as random pairs. Abstracts only. Printed
beside a plain baseline: TF-IDF (unigrams, English stop words) and k-means with 20 topics.

`labels`: the topics of a real dump (abstracts only) with their sizes and labels.

`label-quality`: whether labels name fields, against the papers' titles and author keywords
(see `topic_labels.py`).

`label-pairs`: every topic whose label changes when one setting of the topics package does
(`labels.MODIFIER_RATE=0`), as pairs in a shuffled order for a judge who does not know which
label is today's; the key is written beside them.

`scale`: a dump of N abstracts built from the real ones (each repeat changes one word so every
abstract is distinct); time and peak memory of compute_topics, save and load.
"""

from __future__ import annotations

import argparse
import ast
import csv
import gzip
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from topic_labels import blind_pairs
from topic_labels import report as label_report

from papertui.core.semantic import topics as tp
from papertui.core.semantic.phrases import STOP_WORDS


def read_keywords(path: Path) -> tuple[list[str], list[set[str]]]:
    csv.field_size_limit(10**8)
    texts: list[str] = []
    keywords: list[set[str]] = []
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            abstract = (row.get("Abstract") or "").strip()
            if not abstract:
                continue
            try:
                kws = ast.literal_eval(row.get("Keyword") or "[]")
            except (ValueError, SyntaxError):
                kws = []
            texts.append(abstract)
            keywords.append({" ".join(str(k).lower().split()) for k in kws if str(k).strip()})
    return texts, keywords


def read_records(path: Path) -> list[dict[str, object]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        return [json.loads(line) for line in fh if line.strip()]


def shared_matrix(keywords: list[set[str]]) -> np.ndarray:
    """share[i, j]: papers i and j have a specific keyword in common."""
    n = len(keywords)
    counts: dict[str, int] = {}
    for kws in keywords:
        for k in kws:
            counts[k] = counts.get(k, 0) + 1
    specific = sorted(k for k, c in counts.items() if c < 0.10 * n and c >= 2)
    col = {k: i for i, k in enumerate(specific)}
    m = np.zeros((n, len(specific)), dtype=np.float32)
    for i, kws in enumerate(keywords):
        for k in kws:
            if k in col:
                m[i, col[k]] = 1.0
    return (m @ m.T) > 0


def lift(labels: np.ndarray, share: np.ndarray) -> float:
    n = len(labels)
    iu = np.triu_indices(n, 1)
    same = (labels[:, None] == labels[None, :])[iu] & (labels[iu[0]] >= 0)
    s = share[iu]
    base = s.mean()
    return float(s[same].mean() / base) if base > 0 and same.any() else float("nan")


def baseline_labels(texts: list[str], k: int, seed: int) -> np.ndarray:
    """Plain TF-IDF (unigrams, English stop words, smooth idf, l2) and Lloyd k-means (k-means++)."""
    import re

    from scipy.sparse import csr_matrix

    stop = STOP_WORDS
    vocab: dict[str, int] = {}
    rows, cols, vals = [], [], []
    for r, text in enumerate(texts):
        counts: dict[int, int] = {}
        for w in re.findall(r"\b\w\w+\b", text.lower()):
            if w in stop:
                continue
            j = vocab.setdefault(w, len(vocab))
            counts[j] = counts.get(j, 0) + 1
        for j, c in counts.items():
            rows.append(r)
            cols.append(j)
            vals.append(float(c))
    x = csr_matrix((vals, (rows, cols)), shape=(len(texts), len(vocab))).toarray()
    df = (x > 0).sum(axis=0)
    x = x * (np.log((1 + len(texts)) / (1 + df)) + 1)
    x /= np.linalg.norm(x, axis=1, keepdims=True) + 1e-12
    rng = np.random.default_rng(seed)
    best = None
    for _ in range(3):
        centres = x[[int(rng.integers(len(x)))]]
        for _ in range(1, k):
            d = ((x[:, None, :] - centres[None]) ** 2).sum(-1).min(1)
            centres = np.vstack([centres, x[rng.choice(len(x), p=d / d.sum())]])
        for _ in range(100):
            d = (x**2).sum(1)[:, None] - 2 * x @ centres.T + (centres**2).sum(1)[None]
            labels = d.argmin(1)
            new = np.array(
                [x[labels == c].mean(0) if (labels == c).any() else centres[c] for c in range(k)]
            )
            if np.allclose(new, centres):
                break
            centres = new
        inertia = d.min(1).sum()
        if best is None or inertia < best[0]:
            best = (inertia, labels)
    assert best is not None
    return best[1]


def cmd_lift(args: argparse.Namespace) -> None:
    texts, keywords = read_keywords(Path(args.csv))
    share = shared_matrix(keywords)
    print(f"{len(texts)} abstracts; random pairs sharing a specific keyword: {share.mean():.4f}")
    print(f"{'method':<34} {'topics':>6} {'lift (median of seeds)':>24} {'seeds':>24}")
    base = [lift(baseline_labels(texts, 20, s), share) for s in range(args.seeds)]
    print(
        f"{'TF-IDF k-means, 20 topics':<34} {20:>6} {statistics.median(base):>24.2f} "
        f"{' '.join(f'{v:.2f}' for v in base):>24}"
    )
    for label, k in (("papertui topics (default count)", None), ("papertui topics, 20 topics", 20)):
        vals = []
        count = 0
        for s in range(args.seeds):
            model = tp.compute_topics(texts, n_topics=k, seed=s)
            count = len(model.topics)
            vals.append(lift(model.assignments, share))
        print(
            f"{label:<34} {count:>6} {statistics.median(vals):>24.2f} "
            f"{' '.join(f'{v:.2f}' for v in vals):>24}"
        )
    model = tp.compute_topics(texts)
    print_topics(model)


def print_topics(model: tp.TopicModel, show: int = 40) -> None:
    print(f"\n{len(model.topics)} topics")
    for t in model.topics[:show]:
        print(f"  {t.size:>6}  {t.label}")


def cmd_labels(args: argparse.Namespace) -> None:
    records = read_records(Path(args.records))
    texts = [str(r["abstract"]) for r in records if r.get("abstract")]
    t0 = time.perf_counter()
    model = tp.compute_topics(texts)
    print(f"{len(texts)} abstracts in {time.perf_counter() - t0:.1f} s")
    print_topics(model, args.show)


def cmd_scale(args: argparse.Namespace) -> None:
    records = read_records(Path(args.records))
    base = [str(r["abstract"]) for r in records if r.get("abstract")]
    texts = []
    for i in range(args.n):
        text = base[i % len(base)]
        if i >= len(base):  # a repeat: one word changed, so it is another paper
            text = f"{text} (variant {i // len(base)})"
        texts.append(text)
    ids = [f"{i:012x}" for i in range(len(texts))]
    del records, base
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ticks: list[int] = []
    t0, c0 = time.perf_counter(), time.process_time()
    model = tp.compute_topics(texts, ids, progress=lambda d, t: ticks.append(d))
    build, build_cpu = time.perf_counter() - t0, time.process_time() - c0
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        model.save(Path(tmp) / "topics")
        save = time.perf_counter() - t0
        loads, loads_cpu = [], []
        for _ in range(5):
            t0, c0 = time.perf_counter(), time.process_time()
            loaded = tp.TopicModel.load(Path(tmp) / "topics", ids)
            loads.append(time.perf_counter() - t0)
            loads_cpu.append(time.process_time() - c0)
        assert loaded is not None
        size = sum(f.stat().st_size for f in (Path(tmp) / "topics").iterdir())
    t0 = time.perf_counter()
    model.assign(texts[:1000])
    assign = time.perf_counter() - t0
    print(f"{'papers':<28}{len(texts):>12,}")
    print(f"{'topics':<28}{len(model.topics):>12}")
    print(f"{'compute_topics (s)':<28}{build:>12.1f}")
    print(f"{'compute_topics CPU (s)':<28}{build_cpu:>12.1f}")
    print(f"{'progress calls':<28}{len(ticks):>12}")
    print(f"{'peak RSS before (MiB)':<28}{rss0 / 1024:>12.0f}")
    print(f"{'peak RSS after (MiB)':<28}{rss1 / 1024:>12.0f}")
    print(f"{'save (s)':<28}{save:>12.2f}")
    print(f"{'cache size (MiB)':<28}{size / 2**20:>12.1f}")
    print(f"{'load, median of 5 (ms)':<28}{statistics.median(loads) * 1000:>12.0f}")
    print(f"{'load CPU, median (ms)':<28}{statistics.median(loads_cpu) * 1000:>12.0f}")
    print(f"{'assign 1,000 texts (ms)':<28}{assign * 1000:>12.0f}")
    print_topics(model, 10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("lift")
    p.add_argument("csv")
    p.add_argument("--seeds", type=int, default=3)
    p.set_defaults(func=cmd_lift)
    p = sub.add_parser("labels")
    p.add_argument("records")
    p.add_argument("--show", type=int, default=40)
    p.set_defaults(func=cmd_labels)
    p = sub.add_parser("label-quality", help="do labels name fields? (topic_labels.py)")
    p.add_argument("source", help="a keywords CSV or a JSON-lines dump with titles")
    p.add_argument("--sample", type=int, default=2000)
    p.set_defaults(func=lambda a: label_report(Path(a.source), a.sample))
    p = sub.add_parser("label-pairs", help="labels against one setting changed, for a blind judge")
    p.add_argument("source", help="a keywords CSV or a JSON-lines dump")
    p.add_argument("setting", help="module.NAME=value, e.g. labels.MODIFIER_RATE=0")
    p.add_argument("out", help="where the pairs go (JSON); the key goes beside it")
    p.add_argument("--sample", type=int, default=2000)
    p.set_defaults(func=lambda a: blind_pairs(Path(a.source), a.sample, a.setting, Path(a.out)))
    p = sub.add_parser("scale")
    p.add_argument("records")
    p.add_argument("--n", type=int, default=100_000)
    p.set_defaults(func=cmd_scale)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    sys.exit(main())
