"""The note editor: a modal text area. Nothing typed is dropped without asking."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Label, Static, TextArea

from papertui.core.text import safe_display
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.dialog import TypingDialog
from papertui.ui.widgets.paging import scroll_lines

KEEP_EVERY = 0.3  # seconds between writes of the draft to disk while the note is typed


class NoteEditor(TypingDialog[str | None]):
    """Edit one paper's note. Dismisses with the text to save (ctrl+s), or None when the user
    leaves without saving. A failed save reopens it with the text and the reason (`problem`);
    `saved` is the note as stored, so a reopened draft still asks before it is dropped."""

    BINDINGS = [
        # not a priority binding: it comes after the text typed before it, as typed
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel", priority=True),
        Binding("ctrl+up", "scroll_abstract(-3)", "Scroll the abstract up", show=False),
        Binding("ctrl+down", "scroll_abstract(3)", "Scroll the abstract down", show=False),
    ]

    def __init__(
        self,
        title: str,
        text: str,
        problem: str = "",
        saved: str | None = None,
        keep: Callable[[str], None] | None = None,
        abstract: str = "",
    ) -> None:
        super().__init__()
        self.abstract = abstract  # shown above the note: one writes while reading
        self._keep = keep  # called with the text as it is typed (a draft kept on disk)
        self._keeping: Timer | None = None
        self.paper_title = title
        self.initial = text
        self.problem = problem
        self.saved = text if saved is None else saved

    def compose(self) -> ComposeResult:
        with Vertical(id="note-box"):
            yield Label(f"Note on: {safe_display(self.paper_title)}", id="note-title", markup=False)
            if self.abstract:
                with VerticalScroll(id="note-abstract", can_focus=False):
                    yield Static(safe_display(self.abstract), markup=False)
            yield TextArea(self.initial, id="note-text", soft_wrap=True, tab_behavior="indent")
            yield Label(safe_display(self.problem), id="note-error", markup=False)
            hint = "ctrl+s  save    ctrl+↑↓  scroll the abstract    Esc  cancel"
            yield Label(hint if self.abstract else "ctrl+s  save      Esc  cancel", classes="hint")

    FIRST = "TextArea"

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.move_cursor(area.document.end)
        super().on_mount()

    def on_text_area_changed(self) -> None:
        if self._keep is None:
            return
        # at most every KEEP_EVERY s, however fast the typing: waiting for a pause instead
        # lost what a steady typist wrote when the terminal closed
        if self._keeping is None:
            self._keeping = self.set_timer(KEEP_EVERY, self.keep_draft)

    def keep_draft(self) -> None:
        """Write the text typed so far as the draft, now (also when the reader is ended)."""
        if self._keeping is not None:
            self._keeping.stop()
            self._keeping = None
        self.write_draft()

    def write_draft(self) -> None:
        """Write the draft now, touching no timer: also from a thread, when the reader ends
        and its event loop may be stuck."""
        if self._keep is not None and self.dirty:
            self._keep(self.text)

    @property
    def text(self) -> str:
        return self.query_one(TextArea).text

    @property
    def dirty(self) -> bool:
        return self.text != self.saved

    def action_scroll_abstract(self, lines: int) -> None:
        if self.abstract:
            scroll_lines(self.query_one("#note-abstract"), lines)

    def _stop_keeping(self) -> None:
        # a draft kept after the save would come back as "not saved" at the next n
        if self._keeping is not None:
            self._keeping.stop()
            self._keeping = None
        self._keep = None

    def action_save(self) -> None:
        self._stop_keeping()
        self.dismiss(self.text)

    def action_cancel(self) -> None:
        if not self.dirty:
            self._stop_keeping()
            self.dismiss(None)
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self._stop_keeping()
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen("Discard the changes to this note?"), answered)
