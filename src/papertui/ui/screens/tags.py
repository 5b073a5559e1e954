"""Add or remove a tag on the current paper (or the selection), with completion."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label

from papertui.core.text import safe_display


class TagScreen(ModalScreen[None]):
    """Enter toggles the typed tag: added if the papers lack it, removed if they all have it.
    `apply(tag)` returns None when saved, else why not."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(
        self,
        what: str,
        current: list[str],
        known: list[str],
        apply: Callable[[str], str | None],
    ) -> None:
        super().__init__()
        self.what = what
        self.current = current
        self.known = known
        self._apply = apply

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
            yield Label("Enter  add / remove      Esc  close", classes="hint")

    def _current_text(self) -> str:
        return "current: " + (" ".join(f"#{safe_display(t)}" for t in self.current) or "none")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        tag = event.value.strip().lstrip("#")
        if not tag:
            self.dismiss(None)
            return
        if any(c.isspace() for c in tag):
            self.query_one("#tag-error", Label).update("A tag is one word, without spaces.")
            return
        problem = self._apply(tag)
        if problem is not None:
            self.query_one("#tag-error", Label).update(f"Not saved: {problem}")
            return
        if tag in self.current:
            self.current.remove(tag)
        else:
            self.current.append(tag)
        self.query_one("#tag-current", Label).update(self._current_text())
        event.input.value = ""

    def action_close(self) -> None:
        self.dismiss(None)
