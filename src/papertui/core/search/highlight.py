"""The highlighter that marks the words a query matched in the detail pane. Pure, but it must
stem exactly as the index does, so it lives with the index."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from whoosh import query as wq
from whoosh.lang.porter import stem

from papertui.core.search import cjk

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
        found: list[tuple[int, int]] = []
        lone: str | None = None  # the CJK characters searched for alone, once asked
        for match in _WORD.finditer(text):
            word = match.group().lower()
            if not word.isascii() and cjk.RUN.search(word) is not None:
                if lone is None:
                    lone = "".join(s for s in self.stems if len(s) == 1 and cjk.is_piece(s))
                found.extend(self._cjk_spans(word, match.start(), lone))
            elif stem(word) in self.stems or (self.prefixes and word.startswith(self.prefixes)):
                found.append(match.span())
        return found

    def _cjk_spans(self, word: str, start: int, lone: str) -> list[tuple[int, int]]:
        """The matched parts of a word holding CJK characters, overlapping pairs joined into
        one span ("深度学习" lights as one, not as three pairs): the pairs searched for, each
        lone character searched for wherever it stands, and the word's other parts."""
        marks: list[tuple[int, int]] = []
        for piece, begin, end, is_cjk in cjk.pieces(word):
            if is_cjk:
                if piece in self.stems or piece.startswith(self.prefixes):
                    marks.append((begin, end))
                for i, char in enumerate(piece if lone else ""):
                    if char in lone:
                        marks.append((begin + i, begin + i + 1))
            elif stem(piece) in self.stems or (self.prefixes and piece.startswith(self.prefixes)):
                marks.append((begin, end))
        marks.sort()
        joined: list[tuple[int, int]] = []
        for begin, end in marks:
            if joined and begin < joined[-1][1]:
                joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
            else:
                joined.append((begin, end))
        return [(start + begin, start + end) for begin, end in joined]


def highlighter_for(q: wq.Query, around: Collection[str] = ()) -> Highlighter:
    """The words `q` matches, for the detail pane (leaves under a Not are not matches);
    `around`: the CJK pairs searched for a lone character they hold (the character is lit,
    not the pair)."""
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
    return Highlighter(stems.difference(around), tuple(prefixes))


def _nots(q: wq.Query) -> Iterator[wq.Query]:
    if isinstance(q, wq.Not):
        yield q.query
    if isinstance(q, wq.AndNot):
        yield q.b
    for child in q.children():
        yield from _nots(child)
