"""The reader's background preparation (reading the rest of a cold-started corpus, the index,
the vectors and topics: `ui/background.prepare`) and what the screen does as each step is
said; and the note left unsaved last time, said at startup."""

from __future__ import annotations

import subprocess

from textual import on
from textual.worker import get_current_worker

from papertui.core.query.view import View
from papertui.core.system.settings import load_settings
from papertui.ui import annotating, background, messages
from papertui.ui.fetching import fetch_subscriptions
from papertui.ui.screens.reader_base import ReaderBase
from papertui.ui.state import LEARNING_ORDERS, Placement
from papertui.ui.widgets.status import StatusLine


class ReaderPreparing(ReaderBase):
    _index_child: subprocess.Popen[str] | None = None
    _drafts_said = False
    _fetching = False

    # -- the background preparation --------------------------------------------------------------

    def start_preparing(self) -> None:
        library, lock = self.library, self.library_lock

        def run() -> None:
            worker = get_current_worker()

            def track(child: subprocess.Popen[str]) -> None:
                self._index_child = child

            background.prepare(library, lock, self.post, lambda: worker.is_cancelled, track)

        self.run_worker(run, thread=True, group="index", exclusive=True)

    @on(messages.IndexProgress)
    def _index_progress(self, message: messages.IndexProgress) -> None:
        self.query_one(StatusLine).index_state = message.text

    @on(messages.CorpusGrew)
    def _corpus_grew(self) -> None:
        """More of a cold-started corpus is read: show it, keeping the cursor on its paper."""
        plist = self.paper_list
        plist.set_papers(self.library.papers)
        keep = plist.position
        if not self.library.positions_kept:  # other papers at the positions shown
            plist.clear_selection()
            keep = None
        if self.state.narrowed:
            self.rerun()
        else:
            self.view = View(query="", indices=list(range(len(self.library.papers))))
            plist.set_rows(self.view.indices, keep=keep)
        self.update_status()

    @on(messages.IndexReady)
    def _index_ready(self) -> None:
        self.query_one(StatusLine).index_state = ""
        self.refresh_current()  # "new" markers and states are known now
        self.announce_drafts()  # every paper is read by now
        report = getattr(self.app, "report_corpus", None)
        if report is not None:  # the problems of files read after the first paint
            report()
        if self.state.query or self.state.order != "relevance":  # a remembered order, too
            self.rerun()

    @on(messages.SemanticReady)
    def _semantic_ready(self) -> None:
        """ "For you" could only keep the list's order until the paper vectors were built."""
        if self.state.order in LEARNING_ORDERS:
            self.rerun()

    def announce_drafts(self) -> None:
        """At startup: a note typed and never saved (the reader stopped before ctrl+s) is
        said, with its paper, and the cursor goes to that paper if the list shows it."""
        if self._drafts_said:
            return
        found = annotating.pending_draft(self.library)
        if found is None:
            return
        self._drafts_said = True
        position, text = found
        if self.paper_list.cursor == 0:  # the reader has not moved yet
            self.paper_list.go_to(position)
        self.notify(text, timeout=15)

    # -- R: fetch the subscriptions -------------------------------------------------------------

    def action_fetch(self) -> None:
        if self._fetching:
            self.notify("Already fetching.", timeout=2)
            return
        sources = load_settings().fetch_sources
        if not sources:
            self.notify(
                "No subscriptions: papertui fetch --subscribe hf (or [fetch] sources = [...] in "
                "settings.toml) says what R fetches.",
                severity="warning",
                timeout=8,
            )
            return
        self._fetching = True
        self.query_one(StatusLine).index_state = "fetching…"
        library, post = self.library, self.post

        def run() -> None:
            worker = get_current_worker()
            fetch_subscriptions(library, sources, post, lambda: worker.is_cancelled)

        self.run_worker(run, thread=True, group="fetch", exclusive=True)

    @on(messages.Fetched)
    def _fetched(self, message: messages.Fetched) -> None:
        """What arrived joins the list: the cursor stays on its paper, a selection (positions
        that now mean other papers) is dropped, and the index is brought up to date, after
        which the new papers are marked new."""
        self._fetching = False
        self.query_one(StatusLine).index_state = ""
        for failure in message.failures:
            self.notify(failure, title="Fetch failed", severity="error", timeout=10)
        if message.summary:
            self.notify(message.summary, timeout=5)
        if message.corpus is None:
            return
        current = self.current_paper
        with self.library_lock:
            self.library.replace_corpus(message.corpus)
        plist = self.paper_list
        plist.clear_selection()
        plist.set_papers(self.library.papers)
        keep = self.library.by_id.get(current.id) if current is not None else None
        self.search(Placement(keep=keep))
        self.start_preparing()
