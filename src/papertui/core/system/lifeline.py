"""Child processes that never outlive the program that started them.

The reader builds a large index and its topics in child processes (`papertui index
--progress-json`, which forks a segment writer, and `papertui semantic --progress-json`). Two
ties keep them from running on, for minutes and hundreds of MB, once the reader is gone:

- the parent keeps a list of the children it is running, so whatever ends it (a closed
  terminal included) can stop them first: `stop_children`;
- a child watches its parent, and ends itself once the parent is gone, however it went (even
  killed with SIGKILL, which leaves no chance to stop anything): `end_with_parent`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator

# How often a child looks whether its parent is still there, in seconds.
WATCH_EVERY = 0.1

_running: set[subprocess.Popen[str]] = set()
_lock = threading.Lock()


@contextlib.contextmanager
def tracked(child: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """Count `child` among the running children while the block runs."""
    with _lock:
        _running.add(child)
    try:
        yield child
    finally:
        with _lock:
            _running.discard(child)


def stop_children(wait: float) -> None:
    """Ask every running child to stop (SIGTERM: each cleans up, stopping the processes it
    forked), wait up to `wait` seconds for them, then kill those still running."""
    with _lock:
        children = list(_running)
    for child in children:
        with contextlib.suppress(OSError):
            child.terminate()
    deadline = time.monotonic() + wait
    for child in children:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                child.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=0.1)


def end_with_parent(orphaned: Callable[[], None] | None = None, parent: int | None = None) -> None:
    """In a child process: once the parent that started it (pid `parent`, by default this
    process' parent now) has gone, call `orphaned` (by default, send this process SIGTERM,
    which the commands turn into an exit that cleans up).

    A thread looks at the parent's pid every `WATCH_EVERY` seconds: an orphan is adopted by
    another process, so its parent pid changes. Polling is portable, and the thread holds no
    lock while it sleeps, so forking a segment writer meanwhile is safe."""
    parent = os.getppid() if parent is None else parent
    act = orphaned or (lambda: os.kill(os.getpid(), signal.SIGTERM))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        act()

    threading.Thread(target=watch, name="papertui-parent-watch", daemon=True).start()
