"""User data in SQLite: bookmarks and notes, keyed by paper id, written the moment they change.

WAL mode and one short transaction per change make every write atomic and crash-safe, and let a
second papertui (TUI or CLI) write at the same time. A copy of each annotated paper (its text and
everything known about it: title, authors, venue, year, links, collections) is kept so that
exports and notes survive the corpus file going away.

Schema 2 (from 1): the saved copy keeps the metadata (`real_title`, `authors`, `venue`, `year`,
`source`; old rows get them the next time their paper is seen, see `Store.reconcile`), a
`feedback` table, and ids that decode LaTeX (`identity_text`): rows under an id computed the old
way are moved to the new id and the old one kept in `aliases`.

Schema 3 (from 2): a `seeds` table, abstracts the user gave as examples of what they want to
read (`papertui like FILE`) that are not in their library; `reset_feedback` clears them too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from papertui.core.corpus import ID_LENGTH, Paper, paper_id, papers_containing
from papertui.core.text import normalise_ws

SCHEMA_VERSION = 3
LIKED, SKIPPED = 1, -1
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS papers (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, abstract TEXT NOT NULL,
    collections TEXT NOT NULL, urls TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS feedback (id TEXT PRIMARY KEY, value INTEGER NOT NULL,
                                     at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS aliases (old TEXT PRIMARY KEY, new TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS bookmarks (id TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS reads (id TEXT PRIMARY KEY, read_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tags (id TEXT NOT NULL, tag TEXT NOT NULL, added REAL NOT NULL,
                                 PRIMARY KEY (id, tag));
CREATE TABLE IF NOT EXISTS seeds (id TEXT PRIMARY KEY, title TEXT NOT NULL, abstract TEXT NOT NULL,
                                  source TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS sources (path TEXT PRIMARY KEY, first_opened REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seen (source TEXT NOT NULL, id TEXT NOT NULL, first_seen REAL NOT NULL,
                                 PRIMARY KEY (source, id));
"""

# Columns schema 2 adds to `papers` (ALTER TABLE keeps every old row; NULL real_title: unknown).
_PAPER_COLUMNS = (
    ("real_title", "INTEGER"),
    ("authors", "TEXT NOT NULL DEFAULT '[]'"),
    ("venue", "TEXT NOT NULL DEFAULT ''"),
    ("year", "INTEGER"),
    ("source", "TEXT NOT NULL DEFAULT ''"),
)
# Tables keyed by paper id, and how two rows for one paper merge when an id changes.
_BY_ID = {
    "bookmarks": "created = min(created, excluded.created)",
    "reads": "read_at = min(read_at, excluded.read_at)",
    "feedback": "value = value",  # the newer id's verdict stands
}


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
    has_real_title: bool | None = None  # None: saved by papertui before this was kept
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    source: str = ""


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Seed:
    """An abstract the user gave as an example of what they want to read."""

    id: str
    title: str
    abstract: str
    source: str


@dataclass(frozen=True, slots=True)
class Annotations:
    """What the user made, frozen at one moment: safe to read from any thread while the store
    changes (a search worker filters with it while the UI toggles bookmarks)."""

    bookmarks: Mapping[str, float] = field(default_factory=_empty)  # id -> when bookmarked
    notes: Mapping[str, str] = field(default_factory=_empty)  # id -> note text
    noted_at: Mapping[str, float] = field(default_factory=_empty)  # id -> when last noted
    tags: Mapping[str, frozenset[str]] = field(default_factory=_empty)
    reads: Mapping[str, float] = field(default_factory=_empty)
    new: frozenset[str] = frozenset()  # added to a file since it was last opened (until read)
    feedback: Mapping[str, int] = field(default_factory=_empty)  # id -> LIKED or SKIPPED
    seeds: tuple[Seed, ...] = ()  # example abstracts from outside the library, oldest first

    def tags_of(self, pid: str) -> list[str]:
        return sorted(self.tags.get(pid, ()), key=str.casefold)

    def is_new(self, pid: str) -> bool:
        return pid in self.new and pid not in self.reads

    def feedback_word(self, pid: str) -> str | None:
        return {LIKED: "liked", SKIPPED: "skipped"}.get(self.feedback.get(pid, 0))


