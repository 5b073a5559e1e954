"""The search box. It waits for a pause in typing before it says the query changed, and keeps
the paper to go back to when the query is cleared. Enter goes to the results keeping the query;
Esc clears it and leaves."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input

PLACEHOLDER = '/ search: words "phrase" a OR b -word optim* collection:name is:bookmarked has:note'
TYPING_PAUSE = 0.06  # seconds without a key before the query in the box is searched


class SearchBar(Input):
    BINDINGS = [Binding("escape", "leave", "Clear search", show=False)]

    @dataclass
    class QueryChanged(Message):
        """The query after a pause in typing. Cleared (""), `back_to` is the paper to go
        back to: the one under the cursor at the query's first key, unless the reader chose a
        result since (Enter, or moving in the results: None, stay where they are)."""

        query: str
        back_to: int | None = None

    @dataclass
    class Left(Message):
        """The user is done with the box (Enter keeps the query, Esc clears it)."""

        kept: bool

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=PLACEHOLDER, id=id, select_on_focus=False)
        self.under_cursor: int | None = None  # the paper the list shows now (set by the screen)
        self.back_to: int | None = None
        self._typing: Timer | None = None
        self._quiet: str | None = None  # a value the screen set: no QueryChanged for it

    def show_query(self, query: str) -> None:
        """Show `query` without announcing it (the screen's state already has it)."""
        if self._typing is not None:
            self._typing.stop()
            self._typing = None
        if self.value != query:
            self._quiet = query
            self.value = query
            self.cursor_position = len(query)

    def chose_result(self) -> None:
        """The reader moved in the results: clearing the query later stays on that paper."""
        self.back_to = None

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._quiet is not None and event.value == self._quiet:
            self._quiet = None
            return
        # the paper to go back to is the one under the cursor at the first key: a query
        # typed and erased within the pause never ran, and must not send the reader to row 1
        if self.back_to is None and self.value.strip():
            self.back_to = self.under_cursor
        # wait for a pause in typing: a search per key competes with the keys themselves (a
        # burst, a paste or a held Backspace), and only the last query's answer is shown
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(TYPING_PAUSE, self._settled)

    def _settled(self) -> None:
        self._typing = None
        query = self.value
        back = None
        if not query.strip():
            back, self.back_to = self.back_to, None
        self.post_message(self.QueryChanged(query, back))

    def action_leave(self) -> None:
        self.show_query("")
        back, self.back_to = self.back_to, None
        self.post_message(self.QueryChanged("", back))
        self.post_message(self.Left(kept=False))

    async def action_submit(self) -> None:
        if self._typing is not None:  # Enter before the pause in typing: search it now
            self._typing.stop()
            self._settled()
        self.back_to = None  # the result shown is the one chosen
        self.post_message(self.Left(kept=True))
