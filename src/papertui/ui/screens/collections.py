"""Every collection with its counts; choose the ones the list shows."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, SelectionList
from textual.widgets.selection_list import Selection

from papertui.core.text import safe_display


class CollectionsScreen(ModalScreen[frozenset[str] | None]):
    """Space toggles a collection, Enter shows the chosen ones (none chosen: all), Esc keeps
    the list as it was."""

    BINDINGS = [
        Binding("enter", "apply", "Show chosen", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, counts: list[tuple[str, int, int, int]], chosen: frozenset[str]) -> None:
        super().__init__()
        self.counts = counts
        self.chosen = chosen

    def compose(self) -> ComposeResult:
        with Vertical(id="collections-box"):
            yield Label("Collections: total · unread · bookmarked", id="collections-title")
            yield SelectionList[str](
                *[
                    Selection(
                        f"{safe_display(name)}  ·  {total} · {unread} unread · {marked} ★",
                        name,
                        name in self.chosen,
                    )
                    for name, total, unread, marked in self.counts
                ],
                id="collections-list",
            )
            yield Label(
                "Space  choose      Enter  show chosen (none: all)      Esc  cancel", classes="hint"
            )

    def action_apply(self) -> None:
        self.dismiss(frozenset(self.query_one(SelectionList).selected))

    def action_cancel(self) -> None:
        self.dismiss(None)
