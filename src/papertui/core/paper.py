"""A paper: one abstract, its stable id, and what is known or derived about it (title, URLs)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Protocol

from papertui.core.latex import has_latex
from papertui.core.paper_meta import PaperMeta
from papertui.core.text import identity_text
from papertui.core.titles import derive_title

ID_LENGTH = 12
AUTHOR_SEPARATOR = "\x1f"

# a link ends at a space, a bracket, a quote or a control character (an escape sequence's ESC)
_URL = re.compile(r"https?://[^\s<>\"'`\]\[{}|\\^\x00-\x1f\x7f-\x9f]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?)]}'\"*"


def paper_id(abstract: str) -> str:
    """A short, stable id: the abstract's hash after control-character, LaTeX, Unicode and
    whitespace normalisation (`identity_text`), so a BibTeX copy and a text dump's copy of one
    abstract share it, and so does the copy an export gives back."""
    text = abstract
    # Plain ASCII with single spaces, no control characters and no LaTeX is already normal:
    # skip the work (isprintable is false for tabs, newlines and every other ASCII space but
    # " " and for every control character).
    if not (
        text.isascii()
        and text.isprintable()
        and "  " not in text
        and text.strip(" ") == text
        and not has_latex(text)
    ):
        text = identity_text(text)
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
    return digest.hexdigest()[:ID_LENGTH]


def extract_urls(text: str) -> tuple[str, ...]:
    """http(s) URLs in order of appearance, without trailing punctuation, each once."""
    if "://" not in text:
        return ()  # most abstracts: skip the regex
    seen: dict[str, None] = {}
    for match in _URL.finditer(text):
        url = match.group()
        while url and url[-1] in _URL_TRAIL:
            # keep a closing parenthesis that closes one opened inside the URL (wiki links)
            if url[-1] == ")" and url.count("(") >= url.count(")"):
                break
            url = url[:-1]
        if len(url) > len("https://"):
            seen.setdefault(url, None)
    return tuple(seen)


class TextStore(Protocol):
    """Where abstracts live when they are not Python strings (see `corpus_cache`)."""

    def text(self, n: int) -> str: ...

    def numbers_containing(self, chars: str) -> set[int]:
        """The numbers of the abstracts holding any of `chars` (ASCII), found without
        decoding each abstract."""
        ...


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
    them.
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
        self._authors: tuple[str, ...] | str = authors
        self.venue = venue
        self.year = year
        # "type key" of the BibTeX entry it was read from ("article smith2020deep"), else ""
        self.cite = cite
        self.has_real_title = has_real_title
        self._title = title
        self._urls = urls
        self._extra_url = extra_url  # links the record named, space separated
        self._meta = meta  # `PaperMeta`, encoded: "" for most papers

    @classmethod
    def from_cache(
        cls,
        id: str,
        n: int,
        store: TextStore,
        collections: tuple[str, ...],
        source: str,
        cached: tuple[str | None, bool, str, tuple[str, ...] | str, str, int | None, str, str],
    ) -> Paper:
        """A paper read from the corpus cache, its abstract number `n` in `store`. Sets the
        slots directly: 100,000 of these are made before the first screen."""
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

    @property
    def authors(self) -> tuple[str, ...]:
        names = self._authors
        if isinstance(names, str):  # as the corpus cache keeps them: one string, split on use
            return tuple(names.split(AUTHOR_SEPARATOR)) if names else ()
        return names

    @authors.setter
    def authors(self, value: tuple[str, ...]) -> None:
        self._authors = value

    @property
    def title(self) -> str:
        if self._title is None:
            self._title = derive_title(self.abstract)
        return self._title

    @title.setter
    def title(self, value: str) -> None:
        self._title = value

    @property
    def title_known(self) -> bool:
        return self._title is not None

    @property
    def urls(self) -> tuple[str, ...]:
        if self._urls is None:
            extra = " " + self._extra_url if self._extra_url else ""
            self._urls = extract_urls(self.abstract + extra)
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
