"""The store's SQLite file: opening it (a corrupt one is moved aside), and writing to it.

WAL mode and one short transaction per change make every write atomic and crash-safe, and let a
second papertui (TUI or CLI) write at the same time; a write that finds the file locked waits and
tries again.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from papertui.core.store.schema import SCHEMA, migrate

_T = TypeVar("_T")


class StoreError(Exception):
    """A change that could not be saved; `str()` says why, in one line."""


class StoreFile:
    """The connection and its lock; what `Store` builds on to read and write."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.moved_aside: Path | None = None  # where a corrupt file went, to tell the user
        self.unavailable: str | None = None  # why nothing can be saved, if so
        # One lock for the connection and the in-memory copies: writers change both under it and
        # `snapshot()` copies under it, so no reader sees a dict change size mid-iteration.
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._open()

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            self.unavailable = f"cannot create {self.path.parent}: {exc.strerror or exc}"
            return
        try:
            self._conn = self._connect()
        except sqlite3.DatabaseError as exc:
            if not self._is_corruption(exc):
                self.unavailable = f"cannot open {self.path}: {exc}"
                return
            self._move_aside()
            try:
                self._conn = self._connect()
            except sqlite3.Error as exc2:
                self.unavailable = f"cannot open {self.path}: {exc2}"
                return
        except OSError as exc:
            self.unavailable = f"cannot open {self.path}: {exc.strerror or exc}"
            return

    @staticmethod
    def _is_corruption(exc: sqlite3.DatabaseError) -> bool:
        text = str(exc).lower()
        return any(w in text for w in ("not a database", "malformed", "corrupt", "disk image"))

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            # created private before sqlite touches it; WAL and SHM files inherit its mode
            fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
            os.close(fd)
        conn = sqlite3.connect(self.path, timeout=15, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 15000")
            check = conn.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed ({check})")
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                conn.executescript(SCHEMA)
                conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', '1')")
                migrate(conn)
            except sqlite3.OperationalError as exc:
                if "readonly" not in str(exc).lower() and "read-only" not in str(exc).lower():
                    raise
                self.unavailable = f"{self.path} is read-only"
        except Exception:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        self.moved_aside = target

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        if self.unavailable:
            raise StoreError(f"not saved: {self.unavailable}")
        assert self._conn is not None
        with self._lock:
            for attempt in range(8):
                try:
                    self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        result = work(self._conn)
                        self._conn.execute("COMMIT")
                        return result
                    except BaseException:
                        if self._conn.in_transaction:  # SQLite may have rolled back already
                            self._conn.execute("ROLLBACK")
                        raise
                except sqlite3.OperationalError as exc:
                    text = str(exc).lower()
                    if "locked" in text or "busy" in text:
                        time.sleep(0.05 * (attempt + 1))
                        continue
                    raise StoreError(f"not saved to {self.path}: {reason(exc)}") from exc
                except sqlite3.Error as exc:
                    raise StoreError(f"not saved to {self.path}: {reason(exc)}") from exc
            raise StoreError(f"not saved: {self.path} stayed locked by another program")


def reason(exc: sqlite3.Error) -> str:
    text = str(exc)
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return "the data file is read-only"
    if "full" in low:
        return "the disk is full"
    if "unable to open" in low:
        return "the data file cannot be opened (permission denied?)"
    return text
