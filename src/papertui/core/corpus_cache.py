"""The parsed corpus, cached next to its index, so a warm start does not re-read the dumps.

Parsing 100 MB of JSON, CSV or BibTeX and hashing every abstract costs seconds; reading back
what it gave costs a fraction of that. The cache is one file: a header, the papers' fields and
the file reports (marshal: fast, and only ever read back by papertui from its own cache dir),
then every abstract as UTF-8, one after another. The abstracts are not read back: the file is
mapped and each paper keeps its abstract's number (`Paper.keep_abstract_in`), so their text
costs memory only for the rows and papers shown, and the kernel may drop those pages again.

The cache is used only when every corpus file has the size and mtime it had when the cache was
written (and the same files are named, in the same format); anything else reads the dumps.
"""

from __future__ import annotations

import bisect
import contextlib
import marshal
import mmap
import os
import struct
import sys
from array import array
from collections.abc import Sequence
from pathlib import Path

from papertui.core.corpus import (
    AUTHOR_SEPARATOR,
    Corpus,
    FileReport,
    Paper,
    expand_paths,
    load_corpus,
)

MAGIC = b"papertui-corpus\n"
VERSION = 3
_HEADER = struct.Struct("<16sIQ")  # magic, version, length of the marshalled part


def corpus_stats(paths: Sequence[str | Path]) -> list[list[object]]:
    """Which files the paths name, with their size and mtime: the cache's key."""
    stats: list[list[object]] = []
    for f in expand_paths(paths, []):
        with contextlib.suppress(OSError):
            st = f.stat()
            stats.append([str(f.resolve()), st.st_size, st.st_mtime_ns])
    return stats


class MappedTexts:
    """Abstracts in a mapped cache file: `text(n)` decodes the n-th one."""

    def __init__(self, data: mmap.mmap | bytes, start: int, offsets: array[int]) -> None:
        self._data = data
        self._start = start
        self._offsets = offsets

    def text(self, n: int) -> str:
        a, b = self._offsets[n], self._offsets[n + 1]
        return self._data[self._start + a : self._start + b].decode("utf-8", "surrogatepass")

    def numbers_containing(self, chars: str) -> set[int]:
        """The abstracts holding any of the ASCII `chars`: a byte search per character (an
        ASCII byte in UTF-8 is always that character), jumping to the next abstract at each
        hit. ~20 ms a character over 100 MB."""
        offsets, start, data = self._offsets, self._start, self._data
        end = start + offsets[-1]
        found: set[int] = set()
        for char in chars.encode("ascii"):
            needle = bytes([char])
            pos = data.find(needle, start, end)
            while pos >= 0:
                n = bisect.bisect_right(offsets, pos - start) - 1
                found.add(n)
                pos = data.find(needle, start + offsets[n + 1], end)
        return found


def load_corpus_cached(
    paths: Sequence[str | Path], forced: str | None, cache_file: Path
) -> tuple[Corpus, bool]:
    """The corpus of `paths`: from `cache_file` when it is current, else read from the files
    (and the cache written for next time). The flag says whether the cache was used."""
    stats = corpus_stats(paths)
    corpus = read_cache(cache_file, stats, forced)
    if corpus is not None:
        return corpus, True
    corpus = load_corpus(paths, forced)
    if corpus.papers and write_cache(cache_file, corpus, stats, forced):
        # the papers read their abstracts from the file just written, as after a warm start
        opened = _open(cache_file, stats, forced)
        if opened is not None:
            texts = opened[1]
            for n, paper in enumerate(corpus.papers):
                paper.keep_abstract_in(texts, n)
            release_freed_memory()
    return corpus, False


