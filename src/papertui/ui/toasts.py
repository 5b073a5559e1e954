"""Toasts that replace the last one of their kind (`<` and `>`, `+` and `-` repeat), instead
of a pile of them over the abstract."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from textual.app import App
from textual.notifications import Notification, Notify

_LAST: WeakKeyDictionary[App[Any], dict[str, Notification]] = WeakKeyDictionary()


def replace_toast(app: App[Any], kind: str, message: str, timeout: float = 2) -> None:
    """Show `message` (plain text, never markup) in place of the last toast of `kind`."""
    last = _LAST.setdefault(app, {})
    old = last.get(kind)
    if old is not None and old in app._notifications:
        app._unnotify(old)  # Textual 8.2 has no public way to replace one toast
    toast = Notification(message, "", "information", timeout, markup=False)
    last[kind] = toast
    app.post_message(Notify(toast))
