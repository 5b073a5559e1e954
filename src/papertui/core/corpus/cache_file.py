"""One corpus file's cache: where it lives, writing it, and reading it back when it is current.

A cache file is a header, the file's papers' short fields and its report (marshal: fast, and only
ever read back by papertui from its own cache dir), then every abstract as UTF-8, one after
another, then every title, every author list and every paper's links, the same way. Those are
not read back: the file is mapped and each paper keeps its abstract's number
(`Paper.keep_abstract_in`), so their text costs memory only for the rows and papers shown.
A cache is current when the corpus file has the size and mtime it had when the cache was
written, and is read in the same format; anything else (another version, a cut-short or
damaged file) reads as no cache.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import marshal
import mmap
import os
import struct
from array import array
from pathlib import Path
from typing import IO, Protocol

from papertui.core.corpus import AUTHOR_SEPARATOR, FileReport, Paper
from papertui.core.corpus.mapped_pages import release_pages
from papertui.core.corpus.paper import STORED

MAGIC = b"papertui-corpus\n"
VERSION = 37  # 5: a sentence-like first line is an abstract, not a name; 6: title rules;
# 7: BibTeX "#" concatenation; 8, 9: title rules; 10: BibTeX entry type and key; 11: arXiv id,
# categories, upvotes, decisions (`paper_meta`) and every link; 12: ids read TeX typography and
# leave out controls, BibTeX decoded by papertui, derived titles read back; 13: a name line
# loses a trailing "paper list"; 14: a streamed file's digest (what was appended is read alone);
# 15: titles, authors and links mapped like the abstracts; 16: ids of abstracts with a line break
# before a brace in math (`\\{`); 17: title rules; 18: titles up to 100 characters;
# 19-35: title rules; 36: a paragraph or line not in UTF-8 read as cp1252; 37: translations
_HEADER = struct.Struct("<16sIQ")  # magic, version, length of the marshalled part


def file_stat(path: Path) -> list[object]:
    st = path.stat()
    return [str(path.resolve()), st.st_size, st.st_mtime_ns]


def file_digest(path: Path) -> bytes | None:
    """The hash of `path`'s bytes; None if they cannot be read."""
    fed = hashed_prefix(path, None)
    return None if fed is None else fed[0].digest()


def hashed_prefix(path: Path, size: int | None) -> tuple[hashlib.blake2b, bytes] | None:
    """A hash fed with `path`'s first `size` bytes (all of them: None), and the last of those
    bytes; None if that many cannot be read."""
    hasher = new_digest()
    left, last = size, b""
    try:
        with open(path, "rb") as handle:
            while left is None or left > 0:
                block = handle.read(1 << 20 if left is None else min(1 << 20, left))
                if not block:
                    break
                hasher.update(block)
                last = block[-1:]
                if left is not None:
                    left -= len(block)
    except OSError:
        return None
    return None if left else (hasher, last)


def new_digest() -> hashlib.blake2b:
    return hashlib.blake2b(digest_size=16)


# Bytes of abstracts read between two `release_pages`.
RELEASE_EVERY = 32 << 20
# What a read far from the last one counts for besides its bytes: the pages the kernel reads
# ahead around a fault in a mapped file (128 KB by default on Linux).
READ_AHEAD = 128 << 10


