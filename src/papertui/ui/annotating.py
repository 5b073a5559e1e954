"""Annotating and taking papers away, for the reader: bookmarks, notes, tags, read state,
copying and links. Talks to the `Library` only; reports every failure in a notification."""

from __future__ import annotations

import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING

from papertui.core import drafts
from papertui.core.corpus import Paper
from papertui.core.export import byline, paper_markdown
from papertui.core.store import StoreError
from papertui.core.text import counted, cut_words, safe_display
from papertui.ui.browser_tab import copy_in_browser, in_browser, open_in_browser
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.note_editor import NoteEditor
from papertui.ui.screens.tags import TagScreen

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen


# characters beyond which terminals commonly drop an OSC 52 copy (tmux, xterm: about 74,000
# bytes once base64-encoded)
OSC52_SAFE = 50_000


class Annotating:
    def __init__(
        self,
        reader: ReaderScreen,
        copy: Callable[[str], str | None],
        browser: Callable[[str], bool] | None = None,
    ) -> None:
        self.reader = reader
        self.library = reader.library
        self._copy_system = copy
        self._browser = browser or (lambda url: webbrowser.open(url))  # True: a browser took it
        self._drafts_said = False

    def announce_drafts(self) -> None:
        """At startup: a note typed and never saved (the reader stopped before ctrl+s) is
        said, with its paper, and the cursor goes to that paper if the list shows it."""
        if self._drafts_said:
            return
        by_id = self.library.by_id
        ids = [pid for pid in drafts.pending() if pid in by_id]
        if not ids:
            return
        self._drafts_said = True
        position = by_id[ids[-1]]  # the newest
        plist = self.reader.paper_list
        if plist.cursor == 0:  # the reader has not moved yet
            plist.go_to(position)
        title = safe_display(cut_words(self.library.papers[position].title, 60))
        more = f" (and {len(ids) - 1} more)" if len(ids) > 1 else ""
        self.reader.notify(
            f"A note you had not saved is kept for “{title}”{more}: n on it brings it back.",
            timeout=15,
        )

    def _save(self, change: Callable[[], None], what: str) -> bool:
        try:
            change()
        except StoreError as exc:
            self.reader.notify(str(exc), title=f"{what} not saved", severity="error", timeout=10)
            return False
        return True

    def toggle_bookmark(self) -> None:
        self.library.marks.refresh_if_changed()
        papers = self.reader.targets()
        if not papers:
            self.reader.notify("No paper selected.", severity="warning")
            return
        if len(papers) == 1:
            now: list[bool] = []
            if self._save(
                lambda: now.append(self.library.marks.toggle_bookmark(papers[0])), "Bookmark"
            ):
                self.reader.notify("Bookmarked." if now[0] else "Bookmark removed.", timeout=2)
        else:  # a batch: bookmark every selected paper (or unbookmark, if all are)
            on = not all(self.library.marks.is_bookmarked(p) for p in papers)

            def mark_all() -> None:
                for paper in papers:
                    self.library.marks.set_bookmark(paper, on)

            if self._save(mark_all, "Bookmark"):
                verb = "Bookmarked" if on else "Removed the bookmarks of"
                self.reader.notify(f"{verb} {counted(len(papers), 'paper')}.", timeout=2)
        self.reader.current.refresh()
        self.reader.triaging.relearn()

    def edit_note(self, draft: str | None = None, problem: str = "") -> None:
        paper = self.reader.current_paper
        if paper is None:
            self.reader.notify("No paper selected.", severity="warning")
            return
        if draft is None:
            self._save(self.library.marks.refresh, "Note")  # edit the latest text
        saved = self.library.marks.note(paper)
        text = saved if draft is None else draft
        left = drafts.load(paper.id) if draft is None else None
        if left is not None and left != saved:  # typed before the reader stopped, never saved
            text, problem = left, "Restored the text you had not saved: ctrl+s saves it."

        def closed(result: str | None) -> None:
            if result is None:
                drafts.drop(paper.id)  # left unchanged, or its changes discarded on purpose
                return
            try:
                self.library.marks.set_note(paper, result)
            except StoreError as exc:  # reopen with what was typed: nothing typed is lost
                self.edit_note(result, f"Not saved: {exc}")
                return
            drafts.drop(paper.id)
            self.reader.notify("Note saved." if result.strip() else "Note removed.")
            self.reader.current.refresh()
            if bool(result.strip()) != bool(saved.strip()):  # kept, or no longer
                self.reader.triaging.relearn()

        editor = NoteEditor(
            paper.title, text, problem, saved, lambda t: drafts.keep(paper.id, t), paper.abstract
        )
        self.reader.app.push_screen(editor, closed)

    def tag(self) -> None:
        self.library.marks.refresh_if_changed()
        papers = self.reader.targets()
        if not papers:
            return
        what = papers[0].title if len(papers) == 1 else f"{len(papers)} selected papers"
        common = set.intersection(*(set(self.library.marks.tags_of(p)) for p in papers))
        known = self.library.marks.all_tags()

        def chosen(changes: list[tuple[str, bool]] | None) -> None:
            for tag, on in changes or []:
                try:
                    self.library.marks.set_tag(papers, tag, on)
                except StoreError as exc:
                    self.reader.notify(str(exc), title="Tag not saved", severity="error")
                    break
                verb = "Tagged" if on else "Removed the tag from"
                what = "the paper" if len(papers) == 1 else f"{len(papers)} papers"
                self.reader.notify(f"{verb} {what}: #{safe_display(tag)}")
            self.reader.current.refresh()
            if changes:
                self.reader.triaging.relearn()

        self.reader.app.push_screen(TagScreen(what, sorted(common), known), chosen)

    def mark_read(self, paper: Paper) -> None:
        try:
            self.library.marks.set_read([paper], True)
        except StoreError:
            return  # read state is a convenience; failing to save it is not worth a message
        self.reader.current.refresh()

    def toggle_read(self) -> None:
        self.library.marks.refresh_if_changed()
        papers = self.reader.targets()
        if not papers:
            return
        read = not all(self.library.marks.is_read(p) for p in papers)
        self.reader.current.stop_read_timer()
        self._save(lambda: self.library.marks.set_read(papers, read), "Read state")
        self.reader.current.refresh()

    # -- taking papers away -----------------------------------------------------------------------

    def copy_abstract(self) -> None:
        paper = self.reader.current_paper
        if paper is not None:
            self.copy_text(paper.abstract, "abstract")

    def copy_markdown(self) -> None:
        paper = self.reader.current_paper
        if paper is not None:
            people = byline(paper.authors, paper.venue, paper.year)
            text = paper_markdown(
                paper.title, paper.abstract, paper.urls, self.library.marks.note(paper), people
            )
            self.copy_text(text, "title, abstract and links as Markdown")

    def copy_text(self, text: str, what: str) -> None:
        """Copy in a worker: a clipboard program can take its time to answer."""
        if in_browser(self.reader.app):  # papertui serve: the clipboard is the browser's
            self.reader.notify(copy_in_browser(self.reader.app, text, what), timeout=6)
            return

        def copy() -> None:
            problem = self._copy_system(text)
            self.reader.app.call_from_thread(self._copied, text, what, problem)

        self.reader.run_worker(copy, thread=True, group="clipboard")

    def _copied(self, text: str, what: str, problem: str | None) -> None:
        if problem is None:
            self.reader.notify(f"Copied {what} to the clipboard ({len(text)} characters).")
            return
        # the terminal's own clipboard (OSC 52) works over SSH and without a clipboard program
        self.reader.app.copy_to_clipboard(text)
        # the terminal never says whether it took the text: say it was sent, not copied
        big = " (large copies are often dropped)" if len(text) > OSC52_SAFE else ""
        self.reader.notify(
            f"Sent {what} to the terminal's clipboard (OSC 52; some terminals and tmux ignore "
            f"it){big}; no system clipboard: {safe_display(problem)}",
            timeout=6,
        )

    def open_url(self) -> None:
        paper = self.reader.current_paper
        if paper is None:
            return
        safe = [u for u in paper.urls if u.lower().startswith(("http://", "https://"))]
        if not safe:
            self.reader.notify("This abstract has no http(s) link.", severity="warning")
            return
        url = safe[0]
        if in_browser(self.reader.app):  # papertui serve: a new tab, not a browser on the server
            self.reader.notify(open_in_browser(self.reader.app, url), timeout=3)
            return

        def open_it() -> None:  # a browser can take seconds to start: not on the UI thread
            try:
                opened = self._browser(url)
            except webbrowser.Error:
                opened = False
            self.reader.app.call_from_thread(self._opened, url, opened)

        self.reader.run_worker(open_it, thread=True, group="browser")

    def _opened(self, url: str, opened: bool) -> None:
        shown = safe_display(url)
        if opened:
            self.reader.notify(f"Opened {shown} in the browser.", timeout=3)
            return

        def answer(copy: bool | None) -> None:
            if copy:
                self.copy_text(url, "the link")

        question = f"No browser could open {shown}. Copy the link instead?"
        self.reader.app.push_screen(ConfirmScreen(question), answer)
