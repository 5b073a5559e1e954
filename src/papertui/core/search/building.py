"""Building, updating and opening the index generations of a corpus.

The index is a cache in the user cache dir. Each build or update is written into a fresh
generation directory and swapped in by rewriting a one-line pointer file, so a crash mid-build
leaves the previous generation usable. A missing, stale, corrupt or old-schema index is rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as windex

from papertui.core.corpus import Paper, finish_titles
from papertui.core.search.schema import INDEX_VERSION, IndexCancelled, Progress, schema
from papertui.core.search.searching import _WORD, SearchIndex

try:  # POSIX advisory locks: one writer per index, released by the kernel if it dies
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# Below this many papers a single process indexes faster than starting helpers.
PARALLEL_FROM = 5000


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


def fingerprint(paper: Paper) -> str:
    """Changes when anything indexed about a paper changes (derived titles follow the abstract)."""
    key = "\x1f".join(
        [
            paper.id,
            *paper.collections,
            paper.title if paper.has_real_title else "",
            *paper.authors,
            paper.venue,
            str(paper.year or ""),
        ]
    )
    return hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=8).hexdigest()


def corpus_digest(papers: Sequence[Paper]) -> str:
    h = hashlib.blake2b(INDEX_VERSION.encode(), digest_size=16)
    for fp in sorted(fingerprint(p) for p in papers):
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
        directory = self.current_dir()
        try:
            return SearchIndex(directory) if directory is not None else None
        except Exception:  # noqa: BLE001 - damaged: the full path rebuilds it
            return None

    def open_if_current(self, digest: str) -> SearchIndex | None:
        """The index if it exists, is readable and matches `digest`; else None."""
        meta = self.meta()
        directory = self.current_dir()
        if meta is None or directory is None or meta.get("digest") != digest:
            return None
        try:
            return SearchIndex(directory)
        except Exception:  # noqa: BLE001 - any damage means: rebuild
            return None

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
    ) -> tuple[SearchIndex, IndexReport]:
        """Open the index for `papers`, updating or rebuilding it as needed."""
        started = time.perf_counter()
        digest = corpus_digest(papers)
        found = self.open_if_current(digest)
        if found is None:
            with self._writer_lock():
                found = self.open_if_current(digest)  # another process may have built it
                if found is None:
                    directory, how = self._write(papers, sources, digest, progress, cancelled)
                    found = SearchIndex(directory)
                    return found, self._report(found, how, len(papers), started)
        found.apply_titles(papers)
        return found, self._report(found, "reused", len(papers), started)

    @staticmethod
    def _report(index: SearchIndex, how: str, count: int, started: float) -> IndexReport:
        size = sum(f.stat().st_size for f in index.directory.iterdir() if f.is_file())
        return IndexReport(how, count, time.perf_counter() - started, size, index.directory)

    def _write(
        self,
        papers: Sequence[Paper],
        sources: Sequence[str],
        digest: str,
        progress: Progress | None,
        cancelled: Callable[[], bool] | None,
    ) -> tuple[Path, str]:
        stats = source_stats(sources)
        # titles are indexed, so they must be final first: the first tenth of the progress bar
        finish_titles(papers, _share(progress, 0.0, 0.1))
        progress = _share(progress, 0.1, 0.9)
        previous = self.current_dir()
        fresh = self.root / f"gen-{time.time_ns()}-{os.getpid()}"
        try:
            how = "built"
            if previous is not None and self._can_update(previous):
                shutil.copytree(previous, fresh)
                if _update(fresh, papers, progress, cancelled):
                    how = "updated"
                else:
                    shutil.rmtree(fresh, ignore_errors=True)
            if how == "built":
                _build(fresh, papers, progress, cancelled)
            titles = {p.id: p.title for p in papers}
            (fresh / "titles.json").write_text(json.dumps(titles, ensure_ascii=False), "utf-8")
            meta = {
                "version": INDEX_VERSION,
                "digest": digest,
                "papers": len(papers),
                "sources": stats,
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

    @staticmethod
    def _can_update(directory: Path) -> bool:
        try:
            meta = json.loads((directory / "meta.json").read_text("utf-8"))
            return meta.get("version") == INDEX_VERSION and windex.exists_in(str(directory))
        except Exception:  # noqa: BLE001
            return False

    def _prune(self, keep: Path) -> None:
        for child in self.root.iterdir():
            if child.is_dir() and child.name.startswith("gen-") and child != keep:
                shutil.rmtree(child, ignore_errors=True)


@contextlib.contextmanager
def _estimated_progress(progress: Progress | None, total: int, seconds: float) -> Iterator[None]:
    """Move the bar along an estimate while a step that reports nothing runs (up to 99%)."""
    if progress is None or seconds <= 0.5:
        yield
        return
    done = threading.Event()

    def tick() -> None:
        start = time.perf_counter()
        while not done.wait(0.5):
            share = min(0.99, (time.perf_counter() - start) / seconds)
            progress(int(total * share), total)

    thread = threading.Thread(target=tick, name="papertui-index-estimate", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _share(progress: Progress | None, start: float, part: float) -> Progress | None:
    """Report one phase of the work as its share of a single progress bar."""
    if progress is None:
        return None
    report = progress

    def scaled(done: int, total: int) -> None:
        report(int(total * start + done * part), total)

    return scaled


def _add(writer, paper: Paper, vocab: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    extra: dict[str, object] = {}
    if paper.authors:
        extra["author"] = " ; ".join(paper.authors)
    if paper.venue:
        extra["venue"] = paper.venue
    if paper.year:
        extra["year"] = paper.year
    writer.add_document(
        id=paper.id,
        fp=fingerprint(paper),
        collection=",".join(c.replace(",", " ").lower() for c in paper.collections),
        title=paper.title,
        abstract=paper.abstract,
        meta={
            "collections": list(paper.collections),
            "urls": list(paper.urls),
            "authors": list(paper.authors),
            "venue": paper.venue,
            "year": paper.year,
        },
        **extra,
    )
    for word in set(_WORD.findall(paper.abstract.lower())):
        vocab[word] = vocab.get(word, 0) + 1


def _tick(i: int, total: int, progress: Progress | None, cancelled: Callable[[], bool] | None):  # type: ignore[no-untyped-def]
    if i % 200 == 0:
        if cancelled is not None and cancelled():
            raise IndexCancelled()
        if progress is not None:
            progress(i, total)


def _writer(ix, count: int):  # type: ignore[no-untyped-def]
    procs = min(2, os.cpu_count() or 1)
    if count >= PARALLEL_FROM and procs > 1:
        # one segment per process, not merged: merging would cost what the second core saved
        return ix.writer(procs=procs, limitmb=1024, multisegment=True)
    return ix.writer(limitmb=128)


def _build(
    directory: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> None:
    directory.mkdir(parents=True)
    ix = windex.create_in(str(directory), schema())
    vocab: dict[str, int] = {}
    writer = _writer(ix, len(papers))
    total = len(papers)
    # The helpers sort and write their postings only at commit, about 1.4 times as long as
    # feeding them took: feeding is the first 40% of the bar, the commit the rest.
    feeding = _share(progress, 0.0, 0.4)
    started = time.perf_counter()
    try:
        with _cancel_on_error(writer):
            for i, paper in enumerate(papers):
                _tick(i, total, feeding, cancelled)
                _add(writer, paper, vocab)
            expected = 1.4 * (time.perf_counter() - started)
            with _estimated_progress(_share(progress, 0.4, 0.6), total, expected):
                writer.commit()
        if progress is not None:
            progress(total, total)
    finally:
        ix.close()
    _save_vocab(directory, vocab)


@contextlib.contextmanager
def _cancel_on_error(writer) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """A writer that fails or is interrupted leaves nothing behind in its segment."""
    try:
        yield
    except BaseException:
        writer.cancel()
        raise


def _save_vocab(directory: Path, vocab: dict[str, int]) -> None:
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), "utf-8")


def _update(
    directory: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> bool:
    """Add new papers, drop gone or changed ones, in place (in a copy). False: rebuild instead."""
    ix = windex.open_dir(str(directory))
    try:
        with ix.reader() as reader:
            indexed = {t.decode("utf-8") for t in reader.lexicon("fp")}
            indexed_ids = {t.decode("utf-8") for t in reader.lexicon("id")}
        wanted = {fingerprint(p): p for p in papers}
        added = [p for fp, p in wanted.items() if fp not in indexed]
        wanted_ids = {p.id for p in papers}
        changed = {p.id for p in added} & indexed_ids
        removed = [pid for pid in indexed_ids if pid not in wanted_ids] + sorted(changed)
        if len(added) + len(removed) > max(1000, len(papers) // 2):
            return False
        try:
            vocab = json.loads((directory / "vocab.json").read_text("utf-8"))
        except (OSError, ValueError):
            return False
        writer = ix.writer(limitmb=128)
        with _cancel_on_error(writer):
            for pid in removed:
                writer.delete_by_term("id", pid)
            for i, paper in enumerate(added):
                _tick(i, len(added), progress, cancelled)
                _add(writer, paper, vocab)
            writer.commit()
    finally:
        ix.close()
    _save_vocab(directory, vocab)
    return True
