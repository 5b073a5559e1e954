"""How long a browser tab of `papertui serve` takes to show the list: from opening the page to
the first frame that draws the status line (`row 1/...`), in headless Chromium.

    python tests/bench/serve_startup.py [PATH...] [--runs N] [--chromium PATH]

Starts `papertui serve` on 127.0.0.1 with fresh data and cache dirs, then opens N tabs one after
another (each a new reader process). The first tab of a large corpus builds the search index in
the background (the list shows before it is ready), so it is reported apart: "cold" is the first
tab on an empty cache, "warm" the median of the others. Without PATH: the bundled collections.
Not collected by pytest; prints a table, asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))

from serve_support import CHROMIUM_FLAGS, Served, data_env, find_chromium, screen_text  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="corpus files or folders (default: bundled)")
    parser.add_argument("--runs", type=int, default=4, help="tabs to open, one after another")
    parser.add_argument("--chromium", default=find_chromium(), help="the browser to drive")
    args = parser.parse_args()
    if args.chromium is None:
        print("no Chromium found: pass --chromium PATH", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as base, sync_playwright() as playwright:
        served = Served(data_env(Path(base)), *args.paths)
        context = playwright.chromium.launch_persistent_context(
            str(Path(base) / "profile"),
            executable_path=args.chromium,
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1200, "height": 800},
        )
        times = []
        try:
            for run in range(args.runs):
                seconds = open_tab(context, served.url if run == 0 else served.base + "/")
                times.append(seconds)
                print(f"tab {run + 1}: list painted {seconds:.2f} s after the page was opened")
        finally:
            context.close()
            served.stop()
    print(f"cold (first tab, empty cache): {times[0]:.2f} s")
    if len(times) > 1:
        print(f"warm (median of {len(times) - 1}): {statistics.median(times[1:]):.2f} s")
    return 0


def open_tab(context, url: str) -> float:  # type: ignore[no-untyped-def]
    page = context.new_page()
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    start = time.monotonic()
    page.goto(url)
    while "row 1/" not in screen_text([f for f in frames if isinstance(f, bytes)]):
        page.wait_for_timeout(20)
        if time.monotonic() - start > 300:
            raise SystemExit("the list was not painted within 300 s")
    seconds = time.monotonic() - start
    page.close()
    time.sleep(2)  # the closed tab's reader ends before the next one starts
    return seconds


if __name__ == "__main__":
    raise SystemExit(main())
