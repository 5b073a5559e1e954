"""The installed `papertui` in a real pseudo-terminal, its output read by a terminal emulator.

`Terminal` starts the console script as the session leader of a new pseudo-terminal of a given
size (TERM=xterm-256color, COLUMNS/LINES and the window size set, as a terminal emulator does),
keeps reading what it writes into a `pyte` screen of that size, types keys by name, and waits
for the screen to satisfy a condition. What a test reads is only that screen: each row's text,
each cell's background and reverse attribute. `close()` sends `q`, then kills the process group
of whatever did not end."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import sys
import termios
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import pyte

# what a terminal sends for a key; a name not here is sent as its own characters
KEYS = {
    "pagedown": "\x1b[6~",
    "pageup": "\x1b[5~",
    "down": "\x1b[B",
    "up": "\x1b[A",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "enter": "\r",
    "tab": "\t",
    "escape": "\x1b",
}
# Textual tells a lone Esc from the start of an escape sequence by the pause after it
ESC_PAUSE = 0.1
QUIT_WITHIN = 3.0  # seconds `q` has to end the reader before its process group is killed


def papertui_command() -> list[str]:
    """The console script the package installed next to this Python, else `python -m`."""
    script = Path(sys.executable).with_name("papertui")
    if script.exists():
        return [str(script)]
    found = shutil.which("papertui")
    return [found] if found else [sys.executable, "-m", "papertui"]


def child_env(size: tuple[int, int], extra: Mapping[str, str]) -> dict[str, str]:
    """The environment of the reader: this one without colour or Textual overrides, with the
    terminal's type and size and `extra` (the data dirs)."""
    cols, rows = size
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("TEXTUAL") and k not in ("COLORTERM", "NO_COLOR", "FORCE_COLOR")
    }
    env.update(TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
    env.update(extra)
    return env


class Terminal:
    """`papertui ARGS` in a pseudo-terminal of `size` (columns, rows), read into a pyte
    screen. Use `start()`; `close()` always, even after a failure."""

    def __init__(self, size: tuple[int, int], pid: int, fd: int) -> None:
        self.size, self.pid, self.fd = size, pid, fd
        self.screen = pyte.Screen(*size)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._exit: int | None = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @classmethod
    def start(
        cls, size: tuple[int, int], args: Iterable[str] = (), env: Mapping[str, str] = {}
    ) -> Terminal:
        cols, rows = size
        command = [*papertui_command(), *args]
        environment = child_env(size, env)
        pid, fd = pty.fork()
        if pid == 0:  # the child: session leader of the new terminal, then the reader
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                os.execve(command[0], command, environment)
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        return cls(size, pid, fd)

    def _read(self) -> None:
        # a terminal that stops reading blocks the program writing to it: read all along
        while not self._stop.is_set():
            if not select.select([self.fd], [], [], 0.02)[0]:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the reader ended and its side of the terminal closed
                return
            if not chunk:
                return
            with self._lock:
                self._stream.feed(chunk)

    # what is on the screen

    def rows(self) -> list[str]:
        """Each row's text, as wide as the screen."""
        with self._lock:
            return list(self.screen.display)

    def backgrounds(self, x: int) -> list[str]:
        """Each row's background at column `x` ("default" where none was set); a cell drawn
        in reverse video counts as another background ("reverse:" before its colour)."""
        with self._lock:
            cells = [self.screen.buffer[y][x] for y in range(self.screen.lines)]
        return [f"reverse:{c.fg}" if c.reverse else c.bg for c in cells]

    def highlighted(self, top: int, bottom: int, x: int = 1) -> list[int]:
        """The rows from `top` to `bottom` (exclusive) whose background at column `x` is not
        the one most of them have, or is drawn in reverse: a list's cursor row."""
        colours = self.backgrounds(x)[top:bottom]
        if not colours:
            return []
        usual = Counter(c for c in colours if not c.startswith("reverse:")).most_common(1)
        common = usual[0][0] if usual else None
        return [top + i for i, c in enumerate(colours) if c != common]

    def dump(self) -> str:
        """The screen for a failure message: numbered rows, and each row's background at
        column 1."""
        backgrounds = self.backgrounds(1)
        return "\n".join(f"{y:3} {backgrounds[y]:>14} |{row}|" for y, row in enumerate(self.rows()))

    # typing and waiting

    def send(self, *keys: str) -> None:
        """Type `keys`: names from `KEYS` (`"pagedown"`, `"escape"`) or characters
        (`"j"`, `"100G"`)."""
        for key in keys:
            os.write(self.fd, KEYS.get(key, key).encode())
            if key == "escape":
                time.sleep(ESC_PAUSE)

    def wait_for(
        self, check: Callable[[Terminal], str | None], timeout: float = 10.0, what: str = ""
    ) -> None:
        """Poll the screen until `check(self)` returns None (it returns what is still wrong);
        on timeout fail with the last problem and the screen."""
        deadline = time.monotonic() + timeout
        problem: str | None = "never checked"
        while True:
            problem = check(self)
            if problem is None:
                return
            if time.monotonic() >= deadline or not self.alive():
                break
            time.sleep(0.03)
        state = "" if self.alive() else " (the reader has ended)"
        raise AssertionError(
            f"{what or 'the screen'} within {timeout} s{state}: {problem}\n{self.dump()}"
        )

    def alive(self) -> bool:
        if self._exit is None:
            with contextlib.suppress(ChildProcessError):
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid == self.pid:
                    self._exit = status
        return self._exit is None

    def close(self) -> None:
        """Send `q`; whatever of the reader's process group is left after `QUIT_WITHIN`
        seconds (or at once, if `q` did not end it) is killed, and the terminal closed."""
        with contextlib.suppress(OSError):
            if self.alive():
                os.write(self.fd, b"q")
        deadline = time.monotonic() + QUIT_WITHIN
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        # children the reader started (index, topics) are in its process group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        self._stop.set()
        self._reader.join(2)
        with contextlib.suppress(OSError):
            os.close(self.fd)
