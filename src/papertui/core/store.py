"""User data in SQLite: bookmarks and notes, keyed by paper id, written the moment they change.

WAL mode and one short transaction per change make every write atomic and crash-safe, and let a
second papertui (TUI or CLI) write at the same time. A copy of each annotated paper's text is kept
so that exports and notes survive the corpus file going away.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from papertui.core.corpus import Paper

SCHEMA_VERSION = 1
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS papers (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, abstract TEXT NOT NULL,
    collections TEXT NOT NULL, urls TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bookmarks (id TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS reads (id TEXT PRIMARY KEY, read_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tags (id TEXT NOT NULL, tag TEXT NOT NULL, added REAL NOT NULL,
                                 PRIMARY KEY (id, tag));
CREATE TABLE IF NOT EXISTS sources (path TEXT PRIMARY KEY, first_opened REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seen (source TEXT NOT NULL, id TEXT NOT NULL, first_seen REAL NOT NULL,
                                 PRIMARY KEY (source, id));
"""


class StoreError(Exception):
    """A change that could not be saved; `str()` says why, in one line."""


@dataclass(slots=True)
class SavedPaper:
    """A paper as the store remembers it (for export when the corpus is not loaded)."""

    id: str
    title: str
    abstract: str
    collections: list[str]
    urls: list[str]


