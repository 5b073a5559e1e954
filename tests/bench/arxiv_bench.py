"""The benchmark at arXiv scale: N records in the arXiv metadata snapshot's shape, made of real
abstracts (make_arxiv_like.py), measured as a person meets them, with the peak resident memory
of every process the reader starts.

Run from run.py: `python tests/bench/run.py --corpus arxiv --n 1000000 --real POOL.jsonl.gz`.
The steps, each in fresh processes with temporary data and cache dirs:

1. cold reader: the reader opened on the file with nothing cached. It starts the indexing
   child (which forks a segment writer) and then the vectors-and-topics child; keys are typed
   into the search box while the latter runs (echo). Every process' peak memory is sampled.
2. warm reader: first paint, three rare words and two common words typed at a typist's pace
   (from the last key to the answer on screen), "more like this", the reader's memory.
3. the CLI: `search tag:x robot` and `search is:unread graph` against `search graph`.
4. appending 10,000 records to the file: the index update and the vectors' extension.

Time targets are the issue's at 1,000,000 records, scaled linearly for a smaller N; memory
targets are absolute.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from benchlib import Table, median, pct, timed
from proctree import Seen, role, run_sampled

HERE = Path(__file__).resolve().parent
ADDED = 10_000  # records appended to the indexed library
MILLION = 1_000_000
GIB = 1024.0


def make_file(work: Path, n: int, pool: Path) -> tuple[Path, int]:
    """The corpus file of the first `n` records (rewritten if an earlier run appended to it),
    and the size it has before the `ADDED` more records are appended."""
    full = work / f"arxiv-{n + ADDED}.jsonl"
    if not full.exists():
        command = [sys.executable, str(HERE / "make_arxiv_like.py"), str(n + ADDED), str(full)]
        subprocess.run([*command, "--pool", str(pool)], check=True)
    folder = work / f"arxiv-{n}"
    folder.mkdir(exist_ok=True)
    corpus = folder / "arxiv.jsonl"
    with full.open("rb") as src:
        for _ in range(n):
            src.readline()
        size = src.tell()
    if not corpus.exists() or corpus.stat().st_size != size:
        with full.open("rb") as src, corpus.open("wb") as dst:
            shutil.copyfileobj(src, dst)
            dst.truncate(size)
    return corpus, size


def pick_words(corpus: Path) -> tuple[list[str], str]:
    """Three rare words (one abstract in the first 3,000) and the two commonest long words."""
    df: Counter[str] = Counter()
    with corpus.open(encoding="utf-8") as handle:
        for _, line in zip(range(3000), handle, strict=False):
            words = json.loads(line)["abstract"].lower().split()
            df.update({w for w in words if w.isalpha() and len(w) > 6})
    rare = sorted(w for w, c in df.items() if c == 1)
    rng = random.Random(7)
    common = [w for w, _ in df.most_common(2)]
    return rng.sample(rare, 3), " ".join(common)


def peaks(seen: list[Seen]) -> dict[str, tuple[float, float, int]]:
    """role -> (peak MiB, seconds alive, pid) of the largest process in that role; the first
    process seen is the reader (or the command run)."""
    by_pid = {s.pid: s for s in seen}
    out: dict[str, tuple[float, float, int]] = {}
    for n, s in enumerate(seen):
        name = "root" if n == 0 else role(s, by_pid)
        if name not in out or s.peak_mib > out[name][0]:
            out[name] = (s.peak_mib, s.seconds, s.pid)
    return out


def print_processes(title: str, seen: list[Seen]) -> None:
    by_pid = {s.pid: s for s in seen}
    print(f"\n{title}: every process (peak resident memory, sampled every 0.1 s)")
    print(f"| {'process':<44} | {'pid':>7} | {'alive s':>8} | {'peak MiB':>8} |")
    print(f"|{'-' * 46}|{'-' * 9}|{'-' * 10}|{'-' * 10}|")
    for n, s in enumerate(seen):
        name = "the reader" if n == 0 else role(s, by_pid)
        print(f"| {name:<44} | {s.pid:>7} | {s.seconds:>8.1f} | {s.peak_mib:>8.0f} |")


def bench_arxiv(work: Path, n: int, pool: Path, repeat: int) -> Table:
    table = Table("arxiv")
    corpus, _ = make_file(work, n, pool)
    table.extra["corpus_mb"] = corpus.stat().st_size / 1e6
    scale = n / MILLION
    run = work / f"run-arxiv-{n}"
    shutil.rmtree(run, ignore_errors=True)
    env = dict(os.environ)
    env["PAPERTUI_DATA_DIR"] = str(run / "data")
    env["PAPERTUI_CACHE_DIR"] = str(run / "cache")
    env["PAPERTUI_CONFIG_DIR"] = str(run / "config")
    rare, common = pick_words(corpus)
    probe = [sys.executable, str(HERE / "reader_probes.py")]
    print(f"[arxiv] {n} records, {table.extra['corpus_mb']:.0f} MB: {corpus}", file=sys.stderr)

    def limit(seconds_at_million: float) -> float:
        return seconds_at_million * scale

    def memory_row(key: str, what: str, mib: float, cap: float) -> None:
        table.record(key, what, mib, None, "Mi", f"<= {cap:.0f} MiB", mib <= cap)

    # -- 1. cold reader: index and vectors built by its children ------------------------------
    _, out, seen = run_sampled([*probe, "cold", str(corpus)], env, timeout=4 * 3600)
    cold = json.loads(out.strip().splitlines()[-1])
    print_processes("cold reader", seen)
    table.extra["cold_processes"] = [s.__dict__ for s in seen]
    top = peaks(seen)
    index = top.get("index build", (0.0, 0.0, 0))
    writer = top.get("segment writer (forked by the index build)", (0.0, 0.0, 0))
    semantic = top.get("vectors and topics", (0.0, 0.0, 0))
    table.record(
        "cold_paint", f"cold first paint, one {n}-record file: list shown",
        float(cold["list_visible"]), None, "s", "<= 2 s", float(cold["list_visible"]) <= 2,
        f"{cold['rows_first']} rows first; search ready at {cold['search_ready']:.0f} s",
    )  # fmt: skip
    table.record(
        "index_wall", "index build from scratch (the reader's indexing child), wall",
        index[1], None, "s", f"<= {limit(600):.0f} s", index[1] <= limit(600),
    )  # fmt: skip
    memory_row("index_peak", "  peak memory: indexing child", index[0], 1.5 * GIB)
    memory_row("writer_peak", "  peak memory: segment writer it forks", writer[0], 1.5 * GIB)
    helper = top.get("parse helper (later part of a large dump)", (0.0, 0.0, 0))
    memory_row("helper_peak", "  peak memory: parse helper it starts", helper[0], 1.5 * GIB)
    table.record(
        "semantic_wall", "vectors and topics in the background (child), wall",
        semantic[1], None, "s", f"<= {limit(900):.0f} s", semantic[1] <= limit(900),
    )  # fmt: skip
    memory_row("semantic_peak", "  peak memory: vectors-and-topics child", semantic[0], 1.5 * GIB)
    echo = [e * 1000 for e in cold["echo_during_semantic"]]
    table.record(
        "echo_semantic", "keystroke echo p95 while vectors and topics build",
        pct(echo, 0.95), None, "ms", "<= 50 ms", bool(echo) and pct(echo, 0.95) <= 50,
        f"{len(echo)} keys",
    )  # fmt: skip
    memory_row("reader_cold", "  peak memory: the reader, cold session", top["root"][0], GIB)

    # -- 2. warm reader -----------------------------------------------------------------------
    command = [*probe, "warm", str(corpus), ",".join(rare), common]
    _, out, seen = run_sampled(command, env, timeout=3600)
    warm = json.loads(out.strip().splitlines()[-1])
    print_processes("warm reader", seen)
    table.record(
        "warm_paint", "warm first paint (process start to first screen)",
        float(warm["first_paint"]), None, "s", "<= 2 s", float(warm["first_paint"]) <= 2,
        f"search ready at {warm['search_ready']:.1f} s, vectors at {warm['semantic_ready']:.1f} s",
    )  # fmt: skip
    for i, word in enumerate(rare):
        ms = float(warm[f"rare{i + 1}_after_last_key"]) * 1000
        table.record(
            f"rare{i}", f"rare word {word!r} ({warm[f'rare{i + 1}_hits']} hits) on screen after "
            "the last key", ms, None, "ms", "<= 200 ms", ms <= 200,
        )  # fmt: skip
    ms = float(warm["common_after_last_key"]) * 1000
    table.record(
        "common", f"two common words {common!r} on screen after the last key",
        ms, None, "ms", "<= 400 ms", ms <= 400,
    )  # fmt: skip
    ms = float(warm["more_like_this"]) * 1000
    table.record("similar", "more like this (m) on screen", ms, None, "ms", "<= 500 ms", ms <= 500)
    mem = warm["memory"]
    memory_row("reader_warm", "  peak memory: the reader, warm session", mem["VmHWM"], GIB)
    table.extra["reader_memory"] = {"at_paint": warm["memory_at_paint"], "end": mem}

    # -- 3. the CLI's filters against a plain word ---------------------------------------------
    tag = (
        "import random, sys\nfrom papertui.core.library import Library\n"
        "lib = Library.open([sys.argv[1]])\n"
        "lib.marks.set_tag(random.Random(1).sample(lib.papers, 200), 'x', True)\n"
    )
    timed([sys.executable, "-c", tag, str(corpus)], env)
    cli = [sys.executable, "-m", "papertui", "search"]
    times = {}
    for query in ("graph", "tag:x robot", "is:unread graph"):
        runs = []
        for _ in range(repeat):
            try:
                runs.append(timed([*cli, query, str(corpus), "--limit", "20"], env)[0])
            except SystemExit:  # exit 1: nothing matched, still an answer
                runs.append(float("nan"))
        times[query] = median(runs)
    for query in ("tag:x robot", "is:unread graph"):
        gap = times[query] - times["graph"]
        table.record(
            f"cli:{query}", f"CLI search {query!r} vs 'graph' ({times['graph']:.2f} s)",
            times[query], times["graph"], "s", "within 0.3 s", gap <= 0.3,
        )  # fmt: skip

    # -- 4. appending 10,000 records ---------------------------------------------------------
    make_file(work, n, pool)  # the same file, then the next records at its end
    full = work / f"arxiv-{n + ADDED}.jsonl"
    with full.open("rb") as src, corpus.open("ab") as dst:
        for _ in range(n):
            src.readline()
        shutil.copyfileobj(src, dst)
    papertui = [sys.executable, "-m", "papertui"]
    seconds, out, seen = run_sampled([*papertui, "index", str(corpus)], env)
    index_add = peaks(seen)["root"][0]
    added, out2, seen2 = run_sampled([*papertui, "semantic", str(corpus)], env)
    semantic_add = peaks(seen2)["root"][0]
    table.record(
        "append", f"add {ADDED} records: index update + vectors extended",
        seconds + added, None, "s", "<= 60 s", seconds + added <= 60 and "updated" in out,
        f"index {seconds:.0f} s ({out.split(' at ')[0].strip()}), vectors {added:.0f} s "
        f"({out2.strip()})",
    )  # fmt: skip
    memory_row("append_index_peak", "  peak memory: index update", index_add, 1.5 * GIB)
    memory_row("append_semantic_peak", "  peak memory: vectors extended", semantic_add, 1.5 * GIB)
    make_file(work, n, pool)  # leave the file as generated
    return table
