"""Writing what the user marks on papers: bookmarks, read state, tags, notes, and what is new."""

from __future__ import annotations

import sqlite3
import time

from papertui.core.corpus import Paper
from papertui.core.store.connection import StoreError
from papertui.core.store.reading import StoreReader
from papertui.core.store.saved import remember


class Annotating(StoreReader):
    """Bookmarks, read marks, tags and notes: each change is on disk before it is in memory."""

    def set_bookmark(self, paper: Paper, on: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            if on:
                remember(conn, paper)
                conn.execute("INSERT OR IGNORE INTO bookmarks VALUES (?, ?)", (paper.id, now))
            else:
                conn.execute("DELETE FROM bookmarks WHERE id = ?", (paper.id,))

        with self._lock:
            self._write(work)
            if on:
                self.bookmarks.setdefault(paper.id, now)
            else:
                self.bookmarks.pop(paper.id, None)
            self._changed()

    def set_read(self, pids: list[str], read: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            if read:
                conn.executemany(
                    "INSERT OR IGNORE INTO reads VALUES (?, ?)", [(p, now) for p in pids]
                )
            else:
                conn.executemany("DELETE FROM reads WHERE id = ?", [(p,) for p in pids])

        with self._lock:
            self._write(work)
            for pid in pids:
                if read:
                    self.reads.setdefault(pid, now)
                else:
                    self.reads.pop(pid, None)
            self._changed()

    def set_tag(self, papers: list[Paper], tag: str, on: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            for paper in papers:
                if on:
                    remember(conn, paper)
                    conn.execute(
                        "INSERT OR IGNORE INTO tags VALUES (?, ?, ?)", (paper.id, tag, now)
                    )
                else:
                    conn.execute("DELETE FROM tags WHERE id = ? AND tag = ?", (paper.id, tag))

        with self._lock:
            self._write(work)
            for paper in papers:
                now_tags = self.tags.get(paper.id, frozenset())
                now_tags = now_tags | {tag} if on else now_tags - {tag}
                if now_tags:
                    self.tags[paper.id] = now_tags
                else:
                    self.tags.pop(paper.id, None)
            self._changed()

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
        with self._lock:
            self.new = frozenset(pid for pid in new if pid not in self.reads)
            self._changed()
            return set(self.new)

    def set_note(self, paper: Paper, text: str) -> None:
        """Save a note; an empty (or whitespace-only) note removes it, and its time with it."""
        keep = text.strip() != ""
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            if keep:
                remember(conn, paper)
                conn.execute("INSERT OR REPLACE INTO notes VALUES (?, ?, ?)", (paper.id, text, now))
            else:
                conn.execute("DELETE FROM notes WHERE id = ?", (paper.id,))

        with self._lock:
            self._write(work)
            if keep:
                self.notes[paper.id] = text
                self.noted_at[paper.id] = now
            else:
                self.notes.pop(paper.id, None)
                self.noted_at.pop(paper.id, None)
            self._changed()
