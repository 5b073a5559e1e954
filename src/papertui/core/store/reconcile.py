"""Bringing the store up to date with a loaded corpus: rows under ids computed before ids decoded
LaTeX move to today's ids, and saved copies get the metadata older stores lack.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import unicodedata
from collections.abc import Sequence

from papertui.core.corpus import ID_LENGTH, Paper, papers_containing
from papertui.core.store.connection import StoreError
from papertui.core.store.reading import StoreReader
from papertui.core.store.saved import remember
from papertui.core.store.schema import BY_ID, rekey
from papertui.core.text import normalise_ws


class Reconciling(StoreReader):
    """`reconcile`: what the store holds, matched against the papers loaded now."""

    def reconcile(self, papers: Sequence[Paper]) -> int:
        """Bring the store up to date with a loaded corpus; returns how many ids moved.

        Rows kept under an id computed before ids decoded LaTeX (read marks, seen rows, and
        annotations the schema migration could not reach), and rows under the id of a copy now
        merged into another paper (`PaperMeta.aliases`), move to the paper's id now; saved
        copies of these papers get their metadata (authors, venue, year, whether the title is
        real), which stores from before schema 2 lack. Cheap when there is nothing to do.
        """
        if self._conn is None or self.unavailable:
            return 0
        by_id = {p.id: p for p in papers}
        with self._lock:
            # rows under ids the corpus does not have: papers gone from the files, or rows
            # under an id computed the old way (usually none: then no old id is computed)
            orphans = {
                pid
                for table in ("papers", *BY_ID, "notes", "tags", "seen")
                for (pid,) in self._conn.execute(f"SELECT DISTINCT id FROM {table}")
                if pid not in by_id
            }
            stale = [
                pid
                for (pid,) in self._conn.execute("SELECT id FROM papers WHERE real_title IS NULL")
                if pid in by_id
            ]
            done = self._conn.execute("SELECT value FROM meta WHERE key = 'reconciled'")
            checked = (done.fetchone() or ("",))[0]
        legacy: dict[str, str] = {}
        key = ""
        if orphans:
            # only LaTeX changed how ids are computed: only abstracts with a backslash or a
            # brace can have an older id (found without decoding the other abstracts); the same
            # such papers against the same orphans were checked before: nothing to find
            latex = papers_containing(papers, "\\{}")
            # a copy of a paper with another abstract text (the same arXiv id) was merged into
            # it: what was made on that copy's id moves to the paper's
            merged = {a: p.id for p in papers if p._meta for a in p.meta.aliases if a in orphans}
            key = _fingerprint(sorted(orphans), [p.id for p in latex], sorted(merged))
            if key != checked:
                legacy.update(merged)
                for paper in latex:
                    old = _v1_id(paper.abstract)
                    if old != paper.id and old in orphans:
                        legacy[old] = paper.id
        found = list(legacy)
        if not found and not stale:
            if key and key != checked:
                with contextlib.suppress(StoreError):
                    self._write(
                        lambda conn: conn.execute(
                            "INSERT OR REPLACE INTO meta VALUES ('reconciled', ?)", (key,)
                        )
                    )
            return 0

        def work(conn: sqlite3.Connection) -> None:
            for old in found:
                rekey(conn, old, legacy[old])
            for pid in stale:
                remember(conn, by_id[pid])

        with self._lock:
            self._write(work)
            self.refresh()
        return len(found)

    def _present(self, ids: list[str]) -> list[str]:
        """Which of `ids` any table holds a row for."""
        assert self._conn is not None
        found: list[str] = []
        tables = ["papers", *BY_ID, "notes", "tags", "seen"]
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            marks = ",".join("?" * len(chunk))
            sql = " UNION ".join(f"SELECT id FROM {t} WHERE id IN ({marks})" for t in tables)
            found += [pid for (pid,) in self._conn.execute(sql, chunk * len(tables))]
        return found


def _fingerprint(*parts: list[str]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update("\n".join(part).encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _v1_id(abstract: str) -> str:
    """A paper's id as schema 1 computed it (before LaTeX was decoded), to find old rows."""
    text = normalise_ws(unicodedata.normalize("NFC", abstract))
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
    return digest.hexdigest()[:ID_LENGTH]
