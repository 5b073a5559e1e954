"""Giving up a search nobody waits for any more.

The reader searches on every pause in typing; at a million papers a query of a half-typed
common word reads over a million postings (about a second), and the query typed after it
would wait that long for the lock. A thread runs its search inside `stop_when(check)`; the
posting reads ask `check` between blocks and raise `SearchStopped` once it says so."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CHECK: ContextVar[Callable[[], bool] | None] = ContextVar("search_stop_check", default=None)


class SearchStopped(Exception):
    """The search was given up: its answer is no longer wanted."""


@contextmanager
def stop_when(check: Callable[[], bool]) -> Iterator[None]:
    """Searches run in this block (in this thread) stop, raising `SearchStopped`, once
    `check()` is true."""
    token = _CHECK.set(check)
    try:
        yield
    finally:
        _CHECK.reset(token)


def check_stop() -> None:
    """Raise `SearchStopped` if the search running in this thread is no longer wanted."""
    check = _CHECK.get()
    if check is not None and check():
        raise SearchStopped
