"""The query language and its planner. This module holds the language's filters (the part of
a query that is not full text); `planner` plans a query over a snapshot of the user's
annotations, `sets` answers filters and their boolean combinations as sets of papers, `view`
is what a list shows, and `fuzzy` (with `trigram_build`) matches titles forgiving typos. The
package imports `search`, `store`, `corpus`, `text` and `system`, never the library above it.

The filters:

`collection:NAME` (or `c:`), `tag:NAME`, `is:bookmarked` (`is:bm`), `is:read`, `is:unread`,
`is:new`, `is:liked`, `is:skipped` (the answers that teach "for you"), `has:note`, `topic:N`
(the N-th topic of the overview), each negatable with a leading `-`. A text part that starts
with `~` asks for papers about that sentence (`~graph neural networks for molecules`, ranked by
meaning rather than by the words; filters still apply).
Filters combine with words by AND; with OR, NOT and parentheses they combine like words
(`has:note OR tag:to-read`, `graph OR has:note`), and then the query is also returned as a
tree. Everything else goes to the full-text engine as written. Parsing never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FILTER = re.compile(
    r'(?:(?<=[\s(])|^)([-+]*)(collection|c|is|has|tag|topic):("(?:[^"]*)"?|[^\s()]*)(?=[\s()]|$)',
    re.IGNORECASE,
)
_IS_VALUES = {
    "bookmarked": "bookmarked",
    "bm": "bookmarked",
    "bookmark": "bookmarked",
    "read": "read",
    "unread": "unread",
    "new": "new",
    "liked": "liked",
    "skipped": "skipped",
}
_HAS_VALUES = {"note": "note", "notes": "note"}
# for messages: the filters a query may use (from the tables above, so none is left out)
KNOWN_FILTERS = ", ".join(
    [
        "collection:NAME",
        "tag:NAME",
        "topic:N",
        *(f"is:{v}" for v in dict.fromkeys(_IS_VALUES.values())),
        *(f"has:{v}" for v in dict.fromkeys(_HAS_VALUES.values())),
    ]
)
# a sign before a phrase, a parenthesis or NOT ("-NOT x" is "NOT NOT x", as the full-text parser
# reads it), a phrase (maybe field-prefixed), a parenthesis, or a run of anything else
_TOKEN = re.compile(
    r'(?:(?<=[\s(])|^)[-+]+(?=["(]|NOT(?![^\s()]))|(?:[-+]?\w+:)?"[^"]*"?|[()]|[^\s()"]+'
)
_BOOLEAN = re.compile(r"(?:^|[\s(+-])(?:OR|NOT)(?=[\s(]|$)|[()]")


@dataclass(slots=True)
class Filter:
    kind: str  # "collection", "tag", "topic", "bookmarked", "note", "read", "unread", "new",
    # "liked", "skipped"
    value: str = ""
    negated: bool = False


@dataclass(slots=True)
class QueryNode:
    """A query with filters under OR/NOT/parentheses: "and", "or", "not", "filter" or "text"."""

    op: str
    children: list[QueryNode] = field(default_factory=list)
    filter: Filter | None = None
    text: str = ""


@dataclass(slots=True)
class ParsedQuery:
    text: str  # the full-text part, for the search engine
    filters: list[Filter] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # filters we could not read, to tell the user
    tree: QueryNode | None = None  # set when filters sit under OR, NOT or parentheses
    semantic: str = ""  # the sentence after a leading "~": rank papers about it


def _read_filter(match: re.Match[str], unknown: list[str]) -> Filter | None:
    # each "-" negates once more ("--is:read" is "is:read"); "+" adds nothing
    negated = match.group(1).count("-") % 2 == 1
    key, value = match.group(2).lower(), match.group(3)
    value = value.strip('"')
    if key == "topic":
        number = value.strip()
        if number.isdigit() and int(number) >= 1:
            return Filter("topic", str(int(number)), negated)
        unknown.append(match.group(0).strip())
        return None
    if key in ("collection", "c", "tag"):
        return Filter("collection" if key != "tag" else "tag", value, negated) if value else None
    table = _IS_VALUES if key == "is" else _HAS_VALUES
    kind = table.get(value.lower())
    if kind is None:
        unknown.append(match.group(0).strip())
        return None
    return Filter(kind, "", negated)


def parse_query(raw: str) -> ParsedQuery:
    filters: list[Filter] = []
    unknown: list[str] = []

    def take(match: re.Match[str]) -> str:
        found = _read_filter(match, unknown)
        if found is not None:
            filters.append(found)
        return " "

    text = _FILTER.sub(take, raw)
    parsed = ParsedQuery(text=" ".join(text.split()), filters=filters, unknown=unknown)
    if parsed.text.startswith("~") and not _BOOLEAN.search(_outside_quotes(parsed.text)):
        parsed.semantic = " ".join(parsed.text[1:].replace('"', " ").split())
        parsed.text = ""
        return parsed
    if filters and _BOOLEAN.search(_FILTER.sub(" ", _outside_quotes(raw))):
        parsed.tree = _Tree(raw).parse()
    return parsed


def _outside_quotes(raw: str) -> str:
    return re.sub(r'"[^"]*"?', " ", raw)


class _Tree:
    """Recursive descent: or := and (OR and)*; and := unary ([AND] unary)*; unary := NOT unary |
    '(' or ')' | filter | word. Unbalanced parentheses are forgiven."""

    def __init__(self, raw: str) -> None:
        self.tokens = _TOKEN.findall(raw)
        self.at = 0

    def parse(self) -> QueryNode | None:
        node = self._or()
        return _simplify(node) if node is not None else None

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _or(self) -> QueryNode | None:
        parts = [p for p in [self._and()] if p is not None]
        while self._peek() == "OR":
            self.at += 1
            part = self._and()
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else QueryNode("or", parts)

    def _and(self) -> QueryNode | None:
        parts: list[QueryNode] = []
        while (token := self._peek()) is not None and token not in ("OR", ")"):
            if token == "AND":
                self.at += 1
                continue
            part = self._unary()
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else QueryNode("and", parts)

    def _unary(self) -> QueryNode | None:
        token = self._peek()
        if token is None or token in ("OR", ")"):
            return None  # a NOT with nothing after it ("graph NOT", "NOT OR b") negates nothing
        self.at += 1
        if token == "NOT" or set(token) <= {"-", "+"}:
            # "-(a OR b)" and '-"a phrase"' as "NOT (a OR b)"; "+" adds nothing (every part is
            # required already), and each "-" negates once more
            inner = self._unary()
            if inner is None:
                return None
            for _ in range(1 if token == "NOT" else token.count("-")):
                inner = QueryNode("not", [inner])
            return inner
        if token == "(":
            inner = self._or()
            if self._peek() == ")":
                self.at += 1
            return inner
        match = _FILTER.fullmatch(token)
        if match:
            found = _read_filter(match, [])
            return QueryNode("filter", filter=found) if found is not None else None
        return QueryNode("text", text=token)


def _has_filter(node: QueryNode) -> bool:
    return node.op == "filter" or any(_has_filter(c) for c in node.children)


def _as_text(node: QueryNode) -> str:
    if node.op == "text":
        return node.text
    inner = [_as_text(c) for c in node.children]
    if node.op == "not":
        return f"NOT {inner[0]}"
    if node.op == "or":
        return "(" + " OR ".join(inner) + ")"
    return "(" + " ".join(inner) + ")"


def _simplify(node: QueryNode) -> QueryNode:
    """Subtrees without filters become one text search, so Whoosh ranks them as written."""
    if node.op in ("filter", "text"):
        return node
    if not _has_filter(node):
        return QueryNode("text", text=_as_text(node))
    children = [_simplify(c) for c in node.children]
    if node.op == "and":  # neighbouring words are one search ("graph neural" ranks as a whole)
        merged: list[QueryNode] = []
        for child in children:
            if child.op == "text" and merged and merged[-1].op == "text":
                merged[-1] = QueryNode("text", text=f"{merged[-1].text} {child.text}")
            else:
                merged.append(child)
        children = merged
        if len(children) == 1:
            return children[0]
    return QueryNode(node.op, children)
