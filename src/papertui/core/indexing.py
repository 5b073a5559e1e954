"""The library's search index over its life: open it when it is current (told by the files'
size and mtime, else by the corpus digest), update or build it, in this process or in a child
for large corpora, and the final titles that come with it."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from papertui.core.corpus import finish_titles
from papertui.core.fuzzy import TitleMatcher
from papertui.core.indexer import index_in_child
from papertui.core.search import (
    IndexReport,
    SearchIndex,
    corpus_digest,
    needs_child_process,
    source_stats,
)

if TYPE_CHECKING:
    from papertui.core.library import Library


class Indexing:
    def __init__(self, library: Library) -> None:
        self.library = library
        self._digest: str | None = None

    def corpus_changed(self) -> None:
        self._digest = None

    def digest(self) -> str:
        """The corpus' digest, as the index records it (computed once: ~0.5 s at 100k)."""
        if self._digest is None:
            self._digest = corpus_digest(self.library.papers)
        return self._digest

    def _unchanged(self, meta: dict[str, object] | None) -> bool:
        """The index was built from these very files (same size and mtime), read in their own
        formats: it is current without hashing every paper."""
        library = self.library
        return (
            meta is not None
            and library.format is None
            and not meta.get("format", "")
            and meta.get("sources") == source_stats(library.sources)
        )

    def _current(self) -> SearchIndex | None:
        store = self.library.index_store
        if self._unchanged(store.meta()):
            found = store.open_if_unchanged(self.library.sources)
            if found is not None:
                return found
        return store.open_if_current(self.digest())

    def is_current(self) -> bool:
        meta = self.library.index_store.meta()
        if self.library.loading:  # no digest of part of the corpus: only the files' stats tell
            return self._unchanged(meta)
        return meta is not None and (self._unchanged(meta) or meta.get("digest") == self.digest())

    def ensure(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        rebuild: bool = False,
    ) -> IndexReport:
        """Open, update or build the index (slow the first time: call from a worker).

        `rebuild` builds it afresh: what to do when a search raised `SearchFailed` (an index
        that opens but whose files are damaged)."""
        library = self.library
        if library.loading:
            raise RuntimeError("the corpus is still loading: replace_corpus(finish_loading())")
        started = time.perf_counter()
        found = None if rebuild else self._current()
        if found is not None:
            found.apply_titles(library.papers)
            count = len(library.papers)
            index, report = found, library.index_store.report(found, "reused", count, started)
        else:
            index, report = library.index_store.ensure(
                library.papers,
                library.sources,
                progress,
                cancelled,
                self.digest(),
                library.format,
                rebuild,
            )
        if library.titles is None or report.how != "reused":
            self.titles_ready()  # titles derived by the build may differ from those shown
        old, library.index = library.index, index
        library.planner.index = index
        if old is not None:
            old.close()
        return report

    def needs_child_process(self) -> bool:
        """Large corpora are indexed by a child process (the same rule the builder uses to
        decide on parallel writers, so no UI worker thread ever forks)."""
        return self.library.loading or needs_child_process(len(self.library.papers))

    def run_in_child(
        self,
        progress: Callable[[int, int], None],
        cancelled: Callable[[], bool],
        started: Callable[[subprocess.Popen[str]], None] | None = None,
        tick: Callable[[], None] | None = None,
    ) -> None:
        """Index in a child process; `tick` is called every ~0.1 s while it runs, from this
        thread (a reader that opened deferred calls `load_ready` there)."""
        library = self.library
        index_in_child(library.sources, progress, cancelled, started, library.format, tick)

    def complete_titles(self, matcher: bool = True) -> None:
        """Every title, final: from a current index when there is one (fast), else derived;
        with `matcher`, also the fuzzy title matcher that searches need (seconds at 100,000
        papers: `list` and `rank` print titles and search nothing)."""
        if self.library.titles is not None:
            return
        index = self._current()
        if index is not None:
            index.apply_titles(self.library.papers)
            index.close()
        if matcher:
            self.titles_ready()
        else:
            finish_titles(self.library.papers)

    def titles_ready(self) -> None:
        library = self.library
        finish_titles(library.papers)
        matcher = TitleMatcher([p.title for p in library.papers])
        matcher.prepare(library.index_store.root / "titles.trigrams")
        library.titles = matcher
        library.planner.titles = matcher
