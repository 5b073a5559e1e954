"""Building the fuzzy title matcher's trigram index with numpy, for large libraries.

The pure-Python build (`fuzzy.TitleMatcher._index`) found each title's trigrams twice, a set
and a dict lookup per trigram: 35 µs a title, 3 s at 87,000 titles and most of the single-core
tail of a million-paper index build. Here each chunk of titles becomes one array of code points,
each trigram one integer, and the counting and placing are sorts: the same postings (each
trigram's titles in ascending order) in a third of the time (87,000 real titles: 3.0 -> 1.0 s).
Used from `fuzzy.NUMPY_FROM` titles on, so a small library's reader never imports numpy.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence

import numpy as np

# titles encoded at a time: a chunk's arrays stay at a few MB (20,000 at a time added 130 MB
# to the indexing process' peak at 87,000 papers)
CHUNK = 4_000
# while the titles' characters make at most this many possible trigrams (127 characters),
# they are counted in plain arrays (16 MB each); beyond (titles in many scripts), by sorted
# keys, a little slower
DENSE_UP_TO = 1 << 21


def build(titles: Sequence[str]) -> tuple[dict[str, int], array[int], memoryview]:
    """(trigram -> slot, offsets, postings) for the processed `titles`: the titles holding
    trigram number n are postings[offsets[n]:offsets[n + 1]], ascending. Trigrams are taken
    within a title, unpadded, as `fuzzy._trigrams` takes them."""
    # the characters the titles use, numbered from 1 (0: the NUL between two titles); a
    # trigram is then a number under size**3
    alphabet = np.zeros(0, np.int64)
    for points in _points(titles):
        alphabet = _unique(np.concatenate([alphabet, _unique(points)]))
    alphabet = alphabet[alphabet != 0]
    size = len(alphabet) + 1
    space = size**3
    if space * CHUNK >= 1 << 62:
        raise ValueError("too many distinct characters in the titles")
    dense = space <= DENSE_UP_TO
    # first pass: every trigram, and how many titles hold it (twice in a title counts once)
    keys = np.zeros(0, np.int64)  # the trigrams found, ascending (when not dense)
    counts = np.zeros(space if dense else 0, np.int64)
    for numbers, chunk_keys in _chunks(titles, alphabet, size):
        if dense:  # by title first: the pairs come in runs the sort finds
            pairs = _unique(numbers * space + chunk_keys)
            counts += np.bincount(pairs % space, minlength=space)
            continue
        pairs = _unique(chunk_keys * CHUNK + numbers)
        found = pairs // CHUNK
        starts = _run_starts(found)
        found, found_counts = found[starts], np.diff(np.r_[starts, len(pairs)])
        merged = _unique(np.concatenate([keys, found]))
        total = np.zeros(len(merged), np.int64)
        total[np.searchsorted(merged, keys)] += counts
        total[np.searchsorted(merged, found)] += found_counts
        keys, counts = merged, total
    slot_of = None
    if dense:
        keys = np.flatnonzero(counts)
        counts = counts[keys]
        slot_of = np.full(space, -1, np.int64)
        slot_of[keys] = np.arange(len(keys))
    offsets = np.zeros(len(keys) + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    del counts
    # second pass: each title number at its trigram's next free place, chunk after chunk (a
    # chunk's titles follow the earlier chunks', so each trigram's titles stay ascending)
    postings = np.zeros(int(offsets[-1]), np.uint32)
    cursor = offsets[:-1].copy()
    chunks = _chunks(titles, alphabet, size)
    for first, (numbers, chunk_keys) in zip(range(0, len(titles), CHUNK), chunks, strict=True):
        slots = slot_of[chunk_keys] if slot_of is not None else np.searchsorted(keys, chunk_keys)
        pairs = _unique(slots * CHUNK + numbers)  # by trigram, then title
        slots, numbers = pairs // CHUNK, pairs % CHUNK + first
        starts = _run_starts(slots)
        sizes = np.diff(np.r_[starts, len(slots)])
        within = np.arange(len(slots)) - np.repeat(starts, sizes)
        postings[cursor[slots] + within] = numbers
        cursor[slots[starts]] += sizes
    chars = ["", *map(chr, alphabet.tolist())]
    grams = {
        chars[k // (size * size)] + chars[k // size % size] + chars[k % size]: n
        for n, k in enumerate(keys.tolist())
    }
    out_offsets = array("I")
    out_offsets.frombytes(offsets.astype(np.uint32).tobytes())
    return grams, out_offsets, postings.data  # not copied: 240 MB at a million titles


def _points(titles: Sequence[str]) -> Iterator[np.ndarray]:
    """The code points of each chunk of `CHUNK` titles, a NUL between two titles."""
    for first in range(0, len(titles), CHUNK):
        part = titles[first : first + CHUNK]
        if not isinstance(part, list):
            part = list(part)
        # processed titles never hold a NUL (it is not alphanumeric): it parts them here
        text = "\0".join(part)
        if text.count("\0") != len(part) - 1:
            raise ValueError("a title holds a NUL")
        yield np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32).astype(np.int64)


def _chunks(
    titles: Sequence[str], alphabet: np.ndarray, size: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(title number within the chunk, trigram number) of every trigram of each chunk of
    `CHUNK` titles, in order (a trigram twice in a title is there twice)."""
    for points in _points(titles):
        ranks = np.searchsorted(alphabet, points) + 1
        ranks[points == 0] = 0
        a, b, c = ranks[:-2], ranks[1:-1], ranks[2:]
        inside = (a != 0) & (b != 0) & (c != 0)
        numbers = np.cumsum(points == 0)[:-2][inside]
        yield numbers, ((a * size + b) * size + c)[inside]


def _run_starts(values: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted `values` starts."""
    if not len(values):
        return np.zeros(0, np.int64)
    return np.flatnonzero(np.r_[True, values[1:] != values[:-1]])


def _unique(values: np.ndarray) -> np.ndarray:
    """The distinct `values`, ascending. By a stable sort, which finds the runs a chunk's
    pairs come in (numpy's `unique` hashes int64 values: several times slower here)."""
    values = np.sort(values, kind="stable")
    return values[_run_starts(values)]
