"""The corpus: files and folders of dumps read into `Paper` records with ids, titles and URLs.

The record itself (`Paper`, ids, URLs) is in `paper`, its fields in `paper_meta`; the input
formats in `formats`; streaming, splitting and the per-file cache in `stream`, `split` and
`cache`. This module reads the files and joins what they hold into one corpus. The package
imports only `titles`, `text` and `system`: every other part of the core may import it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from papertui.core.corpus.formats import is_corpus_file, read_corpus_file
from papertui.core.corpus.formats.base import CorpusError, ParsedFile, RawRecord
from papertui.core.corpus.identity import ID_LENGTH, extract_urls, paper_id
from papertui.core.corpus.paper import (
    AUTHOR_SEPARATOR,
    Paper,
    TextStore,
    papers_containing,
)
from papertui.core.corpus.paper_meta import PaperMeta

# the reason counted for a record whose abstract (or arXiv id) a paper read before already has
DUPLICATE = "duplicate"

__all__ = [
    "AUTHOR_SEPARATOR",
    "DUPLICATE",
    "ID_LENGTH",
    "Corpus",
    "FileReport",
    "Paper",
    "TextStore",
    "build_papers",
    "expand_paths",
    "extract_urls",
    "fill_in",
    "finish_titles",
    "load_corpus",
    "paper_id",
    "papers_containing",
    "parse_file",
]


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
                    "(.txt .json .jsonl .csv .tsv .bib .md .xml .ris, or .gz of these)"
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


def build_papers(
    parsed: Iterable[ParsedFile],
    files: list[FileReport],
    made: Callable[[Paper], None] | None = None,
) -> list[Paper]:
    """Papers in corpus order; the same abstract twice is one paper in every collection it is in,
    and so is the same arXiv id with two abstract texts (Hugging Face's and arXiv's copies of one
    paper; the first copy's id stays, the other's is remembered as an alias). `made(paper)` is
    called as each new paper is made (a streamed read moves its abstract out of memory)."""
    by_id: dict[str, Paper] = {}
    by_arxiv: dict[str, Paper] = {}
    papers: list[Paper] = []
    for pf in parsed:
        count = 0
        duplicates = 0
        for record in pf.records:
            pid = paper_id(record.abstract)
            existing = same_paper(by_id, by_arxiv, pid, record.meta)
            if existing is not None:
                _enrich(existing, record, pid)
                if pf.collection not in existing.collections:
                    existing.collections = (*existing.collections, pf.collection)
                    count += 1
                else:
                    duplicates += 1
                continue
            title = record.title.strip()
            paper = Paper(
                pid,
                record.abstract,
                [pf.collection],
                pf.path,
                title=title or None,
                has_real_title=bool(title) and not record.title_derived,
                extra_url=" ".join(u for u in (record.url, record.more_urls) if u),
                authors=record.authors,
                venue=record.venue,
                year=record.year,
                cite=record.cite,
                meta=record.meta,
            )
            by_id[pid] = paper
            papers.append(paper)
            if record.meta:
                remember_arxiv(by_arxiv, paper)
            if made is not None:
                made(paper)
            count += 1
        skipped = dict(pf.skipped)
        if duplicates:
            skipped[DUPLICATE] = skipped.get(DUPLICATE, 0) + duplicates
        files.append(FileReport(pf.path, pf.format, pf.collection, count, skipped))
    return papers


def same_paper(
    by_id: dict[str, Paper], by_arxiv: dict[str, Paper], pid: str, meta: str
) -> Paper | None:
    """The paper already read that a copy with id `pid` and metadata `meta` is: the same
    abstract, else the same arXiv id."""
    found = by_id.get(pid)
    if found is None and meta:
        arxiv = PaperMeta.decode(meta).arxiv
        if arxiv:
            found = by_arxiv.get(arxiv)
            if found is not None:
                by_id[pid] = found  # a third copy with this text is found by its id
    return found


def remember_arxiv(by_arxiv: dict[str, Paper], paper: Paper) -> None:
    arxiv = paper.meta.arxiv
    if arxiv:
        by_arxiv.setdefault(arxiv, paper)


def _enrich(paper: Paper, record: RawRecord, pid: str) -> None:
    """The same abstract from a richer source (a JSON list after a text dump) fills in what the
    first one lacked: a real title, authors, venue, year, a link."""
    meta = record.meta
    if pid != paper.id:  # the same arXiv id, another abstract text: its id leads here now
        meta = PaperMeta.decode(meta)._replace(aliases=(pid,)).encode()
    fill_in(
        paper,
        "" if record.title_derived else record.title.strip(),
        record.authors,
        record.venue,
        record.year,
        " ".join(u for u in (record.url, record.more_urls) if u),
        record.cite,
        meta,
    )


def fill_in(
    paper: Paper,
    title: str,
    authors: tuple[str, ...],
    venue: str,
    year: int | None,
    url: str,
    cite: str = "",
    meta: str = "",
) -> None:
    """Give `paper` what another copy of its abstract knows and it does not (`title` only when
    that copy's title is real); links and metadata of both copies are kept."""
    if title and not paper.has_real_title:
        paper.title = title
        paper.has_real_title = True
    paper.authors = paper.authors or authors
    paper.venue = paper.venue or venue
    paper.year = paper.year or year
    paper.cite = paper.cite or cite
    if meta and meta != paper._meta:
        paper.meta = paper.meta.merged(PaperMeta.decode(meta))
    if url:
        have = paper.extra_url.split()
        more = [u for u in url.split() if u not in have]
        if more:
            paper.extra_url = " ".join((*have, *more))


def complete_from(paper: Paper, other: Paper) -> None:
    """What `_enrich` does for a record, for the same abstract's paper read later (in a later
    file, or appended to the same file since its cache was written)."""
    title = other.title if other.has_real_title else ""
    meta = other.meta
    if other.id != paper.id:  # the same arXiv id, another abstract text
        meta = meta._replace(aliases=(*meta.aliases, other.id))
    fill_in(
        paper,
        title,
        other.authors,
        other.venue,
        other.year,
        other.extra_url,
        other.cite,
        meta.encode(),
    )


def finish_titles(
    papers: Sequence[Paper], progress: Callable[[int, int], None] | None = None
) -> None:
    """Derive every title now; derived titles that collide get the id's start, so every row in
    the list is distinct. Costs seconds at 100,000 papers: the UI has a worker do it."""
    if all(paper.has_real_title for paper in papers):
        return  # an arXiv snapshot: nothing to derive or mark
    # titles counted by their hash, then compared as text where a hash repeats: a million
    # titles read from the corpus cache would otherwise all be held at once
    seen: dict[int, int] = {}
    for i, paper in enumerate(papers):
        if progress is not None and i % 2000 == 0:
            progress(i, len(papers))
        key = hash(paper.title)
        seen[key] = seen.get(key, 0) + 1
    repeated = [p for p in papers if seen[hash(p.title)] > 1]
    same = Counter(p.title for p in repeated)
    for paper in repeated:
        if same[paper.title] > 1 and not paper.has_real_title:
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
