"""The toasts on screen, for the tests of every tier (Textual keeps no public list of them)."""

from __future__ import annotations


def notifications(app) -> list:  # type: ignore[no-untyped-def]
    """The toasts on screen now, oldest first."""
    return list(app._notifications)


def toasts(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The messages of the toasts on screen now, oldest first."""
    return [n.message for n in notifications(app)]
