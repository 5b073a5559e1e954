"""Bringing the store up to date with a loaded corpus: rows under ids computed before ids decoded
LaTeX move to today's ids, and saved copies get the metadata older stores lack.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import unicodedata
from collections.abc import Sequence

from rapidfuzz import fuzz

from papertui.core.corpus import ID_LENGTH, Paper, papers_containing
from papertui.core.store.connection import StoreError
from papertui.core.store.reading import StoreReader
from papertui.core.store.saved import remember
from papertui.core.store.schema import BY_ID, rekey
from papertui.core.text import legacy_identity_text, normalise_ws, previous_identity_text


class Reconciling(StoreReader):
    """`reconcile`: what the store holds, matched against the papers loaded now."""

    def reconcile(self, papers: Sequence[Paper]) -> int:
        """Bring the store up to date with a loaded corpus; returns how many ids moved.

        Rows kept under an id computed the way an older papertui did (before ids decoded
        LaTeX, TeX typography and left out control characters; read marks, seen rows, and
        annotations the schema migration could not reach), rows under the id of a copy now
        merged into another paper (`PaperMeta.aliases`), and those of a saved copy with the
        paper's real title and nearly its abstract move to the paper's id now; saved
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
            # only LaTeX, TeX typography and control characters changed how ids are computed:
            # only abstracts holding one can have an older id (found without decoding the
            # other abstracts); the same such papers against the same orphans were checked
            # before: nothing to find
            latex = papers_containing(papers, _CHANGED)
            # a copy of a paper with another abstract text (the same arXiv id) was merged into
            # it: what was made on that copy's id moves to the paper's
            merged = {a: p.id for p in papers if p._meta for a in p.meta.aliases if a in orphans}
            key = _fingerprint(sorted(orphans), [p.id for p in latex], sorted(merged))
            if key != checked:
                legacy.update(merged)
                for paper in latex:
                    for old in _older_ids(paper.abstract):
                        if old != paper.id and old in orphans:
                            legacy[old] = paper.id
                with self._lock:
                    saved = [
                        row
                        for row in self._conn.execute(
                            "SELECT id, title, abstract FROM papers WHERE real_title = 1"
                        )
                        if row[0] in orphans and row[0] not in legacy
                    ]
                legacy.update(_same_titles(saved, papers))
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


def _same_titles(saved: list[tuple[str, str, str]], papers: Sequence[Paper]) -> dict[str, str]:
    """{old id: id} for saved copies (id, real title, abstract) of papers that are loaded now
    under another id: the same title and nearly the same abstract. A BibTeX file's abstract
    that an older papertui decoded another way (`\\cite{x}` as "<cit.>") is such a paper."""
    if not saved:
        return {}
    wanted: dict[str, list[tuple[str, str]]] = {}
    for old, title, abstract in saved:
        wanted.setdefault(_loose(title), []).append((old, abstract))
    moved: dict[str, str] = {}
    for paper in papers:
        if paper.has_real_title and (found := wanted.get(_loose(paper.title))):
            for old, abstract in found:
                if fuzz.ratio(abstract[:1000], paper.abstract[:1000]) >= 90:
                    moved[old] = paper.id
    return moved


def _loose(title: str) -> str:
    return "".join(c for c in title.casefold() if c.isalnum())


def _fingerprint(*parts: list[str]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update("\n".join(part).encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _v1_id(abstract: str) -> str:
    """A paper's id as schema 1 computed it (before LaTeX was decoded), to find old rows."""
    return _hashed(normalise_ws(unicodedata.normalize("NFC", abstract)))


def _v2_id(abstract: str) -> str:
    """A paper's id as computed before control characters were left out and TeX quotes,
    dashes and ties were read as LaTeX without a backslash or a brace."""
    return _hashed(legacy_identity_text(abstract))


def _v3_id(abstract: str) -> str:
    """A paper's id as computed before a brace after an even run of backslashes (`\\\\{`)
    stopped counting as escaped."""
    return _hashed(previous_identity_text(abstract))


def _older_ids(abstract: str) -> set[str]:
    return {_v1_id(abstract), _v2_id(abstract), _v3_id(abstract)}


def _hashed(text: str) -> str:
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
    return digest.hexdigest()[:ID_LENGTH]


# the characters of the abstracts whose id an older papertui computed otherwise (ASCII: the
# mapped corpus cache finds them without decoding; C1 controls, never seen in real dumps, not)
_CHANGED = "\\{}`'-~" + "".join(chr(c) for c in (*range(9), *range(11, 32), 127))
