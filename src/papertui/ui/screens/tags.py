"""Add or remove tags on the current paper (or the selection), with completion."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label

from papertui.core.library.marks import tag_problem
from papertui.core.text import safe_display
from papertui.ui.screens.dialog import TypingDialog


class TagScreen(TypingDialog[list[tuple[str, bool]]]):
    """Enter toggles the typed tag: added if the papers lack it, removed if they all have it.
    Tab (or Enter) takes the grey suggestion. Closing (Esc, or Enter on an empty box) dismisses
    with the changes as (tag, on) pairs, in the order they were made."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("tab", "complete", "Complete", priority=True, show=False),
    ]

    FIRST = "#tag-input"

    def __init__(self, what: str, current: list[str], known: list[str]) -> None:
        super().__init__()
        self.what = what
        self.initial = list(current)
        self.current = list(current)
        self.known = known

    def compose(self) -> ComposeResult:
        with Vertical(id="tag-box"):
            yield Label(f"Tags of {safe_display(self.what)}", id="tag-title", markup=False)
            yield Label(self._current_text(), id="tag-current", markup=False)
            yield Input(
                placeholder="tag (Tab completes; Enter adds, or removes one it already has)",
                suggester=SuggestFromList(self.known, case_sensitive=False),
                id="tag-input",
            )
            yield Label("", id="tag-error", markup=False)
            yield Label("Enter  add / remove      Tab  complete      Esc  done", classes="hint")

    def _current_text(self) -> str:
        return "current: " + (" ".join(f"#{safe_display(t)}" for t in self.current) or "none")

    def _suggestion(self) -> str:
        box = self.query_one(Input)
        suggestion = str(getattr(box, "_suggestion", "") or "")
        return suggestion if suggestion.casefold().startswith(box.value.casefold()) else ""

    def action_complete(self) -> None:
        box = self.query_one(Input)
        suggestion = self._suggestion()
        if suggestion and box.value:
            box.value = suggestion
            box.cursor_position = len(suggestion)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        tag = (self._suggestion() if event.value.strip() else "") or event.value
        tag = tag.strip().lstrip("#")
        error = self.query_one("#tag-error", Label)
        if not tag:
            self.action_close()
            return
        problem = tag_problem(tag)
        if problem is not None:
            error.update(safe_display(problem[:1].upper() + problem[1:] + "."))
            event.input.value = ""  # typing on starts a new tag, not more of the rejected one
            return
        error.update("")
        tag = next((t for t in self.known if t.casefold() == tag.casefold()), tag)
        if tag in self.current:
            self.current.remove(tag)
        else:
            self.current.append(tag)
        self.query_one("#tag-current", Label).update(self._current_text())
        event.input.value = ""

    def action_close(self) -> None:
        added = [(t, True) for t in self.current if t not in self.initial]
        removed = [(t, False) for t in self.initial if t not in self.current]
        self.dismiss(added + removed)