class MappedTexts:
    """Abstracts in a mapped cache file: `text(n)` decodes the n-th one. Every
    `RELEASE_EVERY` bytes read, the pages read are let go (`release_pages`)."""

    def __init__(self, data: mmap.mmap | bytes, start: int, offsets: array[int]) -> None:
        self._data = data
        self._start = start
        self._offsets = offsets
        self._read = 0
        self._last = 0  # where the last read ended
        # the file mapped and what it was when mapped (`mapped_from`), for copying through reads
        self._file: tuple[Path, tuple[int, ...]] | None = None
        release_pages(data)  # the head, read as the cache was opened

    def mapped_from(self, path: Path, identity: tuple[int, ...]) -> None:
        """Say which file the texts are mapped from, and its `file_identity` when mapped."""
        self._file = (path, identity)

    def text(self, n: int) -> str:
        return self.raw(n).decode("utf-8", "surrogatepass")

    def raw(self, n: int) -> bytes:
        """The n-th text's UTF-8 bytes."""
        a, b = self._offsets[n], self._offsets[n + 1]
        # a read away from the last one faults in the pages between them, or the kernel's
        # read-ahead around it, not only its own bytes (50,000 abstracts picked across a
        # million left 1.2 GB resident)
        self._read += b - a + min(abs(a - self._last), READ_AHEAD)
        self._last = b
        if self._read > RELEASE_EVERY:
            self._read = 0
            release_pages(self._data)
        return self._data[self._start + a : self._start + b]

    @property
    def offsets(self) -> array[int]:
        """Where each abstract starts among them, and where the last ends."""
        return self._offsets

    def copy_to(self, target: IO[bytes]) -> None:
        """Write every abstract, in order, to `target` (the pages read let go as it goes: at a
        million papers they were 1.3 GB more of the process' resident memory)."""
        self.copy_range(target, 0, len(self._offsets) - 1)

    def copy_range(self, target: IO[bytes], first: int, last: int) -> None:
        """Write texts `first` to `last - 1`, in order, to `target`, a megabyte at a time."""
        begin = self._start + self._offsets[first]
        end = self._start + self._offsets[last]
        if self._copy_read(target, begin, end):
            return
        for at in range(begin, end, 1 << 20):
            target.write(self._data[at : min(at + (1 << 20), end)])
            if (at - begin) % RELEASE_EVERY >= RELEASE_EVERY - (1 << 20):
                release_pages(self._data)
        release_pages(self._data)

    def _copy_read(self, target: IO[bytes], begin: int, end: int) -> bool:
        """Copy bytes `begin` to `end` of the mapped file through plain reads of it, when it is
        still the file mapped (a cache is replaced, never changed in place): a pass through
        the map faults in every page (4 s for 1.3 GB of abstracts, against 0.6 s read).
        False, having written nothing, when it cannot be opened or is another file now."""
        if self._file is None:
            return False
        path, identity = self._file
        try:
            handle = open(path, "rb")  # noqa: SIM115 - closed below, after the check
        except OSError:
            return False
        with handle:
            if file_identity(os.fstat(handle.fileno())) != identity:
                return False
            handle.seek(begin)
            buffer = memoryview(bytearray(1 << 20))
            left = end - begin
            while left > 0:
                got = handle.readinto(buffer[: min(left, len(buffer))])
                if not got:
                    raise OSError(f"{path} ended before its texts")
                target.write(buffer[:got])
                left -= got
        return True

    def numbers_containing(self, chars: str) -> set[int]:
        """The abstracts holding any of the ASCII `chars`: a byte search per character (an
        ASCII byte in UTF-8 is always that character), jumping to the next abstract at each
        hit. ~20 ms a character over 100 MB."""
        offsets, start, data = self._offsets, self._start, self._data
        end = start + offsets[-1]
        found: set[int] = set()
        for char in chars.encode("ascii"):
            needle = bytes([char])
            # a window at a time, its pages let go after it (not the whole file resident)
            for window in range(start, end, RELEASE_EVERY):
                stop = min(window + RELEASE_EVERY, end)
                pos = data.find(needle, window, stop)
                while pos >= 0:
                    n = bisect.bisect_right(offsets, pos - start) - 1
                    found.add(n)
                    pos = data.find(needle, max(start + offsets[n + 1], pos + 1), stop)
                release_pages(data)
        return found


class CachedTexts(MappedTexts):
    """A cache's abstracts, and its papers' titles, authors and links (a `FieldStore`): each
    field's texts one after another, after the abstracts, each with its offsets."""

    def __init__(
        self, data: mmap.mmap | bytes, start: int, offsets: array[int], fields: list[array[int]]
    ) -> None:
        super().__init__(data, start, offsets)
        self.field_offsets = fields
        regions = []
        at = start + offsets[-1]
        for bounds in fields:
            regions.append(MappedTexts(data, at, bounds))
            at += bounds[-1]
        self._titles, self._authors, self._urls = regions

    def mapped_from(self, path: Path, identity: tuple[int, ...]) -> None:
        super().mapped_from(path, identity)
        for region in (self._titles, self._authors, self._urls):
            region.mapped_from(path, identity)

    def stored_title(self, n: int) -> str:
        return self._titles.text(n)

    def stored_authors(self, n: int) -> str:
        return self._authors.text(n)

    def stored_url(self, n: int) -> str:
        return self._urls.text(n)

    def copy_field(self, target: IO[bytes], which: int, first: int, last: int) -> None:
        """Papers `first` to `last - 1`'s titles (0), authors (1) or links (2), as stored."""
        (self._titles, self._authors, self._urls)[which].copy_range(target, first, last)

    def field_size(self, which: int, n: int) -> int:
        bounds = self.field_offsets[which]
        return bounds[n + 1] - bounds[n]

    def holds(self, n: int) -> tuple[bool, bool, bool]:
        t, a, u = self.field_offsets
        return t[n] != t[n + 1], a[n] != a[n + 1], u[n] != u[n + 1]


