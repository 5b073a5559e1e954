"""Field lengths read once per segment, not once per posting.

BM25 needs each matching document's field length, and writing a segment needs
every posting's one. Whoosh 2.7 reads them from the lengths column with a seek and a read for
each document asked (`W3PerDocReader.doc_field_length`), millions of times in a build of
100,000 abstracts. The column is one byte per document, so the whole of it (100 KB per field
at 100,000 papers) is read into an array on first use.

Whoosh is pinned (whoosh-reloaded 2.7.5) and this is the only place that reaches into its
codec; `install()` checks that the method it wraps is the one it expects. It is installed
where an index is opened or written (`SearchIndex`, `write_generation`), never on import.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import Any

from whoosh.codec import whoosh3

_original = whoosh3.W3PerDocReader._cached_reader


class WholeColumn:
    """A lengths column in memory: `[docnum]` as Whoosh's column reader answers it."""

    __slots__ = ("_values", "_count", "_default", "_doccount")

    def __init__(self, reader: Any) -> None:  # Whoosh's column reader: untyped
        count = reader._count
        data = reader._dbfile.get(reader._basepos, count)
        self._values = array("B", data)
        self._count = len(self._values)
        self._default = reader._default
        self._doccount = reader._doccount

    def __getitem__(self, docnum: int) -> int:
        return self._values[docnum] if docnum < self._count else self._default

    def codes(self) -> bytes:
        """Every document's length code, in document order (for reading them all at once)."""
        missing = max(0, self._doccount - self._count)
        return self._values.tobytes()[: self._doccount] + bytes([self._default]) * missing

    def __iter__(self) -> Iterator[int]:  # min and max length of a field
        yield from self._values
        for _ in range(self._count, self._doccount):
            yield self._default


def _cached_reader(self, fieldname, column):  # type: ignore[no-untyped-def]
    reader = _original(self, fieldname, column)
    whole = column is whoosh3.LENGTHS_COLUMN and reader is not None
    if whole and not isinstance(reader, WholeColumn):
        reader = WholeColumn(reader)
        self._readers[fieldname] = reader
    return reader


def install() -> None:
    """Make every per-document reader keep its lengths columns in memory (idempotent)."""
    current = whoosh3.W3PerDocReader._cached_reader
    if current is _cached_reader:
        return
    if current is not _original:  # pragma: no cover - another Whoosh build: leave it alone
        return
    whoosh3.W3PerDocReader._cached_reader = _cached_reader
