"""Quality and speed of papertui.core.semantic: related papers, "for you" ranking, scale.

Quality (a CSV with Title, Abstract and Keyword columns, keywords as a Python list literal):

    python tests/bench/semantic.py quality KEYWORDS.csv [--seeds 4,5,6] [--svd-seeds 1,2,3,4]

scores the functions directly with the rules of the project's scoring scripts, on abstracts
only: precision@5 of `similar` (a neighbour counts when it shares an author keyword held by
fewer than 10% of the papers) and precision@20 of the "for you" ranking for simulated readers
who each care about one keyword held by 10..100 papers (5 bookmarks, 20 skips, rng seed 4;
other seeds are printed as extra readers, not as the official figure). TF-IDF cosine, Rocchio and
random baselines are computed the scripts' way in the same run.

With a few papers a keyword's precision@5 moves by about 0.01 with the SVD's random seed, so
the similar figure is also printed as the mean over `--svd-seeds` (the official figure is the
default seed's), for the probes in each half of the file, and for each half built as a library
of its own.

Scale (a JSONL(.gz) file of records with an "abstract" field, repeated with one word changed
until `--papers` abstracts):

    python tests/bench/semantic.py scale RECORDS.jsonl.gz [--papers 100000]

prints build time, peak memory, stored size and the medians of query and train+score times.

The "for you" ranking alone, with more simulated readers than the scoring script's 12 (every
keyword held by 10..100 papers, once per rng seed; paired against the same readers without the
feedback round and profile cut), then train + score medians at given library sizes:

    python tests/bench/semantic.py foryou KEYWORDS.csv [--seeds 300-359]
    python tests/bench/semantic.py foryou-speed RECORDS.jsonl.gz [--papers 3000,100000]

Related papers by shared author on a dump with authors (see `related_authors.py`):

    python tests/bench/semantic.py authors RECORDS.jsonl.gz [--probes 2000] [--split]

and by shared title phrase, one library per venue-year (see `related_phrases.py`):

    python tests/bench/semantic.py phrases RECORDS.jsonl.gz [--venues ICLR:2021,...]

Through the library, as the reader and the CLI use it (the same records, written as a dump):

    python tests/bench/semantic.py library RECORDS.jsonl.gz [--papers 3000]

prints `ensure_semantic` (vectors + topics; by the child process at and above the
child-process threshold) wall time and the peak RSS of the process that built, then the medians
of `Library.similar`, a `~` query, the "for you" sort of the whole library (first after a
like: trains; again: cached), `ask_me`, and one `papertui similar` process.
"""

from __future__ import annotations

import argparse
import ast
import csv
import gzip
import json
import math
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from related_authors import report

from papertui.core.semantic import similar as sim
from papertui.core.semantic import triage
from papertui.core.semantic.triage import weights
from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vectors import SEED, PaperVectors


def load_keywords(path: Path) -> list[tuple[str, set[str]]]:
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            try:
                kw = {k.strip().lower() for k in ast.literal_eval(r["Keyword"]) if k.strip()}
            except (ValueError, SyntaxError):
                kw = set()
            abstract = " ".join(r["Abstract"].split())
            if abstract:
                rows.append((abstract, kw))
    return rows


def tfidf(rows: list[tuple[str, set[str]]]) -> list[dict[str, float]]:
    """The scoring scripts' TF-IDF baseline."""
    docs = [
        Counter(w for w in re.findall(r"[a-z][a-z0-9-]+", a.lower()) if len(w) > 2) for a, _ in rows
    ]
    df = Counter(w for d in docs for w in d)
    out = []
    for d in docs:
        v = {w: (1 + math.log(c)) * math.log(len(docs) / df[w]) for w, c in d.items()}
        n = math.sqrt(sum(x * x for x in v.values())) or 1.0
        out.append({w: x / n for w, x in v.items()})
    return out


def cos(a: dict[str, float], b: dict[str, float]) -> float:
    return sum(x * b.get(w, 0.0) for w, x in a.items())


def specific(rows: list[tuple[str, set[str]]]) -> list[set[str]]:
    """Each paper's keywords held by fewer than 10% of the papers (the scoring script's rule)."""
    freq = Counter(k for _, kw in rows for k in kw)
    return [{k for k in kw if freq[k] < 0.1 * len(rows)} for _, kw in rows]


