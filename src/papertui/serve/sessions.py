"""One reader process per browser tab, each in a process group of its own.

textual-serve's `AppService` runs a shell command in the server's process group; papertui runs
the reader directly (no shell between) in a new session instead, for two reasons: Ctrl+C in the
server's terminal reaches only the server, which then ends every tab in order (quit, then
SIGTERM, then SIGKILL), and ending a group also ends the index or vector builder a reader
started. On Linux each reader also gets SIGTERM when the server itself dies, so a killed server
leaves no reader behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shlex
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from textual_serve.app_service import AppService

TERM_GRACE = 0.4  # seconds between SIGTERM and SIGKILL


def _parent_death_signal() -> Callable[[], None] | None:
    """A preexec function that asks Linux to send SIGTERM when the server dies; found before
    any fork, so the child only makes one system call."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def set_signal() -> None:
        prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)

    return set_signal


_PREEXEC = _parent_death_signal()


class ReaderSession(AppService):
    """The reader of one tab: started when its websocket opens, ended when it closes."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = list(argv)
        self.extra_env = dict(env)
        self._closing: asyncio.Future[None] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        environment.update(self.extra_env)
        pipe = asyncio.subprocess.PIPE
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            env=environment,
            start_new_session=True,
            preexec_fn=_PREEXEC,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """textual-serve's own stop (after the tab closed) waits for the reader without end."""
        await self.close(grace=2.0)

    async def close(self, grace: float) -> None:
        """End the reader (see `_close`); called from the tab's handler and from the server
        stopping, often both at once: the second call waits for the first."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close(grace))
        await asyncio.shield(self._closing)

    async def _close(self, grace: float) -> None:
        """Ask the reader to quit, as closing its tab does; if it has not ended within `grace`
        seconds, end its group: SIGTERM, then SIGKILL TERM_GRACE later. Then whatever is left of
        the group (a builder the reader started) gets the same. At most about grace + 0.6 s."""
        process, task = self._process, self._task
        if process is None:
            return
        self._task = None
        if process.returncode is None:
            with contextlib.suppress(Exception):  # a reader that already left closed its stdin
                await asyncio.wait_for(self.send_meta({"type": "quit"}), 0.2)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), grace)
        await _end_group(process)
        if task is not None:  # it ends with the reader's output
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(task, TERM_GRACE)


async def _end_group(process: asyncio.subprocess.Process) -> None:
    """SIGTERM to the reader's group, SIGKILL to what is left of it TERM_GRACE later; returns
    once the reader is reaped (the group's other members are orphans the system reaps)."""
    pgid = process.pid

    def alive() -> bool:
        return process.returncode is None or _group_alive(pgid)

    if alive():
        signal_group(pgid, signal.SIGTERM)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TERM_GRACE
        while alive() and loop.time() < deadline:
            await asyncio.sleep(0.05)
        if alive():
            signal_group(pgid, signal.SIGKILL)
    await process.wait()


def signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
