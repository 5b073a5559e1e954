"""The parsed corpus, cached file by file next to its index, so a warm start does not re-read
the dumps and a changed file is the only one read again.

Parsing 100 MB of JSON, CSV or BibTeX and hashing every abstract costs seconds; reading back
what it gave costs a fraction of that (`corpus_cache_file`: one cache file per corpus file, its
abstracts mapped, not read). The files' papers are then joined as `build_papers` joins them (one
paper per abstract, in every collection it is in), so the corpus is the same whichever files
came from the cache.

A file's cache is used only when the file has the size and mtime it had when the cache was
written (and is read in the same format); a file that changed is read again, alone. Each file's
cache is written as soon as that file is parsed: a reader can show the files an indexing child
process has read while it reads the rest (`CorpusLoader`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path

from papertui.core.corpus import (
    Corpus,
    FileReport,
    Paper,
    build_papers,
    complete_from,
    expand_paths,
    parse_file,
    remember_arxiv,
    same_paper,
)
from papertui.core.corpus.append import read_appended
from papertui.core.corpus.cache_file import (
    MAGIC,
    VERSION,
    CachedFile,
    MappedTexts,
    file_cache_path,
    file_digest,
    file_stat,
    new_digest,
    open_cache,
    read_file_cache,
    write_file_cache,
)
from papertui.core.corpus.formats.base import CorpusError
from papertui.core.corpus.stream import NotStreamable, read_streamed, streamable

__all__ = [
    "MAGIC",
    "VERSION",
    "CachedFile",
    "CorpusLoader",
    "MappedTexts",
    "corpus_stats",
    "file_cache_path",
    "load_corpus_cached",
    "read_file_cache",
    "release_freed_memory",
    "write_file_cache",
]


def corpus_stats(paths: Sequence[str | Path]) -> list[list[object]]:
    """Which files the paths name, with their size and mtime."""
    stats: list[list[object]] = []
    for f in expand_paths(paths, []):
        with contextlib.suppress(OSError):
            stats.append(file_stat(f))
    return stats


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
        self.held_back = False  # the last `advance` stopped at its budget
        self.all_cached = True
        self._by_id: dict[str, Paper] = {}
        self._by_arxiv: dict[str, Paper] = {}
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

    def advance(self, parse: bool, budget: int | None = None) -> bool:
        """Take the next files: while their caches are current (`parse` False), or all of them
        (`parse` True: the others are parsed). True when any file was taken. With `budget`,
        stop before a file that would bring the bytes of the files taken by this call over it
        (`held_back` says so): a warm reader paints before reading a million cached papers."""
        taken = False
        self.held_back = False
        spent = 0
        while self.next < len(self.files):
            path = self.files[self.next]
            if budget is not None:
                with contextlib.suppress(OSError):
                    spent += path.stat().st_size
                if spent > budget:
                    self.held_back = True
                    break
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
                self._join(found, path)
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
            stat = file_stat(path)
        except OSError:
            return None  # gone meanwhile: parsing says why
        return read_file_cache(
            file_cache_path(self.cache_dir, path, self.forced), stat, self.forced
        )

    def _parse(self, path: Path) -> CachedFile:
        stat = file_stat(path)  # before reading: a file changed while read is read again next time
        cache = file_cache_path(self.cache_dir, path, self.forced)
        if streamable(path, self.forced):
            appended = read_appended(path, stat, cache, self.forced, self.cache_dir)
            if appended is not None:
                return appended
            with contextlib.suppress(NotStreamable):
                return self._stream(path, stat, cache)
        parsed = parse_file(path, self.forced)
        reports: list[FileReport] = []
        papers = build_papers([parsed], reports)
        fresh = CachedFile(papers, reports[0], list(parsed.warnings))
        del parsed
        # what was appended to a JSON-lines file is read alone (`read_appended`) by its hash
        digest = file_digest(path) if reports[0].format == "jsonl" else None
        if papers and write_file_cache(cache, fresh, stat, self.forced, digest=digest):
            # the papers read their abstracts from the file just written, as after a warm start
            opened = open_cache(cache, stat, self.forced)
            if opened is not None:
                texts = opened[1]
                for n, paper in enumerate(papers):
                    paper.keep_in_cache(texts, n)
                release_freed_memory()
        return fresh

    def _stream(self, path: Path, stat: list[object], cache: Path) -> CachedFile:
        """`_parse` for a large JSONL file, a line at a time (`corpus_stream`): its papers end
        up reading their abstracts from the cache written, or, if it cannot be written, from
        the scratch file, kept open for them."""
        hasher = new_digest()
        papers, report, warnings, spilled = read_streamed(path, self.cache_dir, hasher)
        fresh = CachedFile(papers, report, warnings)
        if write_file_cache(cache, fresh, stat, self.forced, spilled, hasher.digest()):
            opened = open_cache(cache, stat, self.forced)
            if opened is not None:
                for n, paper in enumerate(papers):
                    paper.keep_in_cache(opened[1], n)
                spilled.close()
                release_freed_memory()  # the titles, authors and links just dropped
        return fresh

    def _join(self, found: CachedFile, path: Path) -> None:
        """Add one file's papers as `build_papers` would: an abstract seen in an earlier file
        is that file's paper, now also in this collection, completed with what this file adds.
        Its report and warnings name `path` as given now (a cache keeps the path it was
        written under: "files/x.bib" read from another directory)."""
        own = found.report
        collection = own.collection
        count = duplicates = 0
        by_id, papers = self._by_id, self._papers
        # a file's own papers are each one abstract and one arXiv id already: the last file's
        # need looking up among earlier files only, not remembering (at a million papers the
        # two dictionaries are 250 MB), and with no earlier file, not even looking up
        last = self.next == len(self.files) - 1
        if last and not by_id:
            papers.extend(found.papers)
            count = len(found.papers)
        else:
            for paper in found.papers:
                existing = same_paper(by_id, self._by_arxiv, paper.id, paper._meta)
                if existing is None:
                    papers.append(paper)
                    if not last:
                        by_id[paper.id] = paper
                        if paper._meta:
                            remember_arxiv(self._by_arxiv, paper)
                    count += 1
                    continue
                complete_from(existing, paper)
                if collection not in existing.collections:
                    existing.collections = (*existing.collections, collection)
                    count += 1
                else:
                    duplicates += 1
        skipped = dict(own.skipped)
        if duplicates:
            skipped["duplicate"] = skipped.get("duplicate", 0) + duplicates
        old, new = str(own.path), str(path)
        self._reports.append(FileReport(new, own.format, collection, count, skipped))
        self._warnings.extend(
            new + w[len(old) :] if old != new and w.startswith(old + ":") else w
            for w in found.warnings
        )


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
