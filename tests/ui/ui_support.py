"""Helpers for the reader's tests: a fixed-size app on temp dirs with a fake clipboard."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from papertui.ui import app as app_module
from papertui.ui.app import PaperTUI

from notices import notifications, toasts

SIZE = (120, 40)
__all__ = ["SIZE", "FakeClipboard", "make_app", "notifications", "settle", "toasts"]


class FakeClipboard:
    def __init__(self, problem: str | None = None) -> None:
        self.problem = problem
        self.copied: list[str] = []

    def __call__(self, text: str) -> str | None:
        if self.problem is None:
            self.copied.append(text)
        return self.problem


def make_app(paths: Sequence[str | Path] | None = None, clipboard=None) -> PaperTUI:
    """The app factory the CLI uses, with a fake clipboard."""
    return app_module.make_app(paths, clipboard=clipboard or FakeClipboard())


async def settle(pilot) -> None:
    """Wait until the index and any search have finished and the screen has caught up (the
    search box waits for a pause in typing before it searches)."""
    await pilot.pause(0.1)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
