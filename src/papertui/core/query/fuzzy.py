"""Typo-forgiving matching over short fields (titles), with rapidfuzz.

Whole abstracts rank badly under fuzzy matching and are slow; titles carry the names people half
remember ("cdflw", "nporop"), so this is where typos are forgiven. Scoring every title costs
~65 ms a keystroke at 100,000 papers, so large lists are first narrowed with a trigram index
(as PostgreSQL's pg_trgm does): a title within a few typos of the query shares most of its
trigrams, so it must contain at least one of the query's rarest few.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import mmap
import os
import struct
from array import array
from collections.abc import Collection, Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, overload

from rapidfuzz import fuzz, process, utils

if TYPE_CHECKING:
    from papertui.core.corpus.paper import Paper

MIN_QUERY = 3
CUTOFF = 80.0
# Up to this many titles, scoring all of them is faster than consulting trigrams.
SCAN_ALL_UP_TO = 3000
# From this many titles the trigram index is built with numpy (`trigram_build`, three times
# faster), which the reader of a smaller library never needs to import.
NUMPY_FROM = 20_000
_SAVED_VERSION = 2  # 2: the postings and the processed titles are mapped from the file
_LENGTH = struct.Struct("<Q")  # the length of the marshalled head that starts a saved index


def _aligned(offset: int) -> int:
    return (offset + 7) // 8 * 8


class MappedTitles(Sequence[str]):
    """Processed titles in a saved index, decoded one at a time when a query scores them."""

    def __init__(self, data: mmap.mmap, start: int, bounds: memoryview) -> None:
        self._data, self._start, self._bounds = data, start, bounds

    def __len__(self) -> int:
        return len(self._bounds) - 1

    @overload
    def __getitem__(self, n: int) -> str: ...
    @overload
    def __getitem__(self, n: slice) -> list[str]: ...
    def __getitem__(self, n: int | slice) -> str | list[str]:
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(len(self)))]
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(n)
        a, b = self._start + self._bounds[n], self._start + self._bounds[n + 1]
        return self._data[a:b].decode("utf-8", "surrogatepass")

    def __iter__(self) -> Iterator[str]:
        return self.at(range(len(self)))

    def at(self, positions: Iterable[int]) -> Iterator[str]:
        """The titles at `positions` (each in range), without `__getitem__`'s checks: a query
        reads tens of thousands of them, and the checks were half of a keystroke's time."""
        data, start, bounds = self._data, self._start, self._bounds
        it = iter(positions)
        while batch := list(islice(it, 512)):  # a comprehension's loop: no yield per title
            yield from [
                data[start + bounds[n] : start + bounds[n + 1]].decode("utf-8", "surrogatepass")
                for n in batch
            ]


def _trigrams(text: str) -> set[str]:
    # unpadded: the query may match anywhere inside a title, not only at a word's start
    return {text[i : i + 3] for i in range(len(text) - 2)}


def _saved_count(path: Path) -> int | None:
    """How many titles the index saved at `path` is for (None: none saved, or unreadable)."""
    try:
        with open(path, "rb") as handle:
            (length,) = _LENGTH.unpack(handle.read(_LENGTH.size))
            if length > os.fstat(handle.fileno()).st_size:  # a damaged file
                return None
            head = marshal.loads(handle.read(length))
        count = head["titles"]
    except (OSError, ValueError, EOFError, TypeError, KeyError, struct.error):
        return None
    return count if isinstance(count, int) else None


def _typos_allowed(length: int) -> int:
    return 1 if length <= 12 else 2


