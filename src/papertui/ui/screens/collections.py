"""Every collection with its counts; choose the ones the list shows."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList

from papertui.core.text import counted, safe_display
from papertui.ui.widgets.safe_lists import SafeOptionList


class CollectionsScreen(ModalScreen[frozenset[str] | None]):
    """Space toggles a collection ([x] chosen, [ ] not: readable without colour), Enter shows
    the chosen ones (none chosen: all), Esc keeps the list as it was."""

    BINDINGS = [
        Binding("space", "choose", "Choose", priority=True),
        Binding("enter", "apply", "Show chosen", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, counts: list[tuple[str, int, int, int]], chosen: frozenset[str]) -> None:
        super().__init__()
        self.counts = counts
        self.chosen = set(chosen)

    def _prompt(self, index: int) -> str:
        name, total, unread, marked = self.counts[index]
        box = "[x]" if name in self.chosen else "[ ]"
        counts = f"{counted(total, 'paper')} · {unread} unread · {marked} ★"
        return f"{box} {safe_display(name)}\n    {counts}"

    def compose(self) -> ComposeResult:
        with Vertical(id="collections-box"):
            yield Label("Collections", id="collections-title")
            yield SafeOptionList(
                *[self._prompt(i) for i in range(len(self.counts))], id="collections-list"
            )
            yield Label("Space  choose      Enter  show chosen (none: all)", classes="hint")
            yield Label("Esc  cancel", classes="hint")

    def action_choose(self) -> None:
        options = self.query_one(OptionList)
        index = options.highlighted
        if index is None:
            return
        name = self.counts[index][0]
        self.chosen.symmetric_difference_update({name})
        options.replace_option_prompt_at_index(index, self._prompt(index))

    def action_apply(self) -> None:
        self.dismiss(frozenset(self.chosen))

    def action_cancel(self) -> None:
        self.dismiss(None)
