"""The reader, driven headless as a person would use it on a large library, one measurement
session per process (the benchmark samples the memory of this process and every child it
starts).

    python tests/bench/reader_probes.py cold PATH
    python tests/bench/reader_probes.py warm PATH RARE,RARE,RARE "TWO WORDS"

`cold`: no index, no vectors: when the list shows, when search is ready (the indexing child
is done), and keystroke echo while the vectors-and-topics child runs, until it is done.
`warm`: everything cached: first paint, three rare words in a row and two common words typed
at a typist's pace (time from the last key to the answer on screen), "more like this", and the
reader's own memory. Each prints one JSON object on its last line.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

T0 = time.perf_counter()
KEY_GAP = 0.08  # seconds between keys: a quick typist


def _hwm_and_rss() -> dict[str, float]:
    out: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
                out[key] = int(value.split()[0]) / 1024
    return out


def _send(app: Any, ch: str) -> float:
    """Send a key as the terminal would; the time it was sent."""
    from textual import events

    key = {" ": "space", "\n": "enter"}.get(ch, ch)
    event = events.Key(key, ch if len(ch) == 1 and ch.isprintable() else None)
    event.set_sender(app)
    sent = time.perf_counter()
    app._driver.send_message(event)
    return sent


class Answers:
    """Records when the reader shows each new view (wraps the reader's `update_status`, which
    it calls once a view is on screen)."""

    def __init__(self, reader: Any) -> None:
        self.shown: list[tuple[float, str, str, int]] = []  # when, query, similar label, rows
        original = reader.update_status
        seen = [reader.view]

        def update_status(*args: Any, **kwargs: Any) -> Any:
            out = original(*args, **kwargs)
            view = reader.view
            if view is not seen[0]:
                seen[0] = view
                similar = "similar" if reader.state.like_paper is not None else ""
                self.shown.append((time.perf_counter(), view.query, similar, len(view.indices)))
            return out

        reader.update_status = update_status

    async def wait(self, test: Any, timeout: float = 60.0) -> tuple[float, str, str, int]:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for shown in self.shown:
                if test(shown):
                    return shown
            await asyncio.sleep(0.002)
        raise SystemExit("the reader showed no answer in time")


async def _type(app: Any, text: str, echo: list[float] | None = None) -> float:
    """Type `text` into the focused box at `KEY_GAP`; the time the last key was sent."""
    bar = app.reader.search_bar
    last = 0.0
    for ch in text:
        before = bar.value
        last = _send(app, ch)
        if echo is not None:
            while bar.value == before:
                await asyncio.sleep(0.0005)
            echo.append(time.perf_counter() - last)
        await asyncio.sleep(KEY_GAP)
    return last


async def _wait_until(pilot: Any, test: Any, timeout: float, step: float = 0.2) -> float:
    deadline = time.perf_counter() + timeout
    while not test():
        if time.perf_counter() > deadline:
            raise SystemExit("timed out waiting for the reader")
        await pilot.pause(step)
    return time.perf_counter() - T0


def cold(path: str) -> dict[str, object]:
    from papertui.ui.app import make_app
    from papertui.ui.widgets.paper_list import PaperList

    result: dict[str, object] = {}

    async def run() -> None:
        app = make_app([path], clipboard=lambda text: None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            plist = app.query_one(PaperList)
            result["list_visible"] = await _wait_until(pilot, lambda: plist.rows, 600, 0.02)
            result["rows_first"] = len(plist.rows)
            library = app.library
            result["search_ready"] = await _wait_until(pilot, lambda: library.index, 7200)
            echo: list[float] = []
            while not library.semantic.ready():
                await pilot.press("slash")
                await _type(app, "graph neural network", echo)
                await pilot.press("escape", "escape")
                await pilot.pause(0.5)
                if len(echo) > 2000:
                    break
            result["semantic_ready"] = await _wait_until(pilot, library.semantic.ready, 7200)
            result["echo_during_semantic"] = echo
            result["papers"] = len(library.papers)
        result["memory"] = _hwm_and_rss()

    asyncio.run(run())
    return result


def warm(path: str, rare: str, common: str) -> dict[str, object]:
    """`rare`: words separated by commas, each typed as a query of its own."""
    from papertui.ui.app import make_app

    result: dict[str, object] = {}

    async def run() -> None:
        app = make_app([path], clipboard=lambda text: None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            result["first_paint"] = time.perf_counter() - T0
            result["memory_at_paint"] = _hwm_and_rss()
            library = app.library
            result["search_ready"] = await _wait_until(pilot, lambda: library.index, 600, 0.05)
            result["semantic_ready"] = await _wait_until(pilot, library.semantic.ready, 600, 0.05)
            await app.workers.wait_for_complete()
            answers = Answers(app.reader)
            queries = [(f"rare{i + 1}", word) for i, word in enumerate(rare.split(","))]
            for name, text in [*queries, ("common", common)]:
                await pilot.press("slash")
                last = await _type(app, text)
                shown = await answers.wait(lambda s, text=text: s[1] == text)
                result[f"{name}_after_last_key"] = shown[0] - last
                result[f"{name}_hits"] = shown[3]
                await pilot.press("escape", "escape")
                await app.workers.wait_for_complete()
                await pilot.pause(0.3)
            await pilot.press("j")
            sent = _send(app, "m")
            shown = await answers.wait(lambda s: bool(s[2]) and s[0] > sent)
            result["more_like_this"] = shown[0] - sent
            result["similar_rows"] = shown[3]
            result["papers"] = len(library.papers)
        result["memory"] = _hwm_and_rss()

    asyncio.run(run())
    return result


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    found = cold(*args) if command == "cold" else warm(*args)
    print(json.dumps(found))