def similar_hits(rows: list[tuple[str, set[str]]], vecs: PaperVectors) -> dict[int, float]:
    """precision@5 of `similar` per probe (papers with specific keywords), by row."""
    spec = specific(rows)
    out = {}
    for i in (i for i in range(len(rows)) if spec[i]):
        got = [int(p) for p, _ in sim.similar(vecs, [str(i)], 5)]
        out[i] = sum(bool(spec[i] & spec[j]) for j in got[:5]) / 5
    return out


def score_similar(rows: list[tuple[str, set[str]]], vecs: PaperVectors) -> tuple[float, float]:
    """(mine, tf-idf) precision@5 over papers with specific keywords."""
    spec = specific(rows)
    base = tfidf(rows)
    ref = []
    for i in (i for i in range(len(rows)) if spec[i]):
        near = sorted((j for j in range(len(rows)) if j != i), key=lambda j: -cos(base[i], base[j]))
        ref.append(sum(bool(spec[i] & spec[j]) for j in near[:5]) / 5)
    return statistics.mean(similar_hits(rows, vecs).values()), statistics.mean(ref)


def build_rows(rows: list[tuple[str, set[str]]], seed: int = SEED) -> PaperVectors:
    return build([str(i) for i in range(len(rows))], [("", a) for a, _ in rows], seed=seed)


def similar_robustness(rows: list[tuple[str, set[str]]], seeds: list[int]) -> None:
    """precision@5 of `similar` over SVD seeds: all probes, probes per half, halves built alone."""
    half = len(rows) // 2
    parts = {"first half": rows[:half], "second half": rows[half:]}
    whole: list[float] = []
    first: list[float] = []
    second: list[float] = []
    alone: dict[str, list[float]] = {name: [] for name in parts}
    for seed in seeds:
        hits = similar_hits(rows, build_rows(rows, seed))
        whole.append(statistics.mean(hits.values()))
        first.append(statistics.mean(v for i, v in hits.items() if i < half))
        second.append(statistics.mean(v for i, v in hits.items() if i >= half))
        for name, part in parts.items():
            alone[name].append(statistics.mean(similar_hits(part, build_rows(part, seed)).values()))
    mean = statistics.mean
    print(f"similar  precision@5, mean over SVD seeds {','.join(map(str, seeds))}:")
    print(f"  all probes {mean(whole):.3f} (per seed {' '.join(f'{x:.3f}' for x in whole)})")
    print(f"  probes in the first half {mean(first):.3f}, in the second half {mean(second):.3f}")
    print(
        "  each half built as its own library: "
        + ", ".join(f"{name} {mean(v):.3f}" for name, v in alone.items())
    )


def rocchio_profile(
    base: list[dict[str, float]], pos: Sequence[int], neg: Sequence[int]
) -> dict[str, float]:
    """The scoring script's Rocchio profile: the bookmarks' mean minus a quarter of the skips'."""
    prof: dict[str, float] = {}
    for i in pos:
        for w, x in base[i].items():
            prof[w] = prof.get(w, 0.0) + x / len(pos)
    for i in neg:
        for w, x in base[i].items():
            prof[w] = prof.get(w, 0.0) - 0.25 * x / len(neg)
    return prof


def score_triage(
    rows: list[tuple[str, set[str]]], vecs: PaperVectors, seed: int = 4, readers: int = 12
) -> dict[str, float]:
    """precision@20 of unseen papers for simulated readers (the scoring script's simulation)."""
    freq = Counter(k for _, kw in rows for k in kw)
    interests = sorted(k for k, n in freq.items() if 10 <= n <= 100)
    rng = random.Random(seed)
    rng.shuffle(interests)
    base = tfidf(rows)
    out: dict[str, list[float]] = {"mine": [], "rocchio": [], "random": []}
    for kw in interests[:readers]:
        have = [i for i, (_, k) in enumerate(rows) if kw in k]
        pos = rng.sample(have, 5)
        neg = rng.sample([i for i, (_, k) in enumerate(rows) if kw not in k], 20)
        target = set(have) - set(pos)
        unseen = [i for i in range(len(rows)) if i not in pos and i not in neg]
        model = triage.train(vecs, [str(i) for i in pos], [str(i) for i in neg])
        top = [int(r.id) for r in model.rank(20, why=False)]
        out["mine"].append(sum(i in target for i in top) / 20)
        prof = rocchio_profile(base, pos, neg)
        roc = sorted(unseen, key=lambda j: -cos(base[j], prof))[:20]
        out["rocchio"].append(sum(i in target for i in roc) / 20)
        out["random"].append(sum(i in target for i in rng.sample(unseen, 20)) / 20)
    return {k: statistics.mean(v) for k, v in out.items()}


