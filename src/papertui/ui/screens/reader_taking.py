"""The reader's keys that take papers away: copy, open the link, export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on

from papertui.core.text import safe_display
from papertui.ui import annotating, background, exporting, messages
from papertui.ui.browser_tab import copy_in_browser, in_browser, open_in_browser
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.export import ExportScreen
from papertui.ui.screens.reader_base import ReaderBase

if TYPE_CHECKING:
    pass

# characters beyond which terminals commonly drop an OSC 52 copy (tmux, xterm: about 74,000
# bytes once base64-encoded)
OSC52_SAFE = 50_000
ALL_HITS = 1 << 30  # a depth that ranks every full-text hit


class ReaderTaking(ReaderBase):
    # -- taking papers away ------------------------------------------------------------------------

    def action_copy_abstract(self) -> None:
        paper = self.current_paper
        if paper is not None:
            self.copy_text(paper.abstract, "abstract")

    def action_copy_markdown(self) -> None:
        paper = self.current_paper
        if paper is not None:
            text = annotating.markdown(self.library, paper)
            self.copy_text(text, "title, abstract and links as Markdown")

    def copy_text(self, text: str, what: str) -> None:
        if in_browser(self.app):  # papertui serve: the clipboard is the browser's
            self.notify(copy_in_browser(self.app, text, what), timeout=6)
            return
        system, post = self.copy_system, self.post
        self.run_worker(lambda: background.copy(text, what, system, post), thread=True)

    @on(messages.Copied)
    def _copied(self, message: messages.Copied) -> None:
        text, what = message.text, message.what
        if message.problem is None:
            self.notify(f"Copied {what} to the clipboard ({len(text)} characters).")
            return
        # the terminal's own clipboard (OSC 52) works over SSH and without a clipboard program
        self.app.copy_to_clipboard(text)
        # the terminal never says whether it took the text: say it was sent, not copied
        big = " (large copies are often dropped)" if len(text) > OSC52_SAFE else ""
        self.notify(
            f"Sent {what} to the terminal's clipboard (OSC 52; some terminals and tmux ignore "
            f"it){big}; no system clipboard: {safe_display(message.problem)}",
            timeout=6,
        )

    def action_open_url(self) -> None:
        paper = self.current_paper
        if paper is None:
            return
        safe = [u for u in paper.urls if u.lower().startswith(("http://", "https://"))]
        if not safe:
            self.notify("This abstract has no http(s) link.", severity="warning")
            return
        url, browser, post = safe[0], self.browser, self.post
        if in_browser(self.app):  # papertui serve: a new tab, not a browser on the server
            self.notify(open_in_browser(self.app, url), timeout=3)
            return
        if browser is background.SYSTEM_OPEN and not background.system_browser_found():
            self.post_message(messages.Opened(url, False))  # said now, not after a try
            return
        self.run_worker(lambda: background.open_url(url, browser, post), thread=True)

    @on(messages.Opened)
    def _opened(self, message: messages.Opened) -> None:
        shown = safe_display(message.url)
        if message.opened:
            self.notify(f"Opened {shown} in the browser.", timeout=3)
            return

        def answer(copy: bool | None) -> None:
            if copy:
                self.copy_text(message.url, "the link")

        question = f"No browser could open {shown}. Copy the link instead?"
        self.app.push_screen(ConfirmScreen(question), answer)

    def action_export(self, name: str = exporting.DEFAULT_NAME, problem: str = "") -> None:
        plist = self.paper_list
        choices = exporting.choices(self.library, len(plist.selected), len(self.view.indices))

        def chosen(answer: tuple[str, str, str] | None) -> None:
            if answer is not None:
                self._write_export(*answer)

        self.app.push_screen(ExportScreen(choices, name, problem), chosen)

    def _write_export(self, what: str, fmt: str, name: str, overwrite: bool = False) -> None:
        written = exporting.write(
            self.library,
            what,
            fmt,
            name,
            selection=sorted(self.paper_list.selected),
            results=list(self.view.indices),
            overwrite=overwrite,
        )
        if written.exists is not None:

            def answer(yes: bool | None) -> None:
                if yes:
                    self._write_export(what, fmt, name, overwrite=True)
                else:
                    self.action_export(name, "Not overwritten: choose another name.")

            question = f"{safe_display(str(written.exists))} exists. Overwrite it?"
            self.app.push_screen(ConfirmScreen(question), answer)
        elif written.problem:
            self.action_export(name, written.problem)
        else:
            self.notify(written.message(), timeout=8)
