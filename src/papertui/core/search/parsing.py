"""Query strings as Whoosh queries, with one meaning for every string.

The grammar: `or := and (OR and)*`; `and := unary ([AND | ANDNOT] unary)*`;
`unary := (NOT | -) unary | + unary | "(" or ")" | atom`; an atom is a word, a `"phrase"`, a
prefix `lear*`, or one of them after a field (`title:`, `abstract:`, `author:`, `venue:`,
`year:2021`, `year:2021-2023`). `-word` and `NOT word` are the same, at the top and nested, and
a query of negations alone means the papers without them. A word the index does not keep (a
stop word, a single letter) constrains nothing, so it matches every paper: `graph the` is
`graph`, and `NOT the` matches nothing. Whoosh's own parser drops a lone negation, and raises on
one inside parentheses; this one never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from whoosh import query as wq

from papertui.core.search import cjk
from papertui.core.search.schema import FIELDS, NAMES, FastStemAnalyzer

_OPERATORS = ("AND", "OR", "NOT", "ANDNOT", "ANDMAYBE")
_KNOWN_FIELDS = (*FIELDS, "author", "venue", "year", "category", "status", "track")
_FIELD = re.compile(r"(\w+):")
_YEARS = re.compile(r"(\d{1,4})(?:\s*(?:-|\.\.)\s*(\d{1,4}))?$")
_ANALYZER = FastStemAnalyzer()


class _Everything:
    """A unit that constrains nothing (only stop words): every paper matches it."""


EVERYTHING = _Everything()
Built: TypeAlias = wq.Query | _Everything


@dataclass(slots=True)
class _Token:
    kind: str  # "(", ")", "op", "sign", "atom"
    text: str = ""
    field: str = ""  # for atoms: the field named before it, if any
    phrase: bool = False


def tokens(raw: str) -> list[_Token]:
    """The query's tokens: parentheses, operators, signs at a unit's start, atoms."""
    out: list[_Token] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "()":
            out.append(_Token(ch))
            i += 1
            continue
        after_sign = bool(out) and out[-1].kind == "sign" and raw[i - 1] in "+-"
        at_start = i == 0 or raw[i - 1].isspace() or raw[i - 1] == "(" or after_sign
        if ch in "+-" and at_start and i + 1 < n and not raw[i + 1].isspace():
            out.append(_Token("sign", ch))
            i += 1
            continue
        field = ""
        m = _FIELD.match(raw, i)
        if m and m.group(1).lower() in _KNOWN_FIELDS:
            field = m.group(1).lower()
            i = m.end()
            if i >= n or raw[i].isspace() or raw[i] in "()":
                continue  # "title:" while the user is still typing
        if i < n and raw[i] == '"':
            end = raw.find('"', i + 1)
            end = n if end < 0 else end
            out.append(_Token("atom", raw[i + 1 : end], field, phrase=True))
            i = end + 1
            continue
        j = i
        while j < n and not raw[j].isspace() and raw[j] not in '()"':
            j += 1
        word = raw[i:j]
        i = j
        if not field and word in _OPERATORS:
            out.append(_Token("op", word))
        elif word:
            out.append(_Token("atom", word, field))
    return out


class _Parser:
    def __init__(self, raw: str) -> None:
        self.tokens = tokens(raw)
        self.at = 0

    def _peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def parse(self) -> Built | None:
        """The whole query; None when it has no unit at all (nothing typed but operators)."""
        parts: list[Built] = []
        while self._peek() is not None:
            part = self._or()
            if part is not None:
                parts.append(part)
            elif self._peek() is not None:
                self.at += 1  # a stray ")" or operator: skip it
        return _and(parts) if parts else None

    def _or(self) -> Built | None:
        parts = [p for p in [self._and()] if p is not None]
        while (t := self._peek()) is not None and t.kind == "op" and t.text == "OR":
            self.at += 1
            part = self._and()
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        return _or(parts)

    def _and(self) -> Built | None:
        parts: list[Built] = []
        maybe: list[Built] = []
        while (t := self._peek()) is not None and t.kind != ")":
            if t.kind == "op" and t.text == "OR":
                break
            if t.kind == "op" and t.text in ("AND", "ANDNOT", "ANDMAYBE"):
                self.at += 1
                part = self._unary()
                if part is not None:
                    if t.text == "ANDNOT":
                        parts.append(_not(part))
                    elif t.text == "ANDMAYBE":
                        maybe.append(part)
                    else:
                        parts.append(part)
                continue
            part = self._unary()
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        found = _and(parts)
        if maybe and isinstance(found, wq.Query):
            extra = [m for m in maybe if isinstance(m, wq.Query)]
            if extra:  # ranks higher when present, never narrows
                found = wq.AndMaybe(found, extra[0] if len(extra) == 1 else wq.Or(extra))
        return found

    def _unary(self) -> Built | None:
        t = self._peek()
        if t is None or t.kind == ")" or (t.kind == "op" and t.text == "OR"):
            return None
        self.at += 1
        if (t.kind == "op" and t.text == "NOT") or (t.kind == "sign" and t.text == "-"):
            inner = self._unary()
            return _not(inner) if inner is not None else None
        if t.kind == "sign":  # "+word": every word is required already
            return self._unary()
        if t.kind == "(":
            inner = self._or()
            if (close := self._peek()) is not None and close.kind == ")":
                self.at += 1
            return inner
        if t.kind == "op":  # AND/ANDNOT/ANDMAYBE with nothing before it: read as a word
            return None
        return atom(t.text, t.field, t.phrase)


def parse(raw: str) -> Built | None:
    """The query `raw` as a Whoosh query, `EVERYTHING`, or None when nothing was typed."""
    return _Parser(raw).parse()


# -- atoms ------------------------------------------------------------------------------------


def stems(text: str) -> list[str]:
    """The terms the index keeps for `text` in its title and abstract fields."""
    return [t.text for t in _ANALYZER(text)]


def atom(text: str, field: str = "", phrase: bool = False) -> Built:
    """One word, phrase or prefix, in one field or in the title and the abstract."""
    if field == "year":
        return _years(text)
    if field in ("category", "status"):
        value = text.lower().replace(" ", "-")
        if field == "category" and value and "." not in value:  # category:cs is every cs.*
            return wq.Or([wq.Term(field, value), wq.Prefix(field, value + ".")])
        return wq.Term(field, value) if value else EVERYTHING
    if field in ("author", "venue", "track"):
        names = [t.text for t in NAMES(text)]
        if not names:
            return EVERYTHING
        if phrase and len(names) > 1:
            return wq.Phrase(field, names)
        terms = [wq.Term(field, n) for n in names]
        return terms[0] if len(terms) == 1 else wq.And(terms)
    fields = (field,) if field else FIELDS
    if not phrase and text.endswith("*") and cjk.RUN.fullmatch(text[:-1]):
        text = text[:-1]  # CJK has no word ends: "模型*" is what "模型" finds
    if not phrase and ("*" in text or "?" in text):
        literal = text.lower()
        if literal.endswith("*") and "*" not in literal[:-1] and "?" not in literal:
            parts: list[wq.Query] = [wq.Prefix(f, literal[:-1]) for f in fields]
        else:
            parts = [wq.Wildcard(f, literal) for f in fields]
        return parts[0] if len(parts) == 1 else wq.Or(parts)
    words = stems(text)
    if not words:
        return EVERYTHING
    per_field: list[wq.Query] = []
    for f in fields:
        if len(words) == 1:
            per_field.append(wq.Term(f, words[0]))
        elif phrase or cjk.has_cjk(text):  # a CJK run's pairs: next to each other
            per_field.append(wq.Phrase(f, words))
        else:  # "self-supervised": both parts, in the same field
            per_field.append(wq.And([wq.Term(f, w) for w in words]))
    return per_field[0] if len(per_field) == 1 else wq.Or(per_field)


def _years(text: str) -> wq.Query:
    m = _YEARS.match(text.strip())
    if not m:
        return wq.NullQuery  # "year:soon" names no year: no paper has it
    low = int(m.group(1))
    high = int(m.group(2)) if m.group(2) else low
    return wq.NumericRange("year", min(low, high), max(low, high))


# -- combining --------------------------------------------------------------------------------


def _not(inner: Built) -> Built:
    if isinstance(inner, _Everything):
        return wq.NullQuery  # without every paper: none
    if inner is wq.NullQuery:
        return EVERYTHING
    if isinstance(inner, wq.Not):
        return inner.query  # type: ignore[no-any-return]
    return wq.Not(inner)


def _and(parts: list[Built]) -> Built:
    kept = [p for p in parts if not isinstance(p, _Everything)]
    if not kept:
        return EVERYTHING
    queries = [p for p in kept if isinstance(p, wq.Query)]
    if any(q is wq.NullQuery for q in queries):
        return wq.NullQuery
    positive = [q for q in queries if not isinstance(q, wq.Not)]
    negative = [q.query for q in queries if isinstance(q, wq.Not)]
    if not positive:
        return wq.Not(negative[0] if len(negative) == 1 else wq.Or(negative))
    if negative:
        # And with a Not, not Whoosh's AndNot: AndNot over a phrase keeps papers it should drop
        # (`"neural networks" -our` kept one with "our"); the Not adds the same score to every hit
        positive.append(wq.Not(negative[0] if len(negative) == 1 else wq.Or(negative)))
    return positive[0] if len(positive) == 1 else wq.And(positive)


def _or(parts: list[Built]) -> Built:
    if any(isinstance(p, _Everything) for p in parts):
        return EVERYTHING
    queries = [p for p in parts if isinstance(p, wq.Query) and p is not wq.NullQuery]
    if not queries:
        return wq.NullQuery
    return queries[0] if len(queries) == 1 else wq.Or(queries)
