"""The reader in headless Chromium: it paints, moves, searches, bookmarks into the same store
the CLI reads, and two tabs are two readers over the same data."""

from __future__ import annotations

import io
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from serve_support import LINK, Served, data_env, until_gone, write_corpus


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("served")
    corpus = write_corpus(base)
    server = Served(data_env(base), str(corpus))
    server.corpus = corpus  # type: ignore[attr-defined]
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: PAPERTUI_SHOTS if set (to look at them), else the test's tmp."""
    folder = Path(os.environ.get("PAPERTUI_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def dominant_share(image: Image.Image) -> float:
    """The share of the pixels that have the most common colour (1.0: a blank page)."""
    colours = image.getcolors(image.width * image.height)
    assert colours is not None
    return max(count for count, _ in colours) / (image.width * image.height)


def changed_share(a: Image.Image, b: Image.Image) -> float:
    difference = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0)
    return sum(difference.histogram()[255:]) / (a.width * a.height)


def bookmarked(served: Served) -> set[str]:
    listed = served.cli("list", "--json", str(served.corpus))  # type: ignore[attr-defined]
    assert listed.returncode == 0, listed.stderr
    return {r["title"] for r in json.loads(listed.stdout) if r["bookmarked"]}


def test_the_page_paints_the_list_and_j_moves_the_cursor(served, tabs, shots) -> None:
    tab = tabs(served.url)
    tab.wait_for(r"row 1/12\b")
    assert "Graph neural networks for molecule property prediction" in tab.text()
    first = picture(tab.screenshot(shots / "desktop-1200x800.png"))
    assert first.size == (1200, 800)
    assert dominant_share(first) < 0.9, "the page is blank"

    since = tab.mark()
    tab.press("j")
    tab.wait_for(r"row 2/12\b", since)
    moved = picture(tab.screenshot(shots / "desktop-after-j.png"))
    assert changed_share(first, moved) > 0.01, "j changed nothing on the page"


def test_a_query_typed_after_slash_changes_the_list(served, tabs, shots) -> None:
    tab = tabs(served.url)
    tab.wait_for(r"row 1/12\b")
    before = picture(tab.screenshot(shots / "before-search.png"))
    since = tab.mark()
    tab.press("/")
    tab.page.keyboard.type("zebrafish")
    tab.wait_for(r"row 1/1 of 12", since)
    after = picture(tab.screenshot(shots / "search-zebrafish.png"))
    assert "Zebrafish larva tracking with optical flow" in tab.text(since)
    assert changed_share(before, after) > 0.05, "the query did not change the list"


def test_two_tabs_bookmark_two_papers_into_the_store_the_cli_reads(served, tabs) -> None:
    first, second = tabs(served.url), tabs(served.url)
    first.wait_for(r"row 1/12\b")
    second.wait_for(r"row 1/12\b")
    assert bookmarked(served) == set()

    since = first.mark()
    first.press("b")
    first.wait_for(r"Bookmarked\.", since)
    assert bookmarked(served) == {"Graph neural networks for molecule property prediction"}

    since = second.mark()
    second.press("j", "b")
    second.wait_for(r"Bookmarked\.", since)
    assert bookmarked(served) == {
        "Graph neural networks for molecule property prediction",
        "Contrastive pretraining of speech encoders",
    }
    # the first tab learns of the second's bookmark when it next shows that paper
    since = first.mark()
    first.press("j")
    first.wait_for(r"row 2/12\b", since)
    assert "bookmarked" in first.text(since)


def test_a_phone_sized_tab_paints_the_list(served, tabs, shots) -> None:
    tab = tabs(served.url, width=400, height=800)
    tab.wait_for(r"row 1/12\b")
    phone = picture(tab.screenshot(shots / "phone-400x800.png"))
    assert phone.size == (400, 800)
    assert dominant_share(phone) < 0.9, "the page is blank"


def test_the_page_without_the_token_is_refused(served, browser: Any) -> None:
    page = browser.new_page()
    try:
        # a fresh profile has the cookie from the tests above: clear it, as a stranger has none
        browser.clear_cookies()
        response = page.goto(served.base + "/")
        assert response is not None and response.status == 403
        assert "needs its token" in page.inner_text("body")
    finally:
        page.close()


def test_q_ends_the_tabs_reader_and_the_page_says_so(served, tabs) -> None:
    before = served.descendants()
    tab = tabs(served.url)
    tab.wait_for(r"row 1/12\b")
    reader = served.descendants() - before
    assert len(reader) == 1
    tab.press("q")
    tab.page.wait_for_selector("body.-closed", timeout=10000)
    assert "The reader has ended" in tab.page.inner_text("body")
    assert until_gone(reader, reader, timeout=3) == set()


def test_ctrl_c_ends_the_server_and_every_reader_with_a_tab_open(tmp_path, tabs) -> None:
    server = Served(data_env(tmp_path), str(write_corpus(tmp_path)))
    tab = tabs(server.url)
    tab.wait_for(r"row 1/12\b")
    readers = server.wait_for_readers(1)
    seconds = server.stop(signal.SIGINT)
    left = until_gone(readers, readers, timeout=3 - seconds)
    assert seconds < 3 and left == set(), f"{left} still running after {seconds:.1f} s"
    tab.page.wait_for_selector("body.-closed", timeout=5000)  # the page says the reader ended


def test_y_copies_the_abstract_into_the_browsers_clipboard(served, browser, tabs) -> None:
    browser.grant_permissions(["clipboard-read", "clipboard-write"])
    tab = tabs(served.url)
    tab.wait_for(r"row 1/12\b")
    since = tab.mark()
    tab.press("y")
    tab.wait_for(r"browser's\s+clipboard", since)
    copied = tab.page.evaluate("navigator.clipboard.readText()")
    assert copied == (
        "We study graph neural networks for molecule property prediction. Our method improves "
        "on strong baselines in 3 settings and we release code for graph research."
    )


def test_o_opens_the_link_in_a_new_browser_tab(served, browser, tabs) -> None:
    def answer(route: Any) -> None:  # stands in for the paper's site
        route.fulfill(body="the paper's page", content_type="text/plain")

    browser.route(LINK, answer)
    tab = tabs(served.url)
    tab.wait_for(r"row 1/12\b")
    since = tab.mark()
    with browser.expect_page(timeout=15000) as opened:
        tab.press("j", "j", "o")  # the zebrafish paper carries the link
    page = opened.value
    try:
        page.wait_for_load_state()
        assert page.url == LINK and page.inner_text("body") == "the paper's page"
        tab.wait_for(r"in a new browser", since)  # the notice
    finally:
        page.close()
        browser.unroute(LINK, answer)
