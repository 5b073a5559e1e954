"""Export papers to a file: the bookmarks, a tag, the selection or the current results."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Select

from papertui.core.export import FORMATS
from papertui.core.export.names import swap_extension, with_extension
from papertui.ui.screens.dialog import TypingDialog
from papertui.ui.widgets.path_input import PathInput
from papertui.ui.widgets.safe_lists import SafeSelect


class ExportScreen(TypingDialog[tuple[str, str, str] | None]):
    """Dismisses with (what, format, file name), or None when closed; the reader writes."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+s", "save", "Export", priority=True),
    ]

    FIRST = "#export-what"

    def __init__(
        self, choices: list[tuple[Text, str]], path: str = "papertui-export.bib", problem: str = ""
    ) -> None:
        super().__init__()
        self.choices = choices
        self.path = path
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="export-box"):
            yield Label("Export", id="export-title")
            yield Label("What", classes="hint")
            yield SafeSelect(
                self.choices, value=self.choices[0][1], allow_blank=False, id="export-what"
            )
            yield Label("Format", classes="hint")
            yield SafeSelect(
                [(f, f) for f in FORMATS], value="bibtex", allow_blank=False, id="export-format"
            )
            yield Label("File", classes="hint")
            yield PathInput(self.path, id="export-path")
            yield Label(self.problem, id="export-error", markup=False)
            hint = "ctrl+s or Enter  export    Tab  complete    Esc  close"
            yield Label(hint, classes="hint")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "export-format" and isinstance(event.value, str):
            path = self.query_one("#export-path", Input)
            path.value = swap_extension(path.value, event.value)

    def on_input_submitted(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        what = self.query_one("#export-what", Select).value
        fmt = self.query_one("#export-format", Select).value
        path = self.query_one("#export-path", Input).value.strip()
        if not path:
            self.query_one("#export-error", Label).update("Give a file name.")
            return
        self.dismiss((str(what), str(fmt), with_extension(path, str(fmt))))

    def action_close(self) -> None:
        self.dismiss(None)
