"""What a query means, said once more in plain Python: the reference the planner is checked
against (`test_query_meaning.py`).

Queries are built here as trees and written out as the user would type them, in several
spellings (`NOT x` or `-x`, `a AND b` or `a b`); the reference evaluates the tree itself over the
papers and the annotations, so it shares no parsing with the planner. Words are tokenised and
stemmed by the index's own analyzers (that is the definition of a word match): a word matches a
paper when all its terms are in the title or all are in the abstract; a phrase when its terms
stand together in one of them; a word the index leaves out (a stop word) matches every paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from papertui.core.corpus import Paper
from papertui.core.search.schema import NAMES, FastStemAnalyzer
from papertui.core.store import LIKED, SKIPPED, Annotations

_ANALYZER = FastStemAnalyzer()


def stems(text: str) -> list[str]:
    return [t.text for t in _ANALYZER(text)]


def names(text: str) -> list[str]:
    return [t.text for t in NAMES(text)]


@dataclass(frozen=True)
class Node:
    op: str  # "word", "phrase", "year", "filter", "not", "and", "or"
    text: str = ""  # word or phrase text; filter "kind:value"
    field: str = ""  # title, abstract, author, venue (words and phrases)
    years: tuple[int, int] = (0, 0)
    children: tuple[Node, ...] = ()
    dash: bool = False  # a "not" written as "-x"
    spelled_and: bool = False  # an "and" written with AND between its parts

    def __repr__(self) -> str:
        return repr(write(self))


def write(node: Node) -> str:
    """The query as a user would type it."""
    if node.op == "word":
        return f"{node.field}:{node.text}" if node.field else node.text
    if node.op == "phrase":
        quoted = f'"{node.text}"'
        return f"{node.field}:{quoted}" if node.field else quoted
    if node.op == "year":
        low, high = node.years
        return f"year:{low}" if low == high else f"year:{low}-{high}"
    if node.op == "filter":
        return node.text
    if node.op == "not":
        inner = node.children[0]
        text = _grouped(inner)
        return f"-{text}" if node.dash else f"NOT {text}"
    joiner = " OR " if node.op == "or" else (" AND " if node.spelled_and else " ")
    return joiner.join(_grouped(c) for c in node.children)


def _grouped(node: Node) -> str:
    return f"({write(node)})" if node.op in ("and", "or") else write(node)


@dataclass
class Reference:
    papers: Sequence[Paper]
    notes: Annotations
    _fields: dict[int, dict[str, list[str]]] = field(default_factory=dict)

    def fields(self, pos: int) -> dict[str, list[str]]:
        cached = self._fields.get(pos)
        if cached is None:
            paper = self.papers[pos]
            cached = {
                "title": stems(paper.title),
                "abstract": stems(paper.abstract),
                "author": names(" ; ".join(paper.authors)),
                "venue": names(paper.venue),
            }
            self._fields[pos] = cached
        return cached

    def evaluate(self, node: Node) -> set[int]:
        everyone = set(range(len(self.papers)))
        if node.op == "not":
            return everyone - self.evaluate(node.children[0])
        if node.op == "and":
            out = everyone
            for child in node.children:
                out = out & self.evaluate(child)
            return out
        if node.op == "or":
            return set().union(*(self.evaluate(c) for c in node.children))
        return {pos for pos in everyone if self.matches(node, pos)}

    def matches(self, node: Node, pos: int) -> bool:
        paper = self.papers[pos]
        if node.op == "year":
            low, high = node.years
            return paper.year is not None and low <= paper.year <= high
        if node.op == "filter":
            return self._filter(node.text, paper)
        fields = self.fields(pos)
        if node.field in ("author", "venue"):
            terms = names(node.text)
            have = fields[node.field]
            if not terms:
                return True
            if node.op == "phrase" and len(terms) > 1:
                return _contiguous(terms, have)
            return set(terms) <= set(have)
        terms = stems(node.text)
        if not terms:
            return True  # only words the index leaves out: no constraint
        for name in (node.field,) if node.field else ("title", "abstract"):
            have = fields[name]
            if node.op == "phrase" and len(terms) > 1:
                if _contiguous(terms, have):
                    return True
            elif set(terms) <= set(have):
                return True
        return False

    def _filter(self, text: str, paper: Paper) -> bool:
        kind, _, value = text.partition(":")
        notes, pid = self.notes, paper.id
        if kind == "tag":
            return value.casefold() in {t.casefold() for t in notes.tags.get(pid, ())}
        if kind == "collection":
            return any(value.casefold() in c.casefold() for c in paper.collections)
        if kind == "has":
            return pid in notes.notes
        return {
            "bookmarked": pid in notes.bookmarks,
            "read": pid in notes.reads,
            "unread": pid not in notes.reads,
            "new": pid in notes.new and pid not in notes.reads,
            "liked": notes.feedback.get(pid) == LIKED,
            "skipped": notes.feedback.get(pid) == SKIPPED,
        }[value]


def _contiguous(terms: list[str], have: list[str]) -> bool:
    n = len(terms)
    return any(have[i : i + n] == terms for i in range(len(have) - n + 1))
