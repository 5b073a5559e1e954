"""Work made once for a whole test run and shared by every test worker (a corpus, a warm
cache): the first worker to need it makes it, under a lock the others wait on."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest


def once_per_run(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], str]) -> str:
    """`make(folder)`'s answer, from the one call of it this run: `folder` is seen by every
    worker, and the answer (a line of text) is kept beside it for the others."""
    base = factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    folder.mkdir(exist_ok=True)
    ready = folder / "ready"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            ready.write_text(make(folder))
    return ready.read_text()