class CachedFile:
    """What one corpus file gave: its papers (each abstract once, in this file's collection),
    its report and warnings, as if it were the only file."""

    __slots__ = ("papers", "report", "warnings")

    def __init__(self, papers: list[Paper], report: FileReport, warnings: list[str]) -> None:
        self.papers = papers
        self.report = report
        self.warnings = warnings


def file_cache_path(cache_dir: Path, path: Path, forced: str | None) -> Path:
    """Where `path`'s cache lives (one per file and forced format)."""
    key = f"{path.resolve()}\0{forced or ''}".encode("utf-8", "surrogatepass")
    return cache_dir / f"{hashlib.blake2b(key, digest_size=10).hexdigest()}.bin"


class SpilledAbstracts(Protocol):
    """The papers' abstracts already written out in order (`stream.SpilledTexts`)."""

    offsets: array[int]

    def copy_to(self, target: IO[bytes]) -> None: ...


def write_file_cache(
    cache_file: Path,
    found: CachedFile,
    stat: list[object],
    forced: str | None,
    spilled: SpilledAbstracts | None = None,
    digest: bytes | None = None,
) -> bool:
    """Write one file's cache atomically (a reader sees the old file or the new). False if it
    could not be written: the cache is an optimisation, never a reason to fail. `spilled`:
    the papers' abstracts, in order, copied from there instead of held as strings; `digest`:
    the file's bytes' hash (`corpus_append` reads only what is appended to such a file)."""
    offsets = array("Q", [0])
    blobs: list[bytes] = []
    total = 0
    records = []
    numbers: dict[str, int] = {}  # sources, venues: few distinct values
    years: dict[int | None, int | None] = {}  # one int a year: marshal writes the others as refs
    # where each title, author list and links end: the texts are encoded again as they are
    # written (held encoded, a million papers' were 200 MB more at the writer's peak)
    field_offsets = (array("Q", [0]), array("Q", [0]), array("Q", [0]))
    if spilled is not None and len(spilled.offsets) != len(found.papers) + 1:
        raise ValueError("spilled abstracts do not match the papers")
    for p in found.papers:
        if spilled is None:
            blob = p.abstract.encode("utf-8", "surrogatepass")
            blobs.append(blob)
            total += len(blob)
            offsets.append(total)
        authors = None  # kept in the record: names the cache's one string cannot hold
        for which, bounds in enumerate(field_offsets):
            stored = p.stored_field(which)
            if stored is not None and isinstance(stored[0], CachedTexts):
                size = stored[0].field_size(which, stored[1])  # copied, not decoded
            else:
                text = _field(p, which)
                if isinstance(text, tuple):
                    authors, text = text, ""
                size = _encoded_length(text or "")
            bounds.append(bounds[-1] + size)
        records.append(
            (
                p.id,
                p.title_known,
                p.has_real_title,
                authors,
                numbers.setdefault(p.venue, len(numbers)),
                years.setdefault(p.year, p.year),
                p.cite,
                p._meta,
            )
        )
    report = found.report
    head = marshal.dumps(
        {
            "version": VERSION,
            "format": forced or "",
            "stat": stat,
            "report": (report.path, report.format, report.collection, report.papers),
            "skipped": report.skipped,
            "warnings": found.warnings,
            "papers": records,
            "strings": list(numbers),
            "offsets": (offsets if spilled is None else spilled.offsets).tobytes(),
            "fields": [bounds.tobytes() for bounds in field_offsets],
            "digest": digest,
        }
    )
    tmp = cache_file.with_name(f".{cache_file.name}-{os.getpid()}")
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            handle.write(_HEADER.pack(MAGIC, VERSION, len(head)))
            handle.write(head)
            handle.writelines(blobs)
            if spilled is not None:
                spilled.copy_to(handle)
            for which in range(3):
                _write_field(handle, found.papers, which)
        os.replace(tmp, cache_file)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True


def _field(p: Paper, which: int) -> str | tuple[str, ...] | None:
    """A paper's title (0; None: not derived yet), authors (1: one string, or their tuple when
    the cache's string cannot hold them) or links (2)."""
    if which == 0:
        return p.known_title
    if which == 1:
        authors = _joined(p.authors)
        return authors if authors else ""
    return p.extra_url


