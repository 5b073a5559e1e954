"""Dialogs one types into: they take every key typed while they open.

A dialog is pushed while the keys behind the one that opened it are already queued (a fast
typist, a paste); until the dialog has mounted and focused its box, nothing in it can take
them, and Textual drops them or hands them to the screen below. The app holds the keys from
the moment a `TypingDialog` is pushed (`PaperTUI.push_screen`) until the dialog says its box
has focus (`KeysWelcome`), then delivers them in the order they were typed."""

from __future__ import annotations

from typing import TypeVar

from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget

ResultType = TypeVar("ResultType")


class KeysWelcome(Message):
    """A dialog's box has focus: the keys held since it opened can be delivered."""


class TypingDialog(ModalScreen[ResultType]):
    FIRST = "Input"  # the widget (a selector) that takes the first keys

    def first_box(self) -> Widget:
        return self.query_one(self.FIRST)

    def on_mount(self) -> None:
        self.set_focus(self.first_box())  # now: the held keys go to it next
        self.app.post_message(KeysWelcome())