class Store:
    """Bookmarks and notes. Reads are served from memory; every change goes to disk first."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.moved_aside: Path | None = None  # where a corrupt file went, to tell the user
        self.unavailable: str | None = None  # why nothing can be saved, if so
        # One lock for the connection and the in-memory copies: writers change both under it and
        # `snapshot()` copies under it, so no reader sees a dict change size mid-iteration.
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self.bookmarks: dict[str, float] = {}
        self.notes: dict[str, str] = {}
        self.reads: dict[str, float] = {}
        self.tags: dict[str, frozenset[str]] = {}  # paper id -> its tags (replaced, not mutated)
        self.noted_at: dict[str, float] = {}
        self.feedback: dict[str, int] = {}
        self.seeds: tuple[Seed, ...] = ()
        self.new: frozenset[str] = frozenset()
        self._changes = 0  # bumped by every change, so an unchanged store reuses its snapshot
        self._snapshot: tuple[int, Annotations] | None = None
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
        try:
            self.refresh()
        except StoreError as exc:
            self.unavailable = self.unavailable or str(exc)

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
                conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', '1')")
                _migrate(conn)
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
        """Reload from disk: another papertui may have written since.

        Raises StoreError (one line, for the status bar or stderr) when the file cannot be read;
        the data from the last good read stays in memory.
        """
        if self._conn is None:
            return
        with self._lock:
            try:
                rows = self._conn.execute("SELECT id, created FROM bookmarks").fetchall()
                notes = self._conn.execute("SELECT id, text, updated FROM notes").fetchall()
                reads = self._conn.execute("SELECT id, read_at FROM reads").fetchall()
                tags = self._conn.execute("SELECT id, tag FROM tags").fetchall()
                feedback = self._feedback_rows()
                seeds = self._seed_rows()
            except sqlite3.Error as exc:
                raise StoreError(f"could not reload {self.path}: {_reason(exc)}") from exc
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
                    result[values[0]] = _saved(dict(zip(names, values, strict=True)))
        return result

    def current_id(self, pid: str) -> str:
        """The id a paper has now, for an id from before ids decoded LaTeX (else `pid`)."""
        if self._conn is None:
            return pid
        with self._lock:
            row = self._conn.execute("SELECT new FROM aliases WHERE old = ?", (pid,)).fetchone()
        return row[0] if row else pid

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
            "INSERT OR REPLACE INTO papers (id, title, abstract, collections, urls, real_title,"
            " authors, venue, year, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                paper.id,
                paper.title,
                paper.abstract,
                json.dumps(paper.collections, ensure_ascii=False),
                json.dumps(list(paper.urls)),
                int(paper.has_real_title),
                json.dumps(list(paper.authors), ensure_ascii=False),
                paper.venue,
                paper.year,
                paper.source,
            ),
        )

    def _changed(self) -> None:
        self._changes += 1

    def set_bookmark(self, paper: Paper, on: bool) -> None:
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            if on:
                self._remember(conn, paper)
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
                    self._remember(conn, paper)
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
                self._remember(conn, paper)
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

    def set_feedback(self, papers: Sequence[Paper], value: int | None) -> None:
        """Triage verdicts: LIKED (+1), SKIPPED (-1), or None to forget them."""
        if value not in (LIKED, SKIPPED, None):
            raise ValueError(f"feedback is {LIKED}, {SKIPPED} or None, not {value!r}")
        now = time.time()

        def work(conn: sqlite3.Connection) -> None:
            for paper in papers:
                if value is None:
                    conn.execute("DELETE FROM feedback WHERE id = ?", (paper.id,))
                else:
                    self._remember(conn, paper)
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
        """Forget every triage verdict and seed text (bookmarks, notes and tags stay)."""

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM feedback")
            conn.execute("DELETE FROM seeds")

        with self._lock:
            self._write(work)
            self.feedback = {}
            self.seeds = ()
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

    def reconcile(self, papers: Sequence[Paper]) -> int:
        """Bring the store up to date with a loaded corpus; returns how many ids moved.

        Rows kept under an id computed before ids decoded LaTeX (read marks, seen rows, and
        annotations the schema migration could not reach) move to the paper's id now; saved
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
                for table in ("papers", *_BY_ID, "notes", "tags", "seen")
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
            key = _fingerprint(sorted(orphans), [p.id for p in latex])
            if key != checked:
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
                _rekey(conn, old, legacy[old])
            for pid in stale:
                self._remember(conn, by_id[pid])

        with self._lock:
            self._write(work)
            self.refresh()
        return len(found)

    def _present(self, ids: list[str]) -> list[str]:
        """Which of `ids` any table holds a row for."""
        assert self._conn is not None
        found: list[str] = []
        tables = ["papers", *_BY_ID, "notes", "tags", "seen"]
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            marks = ",".join("?" * len(chunk))
            sql = " UNION ".join(f"SELECT id FROM {t} WHERE id IN ({marks})" for t in tables)
            found += [pid for (pid,) in self._conn.execute(sql, chunk * len(tables))]
        return found


