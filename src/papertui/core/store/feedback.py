"""Triage verdicts (liked, skipped) and seed abstracts: what the user wants to read."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence

from papertui.core.corpus import Paper
from papertui.core.store.reading import StoreReader
from papertui.core.store.saved import remember
from papertui.core.store.snapshot import LIKED, SKIPPED, UNDECIDED, Seed


class Feedback(StoreReader):
    """Liked and skipped papers, and example abstracts from outside the library."""

    def set_feedback(self, papers: Sequence[Paper], value: int | None) -> None:
        """Triage verdicts: LIKED (+1), SKIPPED (-1), UNDECIDED (0: an answer taken back), or
        None to forget them."""
        if value not in (LIKED, SKIPPED, UNDECIDED, None):
            raise ValueError(f"feedback is {LIKED}, {SKIPPED}, {UNDECIDED} or None, not {value!r}")
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            for paper in papers:
                if value is None:
                    conn.execute("DELETE FROM feedback WHERE id = ?", (paper.id,))
                else:
                    remember(conn, paper)
                    conn.execute(
                        "INSERT OR REPLACE INTO feedback VALUES (?, ?, ?)", (paper.id, value, now)
                    )

        with self._lock:
            self._write(work)
            for paper in papers:
                if value is None:
                    self.feedback.pop(paper.id, None)
                else:
                    self.feedback[paper.id] = value
            self._changed()

    def reset_feedback(self) -> None:
        """Forget every triage verdict and seed text, and that the papers read so far were
        passed over (bookmarks, notes, tags and the read marks themselves stay)."""
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM feedback")
            conn.execute("DELETE FROM seeds")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('feedback_reset', ?)", (repr(now),))

        with self._lock:
            self._write(work)
            self.feedback = {}
            self.seeds = ()
            self.feedback_reset = now
            self._changed()

    def add_seeds(self, seeds: Sequence[Seed]) -> int:
        """Keep example abstracts (from outside the library) as positives; returns how many
        were new."""
        now = time.time()
        known = {s.id for s in self.seeds}
        fresh = [s for s in dict((s.id, s) for s in seeds).values() if s.id not in known]
        if not fresh:
            return 0

        def work(conn: sqlite3.Connection) -> None:
            for n, s in enumerate(fresh):
                conn.execute(
                    "INSERT OR REPLACE INTO seeds VALUES (?, ?, ?, ?, ?)",
                    (s.id, s.title, s.abstract, s.source, now + n * 1e-6),
                )

        with self._lock:
            self._write(work)
            self.seeds = self.seeds + tuple(fresh)
            self._changed()
        return len(fresh)
