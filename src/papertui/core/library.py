"""The model the UI and the CLI share: the papers, their index and the user's store, one API."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from papertui.core import paths
from papertui.core.corpus import Corpus, Paper, load_corpus
from papertui.core.fuzzy import TitleMatcher
from papertui.core.query import Filter, parse_query
from papertui.core.search import Highlighter, IndexStore, SearchIndex, sources_key
from papertui.core.store import Store

_SYNTAX = re.compile(r'["*?():^~]|(?:^|\s)[-+]|\b(?:AND|OR|NOT|ANDNOT|ANDMAYBE)\b')

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


class PaperNotFound(LookupError):
    pass


class Library:
    def __init__(self, corpus: Corpus, store: Store, sources: Sequence[str]) -> None:
        self.corpus = corpus
        self.papers: list[Paper] = corpus.papers
        self.store = store
        self.by_id: dict[str, int] = {p.id: i for i, p in enumerate(self.papers)}
        self.titles = TitleMatcher([p.title for p in self.papers])
        self.index: SearchIndex | None = None
        self.index_store = IndexStore(paths.cache_dir() / "index" / sources_key(sources))

    @classmethod
    def open(cls, sources: Sequence[str | Path] | None = None) -> Library:
        """Load the corpus (the bundled one when no path is given) and the user's store."""
        chosen = [str(s) for s in sources] if sources else [str(paths.bundled_corpus_dir())]
        corpus = load_corpus(chosen)
        return cls(corpus, Store(paths.store_path()), chosen)

    # -- index ------------------------------------------------------------------------------------

    def ensure_index(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> str:
        """Open, update or build the index (slow the first time: call from a worker)."""
        index, how = self.index_store.ensure(self.papers, progress, cancelled)
        old, self.index = self.index, index
        if old is not None:
            old.close()
        return how

    def close(self) -> None:
        if self.index is not None:
            self.index.close()
            self.index = None
        self.store.close()

    # -- queries ----------------------------------------------------------------------------------

    def run_query(self, raw: str, bookmarks_only: bool = False, limit: int | None = None) -> View:
        """Full text, typo repair, fuzzy titles and filters. Never raises for any string."""
        parsed = parse_query(raw)
        view = View(query=raw, indices=[])
        view.notes.extend(f"unknown filter {u!r} ignored" for u in parsed.unknown)
        if parsed.text:
            view.indices = self._text_matches(parsed.text, view)
        else:
            view.indices = list(range(len(self.papers)))
        filters = list(parsed.filters)
        if bookmarks_only:
            filters.append(Filter("bookmarked"))
        if filters:
            view.indices = [i for i in view.indices if self._passes(self.papers[i], filters)]
        if limit is not None:
            view.indices = view.indices[:limit]
        return view

    def _text_matches(self, text: str, view: View) -> list[int]:
        seen: dict[int, None] = {}
        if self.index is not None:
            result = self.index.search(text)
            view.highlighter = result.highlighter
            view.corrections = result.corrections
            if result.fallback:
                view.notes.append("query syntax not understood; searched the words as typed")
            for pid, score in result.hits:
                pos = self.by_id.get(pid)
                if pos is not None:
                    seen[pos] = None
                    view.scores[pos] = score
        else:
            view.notes.append("index not ready: matching titles only")
        if not _SYNTAX.search(text):  # "-word", "a OR b", "x*": the user asked for exactly that
            cutoff = TITLE_MATCH_CUTOFF if self.index is not None else 70.0
            for pos, _score in self.titles.match(text, cutoff=cutoff):
                seen.setdefault(pos, None)
        return list(seen)

    def _passes(self, paper: Paper, filters: list[Filter]) -> bool:
        for f in filters:
            if f.kind == "bookmarked":
                ok = paper.id in self.store.bookmarks
            elif f.kind == "note":
                ok = paper.id in self.store.notes
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