class PaperTitles(Collection[str]):
    """The papers' titles, read from each paper when asked (not held: see `TitleMatcher`)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers

    def __len__(self) -> int:
        return len(self._papers)

    def __iter__(self) -> Iterator[str]:
        return (p.title for p in self._papers)

    def __contains__(self, title: object) -> bool:
        return any(title == t for t in self)


class TitleMatcher:
    """Fuzzy lookup of a query among titles; indices refer to the sequence given.

    The trigram index is compact (every title number of every trigram in one array, with
    offsets; ~30 MB at 100,000 titles) and can be saved: building it costs seconds of Python at
    that size, loading it back a few milliseconds, so a warm start reuses the one saved for the
    same titles. Once saved, its postings and the processed titles are read from the mapped
    file rather than held (`MappedTitles`).
    """

    def __init__(self, titles: Collection[str]) -> None:
        # processed when first needed: a warm start hashes them one at a time and maps the
        # saved index's own (a million titles read from the corpus cache, then processed,
        # were 260 MB more at the reader's peak when held as lists)
        self._given = titles
        self._processed: Sequence[str] | None = None
        self._slots: dict[str, int] | None = None  # trigram -> its number
        self._offsets = array("I")  # postings of trigram n: _postings[_offsets[n]:_offsets[n+1]]
        self._postings: array[int] | memoryview = array("I")

    @property
    def _titles(self) -> Sequence[str]:
        if self._processed is None:
            self._processed = [utils.default_process(t) for t in self._given]
        return self._processed

    def prepare(self, saved: Path | None = None) -> None:
        """Build the trigram index now (seconds at 100,000 titles), not on a keystroke; with
        `saved`, load it from there when it was saved for these titles, or extend it when it
        was saved for this list's first titles (papers appended), else save it there."""
        if len(self._given) <= SCAN_ALL_UP_TO or self._slots is not None:
            return
        # saved for fewer titles: extended if those are this list's first, whose hash is taken
        # on the way (one pass over a million titles is 2 s)
        earlier = _saved_count(saved) if saved is not None else None
        # an index saved for another count cannot be loaded: extending or building needs
        # every processed title, kept from the same pass
        keys = self._keys(len(self._given), earlier, keep=earlier != len(self._given))
        key = keys[len(self._given)]
        if saved is not None and self._load(saved, key):
            return
        if (
            saved is not None
            and earlier
            and earlier < len(self._given)
            and self._load(saved, keys[earlier], earlier)
        ):
            self._extend(earlier)
        else:
            self._index()
        if saved is not None:
            self._save(saved, key)

    def _keys(self, count: int, also: int | None = None, keep: bool = False) -> dict[int, bytes]:
        """The hash of the first `count` titles joined by newlines, and of the first `also`
        (when fewer), a title at a time (joined, a million titles were 300 MB more at the
        reader's peak). With `keep`, the processed titles are kept as they go."""
        hasher = hashlib.blake2b(digest_size=16)
        keys: dict[int, bytes] = {}
        kept: list[str] | None = [] if keep and self._processed is None else None
        titles: Iterable[str] = (
            (utils.default_process(t) for t in islice(self._given, count))
            if self._processed is None
            else islice(self._processed, count)
        )
        for n, title in enumerate(titles):
            if n == also:
                keys[n] = hasher.digest()
            if n:
                hasher.update(b"\n")
            hasher.update(title.encode("utf-8", "surrogatepass"))
            if kept is not None:
                kept.append(title)
        keys[count] = hasher.digest()
        if kept is not None and len(kept) == len(self._given):
            self._processed = kept
        return keys

    def _load(self, path: Path, key: bytes, count: int | None = None) -> bool:
        """Map the index saved at `path` for titles of `key`: its postings and the processed
        titles stay in the page cache, not in this process' own memory (at a million titles
        they are 300 MB and 130 MB). With `count`, the index of this list's first `count`
        titles, to extend (the titles themselves stay those given)."""
        try:
            with open(path, "rb") as handle:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            (length,) = _LENGTH.unpack_from(data, 0)
            head = marshal.loads(data[_LENGTH.size : _LENGTH.size + length])
            if head["version"] != _SAVED_VERSION or head["key"] != key:
                return False
            grams, n_postings, n_titles = head["grams"], head["postings"], head["titles"]
            start = _aligned(_LENGTH.size + length)
            view = memoryview(data)
            postings = view[start : start + 4 * n_postings].cast("I")
            start += 4 * n_postings
            bounds = view[start : start + 8 * (n_titles + 1)].cast("Q")
            start += 8 * (n_titles + 1)
            texts = MappedTitles(data, start, bounds)
            offsets = array("I")
            offsets.frombytes(head["offsets"])
        except (OSError, ValueError, EOFError, TypeError, KeyError, struct.error):
            return False
        if (
            len(offsets) != len(grams) + 1
            or offsets[-1] != len(postings)
            or n_titles != (len(self._given) if count is None else count)
            or bounds[-1] + start > len(data)
        ):
            return False
        self._slots = {gram: n for n, gram in enumerate(grams)}
        self._offsets, self._postings = offsets, postings
        if count is None:
            self._processed = texts
        return True

    def _extend(self, start: int) -> None:
        """Add the titles from `start` on to the index loaded for those before it (10,000
        papers appended to a million: the index of all of them took 24 s to build again)."""
        assert self._slots is not None
        added: dict[str, array[int]] = {}
        for i in range(start, len(self._titles)):
            for gram in _trigrams(self._titles[i]):
                postings = added.get(gram)
                if postings is None:
                    postings = added[gram] = array("I")
                postings.append(i)
        old, old_offsets = self._postings, self._offsets
        flat, offsets = array("I"), array("I", [0])
        for n, gram in enumerate(self._slots):
            flat.frombytes(old[old_offsets[n] : old_offsets[n + 1]].tobytes())
            more = added.pop(gram, None)
            if more is not None:
                flat.extend(more)
            offsets.append(len(flat))
        for gram, more in added.items():  # trigrams no earlier title has
            self._slots[gram] = len(self._slots)
            flat.extend(more)
            offsets.append(len(flat))
        self._offsets, self._postings = offsets, flat

    def _save(self, path: Path, key: bytes) -> None:
        """Write the index and the processed titles for `_load` (atomically), then map them."""
        assert self._slots is not None
        bounds, total = array("Q", [0]), 0
        for title in self._titles:  # measured here, encoded as written (not held: 100 MB)
            total += len(title) if title.isascii() else len(title.encode("utf-8", "surrogatepass"))
            bounds.append(total)
        head = marshal.dumps(
            {
                "version": _SAVED_VERSION,
                "key": key,
                "grams": list(self._slots),
                "offsets": self._offsets.tobytes(),
                "postings": len(self._postings),
                "titles": len(self._titles),
            }
        )
        tmp = path.with_name(f".{path.name}-{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as out:
                out.write(_LENGTH.pack(len(head)) + head)
                out.write(bytes(_aligned(out.tell()) - out.tell()))
                out.write(self._postings)  # its buffer: a copy was the build's peak
                out.write(bounds)
                chunk = bytearray()
                for title in self._titles:
                    chunk += title.encode("utf-8", "surrogatepass")
                    if len(chunk) >= 1 << 20:
                        out.write(chunk)
                        chunk.clear()
                out.write(chunk)
            os.replace(tmp, path)
        except OSError:  # a cache: never a reason to fail
            with contextlib.suppress(OSError):
                tmp.unlink()
            return
        self._load(path, key)

    def _index(self) -> dict[str, int]:
        """Count each trigram's titles, then place every title number at its trigram's next
        free position in one array sized to fit: each title's trigrams are found twice, but the
        postings are never held twice (at a million titles, per-trigram arrays and the flat
        copy of them were 460 MB at the indexing child's peak)."""
        if self._slots is None and len(self._titles) >= NUMPY_FROM:
            from papertui.core.query import trigram_build  # numpy: not on a small reader's path

            with contextlib.suppress(ValueError):  # a NUL in a title: counted here instead
                self._slots, self._offsets, self._postings = trigram_build.build(self._titles)
        if self._slots is None:
            counts: dict[str, int] = {}
            for title in self._titles:
                for gram in _trigrams(title):
                    counts[gram] = counts.get(gram, 0) + 1
            offsets, total = array("I", [0]), 0
            for count in counts.values():
                total += count
                offsets.append(total)
            slots = {gram: n for n, gram in enumerate(counts)}
            del counts
            cursor = array("I", offsets[:-1])
            flat = array("I", bytes(4 * total))
            for i, title in enumerate(self._titles):
                for gram in _trigrams(title):
                    n = slots[gram]
                    flat[cursor[n]] = i
                    cursor[n] += 1
            self._slots = slots
            self._offsets, self._postings = offsets, flat
        return self._slots

    def _count(self, gram: str) -> int:
        n = self._index().get(gram)
        return 0 if n is None else self._offsets[n + 1] - self._offsets[n]

    def _titles_with(self, gram: str) -> array[int] | memoryview:
        n = self._index().get(gram)
        if n is None:
            return array("I")
        return self._postings[self._offsets[n] : self._offsets[n + 1]]

    def candidates(self, needle: str) -> list[int] | None:
        """Titles that can be within a few typos of `needle`; None: consider every title."""
        if len(self._given) <= SCAN_ALL_UP_TO:
            return None
        grams = sorted(_trigrams(needle), key=self._count)
        # a typo breaks at most three trigrams: a close title keeps all but 3*typos of them,
        # so it contains at least one of the rarest 3*typos + 1
        needed = min(len(grams), 3 * _typos_allowed(len(needle)) + 1)
        found: set[int] = set()
        for gram in grams[:needed]:
            found.update(self._titles_with(gram))
        return sorted(found)

    def match(
        self,
        query: str,
        limit: int = 50,
        cutoff: float = CUTOFF,
        among: Collection[int] | None = None,
    ) -> list[tuple[int, float]]:
        """The `limit` titles closest to `query`, best first; with `among`, only those titles
        are considered (a filter's papers), all of them when they are few, as for a short list."""
        needle = utils.default_process(query)
        if len(needle) < MIN_QUERY:
            return []
        if among is not None and len(among) <= SCAN_ALL_UP_TO:
            chosen: list[int] | None = sorted(among)
        else:
            chosen = self.candidates(needle)
            if among is not None:
                chosen = sorted(among) if chosen is None else [i for i in chosen if i in among]
        return closest(needle, self._titles, chosen, limit, cutoff)


def closest(
    needle: str, titles: Sequence[str], chosen: Sequence[int] | None, limit: int, cutoff: float
) -> list[tuple[int, float]]:
    """Fuzzy scores of the processed `needle` against processed `titles` (only the positions
    `chosen`, when given): the best `limit` at `cutoff` or above."""
    if cutoff > 100:
        return []  # no score is above 100
    # the titles are read once, for the whole matches and then for the scoring: a mapped
    # title is decoded on reading, and reading tens of thousands twice was a third of a key
    read: list[str] = []
    exact = _exact(needle, titles, range(len(titles)) if chosen is None else chosen, limit, read)
    if exact is not None:
        return exact
    found = process.extract(
        needle, read, scorer=fuzz.partial_ratio, processor=None, score_cutoff=cutoff, limit=limit
    )
    if chosen is None:
        return [(index, score) for _, score, index in found]
    return [(chosen[index], score) for _, score, index in found]


def _exact(
    needle: str, titles: Sequence[str], chosen: Sequence[int], limit: int, read: list[str]
) -> list[tuple[int, float]] | None:
    """What `closest` gives when `limit` titles hold the needle whole: the first `limit` of
    them, each scoring 100 (a whole match is partial_ratio's 100, its ties come in order).
    None when fewer do; then `read` holds every title of `chosen`, in order. The first
    letters typed match tens of thousands of titles: scoring every one took 60 ms at 87,000
    titles, finding the first fifty that hold it 2 ms."""
    found: list[tuple[int, float]] = []
    short = len(needle)
    keep = read.append
    for i, title in zip(chosen, _at(titles, chosen), strict=True):
        keep(title)
        if needle in title or (len(title) < short and title in needle):
            found.append((i, 100.0))
            if len(found) == limit:
                return found
    return None


def _at(titles: Sequence[str], positions: Iterable[int]) -> Iterator[str]:
    if isinstance(titles, MappedTitles):
        return titles.at(positions)
    return (titles[i] for i in positions)
