"""Waiting for the app's workers, for the tests of every tier."""

from __future__ import annotations

import contextlib

from textual.worker import WorkerCancelled


async def workers_done(app) -> None:  # type: ignore[no-untyped-def]
    """Every worker finished. A search cancelled because a newer one replaced it (the user typed
    on) is done too, though Textual's `wait_for_complete` raises for it; a worker that failed
    raises."""
    for worker in list(app.workers):
        with contextlib.suppress(WorkerCancelled):
            await worker.wait()
