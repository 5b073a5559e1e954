"""The store's tables, and bringing an older store up to today's schema.

Schema 2 (from 1): the saved copy keeps the metadata (`real_title`, `authors`, `venue`, `year`,
`source`; old rows get them the next time their paper is seen, see `Store.reconcile`), a
`feedback` table, and ids that decode LaTeX (`identity_text`): rows under an id computed the old
way are moved to the new id and the old one kept in `aliases`.

Schema 3 (from 2): a `seeds` table, abstracts the user gave as examples of what they want to
read (`papertui like FILE`) that are not in their library; `reset_feedback` clears them too.
"""

from __future__ import annotations

import sqlite3
import time

from papertui.core.corpus import paper_id

SCHEMA_VERSION = 3

SCHEMA = """
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
PAPER_COLUMNS = (
    ("real_title", "INTEGER"),
    ("authors", "TEXT NOT NULL DEFAULT '[]'"),
    ("venue", "TEXT NOT NULL DEFAULT ''"),
    ("year", "INTEGER"),
    ("source", "TEXT NOT NULL DEFAULT ''"),
)
# Tables keyed by paper id, and how two rows for one paper merge when an id changes.
BY_ID = {
    "bookmarks": "created = min(created, excluded.created)",
    "reads": "read_at = min(read_at, excluded.read_at)",
    "feedback": "value = value",  # the newer id's verdict stands
}


def rekey(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Move every row of paper `old` to `new`, merging with what `new` has; nothing is lost
    (two notes are joined), and `old` stays findable through `aliases`."""
    if old == new:
        return
    for table, merge in BY_ID.items():
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


def migrate(conn: sqlite3.Connection) -> None:
    """Bring an older store up to SCHEMA_VERSION, in one transaction (two papertuis opening an
    old store at once: the second finds it done). A newer store is left as it is."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is not None and int(row[0]) >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or int(row[0]) < 2:
            to_schema_2(conn)
        # schema 3 only adds the seeds table, which SCHEMA creates (IF NOT EXISTS)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def to_schema_2(conn: sqlite3.Connection) -> None:
    from papertui.core.titles import derive_title

    have = {r[1] for r in conn.execute("PRAGMA table_info(papers)")}
    for name, kind in PAPER_COLUMNS:
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
            rekey(conn, pid, new)
