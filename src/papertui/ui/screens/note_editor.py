"""The note editor: a modal text area. Nothing typed is dropped without asking."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from papertui.core.text import safe_display
from papertui.ui.screens.confirm import ConfirmScreen


class NoteEditor(ModalScreen[bool]):
    """Edit one paper's note. `save(text)` returns None when saved, else why it was not.

    Dismisses with True when the note was saved, False when the user left without changes.
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, title: str, text: str, save: Callable[[str], str | None]) -> None:
        super().__init__()
        self.paper_title = title
        self.initial = text
        self._save = save

    def compose(self) -> ComposeResult:
        with Vertical(id="note-box"):
            yield Label(f"Note on: {safe_display(self.paper_title)}", id="note-title", markup=False)
            yield TextArea(self.initial, id="note-text", soft_wrap=True, tab_behavior="indent")
            yield Label("", id="note-error", markup=False)
            yield Label("ctrl+s  save      Esc  cancel", classes="hint")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    @property
    def text(self) -> str:
        return self.query_one(TextArea).text

    @property
    def dirty(self) -> bool:
        return self.text != self.initial

    def action_save(self) -> None:
        problem = self._save(self.text)
        if problem is None:
            self.dismiss(True)
            return
        # keep the editor and the text: the user can retry, or copy the text elsewhere
        self.query_one("#note-error", Label).update(f"Not saved: {problem}")
        self.app.bell()

    def action_cancel(self) -> None:
        if not self.dirty:
            self.dismiss(False)
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self.dismiss(False)

        self.app.push_screen(ConfirmScreen("Discard the changes to this note?"), answered)
