"""A one-line question: dismisses with the text typed (Enter), or None (Esc)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from papertui.ui.screens.dialog import TypingDialog
from papertui.ui.widgets.path_input import PathInput


class PromptScreen(TypingDialog[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    FIRST = "#prompt-input"

    def __init__(
        self, question: str, placeholder: str = "", value: str = "", path: bool = False
    ) -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.value = value
        self.path = path  # a file path: Tab completes it

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box"):
            yield Label(self.question, markup=False)
            box = PathInput if self.path else Input
            yield box(self.value, placeholder=self.placeholder, id="prompt-input")
            hint = "Enter  ok      Tab  complete the path      Esc  cancel"
            yield Label(hint if self.path else "Enter  ok      Esc  cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
