"""Writing one index generation: feeding papers to Whoosh, in one process or two, or updating
a copy of the previous generation in place when few papers changed.

Segments are written as separate files, not one compound file: Whoosh reads a compound
segment by copying each of its parts (the postings too) into memory, hundreds of MB at
100,000 papers, while separate files are read through the page cache as queries need them.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from whoosh import index as windex

from papertui.core.corpus import Paper, finish_titles
from papertui.core.search import lengths
from papertui.core.search.fastwriter import FastSegmentWriter
from papertui.core.search.feeding import (
    SegmentChild,
    add_paper,
    build_codec,
    cancel_on_error,
    fingerprint,
)
from papertui.core.search.schema import INDEX_VERSION, IndexCancelled, Progress, schema
from papertui.core.system import debug_log

# From this many papers the index is written by two processes (Whoosh forks helpers), which
# must not happen inside a program with threads running (the reader): such a corpus is indexed
# by a child process (`papertui index`), see `needs_child_process`.
PARALLEL_FROM = 5000
# An update adds a segment; from this many, the index is built afresh instead.
MAX_SEGMENTS = 8
# The fingerprints and ids of the indexed papers, for the next update to compare with.
FINGERPRINTS = "fingerprints.marshal"


def needs_child_process(paper_count: int) -> bool:
    """Whether a build of this many papers forks helper processes, and so must run in a child
    process of its own rather than in a thread of a program with other threads (the reader)."""
    return paper_count >= PARALLEL_FROM and (os.cpu_count() or 1) > 1


def write_generation(
    fresh: Path,
    previous: Path | None,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
    fingerprints: list[str] | None = None,
) -> str:
    """Write the index of `papers` into the new directory `fresh`: an updated copy of
    `previous` when few papers changed, else a fresh build. Returns "updated" or "built".
    `fingerprints` (the papers', in order, if known) serve the update; a build empties the
    list first (at a million papers they are 65 MB the build has no use for)."""
    lengths.install()  # here, where an index is written: importing papertui patches nothing
    # titles are indexed, so they must be final first: the first tenth of the progress bar;
    # those derived for the previous generation are kept (deriving costs ~0.2 ms a paper)
    if previous is not None:
        _reuse_titles(previous, papers)
    finish_titles(papers, _share(progress, 0.0, 0.1))
    progress = _share(progress, 0.1, 0.9)
    how = "built"
    if previous is not None and _can_update(previous):
        shutil.copytree(previous, fresh, copy_function=_share_file)
        if _update(fresh, papers, progress, cancelled, fingerprints):
            how = "updated"
        else:
            shutil.rmtree(fresh, ignore_errors=True)
    if how == "built":
        if fingerprints is not None:
            fingerprints.clear()
        _build(fresh, papers, progress, cancelled)
    # the derived titles, for the papers that will not know them (`apply_titles`): a real
    # title comes with its paper (a million of them were 200 MB more at the build's end)
    titles = {p.id: p.title for p in papers if not p.has_real_title}
    with open(fresh / "titles.json", "w", encoding="utf-8") as out:
        json.dump(titles, out, ensure_ascii=False)  # in pieces: 150 MB at a million titles
    return how


def _share_file(src: str, dst: str) -> None:
    """Copy a file of the previous generation into the new one: Whoosh never changes a file
    once written (a commit writes new ones), so its files are linked, not copied (3 GB at a
    million papers); papertui's own files, rewritten in place, and the lock are copied."""
    name = os.path.basename(src)
    if not name.endswith(".json") and "LOCK" not in name:
        try:
            os.link(src, dst)
            return
        except OSError:  # another file system, or no hard links there
            pass
    shutil.copy2(src, dst)


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
    except (OSError, ValueError):  # gone, or not JSON: build afresh
        return False
    except Exception as error:  # noqa: BLE001 - unreadable: build afresh, and say why
        debug_log.recovered(f"the index in {directory} cannot be updated; building it", error)
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
    child = SegmentChild(directory, papers[split:]) if split < total else None
    try:
        writer = FastSegmentWriter(ix, compound=False, codec=build_codec())
        with cancel_on_error(writer):
            for i, paper in enumerate(papers[:split]):
                if i % 200 == 0:  # the other half goes as fast: report both
                    _tick(0, total, None, cancelled)
                    if feeding is not None:
                        feeding(i * total // split, total)
                add_paper(writer, paper, vocab)
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
    _save_fingerprints(directory, papers)


def _save_vocab(directory: Path, vocab: Counter[str]) -> None:
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), "utf-8")


def _update(
    directory: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
    fingerprints: Sequence[str] | None = None,
) -> bool:
    """Add new papers, drop gone or changed ones, in place (in a copy). False: rebuild instead.
    `fingerprints`: the papers', in order, when known."""
    ix = windex.open_dir(str(directory))
    try:
        with ix.reader() as reader:
            indexed, indexed_ids = _indexed(directory, reader)
        if fingerprints is None or len(fingerprints) != len(papers):
            fingerprints = [fingerprint(p) for p in papers]
        wanted = dict(zip(fingerprints, papers, strict=True))
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
        if len(ix._segments()) >= MAX_SEGMENTS:
            return False  # one segment per update: searching many is slower than a rebuild
        # the new papers' segment written in bulk, as a build writes it (10,000 papers added
        # to 100,000: 44 s through Whoosh's own writer, most of it sorting their postings)
        writer = FastSegmentWriter(ix, compound=False, codec=build_codec())
        with cancel_on_error(writer):
            for pid in removed:
                writer.delete_by_term("id", pid)
            for i, paper in enumerate(added):
                _tick(i, len(added), progress, cancelled)
                add_paper(writer, paper, vocab)
            writer.commit(merge=False)
    finally:
        ix.close()
    _save_vocab(directory, vocab)
    _save_fingerprints(directory, list(wanted.values()), list(wanted))
    return True


def _indexed(directory: Path, reader: Any) -> tuple[set[str], set[str]]:
    """The fingerprints and ids of the papers in the index: as saved beside it by the build or
    update that wrote it (read from the index's terms, 8 s at a million papers), else from
    those terms."""
    try:
        saved = marshal.loads((directory / FINGERPRINTS).read_bytes())
        fps, ids = set(saved["fp"]), set(saved["id"])
        if len(fps) == len(ids) == reader.doc_count():
            return fps, ids
    except (OSError, ValueError, EOFError, TypeError, KeyError):
        pass
    return (
        {t.decode("utf-8") for t in reader.lexicon("fp")},
        {t.decode("utf-8") for t in reader.lexicon("id")},
    )


def _save_fingerprints(
    directory: Path, papers: Sequence[Paper], fps: list[str] | None = None
) -> None:
    """Save the indexed papers' fingerprints (`fps`, when known) and ids for `_indexed`."""
    fps = [fingerprint(p) for p in papers] if fps is None else fps
    ids = [p.id for p in papers]
    path = directory / FINGERPRINTS
    path.unlink(missing_ok=True)  # a link to the previous generation's file: not written through
    path.write_bytes(marshal.dumps({"fp": fps, "id": ids}))
