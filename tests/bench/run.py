"""papertui's benchmark: every speed target of the scale issue, with its baselines, in one run.

    python tests/bench/run.py [--n 100000] [--quick] [--repeat 5] [--workdir DIR]

Generates a deterministic corpus, then measures index builds, reopening, appending, query
latency, fuzzy filtering, the reader's start-up and keys, and memory. Prints one table and
writes the same figures as JSON (tests/bench/out/results.json). Baselines run in the same run:
plain Whoosh with default settings, a bare script that opens the index and queries it,
`fzf --filter` on the same titles (when fzf is installed) and a minimal Textual app.
Data and cache dirs are temporary: your own bookmarks and index are never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_corpus import append_abstracts, write_corpus  # noqa: E402

PROBES = str(HERE / "probes.py")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(command: list[str], env: dict[str, str], stdin: str | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(
        command, env=env, input=stdin, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"benchmark step failed: {' '.join(command[:4])}...\n{proc.stderr}")
    return elapsed, proc.stdout


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="abstracts (100000)")
    parser.add_argument("--quick", action="store_true", help="10,000 abstracts, 3 repeats")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timed command (5)")
    parser.add_argument("--workdir", type=Path, help="keep the corpus here between runs")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "results.json")
    args = parser.parse_args()
    if args.quick:
        args.n, args.repeat = 10_000, 3
    work = args.workdir or Path(tempfile.mkdtemp(prefix="papertui-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env["PAPERTUI_DATA_DIR"] = str(work / "data")
    results: dict[str, dict[str, object]] = {}

    def record(
        key: str,
        what: str,
        ours: float,
        base: float | None,
        unit: str,
        target: str,
        met: bool,
        note: str = "",
    ) -> None:
        results[key] = {
            "what": what,
            "papertui": ours,
            "baseline": base,
            "unit": unit,
            "ratio": (ours / base) if base else None,
            "target": target,
            "met": met,
            "note": note,
        }
        print(
            f"  {what}: {ours:.3f} {unit}" + (f" (baseline {base:.3f})" if base else ""),
            file=sys.stderr,
        )

    # -- the corpus ---------------------------------------------------------------------------
    corpus = work / f"corpus-{args.n}"
    if not (corpus / ".complete").exists():
        shutil.rmtree(corpus, ignore_errors=True)
        write_corpus(corpus, args.n, files=10)
        (corpus / ".complete").write_text("")
    size_mb = sum(p.stat().st_size for p in corpus.glob("*.txt")) / 1e6
    print(f"corpus: {args.n} abstracts, {size_mb:.1f} MB in {corpus}", file=sys.stderr)
    source = [str(corpus)]

    # -- building the index -------------------------------------------------------------------
    builds, plain = [], []
    build_runs = 1 if args.n >= 50_000 else args.repeat
    for i in range(build_runs):
        env["PAPERTUI_CACHE_DIR"] = str(work / f"cache-build-{i}")
        shutil.rmtree(env["PAPERTUI_CACHE_DIR"], ignore_errors=True)
        builds.append(papertui(["index", *source], env)[0])
        out = work / f"plain-{i}"
        shutil.rmtree(out, ignore_errors=True)
        plain.append(probe("plain-whoosh-build", [str(out), *source], env)[1]["seconds"])
        shutil.rmtree(out, ignore_errors=True)
    ours_build = median(builds)
    record(
        "index_build",
        f"index build, {args.n} abstracts, from scratch",
        ours_build,
        median(plain),
        "s",
        "<= 60 s and < plain Whoosh",
        ours_build <= 60 * args.n / 100_000 and ours_build < median(plain),
        f"{build_runs} run(s); plain Whoosh times only its writer, not loading",
    )
    cache = env["PAPERTUI_CACHE_DIR"]  # the last build: warm from here on

    # -- reopening an unchanged corpus --------------------------------------------------------
    from papertui.core.library import Library

    os.environ.update({"PAPERTUI_DATA_DIR": env["PAPERTUI_DATA_DIR"], "PAPERTUI_CACHE_DIR": cache})
    library = Library.open(source)
    library.ensure_index()
    index_dir = str(library.index_store.current_dir())
    query = "graph neural"
    cli = [
        papertui(["search", query, *source, "--limit", "20"], env)[0] for _ in range(args.repeat)
    ]
    bare = [probe("bare-search", [index_dir, query], env)[0] for _ in range(args.repeat)]
    record(
        "reopen",
        f"CLI search end to end, warm index, {args.n}",
        median(cli),
        median(bare),
        "s",
        "<= 1.0 s and <= 1.5x bare script",
        median(cli) <= 1.0 and median(cli) <= 1.5 * median(bare),
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
    record(
        "query_p50",
        f"query latency p50, 200 queries, {args.n}",
        p50,
        None,
        "ms",
        "<= 25 ms",
        p50 <= 25,
    )
    record(
        "query_p95",
        f"query latency p95, 200 queries, {args.n}",
        p95,
        None,
        "ms",
        "<= 80 ms",
        p95 <= 80,
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
    record(
        "fuzzy_p95",
        f"fuzzy filter per keystroke p95, {args.n} titles",
        fuzzy_p95,
        fzf_ms,
        "ms",
        "<= 30 ms and faster than fzf --filter",
        fuzzy_p95 <= 30 and (fzf_ms is None or fuzzy_p95 < fzf_ms),
        "" if fzf else "fzf not installed: no baseline",
    )

    # -- memory -------------------------------------------------------------------------------
    rss = probe("loaded-rss", [str(work / "queries.json"), *source], env)[1]["rss_mb"]
    limit_mb = 3 * size_mb + 150
    record(
        "rss",
        f"peak RSS, {args.n} loaded, indexed and searched",
        rss,
        limit_mb,
        "MB",
        "<= 3x corpus + 150 MB",
        rss <= limit_mb,
    )
    library.close()

    # -- the reader -----------------------------------------------------------------------------
    env["PAPERTUI_CACHE_DIR"] = str(work / "cache-bundled")
    papertui(["index"], env)  # warm cache for the bundled corpus
    ours_paint = [probe("first-paint-papertui", [], env)[0] for _ in range(args.repeat)]
    minimal = [probe("first-paint-minimal", ["139"], env)[0] for _ in range(args.repeat)]
    record(
        "first_paint",
        "TUI first paint, bundled corpus, warm (process wall)",
        median(ours_paint),
        median(minimal),
        "s",
        "<= 1.3x minimal Textual app",
        median(ours_paint) <= 1.3 * median(minimal),
    )

    env["PAPERTUI_CACHE_DIR"] = str(work / "cache-cold")
    shutil.rmtree(env["PAPERTUI_CACHE_DIR"], ignore_errors=True)
    _, cold = probe("cold-tui", source, env)
    record(
        "cold_list",
        f"TUI cold cache, {args.n}: list visible and navigable",
        float(cold["navigable"]),
        None,
        "s",
        "<= 3 s, progress shown",
        float(cold["navigable"]) <= 3 and "indexing" in str(cold["status"]),
        f"status then: {cold['status']!r}; search ready at {cold['search_ready']:.1f} s "
        f"with {cold['results']} results",
    )

    env["PAPERTUI_CACHE_DIR"] = cache
    _, big = probe("tui-keys", source, env)
    env["PAPERTUI_CACHE_DIR"] = str(work / "cache-bundled")
    _, small = probe("tui-keys", [], env)
    echo95 = pct(big["echo"], 0.95) * 1000
    record(
        "echo_p95",
        f"keystroke echo p95 while searching {args.n} (Pilot)",
        echo95,
        None,
        "ms",
        "<= 50 ms",
        echo95 <= 50,
    )
    moves_big, moves_small = median(big["moves"]) * 1000, median(small["moves"]) * 1000
    record(
        "page_moves",
        f"PgDn / G at {args.n} vs at 139 (Pilot, median)",
        moves_big,
        moves_small,
        "ms",
        "<= 1.5x",
        moves_big <= 1.5 * moves_small,
    )

    # -- appending ------------------------------------------------------------------------------
    env["PAPERTUI_CACHE_DIR"] = cache
    append_abstracts(sorted(corpus.glob("*.txt"))[-1], 1000)
    (corpus / ".complete").unlink()  # the corpus is no longer the generated one
    seconds, out = papertui(["index", *source], env)
    record(
        "append",
        f"append 1,000 to an indexed {args.n}",
        seconds,
        None,
        "s",
        "<= 10 s, no full rebuild",
        seconds <= 10 and out.startswith("updated"),
        out.strip().split(" at ")[0],
    )

    # -- the table ------------------------------------------------------------------------------
    print()
    print(
        f"papertui benchmark: {args.n} abstracts ({size_mb:.0f} MB), {os.cpu_count()} cores, "
        f"medians of {args.repeat} runs unless noted"
    )
    header = (
        f"| {'what':<58} | {'papertui':>10} | {'baseline':>10} | {'ratio':>6} "
        f"| {'target':<38} | met |"
    )
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    for row in results.values():
        base = row["baseline"]
        ratio = row["ratio"]
        print(
            f"| {row['what']:<58} | {row['papertui']:>8.2f}{row['unit']:>2} | "
            f"{(f'{base:.2f}' if base is not None else '-'):>10} | "
            f"{(f'{ratio:.2f}x' if ratio is not None else '-'):>6} | {row['target']:<38} | "
            f"{'yes' if row['met'] else 'NO':<3} |"
        )
        if row["note"]:
            print(f"|   note: {row['note']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"n": args.n, "corpus_mb": size_mb, "results": results}, indent=2), "utf-8"
    )
    print(f"\nfigures written to {args.out}")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
