"""A vim count for a widget's next move: digits typed before `j`, `G` ("5j", "12G")."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.widget import Widget


class VimCount(Widget):
    """Keeps the digits typed so far, says them (`CountTyped`), and hands the count to the
    move that follows (`_take_count`), once."""

    _count = ""  # digits typed so far
    _pending = ""  # the count the key being handled was typed with

    @dataclass
    class CountTyped(Message):
        """Digits of a vim count were typed, or the count was used or dropped ("")."""

        count: str

    def on_key(self, event: events.Key) -> None:
        # runs before the bindings (they are checked as the key bubbles up to the app)
        ch = event.character or ""
        if ch in "0123456789" and ch and (ch != "0" or self._count):
            self._count = (self._count + ch)[-7:]
            self.post_message(self.CountTyped(self._count))
            event.stop()
            event.prevent_default()
            return
        if self._count:
            self.post_message(self.CountTyped(""))
        self._pending, self._count = self._count, ""

    def on_blur(self, event: events.Blur) -> None:
        # a count is for the list's next move: "3", "/", Esc, "j" moves one row, not three
        if self._count:
            self.post_message(self.CountTyped(""))
        self._count = self._pending = ""

    def _take_count(self) -> int | None:
        """The count typed before the key being handled (None: none), used once."""
        count, self._pending = self._pending, ""
        return int(count) if count else None
