"""Papers: read files and folders of dumps into `Paper` records with ids, titles and URLs."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from papertui.core.formats import is_corpus_file, read_corpus_file
from papertui.core.formats.base import CorpusError, ParsedFile, RawRecord
from papertui.core.text import identity_text
from papertui.core.titles import derive_title

ID_LENGTH = 12
AUTHOR_SEPARATOR = "\x1f"

_URL = re.compile(r"https?://[^\s<>\"'`\]\[{}|\\^]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?)]}'\"*"


def paper_id(abstract: str) -> str:
    """A short, stable id: the abstract's hash after Unicode, whitespace and LaTeX normalisation
    (`identity_text`), so a BibTeX copy and a text dump's copy of one abstract share it."""
    text = abstract
    # Plain ASCII with single spaces, no control characters and no LaTeX (no backslash or brace)
    # is already normal: skip the work (isprintable is false for tabs, newlines and every other
    # ASCII space but " ").
    if not (
        text.isascii()
        and text.isprintable()
        and "  " not in text
        and text.strip(" ") == text
        and "\\" not in text
        and "{" not in text
        and "}" not in text
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
    )

    def __init__(
        self,
        id: str,
        abstract: str,
        collections: list[str],
        source: str,
        *,
        title: str | None = None,
        has_real_title: bool = False,
        urls: tuple[str, ...] | None = None,
        extra_url: str = "",
        authors: tuple[str, ...] = (),
        venue: str = "",
        year: int | None = None,
    ) -> None:
        self.id = id
        self._abstract: str | int = abstract
        self._store: TextStore | None = None
        self.collections = collections
        self.source = source
        self._authors: tuple[str, ...] | str = authors
        self.venue = venue
        self.year = year
        self.has_real_title = has_real_title
        self._title = title
        self._urls = urls
        self._extra_url = extra_url

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
    def collection(self) -> str:
        return self.collections[0]

    def __repr__(self) -> str:
        return f"Paper({self.id!r}, {self.abstract[:40]!r})"


@dataclass(slots=True)
class FileReport:
    """What one file gave: shown by `papertui list` and the TUI."""

    path: str
    format: str
    collection: str
    papers: int
    skipped: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        """ "bibtex, 212 papers (skipped no abstract: 12, duplicate: 3)" """
        line = f"{self.format}, {self.papers} paper{'s' if self.papers != 1 else ''}"
        skipped = ", ".join(f"{why}: {n}" for why, n in self.skipped.items())
        return line + (f" (skipped {skipped})" if skipped else "")


@dataclass(slots=True)
class Corpus:
    papers: list[Paper]
    files: list[FileReport]
    errors: list[str]
    warnings: list[str]

    @property
    def collections(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for paper in self.papers:
            for name in paper.collections:
                counts[name] = counts.get(name, 0) + 1
        return counts


def expand_paths(paths: Sequence[str | Path], errors: list[str]) -> list[Path]:
    """Files to read: each file as given, each folder's corpus files in name order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p
                for p in path.iterdir()
                if is_corpus_file(p) and p.is_file() and not p.name.startswith(".")
            )
            if not found:
                errors.append(
                    f"{path}: no corpus files in this folder "
                    "(.txt .json .jsonl .csv .tsv .bib .md .xml, or .gz of these)"
                )
            files.extend(found)
        elif path.is_file():
            files.append(path)
        elif path.exists():
            errors.append(f"{path}: not a regular file")
        else:
            errors.append(f"{path}: no such file or folder")
    return files


def parse_file(path: Path, forced: str | None = None) -> ParsedFile:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CorpusError(str(path), exc.strerror or "cannot be read") from exc
    return read_corpus_file(str(path), data, forced)


def build_papers(parsed: Iterable[ParsedFile], files: list[FileReport]) -> list[Paper]:
    """Papers in corpus order; the same abstract twice is one paper in every collection it is in."""
    by_id: dict[str, Paper] = {}
    for pf in parsed:
        count = 0
        duplicates = 0
        for record in pf.records:
            pid = paper_id(record.abstract)
            existing = by_id.get(pid)
            if existing is not None:
                _enrich(existing, record)
                if pf.collection not in existing.collections:
                    existing.collections.append(pf.collection)
                    count += 1
                else:
                    duplicates += 1
                continue
            real_title = record.title.strip()
            by_id[pid] = Paper(
                pid,
                record.abstract,
                [pf.collection],
                pf.path,
                title=real_title or None,
                has_real_title=bool(real_title),
                extra_url=record.url,
                authors=record.authors,
                venue=record.venue,
                year=record.year,
            )
            count += 1
        skipped = dict(pf.skipped)
        if duplicates:
            skipped["duplicate"] = skipped.get("duplicate", 0) + duplicates
        files.append(FileReport(pf.path, pf.format, pf.collection, count, skipped))
    return list(by_id.values())


def _enrich(paper: Paper, record: RawRecord) -> None:
    """The same abstract from a richer source (a JSON list after a text dump) fills in what the
    first one lacked: a real title, authors, venue, year, a link."""
    fill_in(paper, record.title.strip(), record.authors, record.venue, record.year, record.url)


def fill_in(
    paper: Paper,
    title: str,
    authors: tuple[str, ...],
    venue: str,
    year: int | None,
    url: str,
) -> None:
    """Give `paper` what another copy of its abstract knows and it does not (`title` only when
    that copy's title is real)."""
    if title and not paper.has_real_title:
        paper.title = title
        paper.has_real_title = True
    paper.authors = paper.authors or authors
    paper.venue = paper.venue or venue
    paper.year = paper.year or year
    if url and not paper._extra_url:
        paper._extra_url = url
        paper._urls = None


def finish_titles(
    papers: Sequence[Paper], progress: Callable[[int, int], None] | None = None
) -> None:
    """Derive every title now; derived titles that collide get the id's start, so every row in
    the list is distinct. Costs seconds at 100,000 papers: the UI has a worker do it."""
    seen: dict[str, int] = {}
    for i, paper in enumerate(papers):
        if progress is not None and i % 2000 == 0:
            progress(i, len(papers))
        seen[paper.title] = seen.get(paper.title, 0) + 1
    for paper in papers:
        if seen[paper.title] > 1 and not paper.has_real_title:
            paper.title = f"{paper.title} [{paper.id[:6]}]"


def load_corpus(paths: Sequence[str | Path], forced: str | None = None) -> Corpus:
    """Read every path; bad files become one-line errors, never exceptions."""
    errors: list[str] = []
    warnings: list[str] = []

    def parsed() -> Iterator[ParsedFile]:
        # one file at a time: its text and records are dropped once its papers are made
        for path in expand_paths(paths, errors):
            try:
                pf = parse_file(path, forced)
            except CorpusError as exc:
                errors.append(str(exc))
                continue
            warnings.extend(pf.warnings)
            yield pf

    files: list[FileReport] = []
    papers = build_papers(parsed(), files)
    return Corpus(papers=papers, files=files, errors=errors, warnings=warnings)
