"""papertui's benchmark: every speed and memory target of the scale issues, with baselines, in
one run, on real text and on generated text.

    python tests/bench/run.py [--real RECORDS.jsonl.gz] [--corpus real|generated|both|arxiv]
                              [--n 100000] [--quick] [--repeat 5] [--workdir DIR]

`--real` (or `$PAPERTUI_BENCH_REAL`) names a JSONL dump of real papers (title, abstract,
authors, venue, year); it is repeated with light changes up to N papers (real_corpus.py).
Without it only the generated corpus (gen_corpus.py) is measured. For each corpus: index builds
(with the build's peak memory), reopening, appending, query latency, filters, fuzzy filtering,
the reader's warm and cold start and keys, and memory with a breakdown by structure. Prints one
table per corpus and writes the figures as JSON (tests/bench/out/results.json). Baselines run
in the same run: plain Whoosh with default settings, a bare script that opens the index and
queries it, `fzf --filter` on the same titles (when installed) and a minimal Textual app.
Data and cache dirs are temporary: your own bookmarks and index are never touched.

`--corpus arxiv` measures instead N records in the arXiv snapshot's shape made from the real
records (make_arxiv_like.py), with the peak memory of every process the reader starts, against
the targets for a million abstracts (arxiv_bench.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchlib import Table, median, pct, timed  # noqa: E402
from gen_corpus import append_abstracts, write_corpus  # noqa: E402
from real_corpus import append_records, find_records, write_real_corpus  # noqa: E402

PROBES = str(HERE / "probes.py")


def probe(name: str, args: list[str], env: dict[str, str]) -> tuple[float, dict]:
    elapsed, out = timed([sys.executable, PROBES, name, *args], env)
    return elapsed, json.loads(out.strip().splitlines()[-1])


def papertui(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    return timed([sys.executable, "-m", "papertui", *args], env)


def make_queries(papers, collections: list[str], count: int = 200, seed: int = 11) -> list[str]:  # type: ignore[no-untyped-def]
    """1-4 word queries as people type them: words from real abstracts, some phrases, typos,
    filters, prefixes and ORs."""
    from whoosh.analysis import STOP_WORDS

    rng = random.Random(seed)
    queries = []
    while len(queries) < count:
        words = [w.strip(".,;:()[]$").lower() for w in rng.choice(papers).abstract.split()]
        words = [w for w in words if len(w) >= 4 and w.isalpha() and w not in STOP_WORDS]
        if len(words) < 4:
            continue
        n = rng.randint(1, 4)
        start = rng.randrange(0, len(words) - n)
        picked = words[start : start + n]
        kind = rng.random()
        if kind < 0.15 and n >= 2:
            query = '"' + " ".join(picked) + '"'
        elif kind < 0.30:
            word = max(picked, key=len)
            i = rng.randrange(1, len(word) - 1)
            typo = word[:i] + word[i + 1 :]
            query = " ".join(typo if w == word else w for w in picked)
        elif kind < 0.40:
            name = rng.choice(collections).split()[-1]
            query = (
                " ".join(picked)
                + " "
                + rng.choice([f"collection:{name}", "-is:bookmarked", "-has:note"])
            )
        elif kind < 0.45:
            query = picked[0][:4] + "*"
        elif kind < 0.50 and n >= 2:
            query = " OR ".join(picked[:2])
        else:
            query = " ".join(picked)
        queries.append(query)
    return queries


def child_peak_mb(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run `command`; (seconds, peak RSS in MB of the largest process it and its helpers ran)."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
        "print(time.perf_counter() - t, "
        "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)\n"
    )
    _, out = timed([sys.executable, "-c", code, *command], env)
    seconds, peak = out.split()
    return float(seconds), float(peak)


def make_corpus(kind: str, work: Path, n: int, records: Path | None) -> Path:
    corpus = work / f"corpus-{kind}-{n}"
    if not (corpus / ".complete").exists():
        shutil.rmtree(corpus, ignore_errors=True)
        if kind == "real":
            assert records is not None
            write_real_corpus(records, corpus, n)
        else:
            write_corpus(corpus, n, files=10)
        (corpus / ".complete").write_text("")
    return corpus


def bench_corpus(kind: str, corpus: Path, args: argparse.Namespace, records: Path | None) -> Table:
    table = Table(kind)
    work = corpus.parent / f"run-{kind}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = dict(os.environ)
    env["PAPERTUI_DATA_DIR"] = str(work / "data")
    size_mb = sum(p.stat().st_size for p in corpus.iterdir() if p.is_file()) / 1e6
    table.extra["corpus_mb"] = size_mb
    n = args.n
    print(f"[{kind}] corpus: {n} abstracts, {size_mb:.1f} MB in {corpus}", file=sys.stderr)
    source = [str(corpus)]

    # -- building the index -------------------------------------------------------------------
    builds, plain, peaks = [], [], []
    build_runs = 1 if n >= 50_000 else args.repeat
    for i in range(build_runs):
        env["PAPERTUI_CACHE_DIR"] = str(work / f"cache-build-{i}")
        shutil.rmtree(env["PAPERTUI_CACHE_DIR"], ignore_errors=True)
        seconds, peak = child_peak_mb([sys.executable, "-m", "papertui", "index", *source], env)
        builds.append(seconds)
        peaks.append(peak)
        out = work / f"plain-{i}"
        shutil.rmtree(out, ignore_errors=True)
        plain.append(probe("plain-whoosh-build", [str(out), *source], env)[1]["seconds"])
        shutil.rmtree(out, ignore_errors=True)
    ours_build = median(builds)
    table.record(
        "index_build",
        f"index build, {n} abstracts, from scratch (CLI)",
        ours_build,
        median(plain),
        "s",
        "<= 50 s per 100k",
        ours_build <= 50 * n / 100_000,
        f"{build_runs} run(s); plain Whoosh (1 process, defaults) times only its writer, not "
        f"reading the corpus; build peak RSS (largest process) {max(peaks):.0f} MiB",
    )
    cache = env["PAPERTUI_CACHE_DIR"]  # the last build: warm from here on

    # -- reopening an unchanged corpus --------------------------------------------------------
    from papertui.core.library import Library

    os.environ.update({"PAPERTUI_DATA_DIR": env["PAPERTUI_DATA_DIR"], "PAPERTUI_CACHE_DIR": cache})
    library = Library.open(source)
    library.indexing.ensure()
    index_dir = str(library.index_store.current_dir())
    query = "graph neural"
    cli = [
        papertui(["search", query, *source, "--limit", "20"], env)[0] for _ in range(args.repeat)
    ]
    bare = [probe("bare-search", [index_dir, query], env)[0] for _ in range(args.repeat)]
    table.record(
        "reopen",
        f"CLI search end to end, warm index, {n}",
        median(cli),
        median(bare),
        "s",
        "<= 1.3x bare Whoosh script",
        median(cli) <= 1.3 * median(bare),
    )

    # -- query latency --------------------------------------------------------------------------
    queries = make_queries(library.papers, list(library.corpus.collections))
    (work / "queries.json").write_text(json.dumps(queries), "utf-8")
    latencies = []
    for q in queries:
        start = time.perf_counter()
        library.run_query(q)
        latencies.append(time.perf_counter() - start)
    p50, p95 = pct(latencies, 0.5) * 1000, pct(latencies, 0.95) * 1000
    table.record(
        "query_p50", f"query latency p50, 200 queries, {n}", p50, None, "ms", "<= 25 ms", p50 <= 25
    )
    table.record(
        "query_p95", f"query latency p95, 200 queries, {n}", p95, None, "ms", "<= 80 ms", p95 <= 80
    )

    def run_ms(q: str) -> float:
        runs = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            library.run_query(q)
            runs.append(time.perf_counter() - start)
        return median(runs) * 1000

    rare = rare_word(library)
    for q in (rare, "graph neural"):
        ms = run_ms(q)
        table.record(
            f"typed:{q}",
            f"query {q!r} answered (core, no UI debounce), {n}",
            ms,
            None,
            "ms",
            "<= 150 ms with debounce",
            ms <= 150,
        )

    # -- filters ----------------------------------------------------------------------------------
    rng = random.Random(3)
    tagged = rng.sample(library.papers, min(200, len(library.papers)))
    library.marks.set_tag(tagged, "foo", True)
    library.marks.mark_seen()
    for q in ("tag:foo", "-tag:foo", "is:new graph", "tag:foo graph"):
        ms = run_ms(q)
        table.record(
            f"filter:{q}",
            f"filter {q!r}, 200 tagged of {n}",
            ms,
            None,
            "ms",
            "<= 100 ms",
            ms <= 100,
        )

    # -- fuzzy filtering per keystroke --------------------------------------------------------
    rng = random.Random(5)
    titles = [p.title for p in library.papers]
    typed, per_query = [], []
    for _ in range(10):
        title = rng.choice([t for t in titles[:5000] if len(t) >= 20])
        start = rng.randrange(0, len(title) - 15)
        text = title[start : start + 15]
        i = rng.randrange(2, 13)
        text = text[:i] + text[i + 1 :] + text[i]  # one transposition-like typo
        per_query.append(text)
        for k in range(1, len(text) + 1):
            t = time.perf_counter()
            assert library.titles is not None
            library.titles.match(text[:k])
            typed.append(time.perf_counter() - t)
    fuzzy_p95 = pct(typed, 0.95) * 1000
    fzf = shutil.which("fzf")
    fzf_ms = None
    if fzf:
        title_file = work / "titles.txt"
        title_file.write_text("\n".join(t.replace("\n", " ") for t in titles), "utf-8")
        runs = []
        for text in per_query:
            with title_file.open("rb") as handle:
                t = time.perf_counter()
                subprocess.run(
                    [fzf, "--filter", text], stdin=handle, capture_output=True, check=False
                )
                runs.append(time.perf_counter() - t)
        fzf_ms = median(runs) * 1000
    table.record(
        "fuzzy_p95",
        f"fuzzy filter per keystroke p95, {n} titles",
        fuzzy_p95,
        fzf_ms,
        "ms",
        "<= 30 ms and faster than fzf",
        fuzzy_p95 <= 30 and (fzf_ms is None or fuzzy_p95 < fzf_ms),
        "" if fzf else "fzf not installed: no baseline",
    )
    library.close()

    # -- memory -------------------------------------------------------------------------------
    _, breakdown = probe("memory-breakdown", [str(work / "queries.json"), *source], env)
    table.extra["memory"] = breakdown
    peak = float(breakdown["peak_mb"])
    table.record(
        "rss",
        f"peak RSS, warm: list, index open, 50 searches, {n}",
        peak,
        None,
        "MiB",
        "<= 450 MiB",
        peak <= 450,
        "breakdown below",
    )

    # -- the reader -----------------------------------------------------------------------------
    env["PAPERTUI_CACHE_DIR"] = cache
    ours_paint = [probe("first-paint-papertui", source, env)[0] for _ in range(args.repeat)]
    minimal = [probe("first-paint-minimal", ["139"], env)[0] for _ in range(args.repeat)]
    table.record(
        "first_paint",
        f"TUI first paint, warm cache, {n} (process wall)",
        median(ours_paint),
        median(minimal),
        "s",
        "<= 1.5 s",
        median(ours_paint) <= 1.5,
        "baseline: a minimal Textual app with a 139-row list",
    )

    env["PAPERTUI_CACHE_DIR"] = str(work / "cache-cold")
    shutil.rmtree(env["PAPERTUI_CACHE_DIR"], ignore_errors=True)
    _, cold = probe("cold-tui", source, env)
    table.record(
        "cold_list",
        f"TUI cold cache, {n}: list visible and navigable",
        float(cold["navigable"]),
        None,
        "s",
        "<= 2.0 s, progress shown",
        # progress: "indexing 42%", or "reading files…" while the child still reads them
        float(cold["navigable"]) <= 2.0
        and any(word in str(cold["status"]) for word in ("indexing", "reading files")),
        f"status then: {cold['status']!r}; search ready at {cold['search_ready']:.1f} s "
        f"with {cold['results']} results",
    )

    env["PAPERTUI_CACHE_DIR"] = str(work / "cache-deferred")
    shutil.rmtree(env["PAPERTUI_CACHE_DIR"], ignore_errors=True)
    _, deferred = probe("deferred-cold", source, env)
    first = deferred["first"] if deferred["first"] is not None else float("nan")
    table.record(
        "cold_deferred",
        f"cold cache, {n}: first papers in the reader's process (Library.open_deferred)",
        first,
        None,
        "s",
        "<= 2.0 s with the UI's paint",
        first <= 1.5,
        f"{deferred.get('first_papers')} papers then (one file), all {deferred['papers']} at "
        f"{deferred['all']:.1f} s while the child indexes",
    )

    env["PAPERTUI_CACHE_DIR"] = cache
    _, big = probe("tui-keys", source, env)
    env["PAPERTUI_CACHE_DIR"] = str(work / "cache-bundled")
    papertui(["index"], env)
    _, small = probe("tui-keys", [], env)
    echo95 = pct(big["echo"], 0.95) * 1000
    table.record(
        "echo_p95",
        f"keystroke echo p95 while searching {n} (Pilot)",
        echo95,
        None,
        "ms",
        "<= 30 ms",
        echo95 <= 30,
    )
    moves_big, moves_small = median(big["moves"]) * 1000, median(small["moves"]) * 1000
    table.record(
        "page_moves",
        f"PgDn / G at {n} vs at 139 (Pilot, median)",
        moves_big,
        moves_small,
        "ms",
        "<= 1.5x",
        moves_big <= 1.5 * moves_small,
    )

    # -- appending ------------------------------------------------------------------------------
    env["PAPERTUI_CACHE_DIR"] = cache
    if kind == "real":
        assert records is not None
        append_records(records, sorted(corpus.glob("*.jsonl"))[-1], 1000)
    else:
        append_abstracts(sorted(corpus.glob("*.txt"))[-1], 1000)
    (corpus / ".complete").unlink()  # the corpus is no longer the generated one
    seconds, out = papertui(["index", *source], env)
    table.record(
        "append",
        f"append 1,000 to an indexed {n}",
        seconds,
        None,
        "s",
        "<= 10 s, no full rebuild",
        seconds <= 10 and out.startswith("updated"),
        out.strip().split(" at ")[0],
    )
    return table


def rare_word(library) -> str:  # type: ignore[no-untyped-def]
    """A word in about ten abstracts: what someone types to find one paper."""
    from collections import Counter

    counts: Counter[str] = Counter()
    for paper in library.papers[:3000]:
        counts.update({w for w in paper.abstract.lower().split() if w.isalpha() and len(w) > 6})
    return min(counts, key=lambda w: (abs(counts[w] - 3), w))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", help="real records (.jsonl[.gz]); else $PAPERTUI_BENCH_REAL")
    parser.add_argument("--corpus", choices=["real", "generated", "both", "arxiv"], default="both")
    parser.add_argument("--n", type=int, default=100_000, help="abstracts (100000)")
    parser.add_argument("--quick", action="store_true", help="10,000 abstracts, 3 repeats")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timed command (5)")
    parser.add_argument("--workdir", type=Path, help="keep the corpora here between runs")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "results.json")
    args = parser.parse_args()
    if args.quick:
        args.n, args.repeat = 10_000, 3
    records = find_records(args.real)
    kinds = ["real", "generated"] if args.corpus == "both" else [args.corpus]
    if records is None:
        if args.corpus in ("real", "arxiv"):
            raise SystemExit(f"--corpus {args.corpus} needs --real FILE or $PAPERTUI_BENCH_REAL")
        print("no real records given (--real): generated corpus only", file=sys.stderr)
        kinds = ["generated"]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="papertui-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    tables = []
    for kind in kinds:
        if kind == "arxiv":
            from arxiv_bench import bench_arxiv

            assert records is not None
            tables.append(bench_arxiv(work, args.n, records, args.repeat))
            continue
        corpus = make_corpus(kind, work, args.n, records)
        tables.append(bench_corpus(kind, corpus, args, records))
    for table in tables:
        table.print(
            f"papertui benchmark, {table.label} text: {args.n} abstracts "
            f"({table.extra['corpus_mb']:.0f} MB), {os.cpu_count()} cores, load "
            f"{os.getloadavg()[0]:.1f}, medians of {args.repeat} runs unless noted"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {"n": args.n, "tables": {t.label: {"rows": t.rows, **t.extra} for t in tables}},
            indent=2,
        ),
        "utf-8",
    )
    print(f"\nfigures written to {args.out}")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
