"""The highlighter that marks the words a query matched in the detail pane. Pure, but it must
stem exactly as the index does, so it lives with the index."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from whoosh import query as wq
from whoosh.lang.porter import stem

_WORD = re.compile(r"\w+")


@dataclass(slots=True)
class Highlighter:
    """Finds the words of a text that the query matched, for the detail pane."""

    stems: set[str] = field(default_factory=set)
    prefixes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.stems or self.prefixes)

    def spans(self, text: str) -> list[tuple[int, int]]:
        if not self:
            return []
        found = []
        for match in _WORD.finditer(text):
            word = match.group().lower()
            if stem(word) in self.stems or (self.prefixes and word.startswith(self.prefixes)):
                found.append(match.span())
        return found


def highlighter_for(q: wq.Query) -> Highlighter:
    """The words `q` matches, for the detail pane (leaves under a Not are not matches)."""
    stems: set[str] = set()
    prefixes: list[str] = []
    if q is wq.NullQuery:
        return Highlighter()
    for leaf in q.leaves() if not q.is_leaf() else [q]:
        if isinstance(leaf, wq.Phrase):
            stems.update(leaf.words)
        elif isinstance(leaf, (wq.Prefix, wq.Wildcard)):
            literal = re.split(r"[*?]", leaf.text, maxsplit=1)[0]
            if literal:
                prefixes.append(literal.lower())
        elif isinstance(leaf, wq.Term) and isinstance(leaf.text, str):
            stems.add(leaf.text)
    # leaves under a Not are not matches; drop them
    for node in _nots(q):
        for leaf in node.leaves() if not node.is_leaf() else [node]:
            if isinstance(leaf, wq.Term) and isinstance(leaf.text, str):
                stems.discard(leaf.text)
    return Highlighter(stems, tuple(prefixes))


def _nots(q: wq.Query) -> Iterator[wq.Query]:
    if isinstance(q, wq.Not):
        yield q.query
    if isinstance(q, wq.AndNot):
        yield q.b
    for child in q.children():
        yield from _nots(child)
