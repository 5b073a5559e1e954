"""A paper: one abstract, its stable id, and what is known or derived about it (title, URLs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol, cast

from papertui.core.corpus.identity import extract_urls
from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.titles import derive_title

AUTHOR_SEPARATOR = "\x1f"


class TextStore(Protocol):
    """Where abstracts live when they are not Python strings (see `corpus_cache`)."""

    def text(self, n: int) -> str: ...

    def numbers_containing(self, chars: str) -> set[int]:
        """The numbers of the abstracts holding any of `chars` (ASCII), found without
        decoding each abstract."""
        ...


class FieldStore(TextStore, Protocol):
    """A corpus cache that also keeps each paper's title, authors and links (`corpus_cache_file`):
    at a million papers, 290 MB that stay on disk until a row or a paper needs them."""

    def stored_title(self, n: int) -> str: ...

    def stored_authors(self, n: int) -> str: ...

    def stored_url(self, n: int) -> str: ...

    def holds(self, n: int) -> tuple[bool, bool, bool]:
        """Whether the cache holds a title, authors and links for paper `n`."""
        ...


class _Stored:
    """The value of a field that the paper reads from its `FieldStore` when asked."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "STORED"


STORED: Final = _Stored()


def papers_containing(papers: Sequence[Paper], chars: str) -> list[Paper]:
    """The papers whose abstract holds any of the ASCII `chars`, in corpus order. Abstracts in
    a mapped store are searched there (at 100,000 papers: ~0.1 s instead of ~1 s to decode
    every one)."""
    found: list[Paper] = []
    hits: dict[int, set[int]] = {}  # id(store) -> its abstracts' numbers that hold one
    for paper in papers:
        text = paper._abstract
        if isinstance(text, str):
            if any(c in text for c in chars):
                found.append(paper)
            continue
        store = paper._store
        assert store is not None
        numbers = hits.get(id(store))
        if numbers is None:
            numbers = hits[id(store)] = store.numbers_containing(chars)
        if text in numbers:
            found.append(paper)
    return found