def quality(args: argparse.Namespace) -> None:
    rows = load_keywords(Path(args.csv))
    t = time.perf_counter()
    vecs = build_rows(rows)
    print(
        f"{Path(args.csv).name}: {len(rows)} abstracts, vectors in {time.perf_counter() - t:.2f} s"
    )
    mine, ref = score_similar(rows, vecs)
    print(f"similar  precision@5   semantic {mine:.3f}   tf-idf cosine {ref:.3f}")
    if args.svd_seeds:
        similar_robustness(rows, [int(s) for s in args.svd_seeds.split(",")])
    for n, seed in enumerate(int(s) for s in args.seeds.split(",")):
        r = score_triage(rows, vecs, seed)
        label = "for you  precision@20 " if n == 0 else f"  (rng seed {seed})     "
        print(
            f"{label} semantic {r['mine']:.3f}   rocchio {r['rocchio']:.3f}"
            f"   random {r['random']:.3f}"
        )


def _readers(
    rows: list[tuple[str, set[str]]], seeds: Sequence[int]
) -> list[tuple[list[int], list[int], set[int]]]:
    """(bookmarked, skipped, wanted) for one reader per keyword held by 10..100 papers, per seed."""
    freq = Counter(k for _, kw in rows for k in kw)
    interests = sorted(k for k, n in freq.items() if 10 <= n <= 100)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        for kw in interests:
            have = [i for i, (_, k) in enumerate(rows) if kw in k]
            pos = rng.sample(have, 5)
            neg = rng.sample([i for i, (_, k) in enumerate(rows) if kw not in k], 20)
            out.append((pos, neg, set(have) - set(pos)))
    return out


def _precision(
    vecs: PaperVectors, readers: list[tuple[list[int], list[int], set[int]]]
) -> np.ndarray:
    got = []
    for pos, neg, target in readers:
        model = triage.train(vecs, [str(i) for i in pos], [str(i) for i in neg])
        got.append(sum(int(r.id) in target for r in model.rank(20, why=False)) / 20)
    return np.asarray(got)


def foryou(args: argparse.Namespace) -> None:
    rows = load_keywords(Path(args.csv))
    vecs = build([str(i) for i in range(len(rows))], [("", a) for a, _ in rows])
    first, last = (int(x) for x in args.seeds.split("-"))
    readers = _readers(rows, range(first, last + 1))
    official = score_triage(rows, vecs)
    mine = _precision(vecs, readers)
    saved = weights.FEEDBACK_PAPERS, weights.PROFILE_TERMS
    weights.FEEDBACK_PAPERS, weights.PROFILE_TERMS = 0, 0
    try:
        plain_official = score_triage(rows, vecs)["mine"]
        plain = _precision(vecs, readers)
    finally:
        weights.FEEDBACK_PAPERS, weights.PROFILE_TERMS = saved
    diff = mine - plain
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else 0.0
    print(f"{Path(args.csv).name}: precision@20 of unseen papers")
    print("| readers | for you | without feedback and cut | rocchio (tf-idf) | random |")
    print("|---|---|---|---|---|")
    print(
        f"| scoring script's 12 (seed 4) | {official['mine']:.3f} | {plain_official:.3f}"
        f" | {official['rocchio']:.3f} | {official['random']:.3f} |"
    )
    print(f"| {len(readers)} (seeds {args.seeds}) | {mine.mean():.3f} | {plain.mean():.3f} | | |")
    print(
        f"paired difference over the {len(readers)}: {diff.mean():+.4f} (standard error {se:.4f})"
    )


def _foryou_times(vecs: PaperVectors, runs: int, liked: int = 5) -> tuple[float, float, float]:
    """Medians (ms) of train + score (wall, CPU) and of train + rank 50 with why (wall), with
    `liked` liked papers and 20 passed over."""
    ids, rng = vecs.ids, random.Random(3)
    cpu: list[float] = []

    def train() -> triage.InterestModel:
        sample = rng.sample(range(len(ids)), min(len(ids), liked + 20))
        pos, neg = sample[:liked], sample[liked:]
        return triage.train(vecs, [ids[i] for i in pos], [ids[i] for i in neg])

    def train_score() -> None:
        t = time.process_time()
        train().scores()
        cpu.append((time.process_time() - t) * 1000)

    wall = median_ms(train_score, runs)
    ranked = median_ms(lambda: train().rank(50), runs)
    return wall, statistics.median(cpu), ranked


