"""The parsed corpus, cached file by file next to its index, so a warm start does not re-read
the dumps and a changed file is the only one read again.

Parsing 100 MB of JSON, CSV or BibTeX and hashing every abstract costs seconds; reading back
what it gave costs a fraction of that. Each corpus file has one cache file: a header, its
papers' fields and its report (marshal: fast, and only ever read back by papertui from its own
cache dir), then every abstract as UTF-8, one after another. The abstracts are not read back:
the file is mapped and each paper keeps its abstract's number (`Paper.keep_abstract_in`), so
their text costs memory only for the rows and papers shown, and the kernel may drop those pages
again. The files' papers are then joined as `build_papers` joins them (one paper per abstract,
in every collection it is in), so the corpus is the same whichever files came from the cache.

A file's cache is used only when the file has the size and mtime it had when the cache was
written (and is read in the same format); a file that changed is read again, alone. Each file's
cache is written as soon as that file is parsed: a reader can show the files an indexing child
process has read while it reads the rest (`CorpusLoader`).
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
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
    build_papers,
    expand_paths,
    fill_in,
    parse_file,
)
from papertui.core.formats.base import CorpusError

MAGIC = b"papertui-corpus\n"
VERSION = 5  # 5: a sentence-like first line is an abstract, not a name
_HEADER = struct.Struct("<16sIQ")  # magic, version, length of the marshalled part


def corpus_stats(paths: Sequence[str | Path]) -> list[list[object]]:
    """Which files the paths name, with their size and mtime."""
    stats: list[list[object]] = []
    for f in expand_paths(paths, []):
        with contextlib.suppress(OSError):
            stats.append(_stat(f))
    return stats


def _stat(path: Path) -> list[object]:
    st = path.stat()
    return [str(path.resolve()), st.st_size, st.st_mtime_ns]


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


class CorpusLoader:
    """Reads the files of `paths` in order, each from its cache when current, else parsed
    (and its cache written); `corpus()` is the corpus of the files read so far, joined as
    `load_corpus` joins them. Files are only ever taken in order, so the papers of a corpus
    given before are the first papers of every later one (positions stay valid)."""

    def __init__(self, paths: Sequence[str | Path], forced: str | None, cache_dir: Path) -> None:
        self.forced = forced
        self.cache_dir = cache_dir
        self.errors: list[str] = []
        self.files = expand_paths(paths, self.errors)
        self.next = 0  # the first file not taken yet
        self.all_cached = True
        self._by_id: dict[str, Paper] = {}
        self._papers: list[Paper] = []
        self._reports: list[FileReport] = []
        self._warnings: list[str] = []

    @property
    def done(self) -> bool:
        return self.next >= len(self.files)

    @property
    def paper_count(self) -> int:
        return len(self._papers)

    def pending_bytes(self) -> int:
        """The size of the files not taken yet whose cache is not current."""
        total = 0
        for path in self.files[self.next :]:
            with contextlib.suppress(OSError):
                if self._cached(path) is None:
                    total += path.stat().st_size
        return total

    def advance(self, parse: bool) -> bool:
        """Take the next files: while their caches are current (`parse` False), or all of them
        (`parse` True: the others are parsed). True when any file was taken."""
        taken = False
        while self.next < len(self.files):
            path = self.files[self.next]
            found = self._cached(path)
            if found is None:
                if not parse:
                    break
                self.all_cached = False
                try:
                    found = self._parse(path)
                except CorpusError as exc:
                    self.errors.append(str(exc))
            if found is not None:
                self._join(found)
            self.next += 1
            taken = True
        return taken

    def corpus(self) -> Corpus:
        """The corpus of the files taken so far (lists of its own: later files change nothing)."""
        return Corpus(
            papers=list(self._papers),
            files=list(self._reports),
            errors=list(self.errors),
            warnings=list(self._warnings),
        )

    def _cached(self, path: Path) -> CachedFile | None:
        try:
            stat = _stat(path)
        except OSError:
            return None  # gone meanwhile: parsing says why
        return read_file_cache(
            file_cache_path(self.cache_dir, path, self.forced), stat, self.forced
        )

    def _parse(self, path: Path) -> CachedFile:
        stat = _stat(path)  # before reading: a file changed while read is read again next time
        parsed = parse_file(path, self.forced)
        reports: list[FileReport] = []
        papers = build_papers([parsed], reports)
        fresh = CachedFile(papers, reports[0], list(parsed.warnings))
        del parsed
        cache = file_cache_path(self.cache_dir, path, self.forced)
        if papers and write_file_cache(cache, fresh, stat, self.forced):
            # the papers read their abstracts from the file just written, as after a warm start
            opened = _open(cache, stat, self.forced)
            if opened is not None:
                texts = opened[1]
                for n, paper in enumerate(papers):
                    paper.keep_abstract_in(texts, n)
                release_freed_memory()
        return fresh

    def _join(self, found: CachedFile) -> None:
        """Add one file's papers as `build_papers` would: an abstract seen in an earlier file
        is that file's paper, now also in this collection, completed with what this file adds."""
        own = found.report
        collection = own.collection
        count = duplicates = 0
        by_id, papers = self._by_id, self._papers
        for paper in found.papers:
            existing = by_id.get(paper.id)
            if existing is None:
                by_id[paper.id] = paper
                papers.append(paper)
                count += 1
                continue
            _complete(existing, paper)
            if collection not in existing.collections:
                existing.collections.append(collection)
                count += 1
            else:
                duplicates += 1
        skipped = dict(own.skipped)
        if duplicates:
            skipped["duplicate"] = skipped.get("duplicate", 0) + duplicates
        self._reports.append(FileReport(own.path, own.format, collection, count, skipped))
        self._warnings.extend(found.warnings)


