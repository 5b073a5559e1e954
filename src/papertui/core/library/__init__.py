"""The model the UI and the CLI share: the papers, their index and the user's store, one API.

Nothing above it (the reader, the CLI) touches the store, the index or the query planner
directly. `Library` loads the corpus, answers queries and records; its parts, each in its own
module, hold the rest: `library.indexing` (open, update or build the index), `library.marks`
(bookmarks, notes, tags, read state, likes and skips), `library.semantic` (vectors, topics,
related papers, overviews) and `library.foryou` (the interest model and its rankings). Below
them, `query.planner` plans queries over an `Annotations` snapshot, `export` assembles exports,
`store` persists and `library.sources` says where a set of sources caches its index. The
package is the top of the core: it may import every other package, and none imports it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from papertui.core.corpus import Corpus, Paper
from papertui.core.corpus.cache import CorpusLoader, load_corpus_cached
from papertui.core.corpus.preview import head_corpus
from papertui.core.export.entries import Entry, annotated_entries, annotated_ids, entries_for
from papertui.core.export.records import paper_record
from papertui.core.library.indexing import Indexing
from papertui.core.library.marks import Marks
from papertui.core.library.sources import (
    corpus_cache_dir,
    drop_old_cache,
    index_store_for,
    quick_search,
    resolve_sources,
)
from papertui.core.query import Filter
from papertui.core.query.fuzzy import TitleMatcher
from papertui.core.query.planner import DEPTH, Planner
from papertui.core.query.view import View
from papertui.core.search import SearchIndex
from papertui.core.semantic.foryou import ForYou
from papertui.core.semantic.reading import SemanticReading
from papertui.core.store import Annotations, Store
from papertui.core.system import paths

__all__ = ["DEPTH", "Library", "PaperNotFound", "quick_search"]

# Deriving a title costs ~50 us: up to this many papers, derive them all when the corpus opens.
EAGER_TITLES = 5000
# `Library.open_deferred` leaves files to the indexing child when more than this many bytes
# need parsing (~1 s of parsing on a busy 2-core machine: 150 MB of JSONL took 12 s).
DEFER_BYTES = 12_000_000
# ... and reads the caches of files up to this many bytes before the first screen (~0.4 s for
# 150 MB of JSONL); the rest is read by a worker (5 s for a million arXiv records).
WARM_BYTES = 150_000_000


class PaperNotFound(LookupError):
    pass


class Library:
    def __init__(
        self, corpus: Corpus, store: Store, sources: Sequence[str], fmt: str | None = None
    ) -> None:
        self.corpus = corpus
        self.format = fmt
        self.papers: list[Paper] = corpus.papers
        self.store = store
        self.sources = list(sources)
        self.by_id: dict[str, int] = {p.id: i for i, p in enumerate(self.papers)}
        self.index_store = index_store_for(self.sources)
        self.planner = Planner(self.papers, self.by_id)
        self._loader: CorpusLoader | None = None  # files still to read (`open_deferred`)
        self._head_shown = False  # the papers shown are a large file's head (`head_corpus`)
        # the papers shown before the last `replace_corpus` are still at their positions
        self.positions_kept = True
        # the parts, each given what it needs; `replace_corpus` tells them of a new corpus
        papers, by_id, planner = self.papers, self.by_id, self.planner
        # open, update or build the index; final titles
        self.indexing = Indexing(self.index_store, self.sources, fmt, papers, planner)
        # bookmarks, notes, tags, read and seen, likes and skips
        self.marks = Marks(store, papers, planner)
        # vectors, topics, related papers, overviews
        semantic_dir = self.index_store.root / "semantic"
        self.semantic = SemanticReading(semantic_dir, store, self.indexing, papers, by_id, planner)
        # the interest model and the rankings it gives
        self.foryou = ForYou(store, self.semantic, papers, by_id, planner)
        if len(self.papers) <= EAGER_TITLES:  # from a current index when there is one
            self.indexing.complete_titles(digest=False)

    @classmethod
    def open(cls, sources: Sequence[str | Path] | None = None, fmt: str | None = None) -> Library:
        """Load the corpus (the bundled one when no path is given) and the user's store.

        `fmt` forces one input format for every file (else each file's own is detected)."""
        chosen = resolve_sources(sources)
        drop_old_cache(chosen, fmt)
        corpus, _cached = load_corpus_cached(chosen, fmt, corpus_cache_dir())
        return cls(corpus, Store(paths.store_path()), chosen, fmt)

    @classmethod
    def open_deferred(
        cls, sources: Sequence[str | Path] | None = None, fmt: str | None = None
    ) -> Library:
        """As `open`, but when many megabytes of files need parsing, only the files already
        cached are read (up to `WARM_BYTES` of them): `loading` is then true, the indexing
        child parses the rest (writing each file's cache as it goes), `load_ready` picks up
        what it has written and `finish_loading` reads whatever is left. A start shows its
        first papers in about a second instead of after reading everything: the cached
        files', or, when none is read yet, the first papers of the first file
        (`head_corpus`)."""
        chosen = resolve_sources(sources)
        drop_old_cache(chosen, fmt)
        loader = CorpusLoader(chosen, fmt, corpus_cache_dir())
        loader.advance(parse=False, budget=WARM_BYTES)
        if not loader.held_back and loader.pending_bytes() <= DEFER_BYTES:
            loader.advance(parse=True)
        corpus = loader_corpus = loader.corpus()
        if not loader.done and not corpus.papers:
            # one large file: its head, while the indexing child (or, when the file's cache is
            # current, the reader's worker) reads it all
            corpus = head_corpus(loader.files[loader.next], fmt) or corpus
        library = cls(corpus, Store(paths.store_path()), chosen, fmt)
        if not loader.done:
            library._loader = loader
            library._head_shown = corpus is not loader_corpus
            library.indexing.loading = True
        return library

    @property
    def loading(self) -> bool:
        """Some files are not read yet (see `open_deferred`)."""
        return self._loader is not None

    @property
    def index(self) -> SearchIndex | None:
        """The full-text index, once `indexing` has opened or built it."""
        return self.indexing.index

    @property
    def titles(self) -> TitleMatcher | None:
        """The fuzzy title matcher, once every title is known."""
        return self.indexing.titles

    def load_ready(self) -> Corpus | None:
        """The corpus with the files whose cache has been written since (by the indexing
        child), or None when there are none. Call from a worker (reading caches costs ~10 ms
        per 4,000 papers), then hand the corpus to `replace_corpus` on the UI thread."""
        loader = self._loader
        if loader is None or not loader.advance(parse=False):
            return None
        return loader.corpus()

    def finish_loading(self) -> Corpus | None:
        """The whole corpus, parsing what no cache holds yet (nothing, once the indexing child
        has read every file); None when nothing was pending. Call from a worker."""
        loader = self._loader
        if loader is None:
            return None
        loader.advance(parse=True)
        return loader.corpus()

    def replace_corpus(self, corpus: Corpus) -> None:
        """Show `corpus` from now on: one from `load_ready` or `finish_loading` (its first
        papers are the papers shown before, at the same positions, unless `positions_kept`
        turns false: the file whose head was shown changed meanwhile). Call from the thread that
        reads `papers` (the UI thread); cheap (~50 ms at 100,000 papers)."""
        loader = self._loader
        if loader is not None and loader.done and len(corpus.papers) == loader.paper_count:
            self._loader = None  # the whole corpus
        self.positions_kept = True
        if self._head_shown:  # read apart from the whole file: the same papers unless the
            # file changed between the two reads
            self._head_shown = False
            shown = self.papers
            self.positions_kept = len(corpus.papers) >= len(shown) and all(
                new.id == old.id for new, old in zip(corpus.papers, shown, strict=False)
            )
        self.corpus = corpus
        self.papers = corpus.papers
        self.by_id = {p.id: i for i, p in enumerate(self.papers)}
        self.planner = Planner(self.papers, self.by_id)
        self.indexing.corpus_changed(self.papers, self.planner, self.loading)
        self.marks.corpus_changed(self.papers, self.planner)
        self.semantic.corpus_changed(self.papers, self.by_id, self.planner)
        self.foryou.corpus_changed(self.papers, self.by_id, self.planner)
        if len(self.papers) <= EAGER_TITLES:  # from a current index when there is one
            self.indexing.complete_titles(digest=False)

    def close(self) -> None:
        self.indexing.use(None)
        self.store.close()

    # -- queries ----------------------------------------------------------------------------------

    def annotations(self) -> Annotations:
        """The user's annotations as one immutable snapshot (the store reuses it until the next
        change), safe to read from a worker while the UI thread writes."""
        return self.store.snapshot()

    def run_query(
        self,
        raw: str,
        bookmarks_only: bool = False,
        limit: int | None = None,
        depth: int | None = DEPTH,
        sort: str = "relevance",
        collections: Collection[str] = (),
    ) -> View:
        """Full text, typo repair, fuzzy titles and filters. Never raises for any string.

        At most `depth` full-text hits are ranked (None: all of them); `View.truncated` says
        when there may be more, and a deeper query fetches them."""
        annotations = self.annotations()
        extra = [Filter("bookmarked")] if bookmarks_only else []
        view = self.planner.run(raw, annotations, extra=extra, depth=depth, collections=collections)
        if sort in ("foryou", "new"):
            self.foryou.order(view, annotations)
            if sort == "new":  # what was fetched or added since last time, then the rest
                fresh = annotations.new.difference(annotations.reads)
                papers = self.papers
                view.indices = [i for i in view.indices if papers[i].id in fresh] + [
                    i for i in view.indices if papers[i].id not in fresh
                ]
        else:
            view.indices = self.planner.sort(view.indices, sort, annotations)
        if limit is not None:
            view.indices = view.indices[:limit]
        return view

    def has_order(self, sort: str) -> bool:
        """Whether the order `new` (new papers first) or `upvotes` (Daily Papers' upvotes)
        would differ from "for you" or corpus order: some paper is new, or has upvotes."""
        if sort == "new":
            notes = self.annotations()
            return any(pid not in notes.reads for pid in notes.new)
        if sort == "upvotes":
            return any(p._meta and p.meta.upvotes is not None for p in self.papers)
        return True

    def record(self, paper: Paper, score: float | None = None) -> dict[str, object]:
        """The JSON record of a paper, as every command prints it."""
        return paper_record(paper, self.annotations(), score=score)

    # -- papers and annotations -------------------------------------------------------------------

    def resolve(self, prefix: str) -> Paper:
        """The paper whose id starts with `prefix`; a clear error when none or several do."""
        prefix = prefix.strip().lower()
        if not prefix:
            raise PaperNotFound("empty paper id")
        found = [p for p in self.papers if p.id.startswith(prefix)]
        if not found:
            raise PaperNotFound(f"no paper with id {prefix!r} in the corpus")
        if len(found) > 1:
            some = "; ".join(f"{p.id} {p.title[:40]}" for p in found[:3])
            more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
            raise PaperNotFound(
                f"id {prefix!r} is ambiguous ({len(found)} papers: {some}{more}); "
                "type more characters"
            )
        return found[0]

    def entries(self, papers: Sequence[Paper] | None = None) -> list[Entry]:
        """Export entries of `papers`; None: every bookmarked, noted or tagged paper, from the
        corpus or, if its file is gone, the store's copy (with all its metadata)."""
        annotations = self.annotations()
        if papers is not None:
            return entries_for(papers, annotations)
        ids = annotated_ids(annotations)
        here = {pid: self.papers[self.by_id[pid]] for pid in ids if pid in self.by_id}
        saved = self.store.saved_papers([pid for pid in ids if pid not in here])
        return annotated_entries(ids, here, saved, annotations)
