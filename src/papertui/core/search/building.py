"""Writing one index generation: feeding papers to Whoosh, in one process or two, or updating
a copy of the previous generation in place when few papers changed.

Segments are written as separate files, not one compound file: Whoosh reads a compound
segment by copying each of its parts (the postings too) into memory, hundreds of MB at
100,000 papers, while separate files are read through the page cache as queries need them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from whoosh import index as windex

from papertui.core.corpus import Paper, finish_titles
from papertui.core.search.fastwriter import FastSegmentWriter
from papertui.core.search.highlight import _WORD
from papertui.core.search.schema import INDEX_VERSION, IndexCancelled, Progress, schema

# From this many papers the index is written by two processes (Whoosh forks helpers), which
# must not happen inside a program with threads running (the reader): such a corpus is indexed
# by a child process (`papertui index`), see `needs_child_process`.
PARALLEL_FROM = 5000


def needs_child_process(paper_count: int) -> bool:
    """Whether a build of this many papers forks helper processes, and so must run in a child
    process of its own rather than in a thread of a program with other threads (the reader)."""
    return paper_count >= PARALLEL_FROM and (os.cpu_count() or 1) > 1


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


def write_generation(
    fresh: Path,
    previous: Path | None,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> str:
    """Write the index of `papers` into the new directory `fresh`: an updated copy of
    `previous` when few papers changed, else a fresh build. Returns "updated" or "built"."""
    # titles are indexed, so they must be final first: the first tenth of the progress bar;
    # those derived for the previous generation are kept (deriving costs ~0.2 ms a paper)
    if previous is not None:
        _reuse_titles(previous, papers)
    finish_titles(papers, _share(progress, 0.0, 0.1))
    progress = _share(progress, 0.1, 0.9)
    how = "built"
    if previous is not None and _can_update(previous):
        shutil.copytree(previous, fresh)
        if _update(fresh, papers, progress, cancelled):
            how = "updated"
        else:
            shutil.rmtree(fresh, ignore_errors=True)
    if how == "built":
        _build(fresh, papers, progress, cancelled)
    titles = {p.id: p.title for p in papers}
    (fresh / "titles.json").write_text(json.dumps(titles, ensure_ascii=False), "utf-8")
    return how


def _reuse_titles(previous: Path, papers: Sequence[Paper]) -> None:
    """Give papers without a known title the one derived for them last time."""
    try:
        titles = json.loads((previous / "titles.json").read_text("utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(titles, dict):
        return
    for paper in papers:
        if not paper.title_known:
            title = titles.get(paper.id)
            if isinstance(title, str) and title:
                # without the mark of a collision: finish_titles marks it again if it still is
                paper.title = title.removesuffix(f" [{paper.id[:6]}]")


def _can_update(directory: Path) -> bool:
    try:
        meta = json.loads((directory / "meta.json").read_text("utf-8"))
        return meta.get("version") == INDEX_VERSION and windex.exists_in(str(directory))
    except Exception:  # noqa: BLE001 - unreadable: build afresh
        return False


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


def _add(writer, paper: Paper, vocab: Counter[str]) -> None:  # type: ignore[no-untyped-def]
    abstract = paper.abstract  # once: it may be decoded from the corpus cache on each access
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
        abstract=abstract,
        meta={
            "collections": list(paper.collections),
            "urls": list(paper.urls),
            "authors": list(paper.authors),
            "venue": paper.venue,
            "year": paper.year,
        },
        **extra,
    )
    vocab.update(set(_WORD.findall(abstract.lower())))  # document frequencies, counted in C


def _tick(i: int, total: int, progress: Progress | None, cancelled: Callable[[], bool] | None):  # type: ignore[no-untyped-def]
    if i % 200 == 0:
        if cancelled is not None and cancelled():
            raise IndexCancelled()
        if progress is not None:
            progress(i, total)


def _build(
    directory: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> None:
    """A fresh index of `papers`: one segment, or two written at once by this process and a
    forked one (each half the papers, in order) for a corpus that `needs_child_process`."""
    directory.mkdir(parents=True)
    ix = windex.create_in(str(directory), schema())
    vocab: Counter[str] = Counter()
    total = len(papers)
    split = (total + 1) // 2 if needs_child_process(total) else total
    # Feeding is the first 65% of the bar; writing the postings (a third as long) the rest.
    feeding = _share(progress, 0.0, 0.65)
    started = time.perf_counter()
    child = _SegmentChild(directory, papers[split:]) if split < total else None
    try:
        writer = FastSegmentWriter(ix, compound=False)
        with _cancel_on_error(writer):
            for i, paper in enumerate(papers[:split]):
                if i % 200 == 0:  # the other half goes as fast: report both
                    _tick(0, total, None, cancelled)
                    if feeding is not None:
                        feeding(i * total // split, total)
                _add(writer, paper, vocab)
            expected = 0.55 * (time.perf_counter() - started)
            with _estimated_progress(_share(progress, 0.65, 0.35), total, expected):
                segments = [writer._finalize_segment()]
                if child is not None:
                    segment, counts = child.result(cancelled)
                    segments.append(segment)
                    vocab.update(counts)
            writer._commit_toc(segments)
            writer._finish()
        if progress is not None:
            progress(total, total)
    finally:
        if child is not None:
            child.stop()
        ix.close()
    _save_vocab(directory, vocab)


class _SegmentChild:
    """A forked process writing one segment of `papers` into the index at `directory`."""

    def __init__(self, directory: Path, papers: Sequence[Paper]) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_write_segment, args=(directory, papers, theirs), daemon=True
        )
        self._process.start()
        theirs.close()

    def result(self, cancelled: Callable[[], bool] | None) -> tuple[object, Counter[str]]:
        """The segment and word counts the child wrote, once it has (cancellable meanwhile)."""
        while not self._conn.poll(0.2):
            if cancelled is not None and cancelled():
                raise IndexCancelled()
            if not self._process.is_alive() and not self._conn.poll():
                raise RuntimeError(f"index writer stopped (exit code {self._process.exitcode})")
        outcome = self._conn.recv()
        if isinstance(outcome, str):
            raise RuntimeError(f"index writer failed: {outcome}")
        segment, counts = outcome
        return segment, counts

    def stop(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._conn.close()


def _write_segment(directory: Path, papers: Sequence[Paper], conn) -> None:  # type: ignore[no-untyped-def]
    """In the forked child: write `papers` as one segment; send (segment, word counts) back,
    or the error's last line."""
    try:
        ix = windex.open_dir(str(directory))
        writer = FastSegmentWriter(ix, _lk=False, compound=False)
        vocab: Counter[str] = Counter()
        with _cancel_on_error(writer):
            for paper in papers:
                _add(writer, paper, vocab)
            segment = writer._finalize_segment()
        conn.send((segment, vocab))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises
        conn.send(f"{type(exc).__name__}: {exc}")
    finally:
        conn.close()


@contextlib.contextmanager
def _cancel_on_error(writer) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """A writer that fails or is interrupted leaves nothing behind in its segment."""
    try:
        yield
    except BaseException:
        writer.cancel()
        raise


def _save_vocab(directory: Path, vocab: Counter[str]) -> None:
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
            vocab = Counter(json.loads((directory / "vocab.json").read_text("utf-8")))
        except (OSError, ValueError):
            return False
        writer = ix.writer(limitmb=128, compound=False)
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
