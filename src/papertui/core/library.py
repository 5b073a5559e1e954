"""The model the UI and the CLI share: the papers, their index and the user's store, one API.

Nothing above it (the reader, the CLI) touches the store, the index or the query planner
directly; each concern lives in its own module below: `querying` plans queries over an
`Annotations` snapshot, `export` assembles and writes exports, `store` persists, `sources`
says where a set of sources caches its index, `semantic.reading` holds the vectors and topics
and `semantic.foryou` the interest model (the methods here delegate to the last two).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core import paths
from papertui.core.corpus import Corpus, Paper, finish_titles
from papertui.core.corpus_cache import CorpusLoader, load_corpus_cached
from papertui.core.export import Entry, annotated_entries, annotated_ids, entries_for
from papertui.core.fuzzy import TitleMatcher
from papertui.core.indexer import index_in_child
from papertui.core.query import Filter
from papertui.core.querying import DEPTH, Planner, View
from papertui.core.records import paper_record
from papertui.core.search import (
    IndexReport,
    SearchIndex,
    corpus_digest,
    needs_child_process,
    source_stats,
)
from papertui.core.semantic.foryou import ForYou
from papertui.core.semantic.reading import SemanticReading
from papertui.core.sources import (
    corpus_cache_dir,
    drop_old_cache,
    index_store_for,
    quick_search,
    resolve_sources,
)
from papertui.core.store import LIKED, SKIPPED, Annotations, Store

if TYPE_CHECKING:
    from papertui.core.overview import Overview
    from papertui.core.semantic.service import SemanticCache
    from papertui.core.semantic.triage import InterestModel

__all__ = ["DEPTH", "Library", "PaperNotFound", "View", "quick_search"]

# Deriving a title costs ~50 us: up to this many papers, derive them all when the corpus opens.
EAGER_TITLES = 5000
# `Library.open_deferred` leaves files to the indexing child when more than this many bytes
# need parsing (~1 s of parsing on a busy 2-core machine: 150 MB of JSONL took 12 s).
DEFER_BYTES = 12_000_000


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
        self.titles: TitleMatcher | None = None  # once every title is known
        self.index: SearchIndex | None = None
        self.index_store = index_store_for(self.sources)
        self.planner = Planner(self.papers, self.by_id)
        self._digest: str | None = None
        self._loader: CorpusLoader | None = None  # files still to read (`open_deferred`)
        self.semantic = SemanticReading(self)  # vectors, topics, related papers, overviews
        self.foryou = ForYou(self)  # the interest model and the rankings it gives
        if len(self.papers) <= EAGER_TITLES:
            self._titles_ready()

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
        cached are read: `loading` is then true, the indexing child parses the rest (writing
        each file's cache as it goes), `load_ready` picks up what it has written and
        `finish_loading` reads whatever is left. A cold start shows its first papers in about
        a second instead of after parsing everything."""
        chosen = resolve_sources(sources)
        drop_old_cache(chosen, fmt)
        loader = CorpusLoader(chosen, fmt, corpus_cache_dir())
        loader.advance(parse=False)
        if loader.pending_bytes() <= DEFER_BYTES:
            loader.advance(parse=True)
        library = cls(loader.corpus(), Store(paths.store_path()), chosen, fmt)
        if not loader.done:
            library._loader = loader
        return library

    @property
    def loading(self) -> bool:
        """Some files are not read yet (see `open_deferred`)."""
        return self._loader is not None

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
        papers are the papers shown before, at the same positions). Call from the thread that
        reads `papers` (the UI thread); cheap (~50 ms at 100,000 papers)."""
        loader = self._loader
        if loader is not None and loader.done and len(corpus.papers) == loader.paper_count:
            self._loader = None  # the whole corpus
        self.corpus = corpus
        self.papers = corpus.papers
        self.by_id = {p.id: i for i, p in enumerate(self.papers)}
        planner = Planner(self.papers, self.by_id)
        planner.index = self.index
        self.planner = planner
        self.titles = None
        self._digest = None
        self.semantic.corpus_changed()
        self.foryou.forget()
        if len(self.papers) <= EAGER_TITLES:
            self._titles_ready()

    def mark_seen(self) -> set[str]:
        """Note which papers each file holds now; papers new since a file was last opened
        become `is:new` (until read). Writes one row per paper the first time: call it from a
        worker for large corpora."""
        by_source: dict[str, list[str]] = {}
        for paper in self.papers:
            by_source.setdefault(paper.source, []).append(paper.id)
        by_source = {str(Path(src).resolve()): ids for src, ids in by_source.items()}
        self.store.reconcile(self.papers)  # annotations made under an older id move to the new
        return self.store.record_seen(by_source)

    def complete_titles(self) -> None:
        """Every title, final: from a current index when there is one (fast), else derived."""
        if self.titles is not None:
            return
        index = self._current_index()
        if index is not None:
            index.apply_titles(self.papers)
            index.close()
        self._titles_ready()

    def _titles_ready(self) -> None:
        finish_titles(self.papers)
        matcher = TitleMatcher([p.title for p in self.papers])
        matcher.prepare(self.index_store.root / "titles.trigrams")
        self.titles = matcher
        self.planner.titles = matcher

    # -- index ------------------------------------------------------------------------------------

    def digest(self) -> str:
        """The corpus' digest, as the index records it (computed once: ~0.5 s at 100k)."""
        if self._digest is None:
            self._digest = corpus_digest(self.papers)
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

    def _current_index(self) -> SearchIndex | None:
        if self._unchanged(self.index_store.meta()):
            found = self.index_store.open_if_unchanged(self.sources)
            if found is not None:
                return found
        return self.index_store.open_if_current(self.digest())

    def index_is_current(self) -> bool:
        meta = self.index_store.meta()
        if self.loading:  # no digest of part of the corpus: only the files' stats can tell
            return self._unchanged(meta)
        return meta is not None and (self._unchanged(meta) or meta.get("digest") == self.digest())

    def ensure_index(
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
        found = None if rebuild else self._current_index()
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
            )
        if self.titles is None or report.how != "reused":
            self._titles_ready()  # titles derived by the build may differ from those shown
        old, self.index = self.index, index
        self.planner.index = index
        if old is not None:
            old.close()
        return report

    def needs_child_process(self) -> bool:
        """Large corpora are indexed by a child process (the same rule the builder uses to
        decide on parallel writers, so no UI worker thread ever forks)."""
        return self.loading or needs_child_process(len(self.papers))

    def index_in_child(
        self,
        progress: Callable[[int, int], None],
        cancelled: Callable[[], bool],
        started: Callable[[subprocess.Popen[str]], None] | None = None,
        tick: Callable[[], None] | None = None,
    ) -> None:
        """Index in a child process; `tick` is called every ~0.1 s while it runs, from this
        thread (a reader that opened deferred calls `load_ready` there)."""
        index_in_child(self.sources, progress, cancelled, started, self.format, tick)

    def close(self) -> None:
        if self.index is not None:
            self.index.close()
            self.index = None
            self.planner.index = None
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
        notes = self.annotations()
        extra = [Filter("bookmarked")] if bookmarks_only else []
        view = self.planner.run(raw, notes, extra=extra, depth=depth, collections=collections)
        if sort == "foryou":
            self.foryou.order(view, notes)
        else:
            view.indices = self.planner.sort(view.indices, sort, notes)
        if limit is not None:
            view.indices = view.indices[:limit]
        return view

    def similar(
        self,
        paper: Paper | None,
        limit: int = 50,
        bookmarks_only: bool = False,
        collections: Collection[str] = (),
    ) -> View:
        """Papers most like `paper` (None: like the bookmarked papers taken together), within
        the same filters as the list (bookmarks only, the chosen collections)."""
        return self.semantic.similar(paper, limit, bookmarks_only, collections)

    # -- related papers, topics and "for you" ------------------------------------------------------

    def _cache(self) -> SemanticCache:
        return self.semantic.cache()

    def semantic_state(self) -> str:
        """ "" when vectors and topics are ready; else what is happening, for the status bar
        ("topics: computing 40%", "topics: not built")."""
        return self.semantic.state()

    def semantic_ready(self) -> bool:
        return self.semantic.ready()

    def ensure_semantic(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        in_process: bool = False,
    ) -> None:
        """Load from the cache, extend or build the vectors and topics of the corpus.

        Slow the first time (~1 min at 100k): call from a worker after `ensure_index`. Large
        corpora (`needs_child_process`) are built by a child process (`papertui semantic`) and
        then memory-mapped here, unless `in_process` (the CLI, which is its own process).
        progress(done, total) as the index reports it; raises IndexCancelled when cancelled,
        IndexFailed when the child fails."""
        self.semantic.ensure(progress, cancelled, in_process=in_process)

    def topic_label(self, n: int) -> str:
        """The label of topic `n` (1-based, as `topic:n` and the overview number it); "" when
        topics are not computed or there is no such topic."""
        return self.semantic.topic_label(n)

    def overview(self, indices: Sequence[int], terms: bool = True) -> Overview:
        """Counts, years, venues, collections, abstract lengths, distinctive terms and topics
        (with unread counts; number = index + 1) of the papers at `indices`."""
        return self.semantic.overview(indices, terms)

    def interest(self) -> InterestModel | None:
        """The reader's interest model, trained once per annotations snapshot and negative
        keywords (None until the vectors are built)."""
        return self.foryou.interest()

    def answers(self) -> int:
        """How many answers "for you" learns from: papers kept (bookmarked, noted, tagged or
        liked), papers passed over (read and not kept, or skipped), and seed texts."""
        return self.foryou.answers()

    def rank(self, limit: int = 50) -> View:
        """Unread papers not yet judged (liked, skipped, bookmarked, noted, tagged), most
        interesting first (the front of `run_query("", sort="foryou")`), with `scores` and
        `why`; at most `limit`."""
        return self.foryou.rank(limit)

    def ask_me(self, limit: int = 50) -> View:
        """Unread papers the interest model is least sure about: answering them (like or
        skip) teaches it the most. `notes` says how many answers it learned from."""
        return self.foryou.ask_me(limit)

    def like(self, papers: Sequence[Paper]) -> None:
        """Say these papers are what you want to read (a positive for "for you")."""
        self.store.set_feedback(list(papers), LIKED)

    def skip(self, papers: Sequence[Paper]) -> None:
        """Say these papers are not for you (a negative for "for you")."""
        self.store.set_feedback(list(papers), SKIPPED)

    def unjudge(self, papers: Sequence[Paper]) -> None:
        """Forget a like or skip on these papers."""
        self.store.set_feedback(list(papers), None)

    def reset_feedback(self) -> None:
        """Forget every like, skip and seed text (bookmarks, notes, tags and reads stay)."""
        self.store.reset_feedback()

    def add_seeds(self, path: str | Path) -> int:
        """Read a file (any format papertui reads) of papers you like: those in the library
        become liked, the others are kept as seed texts (not added to any collection).
        Returns how many papers the file gave. Raises ValueError when it has none."""
        return self.foryou.add_seeds(path)

    def negative_keywords(self) -> list[str]:
        from papertui.core.settings import load_settings

        return load_settings().negative_keywords

    def add_negative_keyword(self, text: str) -> str | None:
        """Rank papers with this phrase lower in "for you" (they stay in every search and
        list); saved in settings.toml. None, or the problem in one line."""
        from papertui.core.settings import add_negative_keyword

        return add_negative_keyword(text)

    def tagged(self, tag: str) -> list[Paper]:
        """The papers with `tag`, matched as `tag:` matches it (case-insensitive)."""
        found = self.planner.positions(Filter("tag", tag), self.annotations())
        return [self.papers[i] for i in sorted(found)]

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
            raise PaperNotFound(
                f"id {prefix!r} is ambiguous ({len(found)} papers); type more characters"
            )
        return found[0]

    def is_bookmarked(self, paper: Paper) -> bool:
        return paper.id in self.annotations().bookmarks

    def note(self, paper: Paper) -> str:
        return self.annotations().notes.get(paper.id, "")

    def is_read(self, paper: Paper) -> bool:
        return paper.id in self.annotations().reads

    def is_new(self, paper: Paper) -> bool:
        return self.annotations().is_new(paper.id)

    def all_tags(self) -> list[str]:
        return sorted(
            {t for names in self.annotations().tags.values() for t in names}, key=str.casefold
        )

    def tags_of(self, paper: Paper) -> list[str]:
        return self.annotations().tags_of(paper.id)

    def refresh(self) -> None:
        """Pick up what another papertui (a second TUI, a CLI script) has written meanwhile.
        Raises StoreError (one line) when the store cannot be read."""
        self.store.refresh()

    def toggle_bookmark(self, paper: Paper) -> bool:
        """Flip the bookmark; returns the new state. Raises StoreError when it cannot be saved."""
        self.refresh()
        on = not self.is_bookmarked(paper)
        self.set_bookmark(paper, on)
        return on

    def set_bookmark(self, paper: Paper, on: bool) -> None:
        self.store.set_bookmark(paper, on)

    def set_note(self, paper: Paper, text: str) -> None:
        self.store.set_note(paper, text)

    def set_read(self, papers: Sequence[Paper], read: bool) -> None:
        self.store.set_read([p.id for p in papers], read)

    def set_tag(self, papers: Sequence[Paper], tag: str, on: bool) -> None:
        self.store.set_tag(list(papers), tag, on)

    # -- what the views show beside papers --------------------------------------------------------

    def problems(self) -> list[tuple[str, str]]:
        """(severity, message) about the user's data file, for the reader and the CLI."""
        found = []
        if self.store.moved_aside is not None:
            found.append(
                (
                    "error",
                    f"Your data file was damaged. It was moved to {self.store.moved_aside} "
                    "and a fresh one started.",
                )
            )
        if self.store.unavailable:
            found.append(
                ("warning", f"Bookmarks and notes cannot be saved: {self.store.unavailable}")
            )
        return found

    def collection_counts(self) -> list[tuple[str, int, int, int]]:
        """(collection, papers, unread, bookmarked) for each collection, in corpus order."""
        notes = self.annotations()
        totals: dict[str, list[int]] = {}
        for paper in self.papers:
            for name in paper.collections:
                row = totals.setdefault(name, [0, 0, 0])
                row[0] += 1
                row[1] += paper.id not in notes.reads
                row[2] += paper.id in notes.bookmarks
        return [(name, *row) for name, row in totals.items()]  # type: ignore[misc]

    def entries(self, papers: Sequence[Paper] | None = None) -> list[Entry]:
        """Export entries of `papers`; None: every bookmarked, noted or tagged paper, from the
        corpus or, if its file is gone, the store's copy (with all its metadata)."""
        notes = self.annotations()
        if papers is not None:
            return entries_for(papers, notes)
        ids = annotated_ids(notes)
        here = {pid: self.papers[self.by_id[pid]] for pid in ids if pid in self.by_id}
        saved = self.store.saved_papers([pid for pid in ids if pid not in here])
        return annotated_entries(ids, here, saved, notes)
