"""Build a large library's vectors and topics in a separate process, reporting progress.

At 100,000 papers the build holds a few hundred MB of sparse matrices for a minute; in a child
process that memory goes back to the system when it ends, and the reader stays responsive.
The child is `papertui semantic --progress-json`, run like the indexing child
(`papertui.core.indexer.run_index_child`: progress lines, cancellation, last error line).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence

from papertui.core.indexer import run_index_child

# BLAS libraries read these when they load: one thread each, set before numpy is imported.
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread_env() -> None:
    """Ask the BLAS libraries for one thread (call before numpy is first imported)."""
    for name in ONE_THREAD:
        os.environ.setdefault(name, "1")


def semantic_in_child(
    sources: Sequence[str],
    progress: Callable[[int, int], None],
    cancelled: Callable[[], bool],
    started: Callable[[subprocess.Popen[str]], None] | None = None,
    fmt: str | None = None,
) -> None:
    """Run `papertui semantic` on `sources` in a child process; raises IndexCancelled when
    `cancelled()` turns true (the child is terminated) and IndexFailed when it fails."""
    command = [sys.executable, "-m", "papertui", "semantic", "--progress-json"]
    command += ["--format", fmt] if fmt else []
    command += ["--", *sources]
    run_index_child(command, progress, cancelled, started)
