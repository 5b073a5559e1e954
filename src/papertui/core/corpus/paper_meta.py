"""What a record knows beyond title, authors, venue and year: its arXiv id and categories, its
upvotes and the day it was listed (Hugging Face Daily Papers), a conference's decision (status,
track, mean rating), when papertui first fetched it, the ids of other copies of it merged
into it, and its title and abstract in other languages (`Translation`).

Kept on a paper as one string (fields joined by a unit separator; "" when there is nothing),
not a dict: a million-record arXiv snapshot carries categories on every paper, and a string
costs a third of a dict of lists. Translations make it long, but only where a dump has them.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

_SEP = "\x1f"
_ONE = "\x1e"  # between two translations
_PART = "\x1d"  # between a translation's language, title and abstract
# a translation's text keeps every character: the separators (and the escape) in it are
# written as the escape and a digit
_ESC = "\x1c"
_ESCAPED = str.maketrans({c: f"{_ESC}{i}" for i, c in enumerate((_ESC, _PART, _ONE, _SEP))})
_UNESCAPE = re.compile(f"{_ESC}([0-3])")


class Translation(NamedTuple):
    """A paper's title and abstract in another language ("zh", "zh-TW"); either may be ""."""

    lang: str
    title: str
    abstract: str


class PaperMeta(NamedTuple):
    arxiv: str = ""  # "2509.01234", without version
    categories: tuple[str, ...] = ()  # "cs.LG", primary first
    upvotes: int | None = None
    listed: str = ""  # YYYY-MM-DD: the day Daily Papers (or an arXiv feed) listed it
    status: str = ""  # "Oral", "Spotlight", "Poster", ...
    track: str = ""  # "main", "Datasets & Benchmarks", ...
    rating: float | None = None  # mean reviewer rating
    fetched: str = ""  # ISO time papertui first fetched it
    aliases: tuple[str, ...] = ()  # ids of copies with another abstract text (same arXiv id)
    translations: tuple[Translation, ...] = ()  # one a language, in the record's order

    def encode(self) -> str:
        if self == EMPTY:
            return ""
        parts = [
            self.arxiv,
            " ".join(self.categories),
            "" if self.upvotes is None else str(self.upvotes),
            self.listed,
            self.status,
            self.track,
            "" if self.rating is None else repr(round(self.rating, 2)),
            self.fetched,
            " ".join(self.aliases),
        ]
        parts = [p.replace(_SEP, " ") for p in parts]
        if self.translations:
            parts.append(
                _ONE.join(_PART.join(p.translate(_ESCAPED) for p in t) for t in self.translations)
            )
        return _SEP.join(parts).rstrip(_SEP)  # decode pads

    @classmethod
    def decode(cls, text: str) -> PaperMeta:
        if not text:
            return EMPTY
        parts = text.split(_SEP)
        parts += [""] * (10 - len(parts))
        arxiv, cats, up, listed, status, track, rating, fetched, aliases, texts = parts[:10]
        return cls(
            arxiv,
            tuple(cats.split()),
            int(up) if up.lstrip("-").isdigit() else None,
            listed,
            status,
            track,
            _float(rating),
            fetched,
            tuple(aliases.split()),
            _translations(texts),
        )

    @staticmethod
    def arxiv_of(text: str) -> str:
        """`decode(text).arxiv`, the rest left encoded."""
        return text.partition(_SEP)[0]

    @staticmethod
    def aliases_of(text: str) -> tuple[str, ...]:
        """`decode(text).aliases`, the rest left encoded (few records have any)."""
        parts = text.split(_SEP, 9)
        return tuple(parts[8].split()) if len(parts) >= 9 else ()

    @staticmethod
    def translations_of(text: str) -> tuple[Translation, ...]:
        """`decode(text).translations`, the rest left encoded (most records have none)."""
        if _PART not in text:
            return ()
        parts = text.split(_SEP, 9)
        return _translations(parts[9]) if len(parts) == 10 else ()

    def merged(self, other: PaperMeta) -> PaperMeta:
        """This paper's metadata completed by another copy's: what it lacks is filled in,
        categories and aliases are joined, the higher upvote count and the earlier listing and
        fetch times win."""
        if other in (EMPTY, self):
            return self
        if self == EMPTY:
            return other
        return PaperMeta(
            self.arxiv or other.arxiv,
            tuple(dict.fromkeys((*self.categories, *other.categories))),
            _most(self.upvotes, other.upvotes),
            _earliest(self.listed, other.listed),
            self.status or other.status,
            self.track or other.track,
            self.rating if self.rating is not None else other.rating,
            _earliest(self.fetched, other.fetched),
            tuple(dict.fromkeys((*self.aliases, *other.aliases))),
            _joined(self.translations, other.translations),
        )

    def as_record(self) -> dict[str, Any]:
        """The fields present, under the names papertui's JSON and JSONL use."""
        out: dict[str, Any] = {}
        if self.arxiv:
            out["arxiv_id"] = self.arxiv
        if self.categories:
            out["categories"] = list(self.categories)
        if self.upvotes is not None:
            out["upvotes"] = self.upvotes
        for name in ("listed", "status", "track"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.rating is not None:
            out["rating_avg"] = self.rating
        if self.fetched:
            out["fetched_at"] = self.fetched
        if self.translations:  # the shape the readers take back: {"zh": {"title", "abstract"}}
            out["translations"] = {
                t.lang: {k: v for k, v in (("title", t.title), ("abstract", t.abstract)) if v}
                for t in self.translations
            }
        return out


EMPTY = PaperMeta()


def _float(text: str) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def _most(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else max(a, b)


def _earliest(a: str, b: str) -> str:
    """The earlier of two ISO dates or times, either may be missing."""
    return min(a, b) if a and b else a or b


def _translations(text: str) -> tuple[Translation, ...]:
    if not text:
        return ()
    found = []
    for one in text.split(_ONE):
        parts = one.split(_PART)
        parts += [""] * (3 - len(parts))
        if _ESC in one:
            parts = [_UNESCAPE.sub(_unescaped, p) for p in parts]
        found.append(Translation(*parts[:3]))
    return tuple(found)


def _unescaped(match: re.Match[str]) -> str:
    return (_ESC, _PART, _ONE, _SEP)[int(match.group(1))]


def _joined(
    ours: tuple[Translation, ...], theirs: tuple[Translation, ...]
) -> tuple[Translation, ...]:
    """Our translations, and theirs into the languages we lack."""
    have = {t.lang for t in ours}
    return ours + tuple(t for t in theirs if t.lang not in have)
