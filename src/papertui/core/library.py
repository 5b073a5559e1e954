"""The model the UI and the CLI share: the papers, their index and the user's store, one API."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from papertui.core import paths
from papertui.core.corpus import Corpus, Paper, finish_titles, load_corpus
from papertui.core.export import Entry
from papertui.core.fuzzy import TitleMatcher
from papertui.core.query import Filter, parse_query
from papertui.core.search import (
    Highlighter,
    IndexReport,
    IndexStore,
    SearchIndex,
    corpus_digest,
    sources_key,
)
from papertui.core.store import Store

_SYNTAX = re.compile(r'["*?():^~]|(?:^|\s)[-+]|\b(?:AND|OR|NOT|ANDNOT|ANDMAYBE)\b')

# Fuzzy title matches are added when full text found fewer papers than this.
FUZZY_BELOW = 20

# A title matched this well is added to full-text results: the name someone half remembers.
TITLE_MATCH_CUTOFF = 86.0


@dataclass(slots=True)
class View:
    """What a query shows: positions into `Library.papers`, best first."""

    query: str
    indices: list[int]
    highlighter: Highlighter = field(default_factory=Highlighter)
    corrections: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # things to tell the user about this query
    scores: dict[int, float] = field(default_factory=dict)  # full-text score per position
    depth: int | None = None  # how many full-text hits were asked for
    truncated: bool = False  # there may be more full-text hits than were ranked


class PaperNotFound(LookupError):
    pass


# How many full-text hits a query ranks at first; the list asks for more when scrolled to the end.
DEPTH = 100

# Deriving a title costs ~50 us: up to this many papers, derive them all when the corpus opens.
EAGER_TITLES = 5000


def resolve_sources(sources: Sequence[str | Path] | None) -> list[str]:
    """The paths given; else the settings' default paths; else the bundled collections."""
    if sources:
        return [str(s) for s in sources]
    from papertui.core.settings import load_settings

    defaults = load_settings().default_paths
    return defaults or [str(paths.bundled_corpus_dir())]


def index_store_for(sources: Sequence[str]) -> IndexStore:
    return IndexStore(paths.cache_dir() / "index" / sources_key(sources))


