"""The long monkey run: 20 seeded runs of 500 random keys each (hostile, bundled and 10,000
generated papers in turn), through the same test the suite runs at a smaller size.

    python tests/bench/monkey.py [--runs 20] [--keys 500] [--papers 10000]

Prints one line per run and a summary; exits non-zero when any run failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--keys", type=int, default=500)
    parser.add_argument("--papers", type=int, default=10_000)
    args = parser.parse_args()
    env = dict(
        os.environ,
        PAPERTUI_MONKEY_RUNS=str(args.runs),
        PAPERTUI_MONKEY_KEYS=str(args.keys),
        PAPERTUI_MONKEY_PAPERS=str(args.papers),
    )
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/ui/test_monkey.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    print(proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-2000:])
    print("| runs | keys per run | papers (generated runs) | seconds | result |")
    print("|---|---|---|---|---|")
    result = "no exception, ? and q answer, store intact" if proc.returncode == 0 else "FAILED"
    print(f"| {args.runs} | {args.keys} | {args.papers} | {seconds:.0f} | {result} |")
    if proc.returncode != 0:
        print(proc.stdout[-4000:])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
