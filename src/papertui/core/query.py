"""The query language's filters: the part of a query that is not full text.

`collection:NAME` (or `c:`), `tag:NAME`, `is:bookmarked` (`is:bm`), `is:read`, `is:unread`,
`is:new`, `has:note`, each negatable with a leading `-`. Everything else goes to the full-text
engine as written. Parsing never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FILTER = re.compile(
    r'(?:(?<=\s)|^)(-?)(collection|c|is|has|tag):("(?:[^"]*)"?|\S*)(?=\s|$)', re.IGNORECASE
)
_IS_VALUES = {
    "bookmarked": "bookmarked",
    "bm": "bookmarked",
    "bookmark": "bookmarked",
    "read": "read",
    "unread": "unread",
    "new": "new",
}
_HAS_VALUES = {"note": "note", "notes": "note"}


@dataclass(slots=True)
class Filter:
    kind: str  # "collection", "tag", "bookmarked", "note", "read", "unread", "new"
    value: str = ""
    negated: bool = False


@dataclass(slots=True)
class ParsedQuery:
    text: str  # the full-text part, for the search engine
    filters: list[Filter] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # filters we could not read, to tell the user

    @property
    def is_empty(self) -> bool:
        return not self.text.strip() and not self.filters


def parse_query(raw: str) -> ParsedQuery:
    filters: list[Filter] = []
    unknown: list[str] = []

    def take(match: re.Match[str]) -> str:
        negated, key, value = match.group(1) == "-", match.group(2).lower(), match.group(3)
        value = value.strip('"')
        if key in ("collection", "c", "tag"):
            if value:
                filters.append(Filter("collection" if key != "tag" else "tag", value, negated))
            return " "
        table = _IS_VALUES if key == "is" else _HAS_VALUES
        kind = table.get(value.lower())
        if kind is None:
            unknown.append(match.group(0).strip())
        else:
            filters.append(Filter(kind, "", negated))
        return " "

    text = _FILTER.sub(take, raw)
    return ParsedQuery(text=" ".join(text.split()), filters=filters, unknown=unknown)
