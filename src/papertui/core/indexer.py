"""Build a large index in a separate process, reporting progress.

Indexing 100,000 abstracts is a minute of pure-Python work. In the reader's own process it
would compete with the screen for the interpreter, and Whoosh's two-process writer must not fork
a program whose other threads are running; in a child process the reader stays responsive,
and quitting simply ends the child, leaving the previous index generation in place.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO

from papertui.core.search import IndexCancelled, needs_child_process
from papertui.core.system.lifeline import tracked

__all__ = ["IndexFailed", "index_in_child", "needs_child_process", "run_index_child"]

# How often a silent child is checked for cancellation, in seconds.
POLL = 0.1
# Seconds a terminated child gets to clean up before it is killed.
STOP_WAIT = 10.0
# Lines of the child's stderr kept for the error message (the rest is read and dropped).
KEEP_ERRORS = 50


class IndexFailed(Exception):
    """The indexing process failed; `str()` is its last error line."""


def index_in_child(
    sources: Sequence[str],
    progress: Callable[[int, int], None],
    cancelled: Callable[[], bool],
    started: Callable[[subprocess.Popen[str]], None] | None = None,
    fmt: str | None = None,
    tick: Callable[[], None] | None = None,
) -> None:
    """Run `papertui index` on `sources` in a child process (see `needs_child_process`)."""
    command = [sys.executable, "-m", "papertui", "index", "--progress-json"]
    command += ["--format", fmt] if fmt else []
    command += ["--", *sources]
    run_index_child(command, progress, cancelled, started, tick)


def run_index_child(
    command: Sequence[str],
    progress: Callable[[int, int], None],
    cancelled: Callable[[], bool],
    started: Callable[[subprocess.Popen[str]], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> None:
    """Run an indexing command that prints `{"done": n, "total": m}` lines; `tick` (if any)
    is called about every `POLL` seconds while it runs.

    Both pipes are read as the child writes them (a child with many warnings would otherwise
    fill its stderr pipe and wait forever), and `cancelled` is asked every `POLL` seconds even
    while the child says nothing; on cancel the child is terminated and `IndexCancelled` raised.
    While it runs the child is among `lifeline`'s running children, so an ending reader stops
    it even when this thread cannot.
    """
    with (
        subprocess.Popen(
            list(command),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
        ) as child,
        tracked(child),
    ):
        if started is not None:
            started(child)
        assert child.stdout is not None and child.stderr is not None
        lines: queue.Queue[str | None] = queue.Queue()
        errors: list[str] = []
        readers = [
            threading.Thread(target=_pump, args=(child.stdout, lines.put), daemon=True),
            threading.Thread(target=_keep_last, args=(child.stderr, errors), daemon=True),
        ]
        for reader in readers:
            reader.start()
        try:
            last_tick = time.monotonic()
            while True:
                if cancelled():
                    raise IndexCancelled()
                if tick is not None and time.monotonic() - last_tick >= POLL:
                    tick()
                    last_tick = time.monotonic()
                try:
                    line = lines.get(timeout=POLL)
                except queue.Empty:
                    continue
                if line is None:
                    break
                _report(line, progress)
            code = child.wait()
        except BaseException:
            child.terminate()  # the child stops the writer it forked and cleans up
            try:
                child.wait(timeout=STOP_WAIT)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            raise
        finally:
            for reader in readers:
                reader.join(timeout=5)
    if cancelled():
        raise IndexCancelled()
    if code != 0:
        raise IndexFailed(errors[-1] if errors else f"indexing stopped (exit code {code})")


def _pump(stream: IO[str], put: Callable[[str | None], None]) -> None:
    try:
        for line in stream:
            put(line)
    finally:
        put(None)


def _keep_last(stream: IO[str], kept: list[str]) -> None:
    for line in stream:
        line = line.strip()
        if line:
            kept.append(line)
            del kept[:-KEEP_ERRORS]


def _report(line: str, progress: Callable[[int, int], None]) -> None:
    try:
        message = json.loads(line)
    except ValueError:
        return
    if isinstance(message, dict) and "done" in message:
        progress(int(message["done"]), int(message["total"]))
