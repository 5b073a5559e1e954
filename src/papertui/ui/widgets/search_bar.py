"""The search box. Enter goes to the results keeping the query; Esc clears it and leaves."""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

PLACEHOLDER = '/ search: words "phrase" a OR b -word optim* collection:name is:bookmarked has:note'


class SearchBar(Input):
    BINDINGS = [Binding("escape", "leave", "Clear search", show=False)]

    class Left(Message):
        """The user is done with the box (Enter keeps the query, Esc clears it)."""

        def __init__(self, kept: bool) -> None:
            super().__init__()
            self.kept = kept  # Enter: the query stays and its top hit is the one chosen

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=PLACEHOLDER, id=id, select_on_focus=False)

    def action_leave(self) -> None:
        self.value = ""
        self.post_message(self.Left(kept=False))

    async def action_submit(self) -> None:
        self.post_message(self.Left(kept=True))