def _saved(row: dict[str, object]) -> SavedPaper:
    real = row.get("real_title")
    year = row.get("year")
    return SavedPaper(
        id=str(row["id"]),
        title=str(row["title"]),
        abstract=str(row["abstract"]),
        collections=json.loads(str(row["collections"])),
        urls=json.loads(str(row["urls"])),
        has_real_title=None if real is None else bool(real),
        authors=json.loads(str(row.get("authors") or "[]")),
        venue=str(row.get("venue") or ""),
        year=year if isinstance(year, int) else None,
        source=str(row.get("source") or ""),
    )


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


def _rekey(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Move every row of paper `old` to `new`, merging with what `new` has; nothing is lost
    (two notes are joined), and `old` stays findable through `aliases`."""
    if old == new:
        return
    for table, merge in _BY_ID.items():
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")][1:]
        listed = ", ".join(columns)
        conn.execute(
            f"INSERT INTO {table} (id, {listed}) SELECT ?, {listed} FROM {table} WHERE id = ? "
            f"ON CONFLICT(id) DO UPDATE SET {merge}",
            (new, old),
        )
        conn.execute(f"DELETE FROM {table} WHERE id = ?", (old,))
    notes = dict(conn.execute("SELECT id, text FROM notes WHERE id IN (?, ?)", (old, new)))
    if old in notes:
        text = notes[old]
        if new in notes and notes[new].strip() != text.strip():
            text = notes[new].rstrip() + "\n\n" + text
        conn.execute(
            "INSERT OR REPLACE INTO notes SELECT ?, ?, updated FROM notes WHERE id = ?",
            (new, text, old),
        )
        conn.execute("DELETE FROM notes WHERE id = ?", (old,))
    conn.execute(
        "INSERT OR IGNORE INTO tags SELECT ?, tag, added FROM tags WHERE id = ?", (new, old)
    )
    conn.execute("DELETE FROM tags WHERE id = ?", (old,))
    conn.execute(
        "INSERT OR IGNORE INTO seen SELECT source, ?, first_seen FROM seen WHERE id = ?", (new, old)
    )
    conn.execute("DELETE FROM seen WHERE id = ?", (old,))
    if conn.execute("SELECT 1 FROM papers WHERE id = ?", (new,)).fetchone():
        conn.execute("DELETE FROM papers WHERE id = ?", (old,))
    else:
        conn.execute("UPDATE papers SET id = ? WHERE id = ?", (new, old))
    now = time.time()
    conn.execute("UPDATE aliases SET new = ? WHERE new = ?", (new, old))
    conn.execute("INSERT OR REPLACE INTO aliases VALUES (?, ?, ?)", (old, new, now))


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring an older store up to SCHEMA_VERSION, in one transaction (two papertuis opening an
    old store at once: the second finds it done). A newer store is left as it is."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is not None and int(row[0]) >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or int(row[0]) < 2:
            _to_schema_2(conn)
        # schema 3 only adds the seeds table, which _SCHEMA creates (IF NOT EXISTS)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _to_schema_2(conn: sqlite3.Connection) -> None:
    from papertui.core.titles import derive_title

    have = {r[1] for r in conn.execute("PRAGMA table_info(papers)")}
    for name, kind in _PAPER_COLUMNS:
        if name not in have:
            conn.execute(f"ALTER TABLE papers ADD COLUMN {name} {kind}")
    rows = conn.execute("SELECT id, title, abstract FROM papers").fetchall()
    for pid, title, abstract in rows:
        # a title that is what papertui derives from the abstract was derived; others stay
        # unknown until the paper is seen again (`Store.reconcile`)
        derived = derive_title(abstract)
        if title == derived or title.startswith(derived + " ["):
            conn.execute("UPDATE papers SET real_title = 0 WHERE id = ?", (pid,))
        new = paper_id(abstract)
        if new != pid:
            _rekey(conn, pid, new)


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
