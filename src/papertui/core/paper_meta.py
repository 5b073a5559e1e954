"""What a record knows beyond title, authors, venue and year: its arXiv id and categories, its
upvotes and the day it was listed (Hugging Face Daily Papers), a conference's decision (status,
track, mean rating), when papertui first fetched it, and the ids of other copies of it merged
into it.

Kept on a paper as one short string (fields joined by a unit separator; "" when there is
nothing), not a dict: a million-record arXiv snapshot carries categories on every paper, and a
string costs a third of a dict of lists.
"""

from __future__ import annotations

from typing import Any, NamedTuple

_SEP = "\x1f"


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
        return _SEP.join(p.replace(_SEP, " ") for p in parts).rstrip(_SEP)  # decode pads

    @classmethod
    def decode(cls, text: str) -> PaperMeta:
        if not text:
            return EMPTY
        parts = text.split(_SEP)
        parts += [""] * (9 - len(parts))
        arxiv, cats, up, listed, status, track, rating, fetched, aliases = parts[:9]
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
        )

    @staticmethod
    def arxiv_of(text: str) -> str:
        """`decode(text).arxiv`, the rest left encoded."""
        return text.partition(_SEP)[0]

    @staticmethod
    def aliases_of(text: str) -> tuple[str, ...]:
        """`decode(text).aliases`, the rest left encoded (few records have any)."""
        parts = text.split(_SEP, 8)
        return tuple(parts[8].split()) if len(parts) == 9 else ()

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
