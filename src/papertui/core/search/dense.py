"""The postings of a segment's common words kept a second time, as plain arrays beside the
segment (`<segment id>.dense`), so that a query of common words reads them with one slice.

Whoosh stores postings in blocks of 128, each pickled and compressed: reading a word that half
of a million papers hold means undoing 4,000 blocks (0.4 s), every time a search needs it. The
fast writer has each word's postings in arrays when it writes them; for the words held by at
least `DENSE_FROM` papers of the segment it also writes the document numbers (uint32) and the
weights (float32, as Whoosh stores them, so the scores are the same to the bit).

The file is named as Whoosh names a segment's files, so Whoosh deletes it with its segment.
A segment without one (written by Whoosh's own writer, or a file that does not read back) is
read from its blocks as before. A segment's deletions are kept in the index's table of
contents, not in its files, and are masked out after reading, as for the blocks.

Layout: the arrays, one term after another, then a JSON table of term -> [offset, count] and
its length (8 bytes) and `MAGIC`.
"""

from __future__ import annotations

import json
import mmap
import struct
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import numpy as np

# Words held by fewer papers of a segment are cheap to read from Whoosh's blocks (16 blocks).
DENSE_FROM = 2048
MAGIC = b"PTDENSE1"
_TAIL = struct.Struct("<Q8s")  # the table's length, MAGIC


def path_for(folder: str | Path, segment_id: str) -> Path:
    return Path(folder) / f"{segment_id}.dense"


class DenseWriter:
    """Writes one segment's file as its terms go by (in any order)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._out: BinaryIO | None = None
        self._table: dict[str, dict[str, list[int]]] = {}
        self._offset = 0

    def add(self, fieldname: str, tbytes: bytes, docs: array, weights: array) -> None:
        count = len(docs)
        if count < DENSE_FROM:
            return
        try:
            text = tbytes.decode("utf-8")
        except UnicodeDecodeError:  # a number or a date: queried through Whoosh, never here
            return
        if self._out is None:
            self._out = self._path.open("wb")
        ids = docs if docs.typecode == "I" and docs.itemsize == 4 else array("I", docs)
        self._out.write(ids.tobytes())
        self._out.write(array("f", weights).tobytes())
        self._table.setdefault(fieldname, {})[text] = [self._offset, count]
        self._offset += 8 * count

    def close(self) -> None:
        if self._out is None:
            return
        table = json.dumps(self._table, ensure_ascii=False).encode("utf-8")
        self._out.write(table)
        self._out.write(_TAIL.pack(len(table), MAGIC))
        self._out.close()
        self._out = None

    def cancel(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
            self._path.unlink(missing_ok=True)


class DenseReader:
    """One segment's file, mapped; `None` from `open` when there is none or it does not read."""

    def __init__(self, mapped: mmap.mmap, table: dict[str, dict[str, list[int]]]) -> None:
        self._mapped = mapped
        self._table = table

    @classmethod
    def open(cls, path: Path) -> DenseReader | None:
        try:
            with path.open("rb") as handle:
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # no file, or an empty one
            return None
        try:
            size = len(mapped)
            length, magic = _TAIL.unpack_from(mapped, size - _TAIL.size)
            start = size - _TAIL.size - length
            if magic != MAGIC or start < 0:
                raise ValueError
            table = json.loads(bytes(mapped[start : size - _TAIL.size]))
            if not isinstance(table, dict):
                raise ValueError
        except (struct.error, ValueError):
            mapped.close()
            return None
        return cls(mapped, table)

    def postings(self, fieldname: str, text: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A term's document numbers (int64) and weights (float64), or None if not kept."""
        import numpy as np

        found: Any = self._table.get(fieldname, {}).get(text)
        if found is None:
            return None
        offset, count = found
        ids = np.frombuffer(self._mapped, np.uint32, count, offset)
        weights = np.frombuffer(self._mapped, np.float32, count, offset + 4 * count)
        return ids.astype(np.int64), weights.astype(np.float64)
