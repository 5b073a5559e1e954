"""Nothing written is lost: SIGKILL at random moments, and two writers at once."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from papertui.core.store import Store

HERE = Path(__file__).resolve().parent
TRIALS = 200


def _acked(proc: subprocess.Popen[str], before: str = "") -> list[int]:
    out, _ = proc.communicate(timeout=30)
    return [int(line) for line in (before + out).split()]


def test_sigkill_at_random_moments_loses_no_acknowledged_change(tmp_path):
    db = tmp_path / "data" / "papertui.sqlite3"
    rng = random.Random(2024)
    acknowledged: list[int] = []
    first = 0
    losses = 0
    for _trial in range(TRIALS):
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "store_writer.py"), str(db), str(first)],
            stdout=subprocess.PIPE,
            text=True,
        )
        before = ""
        if _trial % 2:  # mid-write, however long the writer takes to start on a busy machine
            assert proc.stdout is not None
            before = proc.stdout.readline()
            time.sleep(rng.uniform(0.0, 0.05))
        else:
            time.sleep(rng.uniform(0.0, 0.25))  # sometimes before the store even opens
        os.kill(proc.pid, signal.SIGKILL)
        got = _acked(proc, before)
        acknowledged += got
        first = (got[-1] + 1) if got else first
        if not db.exists():  # killed before the store was created: nothing can be acknowledged
            assert not got
            continue
        # the store opens after every kill, is consistent and holds every acknowledged change
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        store = Store(db)
        assert store.moved_aside is None and store.unavailable is None
        for k in got:
            pid = f"{k:012x}"
            present = pid in store.notes if k % 2 else pid in store.bookmarks
            losses += not present
        store.close()
    assert losses == 0
    assert len(acknowledged) > TRIALS // 2  # the kills landed while writes were going on
    store = Store(db)
    for k in acknowledged:  # and nothing acknowledged earlier went missing later
        pid = f"{k:012x}"
        assert (
            (store.note(pid) == f"note {k}\n" + "x" * (k % 300))
            if k % 2
            else (store.is_bookmarked(pid))
        )
    print(f"\ncrash trials: {TRIALS}, acknowledged writes: {len(acknowledged)}, lost: {losses}")


def test_two_instances_writing_at_once_lose_nothing(tmp_path):
    corpus = tmp_path / "shared.txt"
    corpus.write_text(
        "Shared\n\n" + "\n\n".join(f"Paper number {k} studies topic {k * 7}." for k in range(1000)),
        "utf-8",
    )
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [sys.executable, str(HERE / "two_writers.py"), mode, str(corpus), first, "500"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for mode, first in (("cli", "0"), ("tui", "500"))
    ]
    outputs = [p.communicate(timeout=400) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err[-2000:]
        assert out.strip().endswith("done 500")
        assert "locked" not in err.lower() and "Traceback" not in err
    from papertui.core import paths
    from papertui.core.corpus import load_corpus

    papers = load_corpus([corpus]).papers
    store = Store(paths.store_path())
    notes = [p for p in papers[:500] if store.note(p.id) == f"note from the CLI on {p.id}"]
    marks = [p for p in papers[500:] if store.is_bookmarked(p.id)]
    assert len(notes) == 500 and len(marks) == 500
    print(
        f"\nconcurrent writes: {len(notes)} from the CLI + {len(marks)} from the reader, all kept"
    )
