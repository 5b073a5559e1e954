"""Filters over a snapshot of the user's annotations, and their boolean combinations, evaluated
as sets of paper positions.

Every filter costs time linear in the papers it admits (or, negated, in the library), never
papers x tags. A `planner.Planner` holds one `FilterSets` to answer "which papers"; the planner
decides when a query needs it and ranks what it admits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from papertui.core.corpus import Paper
from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.query import Filter, QueryNode
from papertui.core.store import LIKED, SKIPPED, Annotations

_SCAN_WORDS = re.compile(r"\w[\w'-]*")  # the words of a query scanned for while indexing

if TYPE_CHECKING:
    from papertui.core.query.view import View


class FilterSets:
    """Filters as sets of positions into `papers` (`by_id`: paper id -> position)."""

    def __init__(self, papers: Sequence[Paper], by_id: dict[str, int]) -> None:
        self.papers = papers
        self.by_id = by_id
        # topic number (1-based) -> its paper ids, or None for no such topic; unset: not
        # computed (the semantic part sets it once topics are)
        self.topic_ids: Callable[[int], Collection[str] | None] | None = None
        self._collections: dict[str, list[int]] | None = None  # collection -> positions
        self._tag_index: tuple[Annotations, Mapping[str, frozenset[str]]] | None = None

    def ids_for(self, f: Filter, annotations: Annotations) -> Collection[str] | None:
        """The paper ids an annotation filter admits (None: a collection filter)."""
        if f.kind == "bookmarked":
            return annotations.bookmarks.keys()
        if f.kind == "note":
            return annotations.notes.keys()
        if f.kind in ("read", "unread"):
            return annotations.reads.keys()
        if f.kind == "new":
            return frozenset(
                pid for pid in annotations.new if pid not in annotations.reads
            )  # until read
        if f.kind in ("liked", "skipped"):
            want = LIKED if f.kind == "liked" else SKIPPED
            return frozenset(pid for pid, answer in annotations.feedback.items() if answer == want)
        if f.kind == "tag":
            return self.tag_index(annotations).get(f.value.casefold(), frozenset())
        if f.kind == "topic":
            if self.topic_ids is None:
                return self.by_id.keys()  # not computed: `run` drops it and says so
            return self.topic_ids(int(f.value)) or frozenset()
        return None

    def tag_index(self, annotations: Annotations) -> Mapping[str, frozenset[str]]:
        """Tag (any case) -> the papers with it, built once per snapshot."""
        cached = self._tag_index
        if cached is not None and cached[0] is annotations:
            return cached[1]
        index: dict[str, set[str]] = {}
        for pid, names in annotations.tags.items():
            for name in names:
                index.setdefault(name.casefold(), set()).add(pid)
        frozen = {tag: frozenset(ids) for tag, ids in index.items()}
        self._tag_index = (annotations, frozen)
        return frozen

    def _groups(self) -> dict[str, list[int]]:
        if self._collections is None:
            groups: dict[str, list[int]] = {}
            for pos, paper in enumerate(self.papers):
                for name in paper.collections:
                    groups.setdefault(name, []).append(pos)
            self._collections = groups
        return self._collections

    def collection_names(self, needle: str) -> list[str]:
        """The collections whose name contains `needle` (any case)."""
        needle = needle.casefold()
        return [n for n in self._groups() if needle in n.casefold()]

    def collection_positions(self, needle: str) -> list[int]:
        """Positions of papers in a collection whose name contains `needle`."""
        groups = self._groups()
        names = self.collection_names(needle)
        if len(names) == 1:
            return groups[names[0]]
        return sorted({p for n in names for p in groups[n]})

    def positions(self, f: Filter, annotations: Annotations) -> set[int]:
        """The positions a filter admits, ignoring its negation."""
        ids = self.ids_for(f, annotations)
        if ids is None:
            found = set(self.collection_positions(f.value))
        else:
            by_id = self.by_id
            found = {by_id[pid] for pid in ids if pid in by_id}
        if f.kind == "unread":  # unread is "not read"
            found = set(range(len(self.papers))) - found
        return found

    def scan(
        self,
        text: str,
        filters: Sequence[Filter],
        annotations: Annotations,
        depth: int | None,
        view: View,
    ) -> list[int]:
        """A stopgap while the index is built (a minute for a first open of 100,000 papers):
        the papers whose title or abstract (or a translation of them) holds every word of
        `text` and none of its `-words`, as plain lower-case substrings, in file order, the
        first `depth` of them (about 0.3 s for a pass over 100,000 abstracts). Quotes, `*` and
        brackets are read as spaces; OR, AND and NOT are left out."""
        want: list[str] = []
        avoid: list[str] = []
        for token in text.split():
            if token in ("OR", "AND", "NOT", "ANDNOT", "ANDMAYBE"):
                continue
            words = _SCAN_WORDS.findall(token.lower())
            (avoid if token.startswith("-") and len(token) > 1 else want).extend(words)
        if not want and not avoid:
            return []
        allowed = self.admitted(filters, annotations) if filters else None
        found: list[int] = []
        for pos, paper in enumerate(self.papers):
            if allowed is not None and pos not in allowed:
                continue
            low = paper.abstract.lower()
            if paper.has_real_title:
                low = paper.title.lower() + "\n" + low
            if paper._meta:  # titles and abstracts in other languages are searched too
                low += "".join(
                    f"\n{t.title}\n{t.abstract}" for t in PaperMeta.translations_of(paper._meta)
                ).lower()
            if all(w in low for w in want) and not any(w in low for w in avoid):
                found.append(pos)
                if depth is not None and len(found) >= depth:
                    view.truncated = True  # scrolling to the end asks for more
                    break
        return found

    def admitted(self, filters: Sequence[Filter], annotations: Annotations) -> set[int] | None:
        """The positions every filter admits (None: no filter, everything)."""
        result: set[int] | None = None
        negated: list[set[int]] = []
        for f in filters:
            found = self.positions(f, annotations)
            if f.negated:
                negated.append(found)
            else:
                result = found if result is None else result & found
        if negated:
            if result is None:
                result = set(range(len(self.papers)))
            for found in negated:
                result -= found
        return result

    def conditions(
        self, filters: Sequence[Filter], annotations: Annotations, negated: bool
    ) -> list[tuple[str, list[str]]]:
        """Filters as (field, values) for the index, so it ranks only papers that pass them."""
        pairs: list[tuple[str, list[str]]] = []
        for f in filters:
            # "unread" is "not read": it belongs with the other side's conditions
            if (f.negated != (f.kind == "unread")) != negated:
                continue
            ids = self.ids_for(f, annotations)
            if ids is not None:
                pairs.append(("id", list(ids)))
            else:
                names = self.collection_names(f.value)
                pairs.append(("collection", [c.replace(",", " ").lower().strip() for c in names]))
        return pairs

    # -- boolean combinations -------------------------------------------------------------------

    def evaluate(
        self, node: QueryNode, annotations: Annotations, text: Callable[[str], set[int]]
    ) -> set[int]:
        """The positions a query with filters under OR/NOT/parentheses admits; `text` gives
        those a full-text part of it matches (the planner's search, which scores them)."""
        if node.op == "filter":
            assert node.filter is not None
            if node.filter.kind == "topic" and self.topic_ids is None:
                return set(range(len(self.papers)))  # ignored, as `run` says
            found = self.positions(node.filter, annotations)
            if node.filter.negated:
                return set(range(len(self.papers))) - found
            return found
        if node.op == "text":
            return text(node.text)
        parts = [self.evaluate(child, annotations, text) for child in node.children]
        if node.op == "not":
            return set(range(len(self.papers))) - parts[0]
        if node.op == "or":
            return set().union(*parts)
        out = parts[0]
        for part in parts[1:]:
            out &= part
        return out