def _encoded_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _write_field(handle: IO[bytes], papers: list[Paper], which: int) -> None:
    """Every paper's title (0), authors (1) or links (2), a megabyte at a time: copied from
    the cache a paper reads it from (a run of papers that follow each other there, as a
    cache's old papers do when lines are appended, in one piece: at a million papers, 3 s
    of copying one by one), else encoded."""
    chunk = bytearray()
    source: CachedTexts | None = None
    first = last = 0  # the run of `source`'s papers still to copy: first .. last - 1

    def copy_run() -> None:
        if source is not None:
            handle.write(chunk)
            chunk.clear()
            source.copy_field(handle, which, first, last)

    for p in papers:
        stored = p.stored_field(which)
        if stored is not None and isinstance(stored[0], CachedTexts):
            store, n = stored[0], stored[1]
            if store is source and n == last:
                last += 1
                continue
            copy_run()
            source, first, last = store, n, n + 1
            continue
        copy_run()
        source = None
        text = _field(p, which)
        if text and isinstance(text, str):
            chunk += text.encode("utf-8", "surrogatepass")
        if len(chunk) >= 1 << 20:
            handle.write(chunk)
            chunk.clear()
    copy_run()
    handle.write(chunk)


def read_file_cache(cache_file: Path, stat: list[object], forced: str | None) -> CachedFile | None:
    """The cached file if `cache_file` is current for `stat` (and format), else None."""
    opened = open_cache(cache_file, stat, forced)
    if opened is None:
        return None
    head, texts = opened
    path, fmt, collection, count = head["report"]
    report = FileReport(path, fmt, collection, count, head["skipped"])
    return CachedFile(paper_records(head, texts), report, head["warnings"])


def paper_records(head: dict, texts: CachedTexts) -> list[Paper]:  # type: ignore[type-arg]
    """The papers of an opened cache (`open_cache`)."""
    path, _fmt, collection, _count = head["report"]
    return _papers(head["papers"], head["strings"], texts, collection, path)


def open_cache(
    cache_file: Path, stat: list[object] | None, forced: str | None
) -> tuple[dict, CachedTexts] | None:  # type: ignore[type-arg]
    """The cache's head and abstracts when it is current for `stat` (any stat: None)."""
    try:
        with open(cache_file, "rb") as handle:
            data: mmap.mmap | bytes
            identity = file_identity(os.fstat(handle.fileno()))
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
        or (stat is not None and head.get("stat") != stat)
    ):
        return None
    bounds = []
    for blob in (head["offsets"], *head["fields"]):
        offsets = array("Q")
        offsets.frombytes(blob)
        if len(offsets) != len(head["papers"]) + 1:
            return None
        bounds.append(offsets)
    if _HEADER.size + length + sum(offsets[-1] for offsets in bounds) > len(data):
        return None  # cut short: read the file
    texts = CachedTexts(data, _HEADER.size + length, bounds[0], bounds[1:])
    texts.mapped_from(cache_file, identity)
    return head, texts


def file_identity(st: os.stat_result) -> tuple[int, ...]:
    """What tells one file from another at one path: a cache written again is a new file."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _papers(
    records: list[tuple],  # type: ignore[type-arg]
    strings: list[str],
    texts: CachedTexts,
    collection: str,
    source: str,
) -> list[Paper]:
    """Papers from cached records; venues are numbers into `strings`, so each distinct one is
    a single string in memory; a title, authors and links the cache holds are read from it."""
    make = Paper.from_cache
    shared = (collection,)
    titles, authors, urls = texts.field_offsets
    papers = []
    for n, (pid, titled, real, names, venue, year, cite, meta) in enumerate(records):
        title = (STORED if titles[n] != titles[n + 1] else "") if titled else None
        if names is None:
            names = STORED if authors[n] != authors[n + 1] else ""
        url = STORED if urls[n] != urls[n + 1] else ""
        papers.append(
            make(
                pid,
                n,
                texts,
                shared,
                source,
                (title, real, url, names, strings[venue], year, cite, meta),
            )
        )
    return papers


def _joined(authors: tuple[str, ...]) -> str | tuple[str, ...]:
    """The names as one string when the separator cannot be confused with a name's text."""
    if any(AUTHOR_SEPARATOR in name for name in authors) or "" in authors:
        return tuple(authors)
    return AUTHOR_SEPARATOR.join(authors)
