"""The fast writer's postings (`fastwriter`): kept by field and term as they arrive, with the
positions of a word seen once shared, and written block by block through Whoosh's own block
writer."""

from __future__ import annotations

from array import array
from pickle import dumps
from typing import Any

from whoosh.codec import whoosh3
from whoosh.system import pack_uint
from whoosh.util.numeric import byte_to_length

# per term: document numbers, weights, encoded values (b"" for none)
Postings = tuple[array, array, list]


class Pool:
    """Stands in for Whoosh's posting pool: the postings are kept by field and term."""

    def __init__(self) -> None:
        self.fieldnames: set[str] = set()
        self.terms: dict[str, dict[bytes, Postings]] = {}

    def field(self, fieldname: str) -> dict[bytes, Postings]:
        """The postings of `fieldname`'s terms, to add to."""
        self.fieldnames.add(fieldname)
        return self.terms.setdefault(fieldname, {})

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        fieldname, tbytes, docnum, weight, vbytes = item
        terms = self.field(fieldname)
        postings = terms.get(tbytes)
        if postings is None:
            postings = terms[tbytes] = (array("I"), array("d"), [])
        postings[0].append(docnum)
        postings[1].append(weight)
        postings[2].append(vbytes or b"")

    def cleanup(self) -> None:
        self.terms.clear()


# positions of a word seen once, encoded as Whoosh's Positions format does, by position
_ONCE: dict[int, bytes] = {}
_ONCE_VALUES: dict[bytes, bytes] = {}  # the same objects, by value


def shared(value: bytes) -> bytes:
    """The object `_ONCE` holds for this value, if it holds one (for postings read back)."""
    return _ONCE_VALUES.get(value, value)


def encode_positions(positions: list[int]) -> bytes:
    if len(positions) == 1:
        pos = positions[0]
        found = _ONCE.get(pos)
        if found is None:
            found = _ONCE[pos] = pack_uint(1) + dumps([pos], 2)
            _ONCE_VALUES[found] = found
        return found
    deltas = [positions[0]]
    deltas += [b - a for a, b in zip(positions, positions[1:], strict=False)]
    return pack_uint(len(deltas)) + dumps(deltas, 2)


def field_lengths(pdr: Any, fieldname: str, doccount: int) -> list[int]:
    """Each document's length of the field as the segment stores it (0: none), for the
    blocks' shortest and longest; what `doc_field_length` answers, all at once."""
    column = None
    if pdr is not None:
        column = pdr._cached_reader(whoosh3._lenfield(fieldname), whoosh3.LENGTHS_COLUMN)
    if column is None:
        return [0] * doccount
    table = [0] + [byte_to_length(b) for b in range(1, 256)]
    return [table[column[d]] for d in range(doccount)]


def write_postings(pw: Any, postings: Postings, lengths: list[int]) -> None:
    """One term's postings, block by block, as `add_posting` would have buffered them."""
    docs, weights, values = postings
    limit = pw._blocklimit
    total = len(docs)
    for start in range(0, total, limit):
        if start:
            pw._write_block()
        end = start + limit
        ids = docs[start:end]
        block_weights = weights[start:end]
        pw._ids = ids
        pw._weights = array("f", block_weights)
        pw._values = [v for v in values[start:end] if v]
        pw._maxweight = max(0, max(block_weights))
        block_lengths = [lengths[d] for d in ids]
        nonzero = [n for n in block_lengths if n]
        pw._minlength = min(nonzero) if nonzero else None
        pw._maxlength = max(0, max(block_lengths))