def _complete(paper: Paper, other: Paper) -> None:
    """What `corpus._enrich` does for a record, for the same abstract's paper in a later file."""
    title = other.title if other.has_real_title else ""
    fill_in(paper, title, other.authors, other.venue, other.year, other._extra_url)


def load_corpus_cached(
    paths: Sequence[str | Path], forced: str | None, cache_dir: Path
) -> tuple[Corpus, bool]:
    """The corpus of `paths`: each file from its cache in `cache_dir` when current, else read
    (and its cache written for next time). The flag says whether every file came from a cache."""
    loader = CorpusLoader(paths, forced, cache_dir)
    loader.advance(parse=True)
    return loader.corpus(), loader.all_cached


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


def write_file_cache(
    cache_file: Path, found: CachedFile, stat: list[object], forced: str | None
) -> bool:
    """Write one file's cache atomically (a reader sees the old file or the new). False if it
    could not be written: the cache is an optimisation, never a reason to fail."""
    offsets = array("Q", [0])
    blobs: list[bytes] = []
    total = 0
    records = []
    numbers: dict[str, int] = {}  # sources, venues: few distinct values
    for p in found.papers:
        blob = p.abstract.encode("utf-8", "surrogatepass")
        blobs.append(blob)
        total += len(blob)
        offsets.append(total)
        records.append(
            (
                p.id,
                p._title,
                p.has_real_title,
                p._extra_url,
                _joined(p.authors),
                numbers.setdefault(p.venue, len(numbers)),
                p.year,
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


def read_file_cache(cache_file: Path, stat: list[object], forced: str | None) -> CachedFile | None:
    """The cached file if `cache_file` is current for `stat` (and format), else None."""
    opened = _open(cache_file, stat, forced)
    if opened is None:
        return None
    head, texts = opened
    path, fmt, collection, count = head["report"]
    report = FileReport(path, fmt, collection, count, head["skipped"])
    papers = _papers(head["papers"], head["strings"], texts, collection, path)
    return CachedFile(papers, report, head["warnings"])


def _open(
    cache_file: Path, stat: list[object], forced: str | None
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
        or head.get("stat") != stat
    ):
        return None
    offsets = array("Q")
    offsets.frombytes(head["offsets"])
    if len(offsets) != len(head["papers"]) + 1 or offsets[-1] + _HEADER.size + length > len(data):
        return None  # cut short: read the file
    return head, MappedTexts(data, _HEADER.size + length, offsets)


def _papers(
    records: list[tuple],  # type: ignore[type-arg]
    strings: list[str],
    texts: MappedTexts,
    collection: str,
    source: str,
) -> list[Paper]:
    """Papers from cached records; venues are numbers into `strings`, so each distinct one is
    a single string in memory."""
    papers: list[Paper] = []
    append = papers.append
    for n, (pid, title, real, url, authors, venue, year) in enumerate(records):
        paper = Paper(
            pid,
            "",
            [collection],
            source,
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
