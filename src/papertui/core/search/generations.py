"""Index generations: where a corpus' index lives, which generation is current, and the swap.

The index is a cache in the user cache dir. Each build or update is written into a fresh
generation directory (by `building`) and swapped in by rewriting a one-line pointer file, so a
crash mid-build leaves the previous generation usable. One process writes at a time (a lock
file); readers open whatever the pointer names. A missing, stale, corrupt or old-schema index
is rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as windex

from papertui.core.corpus import Paper
from papertui.core.search.building import fingerprint, write_generation
from papertui.core.search.schema import INDEX_VERSION, Progress
from papertui.core.search.searching import SearchIndex
from papertui.core.system import debug_log

try:  # POSIX advisory locks: one writer per index, released by the kernel if it dies
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def sources_key(sources: Sequence[str]) -> str:
    """One index per set of corpus files, so editing a file updates its own index."""
    joined = "\n".join(sorted(os.path.abspath(s) for s in sources))
    return hashlib.blake2b(joined.encode("utf-8", "replace"), digest_size=8).hexdigest()


Stats = dict[str, list[int]]  # source path -> [size, mtime_ns]


def source_stats(sources: Sequence[str]) -> Stats:
    """What the corpus files look like on disk: if unchanged, the index is current."""
    stats: Stats = {}
    for source in sources:
        path = Path(source)
        files = sorted(path.iterdir()) if path.is_dir() else [path]
        for f in files:
            with contextlib.suppress(OSError):
                st = f.stat()
                stats[str(f.resolve())] = [st.st_size, st.st_mtime_ns]
    return stats


def corpus_digest(papers: Sequence[Paper], fingerprints: Sequence[str] | None = None) -> str:
    """The digest of the papers' fingerprints (`fingerprints`: theirs, when computed already)."""
    h = hashlib.blake2b(INDEX_VERSION.encode(), digest_size=16)
    found = fingerprints if fingerprints is not None else (fingerprint(p) for p in papers)
    for fp in sorted(found):
        h.update(fp.encode())
    return h.hexdigest()


@dataclass(slots=True)
class IndexReport:
    how: str  # "reused", "updated" or "built"
    papers: int
    seconds: float
    size_bytes: int
    directory: Path


class IndexStore:
    """The generations of one corpus' index under the cache dir, and the pointer to the current."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def pointer(self) -> Path:
        return self.root / "current"

    def current_dir(self) -> Path | None:
        try:
            name = self.pointer.read_text("utf-8").strip()
        except OSError:
            return None
        path = self.root / name
        return path if name and path.is_dir() else None

    def meta(self) -> dict[str, object] | None:
        directory = self.current_dir()
        if directory is None:
            return None
        try:
            meta = json.loads((directory / "meta.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return meta if isinstance(meta, dict) and meta.get("version") == INDEX_VERSION else None

    def open_if_unchanged(self, sources: Sequence[str]) -> SearchIndex | None:
        """The index, without reading the corpus, when no corpus file changed since it was built."""
        meta = self.meta()
        if meta is None or meta.get("sources") != source_stats(sources):
            return None
        if meta.get("format", ""):
            return None  # built from a forced format: these files may read differently
        directory = self.current_dir()
        return _opened(directory) if directory is not None else None

    def open_if_current(self, digest: str) -> SearchIndex | None:
        """The index if it exists, is readable and matches `digest`; else None."""
        meta = self.meta()
        directory = self.current_dir()
        if meta is None or directory is None or meta.get("digest") != digest:
            return None
        return _opened(directory)

    @contextlib.contextmanager
    def _writer_lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            yield
            return
        with open(self.root / ".lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # waits while another papertui builds
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def ensure(
        self,
        papers: Sequence[Paper],
        sources: Sequence[str] = (),
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        digest: str | None = None,
        fmt: str | None = None,
        rebuild: bool = False,
        fingerprints: list[str] | None = None,
    ) -> tuple[SearchIndex, IndexReport]:
        """Open the index for `papers`, updating or rebuilding it as needed. `digest` is
        `corpus_digest(papers)` when the caller has it already; `fmt` the format forced when
        the papers were read (recorded: an index read so is never taken for the files' own).
        `rebuild` builds afresh, whatever is there (an index that opens but cannot answer).
        `fingerprints`, the papers' own in order when the caller has them, spare an update
        computing them again; the list is emptied if a build is written instead."""
        started = time.perf_counter()
        digest = digest or corpus_digest(papers)
        found = None if rebuild else self.open_if_current(digest)
        if found is None:
            with self._writer_lock():
                # another process may have built it meanwhile
                found = None if rebuild else self.open_if_current(digest)
                if found is None:
                    directory, how = self._write(
                        papers,
                        sources,
                        digest,
                        progress,
                        cancelled,
                        fmt or "",
                        rebuild,
                        fingerprints,
                    )
                    found = SearchIndex(directory)
                    return found, self.report(found, how, len(papers), started)
        found.apply_titles(papers)
        return found, self.report(found, "reused", len(papers), started)

    @staticmethod
    def report(index: SearchIndex, how: str, count: int, started: float) -> IndexReport:
        size = sum(f.stat().st_size for f in index.directory.iterdir() if f.is_file())
        return IndexReport(how, count, time.perf_counter() - started, size, index.directory)

    def _write(
        self,
        papers: Sequence[Paper],
        sources: Sequence[str],
        digest: str,
        progress: Progress | None,
        cancelled: Callable[[], bool] | None,
        fmt: str,
        rebuild: bool = False,
        fingerprints: list[str] | None = None,
    ) -> tuple[Path, str]:
        stats = source_stats(sources)
        fresh = self.root / f"gen-{time.time_ns()}-{os.getpid()}"
        previous = None if rebuild else self.current_dir()
        try:
            how = write_generation(fresh, previous, papers, progress, cancelled, fingerprints)
            meta = {
                "version": INDEX_VERSION,
                "digest": digest,
                "papers": len(papers),
                "sources": stats,
                "format": fmt,
            }
            (fresh / "meta.json").write_text(json.dumps(meta), "utf-8")
            tmp = self.root / f".current-{os.getpid()}"
            tmp.write_text(fresh.name, "utf-8")
            os.replace(tmp, self.pointer)  # the swap: atomic, so readers see old or new
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
        self._prune(keep=fresh)
        return fresh, how

    def _prune(self, keep: Path) -> None:
        for child in self.root.iterdir():
            if child.is_dir() and child.name.startswith("gen-") and child != keep:
                shutil.rmtree(child, ignore_errors=True)


# why an index may fail to open that needs no word: a file gone or unreadable, no index there
KNOWN = (OSError, windex.EmptyIndexError)


def _opened(directory: Path) -> SearchIndex | None:
    """The index in `directory`, or None: it is built again. A failure for another reason than
    the known ones goes to the debug log (papertui.log), never silently."""
    try:
        return SearchIndex(directory)
    except KNOWN:
        return None
    except Exception as error:  # noqa: BLE001 - any damage means: rebuild
        debug_log.recovered(f"the index in {directory} would not open; building it again", error)
        return None