class Paper:
    """One abstract and what is known or derived about it.

    The title and URLs are derived on first use: at 100,000 papers, deriving them all up front
    would delay the first screen by seconds, while the list only needs the rows it shows.
    A paper read from the corpus cache keeps its abstract's number in a `TextStore` (a mapped
    file) instead of the text: 100 MB of abstracts stay on disk until a row or a paper needs
    them. Its title, authors and links, when the cache holds them, are `STORED` and read from
    there on each use (`FieldStore`), not kept.
    """

    __slots__ = (
        "id",
        "_abstract",
        "_store",
        "collections",
        "source",
        "_authors",
        "venue",
        "year",
        "has_real_title",
        "_title",
        "_urls",
        "_extra_url",
        "cite",
        "_meta",
    )

    def __init__(
        self,
        id: str,
        abstract: str,
        collections: Sequence[str],
        source: str,
        *,
        title: str | None = None,
        has_real_title: bool = False,
        urls: tuple[str, ...] | None = None,
        extra_url: str = "",
        authors: tuple[str, ...] = (),
        venue: str = "",
        year: int | None = None,
        cite: str = "",
        meta: str = "",
    ) -> None:
        self.id = id
        self._abstract: str | int = abstract
        self._store: TextStore | None = None
        # a tuple: the papers of one cached file share one (64 bytes a paper less)
        self.collections: tuple[str, ...] = tuple(collections)
        self.source = source
        self._authors: tuple[str, ...] | str | _Stored = authors
        self.venue = venue
        self.year = year
        # "type key" of the BibTeX entry it was read from ("article smith2020deep"), else ""
        self.cite = cite
        self.has_real_title = has_real_title
        self._title: str | _Stored | None = title
        self._urls = urls
        self._extra_url: str | _Stored = extra_url  # links the record named, space separated
        self._meta = meta  # `PaperMeta`, encoded: "" for most papers

    @classmethod
    def from_cache(
        cls,
        id: str,
        n: int,
        store: TextStore,
        collections: tuple[str, ...],
        source: str,
        cached: tuple[
            str | _Stored | None,
            bool,
            str | _Stored,
            tuple[str, ...] | str | _Stored,
            str,
            int | None,
            str,
            str,
        ],
    ) -> Paper:
        """A paper read from the corpus cache, its abstract number `n` in `store` (a
        `FieldStore` when a field is `STORED`). Sets the slots directly: 100,000 of these are
        made before the first screen."""
        title, real, url, authors, venue, year, cite, meta = cached
        paper = cls.__new__(cls)
        paper.id = id
        paper._abstract = n
        paper._store = store
        paper.collections = collections
        paper.source = source
        paper._authors = authors  # one string when it can be: split when shown
        paper.venue = venue
        paper.year = year
        paper.has_real_title = real
        paper._title = title
        paper._urls = None
        paper._extra_url = url
        paper.cite = cite
        paper._meta = meta
        return paper

    @property
    def abstract(self) -> str:
        text = self._abstract
        if isinstance(text, str):
            return text
        assert self._store is not None
        return self._store.text(text)

    @abstract.setter
    def abstract(self, value: str) -> None:
        self._abstract = value
        self._store = None

    def keep_abstract_in(self, store: TextStore, n: int) -> None:
        """Drop the abstract's text; `store.text(n)` gives it back (the same string)."""
        self._abstract = n
        self._store = store

    def keep_in_cache(self, store: FieldStore, n: int) -> None:
        """`keep_abstract_in` a cache just written from this paper, and drop the title, authors
        and links it holds too."""
        self.keep_abstract_in(store, n)
        title, authors, url = store.holds(n)
        if title and self._title is not None:
            self._title = STORED
        if authors:
            self._authors = STORED
        if url:
            self._extra_url = STORED

    def stored_field(self, which: int) -> tuple[FieldStore, int] | None:
        """Where the title (0), authors (1) or links (2) are read from when they are `STORED`
        (the store and this paper's number there), else None."""
        value = (self._title, self._authors, self._extra_url)[which]
        return None if value is not STORED else (self._fields(), cast(int, self._abstract))

    def _fields(self) -> FieldStore:
        return cast("FieldStore", self._store)

    @property
    def authors(self) -> tuple[str, ...]:
        names = self._authors
        if names is STORED:
            names = self._fields().stored_authors(cast(int, self._abstract))
        if isinstance(names, str):  # as the corpus cache keeps them: one string, split on use
            return tuple(names.split(AUTHOR_SEPARATOR)) if names else ()
        return cast("tuple[str, ...]", names)

    @authors.setter
    def authors(self, value: tuple[str, ...]) -> None:
        self._authors = value

    @property
    def title(self) -> str:
        title = self._title
        if title is None:
            title = self._title = derive_title(self.abstract)
        elif title is STORED:
            return self._fields().stored_title(cast(int, self._abstract))
        return cast(str, title)

    @title.setter
    def title(self, value: str) -> None:
        self._title = value

    @property
    def title_known(self) -> bool:
        return self._title is not None

    @property
    def known_title(self) -> str | None:
        """The title when it is known, without deriving it (None)."""
        return None if self._title is None else self.title

    @property
    def extra_url(self) -> str:
        """The links the record named, space separated ("" for most abstracts)."""
        url = self._extra_url
        if url is STORED:
            return self._fields().stored_url(cast(int, self._abstract))
        return cast(str, url)

    @extra_url.setter
    def extra_url(self, value: str) -> None:
        self._extra_url = value
        self._urls = None

    @property
    def urls(self) -> tuple[str, ...]:
        if self._urls is None:
            extra = self.extra_url
            self._urls = extract_urls(self.abstract + (" " + extra if extra else ""))
        return self._urls

    @property
    def meta(self) -> PaperMeta:
        """arXiv id, categories, upvotes, listing day, decision: what richer records carry."""
        return PaperMeta.decode(self._meta)

    @meta.setter
    def meta(self, value: PaperMeta) -> None:
        self._meta = value.encode()

    @property
    def collection(self) -> str:
        return self.collections[0]

    def __repr__(self) -> str:
        return f"Paper({self.id!r}, {self.abstract[:40]!r})"
