"""The installed `papertui` reader in a real pseudo-terminal, for closing that terminal under it.

`PtyReader` starts the reader as the session leader of a new pseudo-terminal (as a terminal
emulator starts a shell), keeps reading what it draws (a terminal that stops reading would block
the reader), types keys, finds text on the screen, and lists the processes of its session: the
reader and every child it started, grandchildren included, even once they lost their parent.
Closing the master end is what a terminal window closing does to the programs in it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

# escape sequences (CSI, OSC, two-character ones): dropped to find the words on the screen
_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def papertui_command() -> list[str]:
    """The console script the package installed next to this Python, else `python -m`."""
    script = Path(sys.executable).with_name("papertui")
    if script.exists():
        return [str(script)]
    found = shutil.which("papertui")
    return [found] if found else [sys.executable, "-m", "papertui"]


def session_members(sid: int) -> dict[int, str]:
    """The live processes of session `sid` (zombies count as gone): pid -> command line."""
    found: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        state, session = fields[0], int(fields[3])
        if session == sid and state not in ("Z", "X"):
            found[int(entry)] = cmdline.replace(b"\0", b" ").decode(errors="replace").strip()
    return found


class PtyReader:
    """The reader on `args` in a new pseudo-terminal of `rows` x `cols`. With `controlling`
    (the default) the terminal is the reader's controlling terminal, which the kernel hangs up
    with SIGHUP when it closes; without, the reader only finds its terminal gone (as when a
    shell that does not pass SIGHUP on to its jobs is the one to get it)."""

    def __init__(
        self, args: list[str], rows: int = 40, cols: int = 120, controlling: bool = True
    ) -> None:
        self.output = bytearray()
        self._lock = threading.Lock()
        command = [*papertui_command(), *args]
        if controlling:
            pid, fd = pty.fork()
            if pid == 0:  # the child: the reader, session leader of this terminal
                try:
                    os.execv(command[0], command)
                finally:
                    os._exit(127)
        else:
            fd, end = os.openpty()
            child = subprocess.Popen(
                command, stdin=end, stdout=end, stderr=end, start_new_session=True
            )
            os.close(end)
            pid = child.pid
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self._closed = False
        self._stop_reading = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        # never blocked in read(): a read in progress would hold the master open past close()
        while not self._stop_reading.is_set():
            if not select.select([self.fd], [], [], 0.02)[0]:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.output += chunk

    def _close_master(self) -> None:
        if self._closed:
            return
        self._stop_reading.set()
        self._reader.join()
        os.close(self.fd)
        self._closed = True

    def screen_text(self) -> str:
        """Everything drawn so far, without escape sequences."""
        with self._lock:
            raw = bytes(self.output)
        return _ESCAPES.sub("", raw.decode("utf-8", errors="replace"))

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        """Wait until `text` has been drawn."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.screen_text():
                return
            if not self.alive():
                break
            time.sleep(0.05)
        tail = self.screen_text()[-2000:]
        raise AssertionError(f"{text!r} was not drawn within {timeout} s; last drawn:\n{tail}")

    def wait_for_children(self, fragment: str, count: int = 1, timeout: float = 30.0) -> None:
        """Wait until `count` processes of the session run a command containing `fragment`
        (a forked process runs its parent's command)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            running = [c for p, c in session_members(self.pid).items() if p != self.pid]
            if sum(fragment in command for command in running) >= count:
                return
            if not self.alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"not {count} processes running {fragment!r} within {timeout} s")

    def type(self, keys: str, pause: float = 0.0) -> None:
        for key in keys if pause else [keys]:
            os.write(self.fd, key.encode())
            time.sleep(pause)

    def alive(self) -> bool:
        return bool(session_members(self.pid))

    def close_terminal(self, within: float) -> tuple[float | None, dict[int, str]]:
        """Close the terminal; wait up to `within` s for the reader and every process of its
        session to end. Returns how long that took (None: not within the time) and what was
        left, before anything left is killed."""
        self._close_master()
        start = time.monotonic()
        left: dict[int, str] = {}
        while time.monotonic() - start < within:
            self._reap()
            left = session_members(self.pid)
            if not left:
                return time.monotonic() - start, {}
            time.sleep(0.02)
        return None, left

    def _reap(self) -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, os.WNOHANG)

    def kill(self) -> None:
        """End whatever of the session is left (after a failed trial), and close the terminal."""
        self._close_master()
        for pid in session_members(self.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while self.alive() and time.monotonic() < deadline:
            self._reap()
            time.sleep(0.02)
        self._reap()
