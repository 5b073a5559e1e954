"""Annotating and taking papers away: bookmarks, notes, copying, opening links. A mixin of
`PaperTUI`."""

from __future__ import annotations

from textual import work

from papertui.core.export import byline, paper_markdown
from papertui.core.store import StoreError
from papertui.core.text import safe_display
from papertui.ui.base import ReaderBase
from papertui.ui.screens.note_editor import NoteEditor


class AnnotationActions(ReaderBase):
    """Bookmarks, notes, copying and links."""

    def action_toggle_bookmark(self) -> None:
        paper = self.current_paper
        if paper is None:
            self.notify("No paper selected.", severity="warning")
            return
        if self.selected:  # a batch: bookmark every selected paper
            papers = self.targets()
            on = not all(self.library.is_bookmarked(p) for p in papers)

            def mark_all() -> None:
                for each in papers:
                    self.library.set_bookmark(each, on)

            if not self._save(mark_all, "Bookmark"):
                return
            verb = "Bookmarked" if on else "Removed the bookmarks of"
            self.notify(f"{verb} {len(papers)} papers.", timeout=2)
            self._refresh_paper()
            return
        try:
            on_now = self.library.toggle_bookmark(paper)
        except StoreError as exc:
            self.notify(str(exc), title="Bookmark not saved", severity="error", timeout=10)
            return
        self.notify("Bookmarked." if on_now else "Bookmark removed.", timeout=2)
        self._refresh_paper()

    def action_edit_note(self) -> None:
        paper = self.current_paper
        if paper is None:
            self.notify("No paper selected.", severity="warning")
            return

        def save(text: str) -> str | None:
            try:
                self.library.set_note(paper, text)
            except StoreError as exc:
                return str(exc)
            return None

        self.library.refresh()  # edit the latest text, even if another papertui changed it

        def closed(saved: bool | None) -> None:
            if saved:
                self.notify("Note saved." if self.library.note(paper) else "Note removed.")
                self._refresh_paper()

        self.push_screen(NoteEditor(paper.title, self.library.note(paper), save), closed)

    def action_copy_abstract(self) -> None:
        paper = self.current_paper
        if paper is not None:
            self.copy_text(paper.abstract, "abstract")

    def action_copy_markdown(self) -> None:
        paper = self.current_paper
        if paper is not None:
            text = paper_markdown(
                paper.title,
                paper.abstract,
                paper.urls,
                self.library.note(paper),
                byline(paper.authors, paper.venue, paper.year),
            )
            self.copy_text(text, "title, abstract and links as Markdown")

    @work(thread=True, group="clipboard", exit_on_error=False)
    def copy_text(self, text: str, what: str) -> None:
        problem = self._copy_system(text)
        self.call_from_thread(self._copied, text, what, problem)

    def _copied(self, text: str, what: str, problem: str | None) -> None:
        if problem is None:
            self.notify(f"Copied {what} to the clipboard ({len(text)} characters).", timeout=3)
            return
        # the terminal's own clipboard (OSC 52) works over SSH and without a clipboard program
        self.copy_to_clipboard(text)
        self.notify(
            f"Copied {what} through the terminal (OSC 52); "
            f"system clipboard unavailable: {safe_display(problem)}",
            timeout=5,
        )

    def action_open_url(self) -> None:
        paper = self.current_paper
        if paper is None:
            return
        safe = [u for u in paper.urls if u.lower().startswith(("http://", "https://"))]
        if not safe:
            self.notify("This abstract has no http(s) link.", severity="warning")
            return
        self.open_url(safe[0])
        self.notify(f"Opening {safe_display(safe[0])}", timeout=3)
