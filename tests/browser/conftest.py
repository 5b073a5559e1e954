"""The browser tier: `papertui serve` driven by headless Chromium through Playwright.

Debian's chromium is used as it is (`executable_path`), with a fresh profile; the tier is
skipped only when no Chromium can be found. The page may reach 127.0.0.1 only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from serve_support import CHROMIUM_FLAGS, find_chromium, screen_text


@pytest.fixture(scope="session")
def chromium() -> str:
    path = find_chromium()
    if path is None:
        pytest.skip(
            "no Chromium found (chromium or chromium-browser on PATH, or /usr/bin/chromium): "
            "the browser tier needs Debian's chromium package (apt-get install chromium)"
        )
    return path


@pytest.fixture(scope="module")
def browser(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Chromium with a fresh profile for the module; its pages are tabs of one window, so
    they share the token's cookie as a person's tabs do."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=chromium,
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1200, "height": 800},
        )
        context.route("**/*", _local_only)
        yield context
        context.close()


def _local_only(route: Any) -> None:
    if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
        route.continue_()
    else:
        route.abort()


class Tab:
    """A browser tab on papertui: what its reader sent (the websocket's frames) and when."""

    def __init__(self, context: Any, url: str, width: int = 1200, height: int = 800) -> None:
        self.page = context.new_page()
        self.page.set_viewport_size({"width": width, "height": height})
        self.frames: list[bytes] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._received))
        self.opened = time.monotonic()
        self.response = self.page.goto(url)

    def _received(self, payload: bytes | str) -> None:
        if isinstance(payload, bytes):
            self.frames.append(payload)

    def mark(self) -> int:
        return len(self.frames)

    def text(self, since: int = 0) -> str:
        return screen_text(self.frames[since:])

    def wait_for(self, pattern: str, since: int = 0, timeout: float = 30) -> float:
        """Wait until the reader drew `pattern` (a regex) after frame `since`; the seconds
        since the tab was opened."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, self.text(since)):
                return time.monotonic() - self.opened
            self.page.wait_for_timeout(50)
        shown = " ".join(self.text(since).split())[-1500:]
        raise AssertionError(f"the tab never showed {pattern!r}; its last words: {shown!r}")

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)

    def screenshot(self, path: Path) -> bytes:
        self.page.wait_for_timeout(300)  # the frames drawn, let the terminal paint them
        data: bytes = self.page.screenshot(path=str(path))
        return data

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def tabs(browser: Any) -> Iterator[Any]:
    """Opens tabs (`tabs(url)`) and closes them after the test."""
    opened: list[Tab] = []

    def open_tab(url: str, width: int = 1200, height: int = 800) -> Tab:
        tab = Tab(browser, url, width, height)
        opened.append(tab)
        return tab

    yield open_tab
    for tab in opened:
        tab.close()
