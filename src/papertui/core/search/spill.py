"""Postings of a large segment kept on disk while it is written, so that a writer's memory
stays that of `SPILL_DOCS` papers however many it is given.

The fast writer keeps each term's postings in memory until the segment is written: about
8 KB a paper, 4 GB for each half of a million abstracts. Every `SPILL_DOCS` papers its pool
is written out as a run (terms in order, each with its postings as raw arrays), and when the
segment is written the runs and what is still in memory are merged term by term. Document
numbers only grow, so a term's postings are its runs' postings one after another: the segment
is the one a single pool would have written.
"""

from __future__ import annotations

import heapq
import os
import struct
import tempfile
from array import array
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

# Papers whose postings are held in memory at a time (~6 KB each on arXiv abstracts: a
# writer of 120,000 papers levels off at 315 MiB with 20,000, at 437 MiB with 40,000).
SPILL_DOCS = 20_000
_HEAD = struct.Struct("<HHII")  # field name length, term length, postings, values' bytes

Postings = tuple[array, array, list]  # type: ignore[type-arg]
Entry = tuple[str, bytes, Postings]


class Runs:
    """The runs written so far, in a scratch directory beside the segment."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.paths: list[Path] = []

    def spill(self, terms: dict[str, dict[bytes, Postings]]) -> None:
        """Write a pool's postings as one run (and empty the pool)."""
        fd, name = tempfile.mkstemp(prefix=".run-", dir=self.where)
        self.paths.append(Path(name))
        with os.fdopen(fd, "wb", buffering=1 << 20) as out:
            for fieldname in sorted(terms):
                field = terms[fieldname]
                fbytes = fieldname.encode("utf-8")
                for tbytes in sorted(field):
                    _write_entry(out, fbytes, tbytes, field[tbytes])
                field.clear()
        terms.clear()

    def merged(
        self, terms: dict[str, dict[bytes, Postings]], shared: Callable[[bytes], bytes]
    ) -> Iterator[Entry]:
        """Every (field, term, postings) of the runs and of `terms` (the pool's rest), in
        order, each term's postings in document order. `shared` gives a value read back the
        object the pool shares for it, if any (Whoosh's blocks pickle a repeated object as a
        reference: the same objects give the same bytes)."""
        sources: list[Iterator[Entry]] = [_read_run(p, shared) for p in self.paths]
        sources.append(_in_memory(terms))
        current: tuple[str, bytes] | None = None
        parts: list[Postings] = []
        for fieldname, tbytes, postings in heapq.merge(*sources, key=lambda e: (e[0], e[1])):
            if (fieldname, tbytes) != current:
                if current is not None:
                    yield current[0], current[1], _joined(parts)
                current, parts = (fieldname, tbytes), []
            parts.append(postings)
        if current is not None:
            yield current[0], current[1], _joined(parts)

    def close(self) -> None:
        for path in self.paths:
            path.unlink(missing_ok=True)
        self.paths = []


def _write_entry(out: BinaryIO, fbytes: bytes, tbytes: bytes, postings: Postings) -> None:
    docs, weights, values = postings
    sizes = array("I", map(len, values))
    blob = b"".join(values)
    out.write(_HEAD.pack(len(fbytes), len(tbytes), len(docs), len(blob)))
    out.write(fbytes)
    out.write(tbytes)
    out.write(docs.tobytes())
    out.write(array("d", weights).tobytes())
    out.write(sizes.tobytes())
    out.write(blob)


def _read_run(path: Path, shared: Callable[[bytes], bytes]) -> Iterator[Entry]:
    with open(path, "rb", buffering=1 << 20) as run:
        while head := run.read(_HEAD.size):
            flen, tlen, count, vlen = _HEAD.unpack(head)
            fieldname = run.read(flen).decode("utf-8")
            tbytes = run.read(tlen)
            docs, weights, sizes = array("I"), array("d"), array("I")
            docs.frombytes(run.read(4 * count))
            weights.frombytes(run.read(8 * count))
            sizes.frombytes(run.read(4 * count))
            blob = run.read(vlen)
            values: list[bytes] = []
            start = 0
            for size in sizes:
                values.append(shared(blob[start : start + size]))
                start += size
            yield fieldname, tbytes, (docs, weights, values)


def _in_memory(terms: dict[str, dict[bytes, Postings]]) -> Iterator[Entry]:
    for fieldname in sorted(terms):
        field = terms[fieldname]
        for tbytes in sorted(field):
            yield fieldname, tbytes, field.pop(tbytes)


def _joined(parts: list[Postings]) -> Postings:
    if len(parts) == 1:
        return parts[0]
    docs, weights, values = array("I"), array("d"), []
    for d, w, v in parts:
        docs.extend(d)
        weights.extend(w)
        values.extend(v)
    return docs, weights, values
