"""How the reader ends when its terminal goes away (the window closed: SIGHUP, or a hangup seen
on the terminal itself) or when it is told to stop (SIGTERM): the note being typed is kept as a
draft, the reader quits as `q` does, and a moment later whatever still runs ends anyway.

Why the second step: Textual 8.2 writes to the terminal through a writer thread with a queue of
30 writes. Once the terminal is gone, that thread dies at its first write (EIO), or a SIGCONT
that comes with the hangup starts a fresh one and the old queue is left behind; the following
writes of the shutdown fill the queue, and the main thread waits forever to put into it
(`WriterThread.stop`). A trial found such a reader still running minutes after its terminal
closed. So `Ending` does not rely on the orderly exit: `GRACE` seconds after the end began it
keeps the draft and stops the child processes itself (`lifeline.stop_children`), from its
own thread, and ends the process.

Before the orderly exit, a terminal that is gone is replaced by /dev/null under the same file
descriptors: the writer thread then writes into nothing instead of dying, so the exit usually
finishes on its own, in a fraction of a second. A signal is only noted in its handler (a byte
into a pipe); a thread of its own does the rest, so the end goes on even while the event loop or
the main thread is stuck."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from papertui.core.system.lifeline import stop_children

# Seconds the orderly exit gets before the process is ended from the ending thread.
GRACE = 0.8
# Seconds the child processes get to clean up after SIGTERM before they are killed.
CHILDREN_WAIT = 0.6
ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)
)
_GONE = (select.POLLHUP | select.POLLERR) if hasattr(select, "poll") else 0


def terminal_fds() -> list[int]:
    """The file descriptors of the terminal the reader reads and draws on."""
    fds: list[int] = []
    for stream in (sys.__stdin__, sys.__stderr__, sys.__stdout__):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            if stream is not None and stream.isatty() and stream.fileno() not in fds:
                fds.append(stream.fileno())
    return fds


def detach_if_gone(fds: list[int]) -> None:
    """Point each of `fds` whose terminal has hung up at /dev/null (a live one is left alone:
    after a `kill` the orderly exit still puts the terminal back as it was)."""
    gone = []
    for fd in fds:
        try:
            termios.tcgetattr(fd)
        except termios.error:  # EIO: hung up
            gone.append(fd)
    if not gone:
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in gone:
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
    finally:
        os.close(null)


class Ending:
    """Watches for the reader's end from outside. `start` it once the reader runs; `stop` it
    when the reader quits on its own (an end already begun is not called off).

    `end` runs on the event loop (keep the draft, quit); `last_words` runs on the ending thread
    when the orderly exit did not finish within `GRACE` (keep the draft again: it must touch
    no timer or widget state, only read)."""

    def __init__(
        self,
        call_soon: Callable[[Callable[[], None]], Any],
        end: Callable[[], None],
        last_words: Callable[[], None],
    ) -> None:
        self._call_soon = call_soon
        self._end = end
        self._last_words = last_words
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        self._previous: dict[int, Any] = {}
        self._began = threading.Event()
        self._stopped = False
        self._fds: list[int] = []
        self.exit_code = 0

    def start(self, fds: list[int] | None = None) -> None:
        if not hasattr(select, "poll"):  # Windows: no hangups, and Textual ends on its own
            return
        for sig in ENDING_SIGNALS:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                self._previous[sig] = signal.signal(sig, self._signalled)
        self._fds = terminal_fds() if fds is None else fds
        thread = threading.Thread(target=self._watch, name="papertui-ending", daemon=True)
        thread.start()

    def stop(self) -> None:
        """The reader quits on its own: restore the signal handlers and let the thread go.
        An end under way goes on (its handlers stay: a second SIGHUP follows the first when
        the shell of the closed terminal exits)."""
        if self._began.is_set():
            return
        for sig, previous in self._previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(sig, previous)
        self._previous.clear()
        self._stopped = True
        self._wake(0)

    def _signalled(self, signum: int, _frame: FrameType | None) -> None:
        self._wake(signum)

    def _wake(self, code: int) -> None:
        with contextlib.suppress(OSError):  # a full pipe already holds a wake-up
            os.write(self._wake_write, bytes([code & 0xFF]))

    def _watch(self) -> None:
        poller = select.poll()
        poller.register(self._wake_read, select.POLLIN)
        for fd in self._fds:
            poller.register(fd, 0)  # a hangup or an error is reported whatever the mask
        while True:
            for fd, events in poller.poll():
                if fd == self._wake_read:
                    signum = os.read(self._wake_read, 1)[0]
                    if self._stopped:
                        return
                    self._begin(128 + signum)
                    return
                if events & _GONE:
                    self._begin(128 + getattr(signal, "SIGHUP", 1))
                    return
                poller.unregister(fd)  # POLLNVAL: not a terminal to watch after all

    def _begin(self, exit_code: int) -> None:
        self._began.set()
        self.exit_code = exit_code
        detach_if_gone(self._fds)
        with contextlib.suppress(RuntimeError):  # the event loop has closed already
            self._call_soon(self._end)
        time.sleep(GRACE)  # the orderly exit normally ends the process before this
        with contextlib.suppress(Exception):  # best effort: the draft was kept as it was typed
            self._last_words()
        stop_children(CHILDREN_WAIT)
        os._exit(exit_code)
