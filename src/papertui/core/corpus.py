"""Papers: read files and folders of dumps into `Paper` records with ids, titles and URLs."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from papertui.core.formats.base import CorpusError, ParsedFile
from papertui.core.formats.native import parse_native
from papertui.core.text import identity_text
from papertui.core.titles import derive_title

ID_LENGTH = 12
CORPUS_SUFFIXES = (".txt",)

_URL = re.compile(r"https?://[^\s<>\"'`\]\[{}|\\^]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?)]}'\"*"


def paper_id(abstract: str) -> str:
    """A short, stable id: the abstract's hash after Unicode and whitespace normalisation."""
    digest = hashlib.blake2b(identity_text(abstract).encode("utf-8"), digest_size=16)
    return digest.hexdigest()[:ID_LENGTH]


def extract_urls(text: str) -> tuple[str, ...]:
    """http(s) URLs in order of appearance, without trailing punctuation, each once."""
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


@dataclass(slots=True)
class Paper:
    id: str
    title: str
    abstract: str
    collections: list[str]
    urls: tuple[str, ...]
    source: str
    authors: tuple[str, ...] = ()
    venue: str = ""
    year: int | None = None
    has_real_title: bool = False

    @property
    def collection(self) -> str:
        return self.collections[0]


@dataclass(slots=True)
class FileReport:
    """What one file gave: shown by `papertui list` and the TUI."""

    path: str
    format: str
    collection: str
    papers: int
    skipped: dict[str, int] = field(default_factory=dict)


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
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in CORPUS_SUFFIXES)
            found = [p for p in found if p.is_file()]
            if not found:
                errors.append(f"{path}: no corpus files (*.txt) in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        elif path.exists():
            errors.append(f"{path}: not a regular file")
        else:
            errors.append(f"{path}: no such file or folder")
    return files


def parse_file(path: Path) -> ParsedFile:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CorpusError(str(path), exc.strerror or "cannot be read") from exc
    return parse_native(str(path), data)


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
                if pf.collection not in existing.collections:
                    existing.collections.append(pf.collection)
                    count += 1
                else:
                    duplicates += 1
                continue
            has_title = bool(record.title.strip())
            by_id[pid] = Paper(
                id=pid,
                title=record.title.strip() if has_title else derive_title(record.abstract),
                abstract=record.abstract,
                collections=[pf.collection],
                urls=extract_urls(record.abstract + (" " + record.url if record.url else "")),
                source=pf.path,
                authors=record.authors,
                venue=record.venue,
                year=record.year,
                has_real_title=has_title,
            )
            count += 1
        skipped = dict(pf.skipped)
        if duplicates:
            skipped["duplicate"] = skipped.get("duplicate", 0) + duplicates
        files.append(FileReport(pf.path, pf.format, pf.collection, count, skipped))
    papers = list(by_id.values())
    _disambiguate_titles(papers)
    return papers


def _disambiguate_titles(papers: list[Paper]) -> None:
    """Derived titles that collide get the id's start, so every row in the list is distinct."""
    seen: dict[str, int] = {}
    for paper in papers:
        seen[paper.title] = seen.get(paper.title, 0) + 1
    for paper in papers:
        if seen[paper.title] > 1 and not paper.has_real_title:
            paper.title = f"{paper.title} [{paper.id[:6]}]"


def load_corpus(paths: Sequence[str | Path]) -> Corpus:
    """Read every path; bad files become one-line errors, never exceptions."""
    errors: list[str] = []
    warnings: list[str] = []
    parsed: list[ParsedFile] = []
    for path in expand_paths(paths, errors):
        try:
            pf = parse_file(path)
        except CorpusError as exc:
            errors.append(str(exc))
            continue
        warnings.extend(pf.warnings)
        parsed.append(pf)
    files: list[FileReport] = []
    papers = build_papers(parsed, files)
    return Corpus(papers=papers, files=files, errors=errors, warnings=warnings)