def release_freed_memory() -> None:
    """Hand memory freed inside the heap back to the system (glibc keeps it otherwise: the
    parsed abstracts just dropped are ~150 MB at 100,000 papers). No-op elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl): nothing to do
        pass


def write_cache(
    cache_file: Path, corpus: Corpus, stats: list[list[object]], forced: str | None
) -> bool:
    """Write the cache atomically (a reader sees the old file or the new). False if it could
    not be written: the cache is an optimisation, never a reason to fail."""
    offsets = array("Q", [0])
    blobs: list[bytes] = []
    total = 0
    records = []
    numbers: dict[str, int] = {}  # collections, sources, venues: few distinct values
    for p in corpus.papers:
        blob = p.abstract.encode("utf-8", "surrogatepass")
        blobs.append(blob)
        total += len(blob)
        offsets.append(total)
        records.append(
            (
                p.id,
                tuple(numbers.setdefault(c, len(numbers)) for c in p.collections),
                numbers.setdefault(p.source, len(numbers)),
                p._title,
                p.has_real_title,
                p._extra_url,
                _joined(p.authors),
                numbers.setdefault(p.venue, len(numbers)),
                p.year,
            )
        )
    head = marshal.dumps(
        {
            "version": VERSION,
            "format": forced or "",
            "stats": stats,
            "files": [(f.path, f.format, f.collection, f.papers, f.skipped) for f in corpus.files],
            "errors": corpus.errors,
            "warnings": corpus.warnings,
            "papers": records,
            "strings": list(numbers),
            "offsets": offsets.tobytes(),
        }
    )
    tmp = cache_file.with_name(f".{cache_file.name}-{os.getpid()}")
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            handle.write(_HEADER.pack(MAGIC, VERSION, len(head)))
            handle.write(head)
            handle.writelines(blobs)
        os.replace(tmp, cache_file)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True


def read_cache(cache_file: Path, stats: list[list[object]], forced: str | None) -> Corpus | None:
    """The cached corpus if `cache_file` is current for `stats` (and format), else None."""
    opened = _open(cache_file, stats, forced)
    if opened is None:
        return None
    head, texts = opened
    papers = _papers(head["papers"], head["strings"], texts)
    files = [FileReport(*f) for f in head["files"]]
    return Corpus(papers=papers, files=files, errors=head["errors"], warnings=head["warnings"])


def _open(
    cache_file: Path, stats: list[list[object]], forced: str | None
) -> tuple[dict, MappedTexts] | None:  # type: ignore[type-arg]
    try:
        with open(cache_file, "rb") as handle:
            data: mmap.mmap | bytes
            try:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # an empty file, or no mmap here
                data = handle.read()
        magic, version, length = _HEADER.unpack_from(data, 0)
        if magic != MAGIC or version != VERSION:
            return None
        head = marshal.loads(data[_HEADER.size : _HEADER.size + length])
    except (OSError, ValueError, EOFError, TypeError, struct.error):
        return None
    if (
        not isinstance(head, dict)
        or head.get("version") != VERSION
        or head.get("format") != (forced or "")
        or head.get("stats") != stats
    ):
        return None
    offsets = array("Q")
    offsets.frombytes(head["offsets"])
    if len(offsets) != len(head["papers"]) + 1 or offsets[-1] + _HEADER.size + length > len(data):
        return None  # cut short: read the dumps
    return head, MappedTexts(data, _HEADER.size + length, offsets)


def _papers(records: list[tuple], strings: list[str], texts: MappedTexts) -> list[Paper]:  # type: ignore[type-arg]
    """Papers from cached records; collections, sources and venues are numbers into `strings`,
    so each distinct one is a single string in memory."""
    papers: list[Paper] = []
    append = papers.append
    for n, (pid, collections, source, title, real, url, authors, venue, year) in enumerate(records):
        paper = Paper(
            pid,
            "",
            [strings[c] for c in collections],
            strings[source],
            title=title,
            has_real_title=real,
            extra_url=url,
            venue=strings[venue],
            year=year,
        )
        paper._authors = authors  # one string: split when shown (500,000 fewer objects)
        paper._abstract = n
        paper._store = texts
        append(paper)
    return papers


def _joined(authors: tuple[str, ...]) -> str | tuple[str, ...]:
    """The names as one string when the separator cannot be confused with a name's text."""
    if any(AUTHOR_SEPARATOR in name for name in authors) or "" in authors:
        return tuple(authors)
    return AUTHOR_SEPARATOR.join(authors)