def quick_search(
    sources: Sequence[str | Path] | None, query: str, limit: int
) -> list[dict[str, object]] | None:
    """Search without reading the corpus, when the index is current and answers on its own.

    None means: take the full path (corpus changed, no index, filters, or fewer full-text hits
    than `limit`, where fuzzy title matches would be added). The answer is then the same.
    """
    parsed = parse_query(query)
    if parsed.filters or parsed.unknown or not parsed.text:
        return None
    chosen = resolve_sources(sources)
    index = index_store_for(chosen).open_if_unchanged(chosen)
    if index is None:
        return None
    try:
        result = index.search(parsed.text, limit=limit)
        if len(result.hits) < limit or result.fallback or result.corrections:
            return None
        records = []
        for pid, score in result.hits:
            stored = index.stored(pid)
            if stored is None:
                return None
            stored["score"] = score
            records.append(stored)
        return records
    finally:
        index.close()


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
        self.new: set[str] = set()  # papers added to a file since it was last opened
        self.index: SearchIndex | None = None
        self.index_store = index_store_for(self.sources)
        if len(self.papers) <= EAGER_TITLES:
            self._titles_ready()

    @classmethod
    def open(cls, sources: Sequence[str | Path] | None = None, fmt: str | None = None) -> Library:
        """Load the corpus (the bundled one when no path is given) and the user's store.

        `fmt` forces one input format for every file (else each file's own is detected)."""
        chosen = resolve_sources(sources)
        corpus = load_corpus(chosen, fmt)
        return cls(corpus, Store(paths.store_path()), chosen, fmt)

    def mark_seen(self) -> set[str]:
        """Note which papers each file holds now; papers new since a file was last opened
        become `is:new` (until read). Writes one row per paper the first time: call it from a
        worker for large corpora."""
        by_source: dict[str, list[str]] = {}
        for paper in self.papers:
            by_source.setdefault(paper.source, []).append(paper.id)
        by_source = {str(Path(src).resolve()): ids for src, ids in by_source.items()}
        self.new = self.store.record_seen(by_source)
        return self.new

    def is_read(self, paper: Paper) -> bool:
        return paper.id in self.store.reads

    def is_new(self, paper: Paper) -> bool:
        return paper.id in self.new and paper.id not in self.store.reads

    def tagged(self, tag: str) -> list[Paper]:
        """The papers with `tag`, matched as `tag:` matches it (case-insensitive)."""
        ids = self._ids_for(Filter("tag", tag))
        assert ids is not None
        return [p for p in self.papers if p.id in ids]

    def tags_of(self, paper: Paper) -> list[str]:
        return sorted(self.store.tags.get(paper.id, ()), key=str.casefold)

    def set_read(self, papers: Sequence[Paper], read: bool) -> None:
        self.store.set_read([p.id for p in papers], read)

    def set_tag(self, papers: Sequence[Paper], tag: str, on: bool) -> None:
        self.store.set_tag(list(papers), tag, on)

    def entry(self, paper: Paper) -> Entry:
        return Entry.of(paper, self.is_bookmarked(paper), self.note(paper))

    def export_entries(self) -> list[Entry]:
        """Every bookmarked or annotated paper, from the corpus or, if gone, the store's copy."""
        store = self.store
        ids = sorted(store.bookmarks, key=lambda pid: store.bookmarks[pid])
        ids += [pid for pid in store.notes if pid not in store.bookmarks]
        saved = store.saved_papers([pid for pid in ids if pid not in self.by_id])
        entries = []
        for pid in ids:
            bookmarked, note = pid in store.bookmarks, store.notes.get(pid, "")
            if pid in self.by_id:
                entries.append(Entry.of(self.papers[self.by_id[pid]], bookmarked, note))
            elif pid in saved:
                s = saved[pid]
                entries.append(
                    Entry(s.id, s.title, s.abstract, s.collections, s.urls, bookmarked, note)
                )
        return entries

    def complete_titles(self) -> None:
        """Every title, final: from a current index when there is one (fast), else derived."""
        if self.titles is not None:
            return
        index = self.index_store.open_if_current(corpus_digest(self.papers))
        if index is not None:
            index.apply_titles(self.papers)
            index.close()
        self._titles_ready()

    def _titles_ready(self) -> None:
        finish_titles(self.papers)
        matcher = TitleMatcher([p.title for p in self.papers])
        matcher.prepare()
        self.titles = matcher

    # -- index ------------------------------------------------------------------------------------

    def index_is_current(self) -> bool:
        meta = self.index_store.meta()
        return meta is not None and meta.get("digest") == corpus_digest(self.papers)

    def ensure_index(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Open, update or build the index (slow the first time: call from a worker)."""
        index, report = self.index_store.ensure(self.papers, self.sources, progress, cancelled)
        self._titles_ready()
        old, self.index = self.index, index
        if old is not None:
            old.close()
        return report

    def close(self) -> None:
        if self.index is not None:
            self.index.close()
            self.index = None
        self.store.close()

    # -- queries ----------------------------------------------------------------------------------

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
        when there may be more, and a deeper query fetches them.
        """
        parsed = parse_query(raw)
        view = View(query=raw, indices=[], depth=depth)
        view.notes.extend(f"unknown filter {u!r} ignored" for u in parsed.unknown)
        filters = list(parsed.filters)
        if bookmarks_only:
            filters.append(Filter("bookmarked"))
        if parsed.text:
            view.indices = self._text_matches(parsed.text, view, filters, depth)
        else:
            view.indices = list(range(len(self.papers)))
        if filters:
            view.indices = [i for i in view.indices if self._passes(self.papers[i], filters)]
        if collections:
            chosen = set(collections)
            view.indices = [
                i for i in view.indices if chosen.intersection(self.papers[i].collections)
            ]
        view.indices = self.sorted(view.indices, sort)
        if limit is not None:
            view.indices = view.indices[:limit]
        return view

    def sorted(self, indices: list[int], sort: str) -> list[int]:
        """`relevance` keeps the ranking; `corpus`, `title`, or `recent` (latest bookmarked or
        noted first, the rest after in corpus order)."""
        if sort == "corpus":
            return sorted(indices)
        if sort == "title":
            return sorted(indices, key=lambda i: self.papers[i].title.casefold())
        if sort == "recent":
            store = self.store

            def when(i: int) -> float:
                pid = self.papers[i].id
                return max(store.bookmarks.get(pid, 0.0), store.noted_at.get(pid, 0.0))

            return sorted(indices, key=lambda i: (-when(i), i))
        return indices

    # -- more like this ---------------------------------------------------------------------------

    def similar(self, paper: Paper | None, limit: int = 50) -> View:
        """Papers most like `paper` (None: like the bookmarked papers taken together)."""
        label = f"like {paper.title!r}" if paper else "like your bookmarks"
        view = View(query="", indices=[], notes=[f"papers {label}"])
        if self.index is None:
            view.notes.append("index not ready")
            return view
        ids = [paper.id] if paper else list(self.store.bookmarks)
        for pid, score in self.index.similar(ids, limit):
            pos = self.by_id.get(pid)
            if pos is not None:
                view.indices.append(pos)
                view.scores[pos] = score
        return view

    def _ids_for(self, f: Filter) -> Collection[str] | None:
        """The papers an id-based filter admits (None: a collection filter)."""
        store = self.store
        if f.kind == "bookmarked":
            return store.bookmarks.keys()
        if f.kind == "note":
            return store.notes.keys()
        if f.kind in ("read", "unread"):
            return store.reads.keys()
        if f.kind == "new":
            return {pid for pid in self.new if pid not in store.reads}  # new until read
        if f.kind == "tag":
            wanted = f.value.casefold()
            return {
                pid for pid, tags in store.tags.items() if any(t.casefold() == wanted for t in tags)
            }
        return None

    def _conditions(self, filters: list[Filter], negated: bool) -> list[tuple[str, list[str]]]:
        """Filters as (field, values) for the index, so it ranks only papers that pass them."""
        pairs: list[tuple[str, list[str]]] = []
        for f in filters:
            # "unread" is "not read": it belongs with the other side's conditions
            if (f.negated != (f.kind == "unread")) != negated:
                continue
            ids = self._ids_for(f)
            if ids is not None:
                pairs.append(("id", list(ids)))
            else:
                needle = f.value.casefold()
                names = [c for c in self.corpus.collections if needle in c.casefold()]
                pairs.append(("collection", [c.replace(",", " ").lower().strip() for c in names]))
        return pairs

    def _text_matches(
        self, text: str, view: View, filters: list[Filter], depth: int | None
    ) -> list[int]:
        seen: dict[int, None] = {}
        if self.index is not None:
            result = self.index.search(
                text,
                limit=depth,
                only=self._conditions(filters, negated=False),
                exclude=self._conditions(filters, negated=True),
            )
            view.highlighter = result.highlighter
            view.corrections = result.corrections
            view.truncated = depth is not None and len(result.hits) >= depth
            if result.fallback:
                view.notes.append("query syntax not understood; searched the words as typed")
            for pid, score in result.hits:
                pos = self.by_id.get(pid)
                if pos is not None:
                    seen[pos] = None
                    view.scores[pos] = score
        else:
            view.notes.append(
                "index not ready: matching titles only"
                if self.titles is not None
                else "search starts when indexing is done"
            )
        # Fuzzy titles are for the name full text missed: when full text found a screenful they
        # would only trail behind it (and cost ~20 ms at 100k papers); "-word", "a OR b", "x*"
        # ask for exactly that, not for titles.
        few = len(seen) < FUZZY_BELOW and not view.truncated
        if self.titles is not None and few and not _SYNTAX.search(text):
            cutoff = TITLE_MATCH_CUTOFF if self.index is not None else 70.0
            for pos, _score in self.titles.match(text, cutoff=cutoff):
                seen.setdefault(pos, None)
        return list(seen)

    def _passes(self, paper: Paper, filters: list[Filter]) -> bool:
        for f in filters:
            ids = self._ids_for(f)
            if ids is not None:
                ok = (paper.id in ids) != (f.kind == "unread")
            else:
                needle = f.value.casefold()
                ok = any(needle in c.casefold() for c in paper.collections)
            if ok == f.negated:
                return False
        return True

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
        return paper.id in self.store.bookmarks

    def note(self, paper: Paper) -> str:
        return self.store.notes.get(paper.id, "")

    def refresh(self) -> None:
        """Pick up what another papertui (a second TUI, a CLI script) has written meanwhile."""
        self.store.refresh()

    def toggle_bookmark(self, paper: Paper) -> bool:
        """Flip the bookmark; returns the new state. Raises StoreError when it cannot be saved."""
        self.store.refresh()
        on = paper.id not in self.store.bookmarks
        self.store.set_bookmark(paper, on)
        return on

    def set_bookmark(self, paper: Paper, on: bool) -> None:
        self.store.set_bookmark(paper, on)

    def set_note(self, paper: Paper, text: str) -> None:
        self.store.set_note(paper, text)