class Store:
    """Bookmarks and notes. Reads are served from memory; every change goes to disk first."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.moved_aside: Path | None = None  # where a corrupt file went, to tell the user
        self.unavailable: str | None = None  # why nothing can be saved, if so
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self.bookmarks: dict[str, float] = {}
        self.notes: dict[str, str] = {}
        self.reads: dict[str, float] = {}
        self.tags: dict[str, set[str]] = {}  # paper id -> its tags
        self.noted_at: dict[str, float] = {}
        self._open()

    # -- opening -------------------------------------------------------------------------------

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
        self.refresh()

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
                conn.executescript(_SCHEMA)
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
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

    # -- reading -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload from disk: another papertui may have written since."""
        if self._conn is None:
            return
        with self._lock:
            try:
                rows = self._conn.execute("SELECT id, created FROM bookmarks").fetchall()
                notes = self._conn.execute("SELECT id, text, updated FROM notes").fetchall()
                reads = self._conn.execute("SELECT id, read_at FROM reads").fetchall()
                tags = self._conn.execute("SELECT id, tag FROM tags").fetchall()
            except sqlite3.Error:
                return
        self.bookmarks = {pid: created for pid, created in rows}
        self.notes = {pid: text for pid, text, _ in notes}
        self.noted_at = {pid: updated for pid, _, updated in notes}
        self.reads = {pid: at for pid, at in reads}
        by_paper: dict[str, set[str]] = {}
        for pid, tag in tags:
            by_paper.setdefault(pid, set()).add(tag)
        self.tags = by_paper

    def all_tags(self) -> list[str]:
        return sorted({t for tags in self.tags.values() for t in tags}, key=str.casefold)

    def is_bookmarked(self, pid: str) -> bool:
        return pid in self.bookmarks

    def note(self, pid: str) -> str:
        return self.notes.get(pid, "")

    def saved_papers(self, ids: list[str]) -> dict[str, SavedPaper]:
        if self._conn is None or not ids:
            return {}
        result: dict[str, SavedPaper] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                sql = f"SELECT * FROM papers WHERE id IN ({marks})"
                for row in self._conn.execute(sql, chunk):
                    result[row[0]] = SavedPaper(
                        row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4])
                    )
        return result

    # -- writing -------------------------------------------------------------------------------

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
                    raise StoreError(f"not saved to {self.path}: {_reason(exc)}") from exc
                except sqlite3.Error as exc:
                    raise StoreError(f"not saved to {self.path}: {_reason(exc)}") from exc
            raise StoreError(f"not saved: {self.path} stayed locked by another program")

    @staticmethod
    def _remember(conn: sqlite3.Connection, paper: Paper) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO papers VALUES (?, ?, ?, ?, ?)",
            (
                paper.id,
                paper.title,
                paper.abstract,
                json.dumps(paper.collections, ensure_ascii=False),
                json.dumps(list(paper.urls)),
            ),
        )

    def set_bookmark(self, paper: Paper, on: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            if on:
                self._remember(conn, paper)
                conn.execute("INSERT OR IGNORE INTO bookmarks VALUES (?, ?)", (paper.id, now))
            else:
                conn.execute("DELETE FROM bookmarks WHERE id = ?", (paper.id,))

        self._write(work)
        if on:
            self.bookmarks.setdefault(paper.id, now)
        else:
            self.bookmarks.pop(paper.id, None)

    def set_read(self, pids: list[str], read: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            if read:
                conn.executemany(
                    "INSERT OR IGNORE INTO reads VALUES (?, ?)", [(p, now) for p in pids]
                )
            else:
                conn.executemany("DELETE FROM reads WHERE id = ?", [(p,) for p in pids])

        self._write(work)
        for pid in pids:
            if read:
                self.reads.setdefault(pid, now)
            else:
                self.reads.pop(pid, None)

    def set_tag(self, papers: list[Paper], tag: str, on: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            for paper in papers:
                if on:
                    self._remember(conn, paper)
                    conn.execute(
                        "INSERT OR IGNORE INTO tags VALUES (?, ?, ?)", (paper.id, tag, now)
                    )
                else:
                    conn.execute("DELETE FROM tags WHERE id = ? AND tag = ?", (paper.id, tag))

        self._write(work)
        for paper in papers:
            if on:
                self.tags.setdefault(paper.id, set()).add(tag)
            elif paper.id in self.tags:
                self.tags[paper.id].discard(tag)
                if not self.tags[paper.id]:
                    del self.tags[paper.id]

    def record_seen(self, by_source: dict[str, list[str]]) -> set[str]:
        """Remember which papers each corpus file held; returns the ids that are new: in a file
        opened before, first seen after that (and kept as new until read)."""
        if self._conn is None or self.unavailable:
            return set()
        now = time.time()
        new: set[str] = set()

        def work(conn: sqlite3.Connection) -> None:
            for source, ids in by_source.items():
                row = conn.execute(
                    "SELECT first_opened FROM sources WHERE path = ?", (source,)
                ).fetchone()
                if row is None:
                    conn.execute("INSERT INTO sources VALUES (?, ?)", (source, now))
                    conn.executemany(
                        "INSERT OR IGNORE INTO seen VALUES (?, ?, ?)",
                        [(source, pid, now) for pid in ids],
                    )
                    continue
                known = {
                    pid: at
                    for pid, at in conn.execute(
                        "SELECT id, first_seen FROM seen WHERE source = ?", (source,)
                    )
                }
                fresh = [pid for pid in ids if pid not in known]
                conn.executemany(
                    "INSERT OR IGNORE INTO seen VALUES (?, ?, ?)",
                    [(source, pid, now) for pid in fresh],
                )
                new.update(pid for pid in ids if known.get(pid, now) > row[0])
                new.update(fresh)

        try:
            self._write(work)
        except StoreError:
            return set()
        return {pid for pid in new if pid not in self.reads}

    def set_note(self, paper: Paper, text: str) -> None:
        """Save a note; an empty (or whitespace-only) note removes it."""
        keep = text.strip() != ""

        def work(conn: sqlite3.Connection) -> None:
            if keep:
                self._remember(conn, paper)
                conn.execute(
                    "INSERT OR REPLACE INTO notes VALUES (?, ?, ?)", (paper.id, text, time.time())
                )
            else:
                conn.execute("DELETE FROM notes WHERE id = ?", (paper.id,))

        self._write(work)
        if keep:
            self.notes[paper.id] = text
            self.noted_at[paper.id] = time.time()
        else:
            self.notes.pop(paper.id, None)


def _reason(exc: sqlite3.Error) -> str:
    text = str(exc)
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return "the data file is read-only"
    if "full" in low:
        return "the disk is full"
    if "unable to open" in low:
        return "the data file cannot be opened (permission denied?)"
    return text
