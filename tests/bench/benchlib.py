"""What the benchmark scripts share: medians and percentiles, running a timed command, and the
table of figures against their targets."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


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


class Table:
    """The figures of one corpus: one row per target."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.rows: dict[str, dict[str, object]] = {}
        self.extra: dict[str, object] = {}

    def record(
        self,
        key: str,
        what: str,
        ours: float,
        base: float | None,
        unit: str,
        target: str,
        met: bool,
        note: str = "",
    ) -> None:
        self.rows[key] = {
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
            f"  [{self.label}] {what}: {ours:.3f} {unit}"
            + (f" (baseline {base:.3f})" if base else ""),
            file=sys.stderr,
        )

    def print(self, header: str) -> None:
        print()
        print(header)
        head = (
            f"| {'what':<58} | {'papertui':>10} | {'baseline':>10} | {'ratio':>6} "
            f"| {'target':<34} | met |"
        )
        print(head)
        print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
        for row in self.rows.values():
            base, ratio = row["baseline"], row["ratio"]
            print(
                f"| {row['what']:<58} | {row['papertui']:>8.2f}{row['unit']:>2} | "
                f"{(f'{base:.2f}' if base is not None else '-'):>10} | "
                f"{(f'{ratio:.2f}x' if ratio is not None else '-'):>6} | {row['target']:<34} | "
                f"{'yes' if row['met'] else 'NO':<3} |"
            )
            if row["note"]:
                print(f"|   note: {row['note']}")
        breakdown = self.extra.get("memory")
        if isinstance(breakdown, dict):
            print()
            print(
                "memory of the reader, warm start, step by step (MiB; anon = heap, file = mapped)"
            )
            print(f"| {'step':<32} | {'seconds':>7} | {'RSS':>6} | {'anon':>6} | {'file':>6} |")
            print(f"|{'-' * 34}|{'-' * 9}|{'-' * 8}|{'-' * 8}|{'-' * 8}|")
            before = 0.0
            for step in breakdown["steps"]:
                print(
                    f"| {step['step']:<32} | {step['seconds']:>7.2f} | {step['rss']:>6.0f} | "
                    f"{step['anon']:>6.0f} | {step['file']:>6.0f} |  +{step['rss'] - before:.0f}"
                )
                before = step["rss"]
            print(f"peak RSS {breakdown['peak_mb']:.0f} MiB")
