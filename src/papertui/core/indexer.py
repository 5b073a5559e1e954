"""Build a large index in a separate process, reporting progress.

Indexing 100,000 abstracts is minutes of pure-Python work. In the reader's own process it would
compete with the screen for the interpreter; in a child process the reader stays responsive,
and quitting simply ends the child, leaving the previous index generation in place.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Sequence

from papertui.core.search import IndexCancelled


class IndexFailed(Exception):
    """The indexing process failed; `str()` is its last error line."""


def index_in_child(
    sources: Sequence[str],
    progress: Callable[[int, int], None],
    cancelled: Callable[[], bool],
    started: Callable[[subprocess.Popen[str]], None] | None = None,
    fmt: str | None = None,
) -> None:
    command = [sys.executable, "-m", "papertui", "index", "--progress-json"]
    command += ["--format", fmt] if fmt else []
    command += ["--", *sources]
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="replace",
    ) as child:
        if started is not None:
            started(child)
        assert child.stdout is not None and child.stderr is not None
        for line in child.stdout:
            if cancelled():
                child.terminate()
                raise IndexCancelled()
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and "done" in message:
                progress(int(message["done"]), int(message["total"]))
        errors = child.stderr.read().strip().splitlines()
        code = child.wait()
    if cancelled():
        raise IndexCancelled()
    if code != 0:
        raise IndexFailed(errors[-1] if errors else f"indexing stopped (exit code {code})")
