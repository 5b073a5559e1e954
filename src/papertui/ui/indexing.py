"""The reader's background preparation: the search index (in a child process for large
corpora), then the vectors and topics behind "more like this", "for you" and the overview.
Reports progress into the status line and never into a closed app."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.worker import Worker, get_current_worker

from papertui.core.corpus import Corpus
from papertui.core.library import View
from papertui.core.search import IndexCancelled
from papertui.ui.keys import LEARNING_ORDERS

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen


class Indexing:
    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.library = reader.library
        self.app: App[Any] | None = None  # saved at start: progress may come from other threads
        self.child: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.app = self.reader.app
        self.reader.run_worker(self._build, thread=True, group="index", exclusive=True)

    def stop(self) -> None:
        child = self.child
        if child is not None and child.poll() is None:
            child.terminate()  # the previous index generation stays in place

    # -- on the UI thread, as the work goes on -------------------------------------------------

    def corpus_grew(self, corpus: Corpus) -> None:
        """More of a cold-started corpus is read: show it, keeping the cursor on its paper."""
        reader = self.reader
        with reader.searching.lock:
            self.library.replace_corpus(corpus)
        plist = reader.paper_list
        plist.set_papers(self.library.papers)
        if reader.view.query or reader.narrowing.describe(reader):
            reader.searching.rerun()
        else:
            reader.view = View(query="", indices=list(range(len(self.library.papers))))
            plist.set_rows(reader.view.indices, keep=plist.current)
        reader.update_status()

    def index_ready(self) -> None:
        reader = self.reader
        reader.set_index_state("")
        reader.current.refresh()  # "new" markers and states are known now
        reader.annotating.announce_drafts()  # every paper is read by now
        if reader.view.query or reader.sort != "relevance":  # a remembered order, too
            reader.searching.rerun()

    def _report(self, worker: Worker[None], callback: Callable[..., Any], *args: Any) -> None:
        """Report from a worker, or drop the report once the reader has closed (the build stops
        through `cancelled`)."""
        app = self.app
        if app is None or not app.is_running or worker.is_cancelled:
            return
        try:
            app.call_from_thread(callback, *args)
        except RuntimeError:  # the app closed between the check and the call
            worker.cancel()

    def _build(self) -> None:
        worker: Worker[None] = get_current_worker()
        reader, library = self.reader, self.library

        def report(callback: Callable[..., Any], *args: Any) -> None:
            self._report(worker, callback, *args)

        def progress(done: int, total: int) -> None:
            percent = int(100 * done / total) if total else 100
            report(reader.set_index_state, f"indexing {percent}%")

        def cancelled() -> bool:
            return worker.is_cancelled

        def tick() -> None:  # while the child indexes: show the files it has read so far
            grown = library.load_ready()
            if grown is not None:
                report(self.corpus_grew, grown)

        try:
            if library.loading:
                report(reader.set_index_state, "reading files…")
            try:
                if library.indexing.needs_child_process() and not library.indexing.is_current():
                    report(reader.set_index_state, "indexing 0%")
                    library.indexing.run_in_child(progress, cancelled, self._track, tick=tick)
                    report(reader.set_index_state, "opening the index")
            finally:
                if not worker.is_cancelled:
                    whole = library.finish_loading()  # what no cache holds yet, if anything
                    if whole is not None:
                        report(self.corpus_grew, whole)
            if worker.is_cancelled:
                return
            with reader.searching.lock:
                library.indexing.ensure(progress, cancelled)
            library.marks.mark_seen()  # which papers are new since their file was last opened
            report(self.index_ready)
        except IndexCancelled:
            return
        except Exception as exc:  # noqa: BLE001 - the reader works without full text; say why
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            report(reader.set_index_state, f"search index unavailable: {reason}")
            return
        self._semantic(worker, report, cancelled)

    def _semantic(
        self, worker: Worker[None], report: Callable[..., None], cancelled: Callable[[], bool]
    ) -> None:
        reader = self.reader

        def progress(done: int, total: int) -> None:
            percent = int(100 * done / total) if total else 100
            report(reader.set_index_state, f"topics: computing {percent}%")

        try:
            self.library.semantic.ensure(progress, cancelled)
        except IndexCancelled:
            return
        except Exception as exc:  # noqa: BLE001 - reading works without topics; say why
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            report(reader.set_index_state, f"topics unavailable: {reason}")
            return
        report(reader.set_index_state, "")
        report(self._semantic_ready)

    def _semantic_ready(self) -> None:
        """ "For you" could only keep the list's order until the paper vectors were built."""
        if self.reader.sort in LEARNING_ORDERS:
            self.reader.searching.rerun()

    def _track(self, child: subprocess.Popen[str]) -> None:
        self.child = child