def foryou_speed(args: argparse.Namespace) -> None:
    print(
        "| papers | train + score (median wall) | CPU | train + rank 50 with why (wall)"
        " | train + score without feedback (wall, CPU) | train + score, 1,000 liked (wall) |"
    )
    print("|---|---|---|---|---|---|")
    for n in (int(x) for x in args.papers.split(",")):
        texts = read_abstracts(Path(args.records), n)
        with tempfile.TemporaryDirectory() as tmp:
            build([f"p{i}" for i in range(n)], [("", a) for a in texts]).save(tmp)
            vecs = PaperVectors.load(tmp)
            wall, cpu, ranked = _foryou_times(vecs, args.runs)
            saved, weights.FEEDBACK_PAPERS = weights.FEEDBACK_PAPERS, 0
            try:
                plain, plain_cpu, _ = _foryou_times(vecs, args.runs)
            finally:
                weights.FEEDBACK_PAPERS = saved
            many, _, _ = _foryou_times(vecs, max(3, args.runs // 3), liked=1000)
        print(
            f"| {n} | {wall:.0f} ms | {cpu:.0f} ms | {ranked:.0f} ms"
            f" | {plain:.0f} ms, {plain_cpu:.0f} ms | {many:.0f} ms |"
        )


def read_abstracts(path: Path, n: int) -> list[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        base = [json.loads(line).get("abstract", "") for line in f if line.strip()]
    base = [" ".join(a.split()) for a in base if a.strip()]
    out: list[str] = []
    rep = 0
    rng = random.Random(7)
    while len(out) < n:
        for a in base:
            if len(out) >= n:
                break
            if rep:  # a changed word per copy, so copies are distinct papers
                words = a.split()
                words[rng.randrange(len(words))] = f"variant{rep}"
                a = " ".join(words)
            out.append(a)
        rep += 1
    return out


def median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def median_cpu_ms(fn, runs: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Medians of wall and CPU time (ms): on a shared machine the CPU time is the steadier."""
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def scale(args: argparse.Namespace) -> None:
    texts = read_abstracts(Path(args.records), args.papers)
    ids = [f"p{i}" for i in range(len(texts))]
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t, cpu = time.perf_counter(), time.process_time()
    vecs = build(ids, [("", a) for a in texts])
    built, built_cpu = time.perf_counter() - t, time.process_time() - cpu
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with tempfile.TemporaryDirectory() as tmp:
        vecs.save(tmp)
        size = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 2**20
        reader = PaperVectors.load(tmp)
        rng = random.Random(3)
        probes = [rng.randrange(len(ids)) for _ in range(args.runs)]
        it = iter(probes * 3)
        q = median_cpu_ms(lambda: sim.similar(reader, [ids[next(it)]], 50), args.runs)
        qs = median_cpu_ms(
            lambda: sim.search(reader, "graph neural networks for molecules"), args.runs
        )

        def train_score() -> None:
            sample = rng.sample(range(len(ids)), 25)
            m = triage.train(reader, [ids[i] for i in sample[:5]], [ids[i] for i in sample[5:]])
            m.rank(50)

        tr = median_cpu_ms(train_score, args.runs)
        t = time.perf_counter()
        reader.add([(f"new{i}", "", a) for i, a in enumerate(texts[:1000])])
        added = (time.perf_counter() - t) * 1000
    print(f"{len(texts)} abstracts (x{math.ceil(len(texts) / 23480)} of the records)")
    print("| step | figure |\n|---|---|")
    print(f"| build (1 process) | {built:.1f} s wall, {built_cpu:.1f} s CPU |")
    print(f"| peak RSS during build | {rss1:.0f} MiB (before: {rss0:.0f} MiB) |")
    print(f"| stored (memory-mapped in the reader) | {size:.1f} MiB |")
    print(
        f"| similar, one paper, limit 50 (median of {args.runs}) | {q[0]:.0f} ms ({q[1]:.0f} CPU) |"
    )
    print(f"| free-text search (median) | {qs[0]:.0f} ms ({qs[1]:.0f} CPU) |")
    print(f"| train + rank 50, 5 liked + 20 skipped (median) | {tr[0]:.0f} ms ({tr[1]:.0f} CPU) |")
    print(f"| add 1,000 papers to the loaded vectors | {added:.0f} ms |")
    _ = np  # numpy is imported for the vectors' dtypes


def library_bench(args: argparse.Namespace) -> None:
    import os
    import subprocess

    texts = read_abstracts(Path(args.records), args.papers)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(
            PAPERTUI_DATA_DIR=f"{tmp}/data",
            PAPERTUI_CACHE_DIR=f"{tmp}/cache",
            PAPERTUI_CONFIG_DIR=f"{tmp}/config",
        )
        from papertui.core.library import Library

        dump = Path(tmp) / "dump.txt"
        dump.write_text("Bench\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
        lib = Library.open([dump])
        lib.indexing.ensure()
        child = lib.indexing.needs_child_process()
        t = time.perf_counter()
        lib.semantic.ensure()
        built = time.perf_counter() - t
        who = resource.RUSAGE_CHILDREN if child else resource.RUSAGE_SELF
        rss = resource.getrusage(who).ru_maxrss / 1024
        size = sum(f.stat().st_size for f in (lib.index_store.root / "semantic").rglob("*"))
        rng = random.Random(3)
        n = len(lib.papers)
        sim_ms = median_ms(
            lambda: lib.semantic.similar(lib.papers[rng.randrange(n)], 50), args.runs
        )
        tilde = median_ms(lambda: lib.run_query("~graph neural networks for molecules"), args.runs)
        lib.marks.set_read([lib.papers[i] for i in rng.sample(range(n), 20)], True)
        likes = iter(rng.sample(range(n), args.runs))

        def first() -> None:
            lib.marks.like([lib.papers[next(likes)]])
            lib.run_query("", sort="foryou")

        train_ms = median_ms(first, args.runs)
        again_ms = median_ms(lambda: lib.run_query("", sort="foryou"), args.runs)
        ask_ms = median_ms(lambda: lib.foryou.ask_me(50), args.runs)
        pid = lib.papers[0].id
        cli_ms = median_ms(
            lambda: subprocess.run(
                [sys.executable, "-m", "papertui", "similar", pid, str(dump), "--limit", "5"],
                capture_output=True,
                check=True,
            ),
            5,
        )
        lib.close()
    print(f"{n} papers, built {'by the child process' if child else 'in process'}")
    print("| step | figure |\n|---|---|")
    print(f"| ensure_semantic, first time (vectors + topics) | {built:.1f} s |")
    print(f"| peak RSS of the building process | {rss:.0f} MiB |")
    print(f"| cache on disk | {size / 2**20:.1f} MiB |")
    print(f"| Library.similar, limit 50 (median of {args.runs}) | {sim_ms:.0f} ms |")
    print(f"| `~` query over the library (median) | {tilde:.0f} ms |")
    print(f"| for-you sort of every paper, after a like: trains (median) | {train_ms:.0f} ms |")
    print(f"| for-you sort again, model cached (median) | {again_ms:.0f} ms |")
    print(f"| ask_me(50) (median) | {ask_ms:.0f} ms |")
    print(f"| one `papertui similar` process, cache warm (median of 5) | {cli_ms:.0f} ms |")


def phrases(args: argparse.Namespace) -> None:
    from related_phrases import report as phrase_report  # imports triage_eval, which imports us

    phrase_report(Path(args.records), args.venues)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("quality")
    q.add_argument("csv")
    q.add_argument("--seeds", default="4")
    q.add_argument("--svd-seeds", default="1,2,3,4", help="'' to skip the robustness figures")
    s = sub.add_parser("scale")
    s.add_argument("records")
    s.add_argument("--papers", type=int, default=100_000)
    s.add_argument("--runs", type=int, default=15)
    fy = sub.add_parser("foryou")
    fy.add_argument("csv")
    fy.add_argument("--seeds", default="300-359")
    fs = sub.add_parser("foryou-speed")
    fs.add_argument("records")
    fs.add_argument("--papers", default="3000,100000")
    fs.add_argument("--runs", type=int, default=9)
    au = sub.add_parser("authors", help="related papers by shared author (related_authors.py)")
    au.add_argument("records")
    au.add_argument("--probes", type=int, default=2000)
    au.add_argument("--seed", type=int, default=28)
    au.add_argument("--titles", action="store_true")
    au.add_argument("--split", action="store_true")
    ph = sub.add_parser("phrases", help="related papers by shared title phrase")
    ph.add_argument("records")
    ph.add_argument("--venues", help="VENUE:YEAR,... (default: related_phrases.VENUES)")
    lb = sub.add_parser("library")
    lb.add_argument("records")
    lb.add_argument("--papers", type=int, default=3000)
    lb.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    commands = {
        "quality": quality,
        "scale": scale,
        "library": library_bench,
        "foryou": foryou,
        "foryou-speed": foryou_speed,
        "authors": lambda a: report(Path(a.records), a.probes, a.seed, a.titles, a.split),
        "phrases": phrases,
    }
    commands[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
