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
TRIALS = 120


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


# notes the CLI writes (a library opened for each) while the reader bookmarks papers, at most
# READER_CHANGES of them, until the CLI is done
CLI_CHANGES = 100
READER_CHANGES = 500


def test_two_instances_writing_at_once_lose_nothing(tmp_path):
    corpus = tmp_path / "shared.txt"
    corpus.write_text(
        "Shared\n\n" + "\n\n".join(f"Paper number {k} studies topic {k * 7}." for k in range(1000)),
        "utf-8",
    )
    go = tmp_path / "go"
    script = str(HERE / "two_writers.py")
    procs = [
        subprocess.Popen(
            [sys.executable, script, mode, str(corpus), first, str(count), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for mode, first, count in (("cli", "0", CLI_CHANGES), ("tui", "500", READER_CHANGES))
    ]
    for proc in procs:  # both are ready to write: they start at once
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.communicate()[1][-2000:]
    go.touch()
    outputs = [p.communicate(timeout=400) for p in procs]
    spans, made = [], []
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err[-2000:]
        assert "locked" not in err.lower() and "Traceback" not in err
        spans.append([float(t) for t in out.split("span ", 1)[1].split()[:2]])
        made.append(int(out.rsplit("done ", 1)[1]))
    (cli_first, cli_last), (tui_first, tui_last) = spans
    overlap = min(cli_last, tui_last) - max(cli_first, tui_first)
    assert overlap > 0, spans  # the two wrote at the same time
    assert made[0] == CLI_CHANGES and made[1] >= 20, made
    from papertui.core.corpus import load_corpus
    from papertui.core.system import paths

    papers = load_corpus([corpus]).papers
    store = Store(paths.store_path())
    cli_papers = papers[:CLI_CHANGES]
    notes = [p for p in cli_papers if store.note(p.id) == f"note from the CLI on {p.id}"]
    marks = [p for p in papers[500:] if store.is_bookmarked(p.id)]
    assert len(notes) == CLI_CHANGES and len(marks) == made[1]
    print(
        f"\nconcurrent writes: {len(notes)} from the CLI + {len(marks)} from the reader, all kept"
        f" ({overlap:.1f} s of writing at the same time)"
    )
