"""Query planning: full text, filters and their boolean combinations, over a snapshot of the
user's annotations.

A query whose filters are only ANDed with the words (the common case: `graph tag:to-read`) is one
ranked Whoosh search restricted to the papers the filters admit. Filters inside OR, NOT or
parentheses (`has:note OR tag:to-read`, `graph OR has:note`) are evaluated as sets of papers;
full-text parts of such a query are searched on their own and keep their scores. Every filter
costs time linear in the papers it admits (or, negated, in the library), never papers x tags.

`topic:N` admits the papers of topic N once topics are computed (`Planner.topic_ids`); before,
it is ignored with a note. `~sentence` ranks every paper by its meaning's closeness to the
sentence (`Planner.meaning`, the paper vectors), then the filters apply as to full text.

The planner's `FilterSets` (`query_sets`) evaluates the filters; this module plans, ranks and
sorts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from papertui.core.corpus import Paper
from papertui.core.query import Filter, QueryNode, parse_query
from papertui.core.query.sets import FilterSets
from papertui.core.query.view import View
from papertui.core.search import Highlighter, SearchIndex
from papertui.core.store import Annotations

OPERATORS = re.compile(r'["*?():^~]|(?:^|\s)[-+]|\b(?:AND|OR|NOT|ANDNOT|ANDMAYBE)\b')
_FIELD = re.compile(r"(?:^|[\s(])-?(year|venue|author):", re.IGNORECASE)

# How many full-text hits a query ranks at first; the list asks for more when scrolled to the end.
DEPTH = 100
# Fuzzy title matches are added when full text found fewer papers than this.
FUZZY_BELOW = 20
# A title matched this well is added to full-text results: the name someone half remembers.
TITLE_MATCH_CUTOFF = 86.0
SCANNED = "index not ready: plain word match, in file order, until it is"


class TitleMatch(Protocol):
    """What the planner needs of the fuzzy title index."""

    def match(
        self,
        query: str,
        limit: int = ...,
        cutoff: float = ...,
        among: Collection[int] | None = ...,
    ) -> list[tuple[int, float]]: ...


@dataclass
class Planner:
    """Runs queries over one library's papers. Holds no user state of its own: every call gets
    the annotations snapshot it answers for."""

    papers: Sequence[Paper]
    by_id: dict[str, int]
    index: SearchIndex | None = None
    titles: TitleMatch | None = None
    # (sentence, at most how many or None) -> (paper id, score) best first, by meaning;
    # unset: vectors not built
    meaning: Callable[[str, int | None], list[tuple[str, float]]] | None = None
    sets: FilterSets = field(init=False)  # which papers each filter admits
    _has_field: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sets = FilterSets(self.papers, self.by_id)

    @property
    def topic_ids(self) -> Callable[[int], Collection[str] | None] | None:
        """Topic number (1-based) -> its paper ids (None: no such topic); None until topics
        are computed."""
        return self.sets.topic_ids

    @topic_ids.setter
    def topic_ids(self, value: Callable[[int], Collection[str] | None] | None) -> None:
        self.sets.topic_ids = value

    # -- running a query --------------------------------------------------------------------------

    def run(
        self,
        raw: str,
        annotations: Annotations,
        *,
        extra: Sequence[Filter] = (),
        depth: int | None = DEPTH,
        collections: Collection[str] = (),
    ) -> View:
        """Full text, typo repair, fuzzy titles and filters. Never raises for any string."""
        parsed = parse_query(raw)
        view = View(query=raw, indices=[], depth=depth)
        view.remarks.extend(f"unknown filter {u!r} ignored" for u in parsed.unknown)
        self._explain_topics(parsed.filters, view)
        if self.topic_ids is None:  # not computed: topic filters are ignored
            parsed.filters = [f for f in parsed.filters if f.kind != "topic"]
        if parsed.semantic:
            view.indices = self._meaning(
                parsed.semantic, [*parsed.filters, *extra], annotations, view
            )
        elif parsed.tree is not None:
            view.indices = self._run_tree(parsed.tree, annotations, view)
            allowed = self.sets.admitted(list(extra), annotations)
            if allowed is not None:
                view.indices = [i for i in view.indices if i in allowed]
        else:
            filters = [*parsed.filters, *extra]
            if parsed.text:
                view.indices = self._text(parsed.text, view, filters, annotations, depth)
            else:
                allowed = self.sets.admitted(filters, annotations)
                view.indices = list(range(len(self.papers))) if allowed is None else sorted(allowed)
        if collections:
            chosen = set(collections)
            papers = self.papers
            view.indices = [i for i in view.indices if chosen.intersection(papers[i].collections)]
        self._explain_fields(raw, view)
        return view

    def _explain_topics(self, filters: Sequence[Filter], view: View) -> None:
        numbers = [f.value for f in filters if f.kind == "topic"]
        if not numbers:
            return
        if self.topic_ids is None:
            view.remarks.append("topics not computed yet: topic: ignored")
            return
        for n in numbers:
            if self.topic_ids(int(n)) is None:
                view.remarks.append(f"there is no topic {n}")

    def _meaning(
        self, sentence: str, filters: Sequence[Filter], annotations: Annotations, view: View
    ) -> list[int]:
        """`~sentence`: papers by closeness of meaning, within the filters; plain full text of
        the words while the vectors are not built."""
        if self.meaning is None:
            view.remarks.append("related-paper vectors not built yet: searched the words instead")
            return self._text(sentence, view, filters, annotations, view.depth)
        allowed = self.sets.admitted(filters, annotations)
        depth = view.depth
        # filters drop papers after ranking: rank all of them when a filter narrows
        found = self.meaning(sentence, None if allowed is not None or depth is None else depth)
        view.truncated = depth is not None and allowed is None and len(found) >= depth
        out: list[int] = []
        for pid, score in found:
            pos = self.by_id.get(pid)
            if pos is not None and (allowed is None or pos in allowed):
                out.append(pos)
                view.scores[pos] = score
        if not out:
            view.remarks.append("no paper shares a known word with that sentence")
        return out

    def _explain_fields(self, raw: str, view: View) -> None:
        """`year:2024` on a dump without years matches nothing: say why, not just "no papers"."""
        if view.indices:
            return
        for name in {m.group(1).lower() for m in _FIELD.finditer(raw)}:
            attr = "authors" if name == "author" else name
            if name not in self._has_field:
                self._has_field[name] = any(getattr(p, attr) for p in self.papers)
            if not self._has_field[name]:
                plural = {"author": "authors", "venue": "a venue", "year": "a year"}[name]
                view.remarks.append(f"no paper here has {plural}")

    def _text(
        self,
        text: str,
        view: View,
        filters: Sequence[Filter],
        annotations: Annotations,
        depth: int | None,
    ) -> list[int]:
        seen: dict[int, None] = {}
        if self.index is not None:
            result = self.index.search(
                text,
                limit=depth,
                only=self.sets.conditions(filters, annotations, negated=False),
                exclude=self.sets.conditions(filters, annotations, negated=True),
            )
            view.highlighter = result.highlighter
            view.corrections = result.corrections
            view.truncated = depth is not None and len(result.hits) >= depth
            view.matched = result.matched if view.truncated else None
            if result.fallback:
                view.remarks.append("query syntax not understood; searched the words as typed")
            for pid, score in result.hits:
                pos = self.by_id.get(pid)
                if pos is not None:
                    seen[pos] = None
                    view.scores[pos] = score
        else:
            view.remarks.append(SCANNED)
            for pos in self.sets.scan(text, filters, annotations, depth, view):
                seen[pos] = None
        # Fuzzy titles are for the name full text missed: when full text found a screenful they
        # would only trail behind it (and cost ~20 ms at 100k papers); "-word", "a OR b", "x*"
        # ask for exactly that, not for titles.
        few = len(seen) < FUZZY_BELOW and not view.truncated
        if self.titles is not None and few and not OPERATORS.search(text):
            cutoff = TITLE_MATCH_CUTOFF if self.index is not None else 70.0
            # within the filters' papers (not the library's best titles, then filtered)
            allowed = self.sets.admitted(filters, annotations) if filters else None
            for pos, _score in self.titles.match(text, cutoff=cutoff, among=allowed):
                seen.setdefault(pos, None)
        return list(seen)

    # -- boolean combinations -------------------------------------------------------------------

    def _run_tree(self, node: QueryNode, annotations: Annotations, view: View) -> list[int]:
        """A query with filters under OR/NOT/parentheses: sets of papers, scored hits first."""

        def text(words: str) -> set[int]:
            if self.index is None:
                view.remarks.append(SCANNED)
                return set(self.sets.scan(words, (), annotations, None, view))
            result = self.index.search(words, limit=None)
            old, lit = view.highlighter, result.highlighter
            view.highlighter = Highlighter(old.stems | lit.stems, old.prefixes + lit.prefixes)
            view.corrections.update(result.corrections)
            hits = set()
            for pid, score in result.hits:
                pos = self.by_id.get(pid)
                if pos is not None:
                    hits.add(pos)
                    view.scores[pos] = max(score, view.scores.get(pos, 0.0))
            return hits

        found = self.sets.evaluate(node, annotations, text)
        scores = view.scores
        return sorted(found, key=lambda i: (-scores.get(i, 0.0), i))

    # -- order ------------------------------------------------------------------------------------

    def sort(self, indices: list[int], sort: str, annotations: Annotations) -> list[int]:
        """`relevance` keeps the ranking; `corpus`, `title`, `upvotes` (most upvoted first), or
        `recent` (latest bookmarked or noted first, the rest after in corpus order)."""
        if sort == "corpus":
            return sorted(indices)
        if sort == "title":
            return sorted(indices, key=lambda i: self.papers[i].title.casefold())
        if sort == "upvotes":  # most upvoted on Daily Papers first; papers without, after
            papers = self.papers

            def votes(i: int) -> int:
                found = papers[i].meta.upvotes if papers[i]._meta else None
                return -1 if found is None else found

            return sorted(indices, key=lambda i: -votes(i))
        if sort == "recent":
            marked, noted = annotations.bookmarks, annotations.noted_at

            def when(i: int) -> float:
                pid = self.papers[i].id
                return max(marked.get(pid, 0.0), noted.get(pid, 0.0))

            return sorted(indices, key=lambda i: (-when(i), i))
        return indices
