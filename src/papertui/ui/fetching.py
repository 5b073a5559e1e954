"""`R` in the reader: fetch the subscriptions in a worker, then show what arrived. The worker
touches no widget: it posts `Fetching.Progress` while it fetches and `Fetching.Done` with the
corpus read again, and the reader shows them. httpx loads only when `R` is pressed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import get_current_worker

from papertui.core import paths
from papertui.core.corpus import Corpus
from papertui.core.corpus_cache import load_corpus_cached
from papertui.core.settings import load_settings
from papertui.core.sources import corpus_cache_dir
from papertui.core.text import counted

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen


class Fetching:
    @dataclass
    class Progress(Message):
        """What is being fetched, for the status line."""

        text: str

    @dataclass
    class Done(Message):
        """The fetch ended: one line to say, the failures, and the corpus read again (None when
        the reader does not show fetched papers)."""

        summary: str
        failures: list[str] = field(default_factory=list)
        corpus: Corpus | None = None

    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.running = False

    def start(self) -> None:
        reader = self.reader
        if self.running:
            reader.notify("Already fetching.", timeout=2)
            return
        sources = load_settings().fetch_sources
        if not sources:
            reader.notify(
                "No subscriptions: papertui fetch --subscribe hf (or [fetch] sources = [...] in "
                "settings.toml) says what R fetches.",
                severity="warning",
                timeout=8,
            )
            return
        self.running = True
        reader.set_index_state("fetching…")
        reader.run_worker(lambda: self._fetch(sources), thread=True, group="fetch", exclusive=True)

    def _fetch(self, sources: Sequence[str]) -> None:
        """In a worker thread: fetch, then read the corpus again if it holds fetched papers."""
        from papertui.fetch.client import FetchCancelled
        from papertui.fetch.config import ConfigError
        from papertui.fetch.context import FetchOptions
        from papertui.fetch.run import fetch_sources
        from papertui.fetch.specs import SpecError, parse_spec

        worker = get_current_worker()
        reader = self.reader

        def progress(source: str, papers: int, doing: str) -> None:
            got = f", {counted(papers, 'paper')}" if papers else ""
            reader.post_message(Fetching.Progress(f"fetching {source}: {doing}{got}"))

        try:
            specs = [parse_spec(text) for text in sources]
            outcomes = fetch_sources(
                specs, FetchOptions(), progress=progress, cancelled=lambda: worker.is_cancelled
            )
        except (SpecError, ConfigError) as exc:
            reader.post_message(Fetching.Done("", [str(exc)]))
            return
        except FetchCancelled:
            return
        except Exception as exc:  # noqa: BLE001 - the reader goes on; say what happened
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            reader.post_message(Fetching.Done("", [reason]))
            return
        got = sum(len(o.records) for o in outcomes)
        new = sum(len(o.new) for o in outcomes)
        failures = [f"{o.spec.text}: {o.failure}" for o in outcomes if o.failure]
        corpus = None
        library = reader.library
        if self.shows_fetched(library.sources) and not worker.is_cancelled:
            corpus, _cached = load_corpus_cached(
                library.sources, library.format, corpus_cache_dir()
            )
        if got:
            summary = f"Fetched {counted(got, 'paper')}, {new} new."
        elif failures:
            summary = ""
        else:
            summary = "Nothing new: every subscription is unchanged or complete."
        if corpus is None and new:
            summary += " Open them with papertui --fetched (or papertui daily)."
        reader.post_message(Fetching.Done(summary, failures, corpus))

    @staticmethod
    def shows_fetched(sources: Sequence[str]) -> bool:
        root = paths.fetched_dir().resolve()
        return any(Path(s).resolve().is_relative_to(root) for s in sources)

    # -- on the UI thread ---------------------------------------------------------------------

    def done(self, message: Fetching.Done) -> None:
        reader = self.reader
        self.running = False
        reader.set_index_state("")
        for failure in message.failures:
            reader.notify(failure, title="Fetch failed", severity="error", timeout=10)
        if message.summary:
            reader.notify(message.summary, timeout=5)
        if message.corpus is not None:
            self._show(message.corpus)

    def _show(self, corpus: Corpus) -> None:
        """The corpus with what arrived: the cursor stays on its paper, a selection (positions
        that now mean other papers) is dropped, and the index is brought up to date, after
        which the new papers are marked new."""
        reader = self.reader
        library = reader.library
        current = reader.current_paper
        with reader.searching.lock:
            library.replace_corpus(corpus)
        plist = reader.paper_list
        plist.clear_selection()
        plist.set_papers(library.papers)
        keep = library.by_id.get(current.id) if current is not None else None
        reader.searching.search(keep=keep)
        reader.indexing.start()
