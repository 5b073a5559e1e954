"""The store's in-memory copy of the user's annotations: loaded from disk, served to readers."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

from papertui.core.store.connection import StoreError, StoreFile, reason
from papertui.core.store.saved import SavedPaper, saved_paper
from papertui.core.store.snapshot import Annotations, Seed


class StoreReader(StoreFile):
    """Reads are served from memory; `refresh` reloads them, `snapshot` freezes them."""

    def __init__(self, path: Path) -> None:
        self.bookmarks: dict[str, float] = {}
        self.notes: dict[str, str] = {}
        self.reads: dict[str, float] = {}
        self.tags: dict[str, frozenset[str]] = {}  # paper id -> its tags (replaced, not mutated)
        self.noted_at: dict[str, float] = {}
        self.feedback: dict[str, int] = {}
        self.seeds: tuple[Seed, ...] = ()
        self.feedback_reset = 0.0  # see `Annotations.feedback_reset`
        self.new: frozenset[str] = frozenset()
        self._changes = 0  # bumped by every change, so an unchanged store reuses its snapshot
        self._snapshot: tuple[int, Annotations] | None = None
        self._disk_version: int | None = None  # PRAGMA data_version at the last reload
        super().__init__(path)
        try:
            self.refresh()
        except StoreError as exc:
            self.unavailable = self.unavailable or str(exc)

    def refresh_if_changed(self) -> None:
        """Reload only when another connection (a second reader, a CLI call) wrote since the
        last reload: SQLite's data_version says so for microseconds, a reload costs a table
        scan. Errors are left to the next write, which reports them."""
        if self._conn is None:
            return
        with self._lock:
            try:
                version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error:
                return
        if version != self._disk_version:
            try:
                self.refresh()
            except StoreError:
                return

    def refresh(self) -> None:
        """Reload from disk: another papertui may have written since.

        Raises StoreError (one line, for the status bar or stderr) when the file cannot be read;
        the data from the last good read stays in memory.
        """
        if self._conn is None:
            return
        with self._lock:
            try:
                self._disk_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
                rows = self._conn.execute("SELECT id, created FROM bookmarks").fetchall()
                notes = self._conn.execute("SELECT id, text, updated FROM notes").fetchall()
                reads = self._conn.execute("SELECT id, read_at FROM reads").fetchall()
                tags = self._conn.execute("SELECT id, tag FROM tags").fetchall()
                feedback = self._feedback_rows()
                seeds = self._seed_rows()
                reset = self._conn.execute(
                    "SELECT value FROM meta WHERE key = 'feedback_reset'"
                ).fetchone()
            except sqlite3.Error as exc:
                raise StoreError(f"could not reload {self.path}: {reason(exc)}") from exc
            by_paper: dict[str, set[str]] = {}
            for pid, tag in tags:
                by_paper.setdefault(pid, set()).add(tag)
            self.bookmarks = {pid: created for pid, created in rows}
            self.notes = {pid: text for pid, text, _ in notes}
            self.noted_at = {pid: updated for pid, _, updated in notes}
            self.reads = {pid: at for pid, at in reads}
            self.tags = {pid: frozenset(t) for pid, t in by_paper.items()}
            self.feedback = {pid: value for pid, value in feedback}
            self.seeds = tuple(Seed(*row) for row in seeds)
            self.feedback_reset = float(reset[0]) if reset else 0.0
            self._changes += 1

    def _feedback_rows(self) -> list[tuple[str, int]]:
        assert self._conn is not None
        try:
            return self._conn.execute("SELECT id, value FROM feedback").fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc) and self.unavailable:
                return []  # a read-only store from before feedback: nothing to show
            raise

    def _seed_rows(self) -> list[tuple[str, str, str, str]]:
        assert self._conn is not None
        try:
            return self._conn.execute(
                "SELECT id, title, abstract, source FROM seeds ORDER BY at, id"
            ).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc) and self.unavailable:
                return []  # a read-only store from before seeds
            raise

    def snapshot(self) -> Annotations:
        """An immutable copy of every annotation, consistent with itself; cheap when nothing
        changed since the last one."""
        with self._lock:
            cached = self._snapshot
            if cached is not None and cached[0] == self._changes:
                return cached[1]
            snap = Annotations(
                bookmarks=MappingProxyType(dict(self.bookmarks)),
                notes=MappingProxyType(dict(self.notes)),
                noted_at=MappingProxyType(dict(self.noted_at)),
                tags=MappingProxyType(dict(self.tags)),
                reads=MappingProxyType(dict(self.reads)),
                new=self.new,
                feedback=MappingProxyType(dict(self.feedback)),
                seeds=self.seeds,
                feedback_reset=self.feedback_reset,
            )
            self._snapshot = (self._changes, snap)
            return snap

    def all_tags(self) -> list[str]:
        tags = self.snapshot().tags
        return sorted({t for each in tags.values() for t in each}, key=str.casefold)

    def is_bookmarked(self, pid: str) -> bool:
        return pid in self.bookmarks

    def note(self, pid: str) -> str:
        return self.notes.get(pid, "")

    def saved_papers(self, ids: Sequence[str]) -> dict[str, SavedPaper]:
        """The store's copies of these papers (those it has), by id."""
        if self._conn is None or not ids:
            return {}
        result: dict[str, SavedPaper] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                cursor = self._conn.execute(f"SELECT * FROM papers WHERE id IN ({marks})", chunk)
                names = [d[0] for d in cursor.description]
                for values in cursor:
                    result[values[0]] = saved_paper(dict(zip(names, values, strict=True)))
        return result

    def current_id(self, pid: str) -> str:
        """The id a paper has now, for an id from before ids decoded LaTeX (else `pid`)."""
        if self._conn is None:
            return pid
        with self._lock:
            row = self._conn.execute("SELECT new FROM aliases WHERE old = ?", (pid,)).fetchone()
        return row[0] if row else pid

    def _changed(self) -> None:
        self._changes += 1
