"""The library's search index over its life: open it when it is current (told by the files'
size and mtime, else by the corpus digest), update or build it, in this process or in a child
for large corpora, and the final titles that come with it."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from papertui.core.corpus import Paper, finish_titles
from papertui.core.indexer import index_in_child
from papertui.core.query.fuzzy import PaperTitles, TitleMatcher
from papertui.core.search import (
    IndexReport,
    IndexStore,
    SearchIndex,
    corpus_digest,
    fingerprint,
    needs_child_process,
    source_stats,
)

if TYPE_CHECKING:
    from papertui.core.query.planner import Planner


class Indexing:
    """The index and the fuzzy title matcher of one set of sources, for the corpus the library
    shows now (`corpus_changed` says which), handed to that corpus' planner when ready."""

    def __init__(
        self,
        index_store: IndexStore,
        sources: Sequence[str],
        fmt: str | None,
        papers: Sequence[Paper],
        planner: Planner,
    ) -> None:
        self.index_store = index_store
        self.sources = list(sources)
        self.format = fmt
        self.papers = papers
        self.planner = planner
        self.loading = False  # some files are not read yet: no digest of part of the corpus
        self.index: SearchIndex | None = None
        self.titles: TitleMatcher | None = None  # once every title is known
        self._digest: str | None = None

    def corpus_changed(self, papers: Sequence[Paper], planner: Planner, loading: bool) -> None:
        """The library shows `papers` now, queried by `planner`: titles are derived again, the
        index (for the same files) stays."""
        self.papers = papers
        self.planner = planner
        self.loading = loading
        self.titles = None
        self._digest = None
        planner.index = self.index

    def digest(self) -> str:
        """The corpus' digest, as the index records it: the index's own when it was built from
        these very files (`_unchanged`), else computed once (~0.5 s at 100k, 4 s at a
        million: the vectors' cache is keyed by it)."""
        if self._digest is None:
            meta = None if self.loading else self.index_store.meta()
            known = meta.get("digest") if meta is not None and self._unchanged(meta) else None
            self._digest = known if isinstance(known, str) else corpus_digest(self.papers)
        return self._digest

    def _unchanged(self, meta: dict[str, object] | None) -> bool:
        """The index was built from these very files (same size and mtime), read in their own
        formats: it is current without hashing every paper."""
        return (
            meta is not None
            and self.format is None
            and not meta.get("format", "")
            and meta.get("sources") == source_stats(self.sources)
        )

    def _current(self, digest: bool = True) -> SearchIndex | None:
        # without `digest`, only an index whose files are unchanged (no pass over the papers)
        store = self.index_store
        if self._unchanged(store.meta()):
            found = store.open_if_unchanged(self.sources)
            if found is not None:
                return found
        return store.open_if_current(self.digest()) if digest else None

    def is_current(self) -> bool:
        meta = self.index_store.meta()
        if self.loading:  # no digest of part of the corpus: only the files' stats tell
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
        if self.loading:
            raise RuntimeError("the corpus is still loading: replace_corpus(finish_loading())")
        started = time.perf_counter()
        fingerprints: list[str] | None = None
        meta = None if self._digest is not None or rebuild else self.index_store.meta()
        if meta is not None and not self._unchanged(meta):
            # an update will compare every paper's fingerprint with the index's: the digest
            # is made of the same ones (each pass over a million papers is 4 s)
            fingerprints = [fingerprint(p) for p in self.papers]
            self._digest = corpus_digest(self.papers, fingerprints)
        found = None if rebuild else self._current()
        if found is not None:
            found.apply_titles(self.papers)
            count = len(self.papers)
            index, report = found, self.index_store.report(found, "reused", count, started)
        else:
            index, report = self.index_store.ensure(
                self.papers,
                self.sources,
                progress,
                cancelled,
                self.digest(),
                self.format,
                rebuild,
                fingerprints,
            )
        if self.titles is None or report.how != "reused":
            self.titles_ready()  # titles derived by the build may differ from those shown
        self.use(index)
        return report

    def use(self, index: SearchIndex | None) -> None:
        """Search `index` from now on (closing the one searched before)."""
        old, self.index = self.index, index
        self.planner.index = index
        if old is not None and old is not index:
            old.close()

    def needs_child_process(self) -> bool:
        """Large corpora are indexed by a child process (the same rule the builder uses to
        decide on parallel writers, so no UI worker thread ever forks)."""
        return self.loading or needs_child_process(len(self.papers))

    def run_in_child(
        self,
        progress: Callable[[int, int], None],
        cancelled: Callable[[], bool],
        started: Callable[[subprocess.Popen[str]], None] | None = None,
        tick: Callable[[], None] | None = None,
    ) -> None:
        """Index in a child process; `tick` is called every ~0.1 s while it runs, from this
        thread (a reader that opened deferred calls `load_ready` there)."""
        index_in_child(self.sources, progress, cancelled, started, self.format, tick)

    def complete_titles(self, matcher: bool = True, digest: bool = True) -> None:
        """Every title, final: from a current index when there is one (fast), else derived;
        with `matcher`, also the fuzzy title matcher that searches need (seconds at 100,000
        papers: `list` and `rank` print titles and search nothing). Without `digest`, only an
        index over unchanged files gives them (an update's digest is computed once, later)."""
        if self.titles is not None:
            return
        index = self._current(digest)
        if index is not None:
            index.apply_titles(self.papers)
            index.close()
        if matcher:
            self.titles_ready()
        else:
            finish_titles(self.papers)

    def titles_ready(self) -> None:
        """Derive every title still missing and build the fuzzy title matcher over them."""
        finish_titles(self.papers)
        matcher = TitleMatcher(PaperTitles(self.papers))
        matcher.prepare(self.index_store.root / "titles.trigrams")
        self.titles = matcher
        self.planner.titles = matcher
