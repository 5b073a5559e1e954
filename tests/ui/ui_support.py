"""Helpers for the reader's tests: a fixed-size app on temp dirs with a fake clipboard."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path

from papertui.ui import app as app_module
from papertui.ui.app import PaperTUI
from papertui.ui.screens.reader import FIRST_PAINT

from notices import notifications, toasts
from workers import workers_done

SIZE = (120, 40)
__all__ = [
    "SIZE",
    "FakeClipboard",
    "make_app",
    "notifications",
    "screen_lines",
    "settle",
    "steady",
    "toasts",
]
_SVG_TEXT = re.compile(
    r'<text class="terminal-[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-(?:\d+-)?line-(\d+)\)">(.*?)</text>'
)


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
    library = getattr(pilot.app, "library", None)
    if library is not None and library.loading:  # the rest is read after the first paint
        await pilot.pause(FIRST_PAINT)
    await workers_done(pilot.app)
    await pilot.pause()


def screen_lines(app) -> list[str]:
    """The terminal's rows as a person sees them, from the app's own screenshot."""
    rows: dict[int, list[tuple[float, str]]] = {}
    for x, line, text in _SVG_TEXT.findall(app.export_screenshot()):
        rows.setdefault(int(line), []).append((float(x), html.unescape(text).replace("\xa0", " ")))
    return ["".join(t for _, t in sorted(rows.get(n, []))) for n in range(app.size.height)]


async def steady(pilot) -> None:
    """`settle`, and the index ready: it is built by a child process, not a worker, so on a busy
    machine it can finish after the keys (the topics and the status line wait for it)."""
    from papertui.ui.widgets.status import StatusLine

    await settle(pilot)
    status = pilot.app.reader.query_one(StatusLine)
    for _ in range(600):
        if pilot.app.library.index is not None and not status.index_state:
            break
        await pilot.pause(0.05)
    await settle(pilot)
