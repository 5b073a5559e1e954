"""`y` and `o` when the reader runs in a browser tab (`papertui serve`): the clipboard and the
links are the browser's, not those of the machine the reader runs on."""

from __future__ import annotations

import io
import os

from textual.app import App

from papertui.core.text import safe_display

# set by `papertui serve` for each tab: "1" when the page may write the browser's clipboard
# (https, or this machine's own address), "0" when the browser keeps it from the page
CLIPBOARD_ENV = "PAPERTUI_BROWSER_CLIPBOARD"


def in_browser(app: App[object]) -> bool:
    return app.is_web


def copy_in_browser(app: App[object], text: str, what: str) -> str:
    """Copy through the browser (textual-serve's page turns the terminal's clipboard sequence
    into a clipboard write); where the browser forbids that, open the text in a new tab to copy
    from. Returns what the notification says."""
    if os.environ.get(CLIPBOARD_ENV) == "1":
        app.copy_to_clipboard(text)
        return f"Copied {what} to the browser's clipboard ({len(text)} characters)."
    app.deliver_text(
        io.StringIO(text),
        save_filename="papertui-copy.txt",
        open_method="browser",
        mime_type="text/plain",
    )
    return (
        f"Browsers let only https pages (or this machine's own) copy: {what} opened in a new "
        "tab to copy from there (or serve papertui behind https)."
    )


def open_in_browser(app: App[object], url: str) -> str:
    """Open `url` in a new tab of the reader's browser, not on the machine serving it."""
    app.open_url(url, new_tab=True)
    return f"Opened {safe_display(url)} in a new browser tab."
