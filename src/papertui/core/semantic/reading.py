"""The library's semantic side: the vectors and topics of the corpus, related papers, overviews.

A `Library` holds one `SemanticReading` (`library.semantic`) and delegates to it, so the facade
stays small while this keeps the lazily built cache and what the planner learns from it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papertui.core.corpus import Paper
from papertui.core.query.view import View
from papertui.core.store import Store

if TYPE_CHECKING:
    from papertui.core.library.indexing import Indexing
    from papertui.core.query.planner import Planner
    from papertui.core.semantic.overview import Overview
    from papertui.core.semantic.service import SemanticCache


class SemanticReading:
    """Vectors and topics of the corpus the library shows (built on demand, cached in
    `directory`, keyed by the digest `indexing` gives) and what is read from them."""

    def __init__(
        self,
        directory: Path,
        store: Store,
        indexing: Indexing,
        papers: Sequence[Paper],
        by_id: dict[str, int],
        planner: Planner,
    ) -> None:
        self._directory = directory
        self._store = store
        self._indexing = indexing
        self._cache: SemanticCache | None = None
        self.corpus_changed(papers, by_id, planner)

    def corpus_changed(
        self, papers: Sequence[Paper], by_id: dict[str, int], planner: Planner
    ) -> None:
        """The library shows `papers` now, queried by `planner`: drop what was computed per
        position."""
        self._papers = papers
        self._by_id = by_id
        self._planner = planner
        self._word_counts: list[int] | None = None  # abstract length per position (overview)

    def cache(self) -> SemanticCache:
        if self._cache is None:
            from papertui.core.semantic.service import SemanticCache

            self._cache = SemanticCache(self._directory)
        return self._cache

    def state(self) -> str:
        """ "" when vectors and topics are ready; else what is happening, for the status bar
        ("topics: computing 40%", "topics: not built")."""
        return self.cache().state

    def ready(self) -> bool:
        return self._cache is not None and self._cache.ready

    def vectors(self) -> Any:
        return self._cache.vectors if self._cache is not None else None

    def ensure(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        in_process: bool = False,
    ) -> None:
        """Load from the cache, extend or build the vectors and topics of the corpus.

        Slow the first time (~1 min at 100k): call from a worker after `Indexing.ensure`.
        Large corpora (`Indexing.needs_child_process`) are built by a child process (`papertui
        semantic`) and then memory-mapped here, unless `in_process` (the CLI, which is its own
        process). progress(done, total) as the index reports it; raises IndexCancelled when
        cancelled, IndexFailed when the child fails."""
        from papertui.core.search import IndexCancelled

        indexing = self._indexing
        cache = self.cache()
        digest = indexing.digest()
        cache.known_ids = [p.id for p in self._papers]
        if cache.load(digest):
            self._loaded()
            return
        if indexing.needs_child_process() and not in_process:
            from papertui.core.semantic.child import semantic_in_child

            cache.state = "topics: computing 0%"

            def report(done: int, total: int) -> None:
                cache.state = f"topics: computing {100 * done // max(total, 1)}%"
                if progress is not None:
                    progress(done, total)

            try:
                semantic_in_child(
                    indexing.sources, report, cancelled or (lambda: False), None, indexing.format
                )
            finally:
                cache.state = "topics: not built"
            if not cache.load(digest):
                raise IndexCancelled()  # the child finished without a cache for this corpus
        else:
            from papertui.core.semantic.service import SemanticCancelled

            try:
                cache.ensure(digest, self._papers, progress, cancelled)
            except SemanticCancelled as exc:
                raise IndexCancelled() from exc
        self._loaded()

    def _loaded(self) -> None:
        """Teach the planner `topic:n` and meaning search (the interest model retrains on the
        new vectors by itself)."""
        cache = self.cache()
        vectors, topics = cache.vectors, cache.topics
        shared, cache.known_ids = cache.known_ids, None
        if vectors is None or topics is None:
            return
        if vectors.ids is shared:  # the papers' ids, in their order: so are the library's
            vectors.use_positions(self._by_id)
        from papertui.core.semantic.similar import search

        numbered = topics.topics

        def topic_ids(n: int) -> Collection[str] | None:
            return frozenset(numbered[n - 1].ids) if 1 <= n <= len(numbered) else None

        # the ids' positions, built here in the background: on the first "more like this"
        # they took 2 s at a million papers
        vectors.position("")
        everything = len(vectors)
        planner = self._planner
        planner.topic_ids = topic_ids
        planner.meaning = lambda text, limit: search(vectors, text, limit or everything)

    def similar(
        self,
        paper: Paper | None,
        limit: int = 50,
        bookmarks_only: bool = False,
        collections: Collection[str] = (),
    ) -> View:
        """Papers most like `paper` (None: like the bookmarked papers taken together), within
        the same filters as the list (bookmarks only, the chosen collections)."""
        label = f"like {paper.title!r}" if paper else "like your bookmarks"
        view = View(query="", indices=[], remarks=[f"papers {label}"])
        annotations = self._store.snapshot()
        ids = [paper.id] if paper else list(annotations.bookmarks)
        narrowed = bookmarks_only or bool(collections)
        chosen = set(collections)
        wanted = limit * 10 if narrowed else limit
        vectors = self.vectors()
        if vectors is not None:
            from papertui.core.semantic.similar import similar

            found = similar(vectors, ids, wanted, exclude=ids)
        elif (index := self._indexing.index) is None:
            view.remarks.append("index not ready")
            return view
        else:
            found = [(pid, s) for pid, s in index.similar(ids, wanted) if pid not in ids]
        for pid, score in found:
            pos = self._by_id.get(pid)
            if pos is None or (bookmarks_only and pid not in annotations.bookmarks):
                continue
            if chosen and not chosen.intersection(self._papers[pos].collections):
                continue
            view.indices.append(pos)
            view.scores[pos] = score
        del view.indices[limit:]
        return view

    def topic_label(self, n: int) -> str:
        """The label of topic `n` (1-based, as `topic:n` and the overview number it); "" when
        topics are not computed or there is no such topic."""
        topics = self._cache.topics if self._cache is not None else None
        if topics is None or not 1 <= n <= len(topics.topics):
            return ""
        return topics.topics[n - 1].label

    def overview(self, indices: Sequence[int], terms: bool = True) -> Overview:
        """Counts, years, venues, collections, abstract lengths, distinctive terms and topics
        (with unread counts; number = index + 1) of the papers at `indices`."""
        from papertui.core.semantic import overview as ov

        annotations = self._store.snapshot()
        marks = ov.Annotations(
            read=annotations.reads.keys(),
            bookmarked=annotations.bookmarks.keys(),
            noted=annotations.notes.keys(),
            tagged=annotations.tags.keys(),
        )
        topics = self._cache.topics if self._cache is not None else None
        papers = self._papers
        view = [papers[i] for i in indices]
        if self._word_counts is None:
            self._word_counts = [len(p.abstract.split()) for p in papers]
        counts = self._word_counts
        return ov.compute_overview(
            view, papers, marks, topics, terms=terms, word_counts=[counts[i] for i in indices]
        )
