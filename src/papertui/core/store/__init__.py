"""User data in SQLite: bookmarks and notes, keyed by paper id, written the moment they change.

A copy of each annotated paper (its text and everything known about it: title, authors, venue,
year, links, collections) is kept so that exports and notes survive the corpus file going away.

The package, by what each module holds: `schema` (tables and migrations), `connection` (the
file, its lock, transactions), `reading` (the in-memory copy and its snapshots), `annotating`
(bookmarks, read, tags, notes), `feedback` (verdicts and seeds), `reconcile` (ids from older
stores), `saved` (the kept copy of a paper), `snapshot` (the values readers get), and
`drafts` (notes being typed, as files). It may import `corpus`, `titles`, `text` and
`system`.
"""

from __future__ import annotations

from papertui.core.store.annotating import Annotating
from papertui.core.store.connection import StoreError
from papertui.core.store.feedback import Feedback
from papertui.core.store.reconcile import Reconciling, _v1_id
from papertui.core.store.saved import SavedPaper
from papertui.core.store.schema import SCHEMA_VERSION
from papertui.core.store.snapshot import LIKED, SKIPPED, UNDECIDED, Annotations, Seed

__all__ = [
    "LIKED",
    "UNDECIDED",
    "SCHEMA_VERSION",
    "SKIPPED",
    "Annotations",
    "SavedPaper",
    "Seed",
    "Store",
    "StoreError",
    "_v1_id",
]


class Store(Annotating, Feedback, Reconciling):
    """Bookmarks and notes. Reads are served from memory; every change goes to disk first."""
