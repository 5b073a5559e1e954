"""`y` and `o` in a browser tab: the browser's clipboard where the page may write it, else the
text opened in a new tab to copy from; links open in the browser, never on the server."""

from __future__ import annotations

from typing import Any

from papertui.ui.browser_tab import CLIPBOARD_ENV, copy_in_browser, open_in_browser


class FakeApp:
    """Records what the reader asked of its (web) driver."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def copy_to_clipboard(self, text: str) -> None:
        self.calls.append(("clipboard", text))

    def deliver_text(self, file: Any, **options: Any) -> None:
        self.calls.append(("deliver", (file.read(), options["open_method"])))

    def open_url(self, url: str, new_tab: bool = True) -> None:
        self.calls.append(("open", (url, new_tab)))


def test_a_page_that_may_write_the_clipboard_gets_the_text(monkeypatch):
    monkeypatch.setenv(CLIPBOARD_ENV, "1")
    app = FakeApp()
    said = copy_in_browser(app, "An abstract.", "abstract")  # type: ignore[arg-type]
    assert app.calls == [("clipboard", "An abstract.")]
    assert said == "Copied abstract to the browser's clipboard (12 characters)."


def test_a_plain_http_page_opens_the_text_in_a_new_tab_and_says_why(monkeypatch):
    monkeypatch.setenv(CLIPBOARD_ENV, "0")
    app = FakeApp()
    said = copy_in_browser(app, "An abstract.", "abstract")  # type: ignore[arg-type]
    assert app.calls == [("deliver", ("An abstract.", "browser"))]
    assert "only https pages" in said and "new tab" in said


def test_a_link_opens_in_a_new_browser_tab():
    app = FakeApp()
    said = open_in_browser(app, "https://example.org/paper\x1b[31m")  # type: ignore[arg-type]
    assert app.calls == [("open", ("https://example.org/paper\x1b[31m", True))]
    assert "\x1b" not in said and said.startswith("Opened https://example.org/paper")
