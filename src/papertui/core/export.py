"""Plain, diff-able copies of what the user kept: Markdown, JSON, CSV and BibTeX.

What to export is decided here too, over plain inputs (papers, the store's saved copies and an
`Annotations` snapshot), so every export path carries the same fields: tags, notes, feedback,
read state, and whether a title was derived from the abstract.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from papertui.core.corpus import Paper
from papertui.core.store import Annotations, SavedPaper

FORMATS = ("markdown", "json", "csv", "bibtex")
SUFFIXES = {"markdown": ".md", "json": ".json", "csv": ".csv", "bibtex": ".bib"}
DERIVED_REMARK = "title derived from the abstract by papertui"


class ExportError(Exception):
    """An export that could not be written; `str()` is one line for the user."""


class ExportExists(ExportError):
    """The target file exists and `overwrite` was not given: ask the user first."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} exists; not overwritten")
        self.path = path


@dataclass(slots=True)
class Entry:
    id: str
    title: str
    abstract: str
    collections: list[str]
    urls: list[str]
    bookmarked: bool
    note: str
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    tags: list[str] = field(default_factory=list)
    title_derived: bool | None = False  # None: saved by an older papertui, not known
    feedback: str | None = None  # "liked", "skipped" or None
    read: bool = False

    @classmethod
    def of(cls, paper: Paper, bookmarked: bool, note: str) -> Entry:
        """An entry without tags, feedback or read state: prefer `entry_for`."""
        return cls(
            paper.id,
            paper.title,
            paper.abstract,
            list(paper.collections),
            list(paper.urls),
            bookmarked,
            note,
            list(paper.authors),
            paper.venue,
            paper.year,
            title_derived=not paper.has_real_title,
        )


def entry_for(paper: Paper | SavedPaper, notes: Annotations) -> Entry:
    """One paper (from the corpus, or the store's copy) with everything the user made of it."""
    pid = paper.id
    if isinstance(paper, Paper):
        derived: bool | None = not paper.has_real_title
    else:
        derived = None if paper.has_real_title is None else not paper.has_real_title
    return Entry(
        id=pid,
        title=paper.title,
        abstract=paper.abstract,
        collections=list(paper.collections),
        urls=list(paper.urls),
        bookmarked=pid in notes.bookmarks,
        note=notes.notes.get(pid, ""),
        authors=list(paper.authors),
        venue=paper.venue,
        year=paper.year,
        tags=notes.tags_of(pid),
        title_derived=derived,
        feedback=notes.feedback_word(pid),
        read=pid in notes.reads,
    )


def entries_for(papers: Iterable[Paper], notes: Annotations) -> list[Entry]:
    """Entries for chosen papers (a selection, the results, a tag), in the order given."""
    return [entry_for(p, notes) for p in papers]


def annotated_ids(notes: Annotations) -> list[str]:
    """Every paper the user bookmarked, noted or tagged: bookmarks oldest first, then the
    other noted papers oldest first, then the other tagged ones."""
    ids = sorted(notes.bookmarks, key=lambda pid: (notes.bookmarks[pid], pid))
    taken = set(ids)
    noted = sorted(
        (pid for pid in notes.notes if pid not in taken),
        key=lambda pid: (notes.noted_at.get(pid, 0.0), pid),
    )
    taken.update(noted)
    tagged = sorted(pid for pid in notes.tags if pid not in taken)
    return ids + noted + tagged


def annotated_entries(
    ids: Sequence[str],
    papers: Mapping[str, Paper],
    saved: Mapping[str, SavedPaper],
    notes: Annotations,
) -> list[Entry]:
    """Entries for `ids` (see `annotated_ids`): from the corpus when it holds the paper, else
    from the store's saved copy (authors, venue and year included); ids in neither are left
    out."""
    entries = []
    for pid in ids:
        paper: Paper | SavedPaper | None = papers.get(pid) or saved.get(pid)
        if paper is not None:
            entries.append(entry_for(paper, notes))
    return entries


def write_export(path: str | os.PathLike[str], text: str, *, overwrite: bool = False) -> Path:
    """Write an export; returns the absolute path written.

    Raises ExportExists when the file exists and `overwrite` is false (the UI asks, then calls
    again with `overwrite=True`), ExportError with a one-line reason when it cannot be written.
    The file appears whole or not at all: a full disk never leaves half an export, nor
    destroys the file it was to replace.
    """
    target = Path(os.path.abspath(Path(path).expanduser()))
    if target.is_dir():
        raise ExportError(f"{target} is a folder; give a file name")
    if not overwrite and os.path.lexists(target):
        raise ExportExists(target)
    temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.papertui-tmp")
    try:
        with open(temp, "x", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(temp, target)
        else:
            _link_new(temp, target, text)
    except OSError as exc:
        raise ExportError(f"{target}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    return target


def _link_new(temp: Path, target: Path, text: str) -> None:
    """Give the written file its name unless that name is taken (checked and done at once)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise ExportExists(target) from None
    except OSError:  # a file system without hard links
        try:
            with open(target, "x", encoding="utf-8", newline="") as handle:
                handle.write(text)
        except FileExistsError:
            raise ExportExists(target) from None


def export_to(
    path: str | os.PathLike[str], entries: Sequence[Entry], fmt: str, *, overwrite: bool = False
) -> Path:
    """Render `entries` as `fmt` and write them to `path` (see `write_export`)."""
    return write_export(path, render(entries, fmt), overwrite=overwrite)


def paper_markdown(
    title: str,
    abstract: str,
    urls: Sequence[str],
    note: str = "",
    byline: str = "",
    *,
    title_derived: bool | None = False,
    tags: Sequence[str] = (),
) -> str:
    """One paper as Markdown: what `Y` copies and what the reading list is made of."""
    parts = [f"## {title}", ""]
    if title_derived:
        parts += [f"*({DERIVED_REMARK})*", ""]
    parts += ([f"*{byline}*", ""] if byline else []) + [abstract]
    if urls:
        parts += ["", *[f"- <{u}>" for u in urls]]
    if tags:
        parts += ["", "**Tags:** " + ", ".join(tags)]
    if note.strip():
        parts += ["", "**Note:**", "", *[f"> {line}" for line in note.splitlines()]]
    return "\n".join(parts) + "\n"


def to_markdown(entries: Sequence[Entry]) -> str:
    head = f"# papertui export ({len(entries)} paper{'s' if len(entries) != 1 else ''})\n"
    body = "\n".join(
        paper_markdown(
            e.title,
            e.abstract,
            e.urls,
            e.note,
            byline(e.authors, e.venue, e.year),
            title_derived=e.title_derived,
            tags=e.tags,
        )
        + f"\n*{', '.join(e.collections)} · id {e.id}*\n"
        for e in entries
    )
    return head + "\n" + body


def byline(authors: Sequence[str], venue: str, year: int | None) -> str:
    """ "A. Author, B. Author · NeurIPS · 2024", leaving out what is unknown."""
    people = ", ".join(authors[:8]) + (" et al." if len(authors) > 8 else "")
    return " · ".join(p for p in (people, venue, str(year) if year else "") if p)


def to_json(entries: Sequence[Entry]) -> str:
    return json.dumps([asdict(e) for e in entries], ensure_ascii=False, indent=2) + "\n"


def to_csv(entries: Sequence[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "id",
            "title",
            "authors",
            "venue",
            "year",
            "collections",
            "bookmarked",
            "note",
            "tags",
            "feedback",
            "read",
            "title_derived",
            "urls",
            "abstract",
        ]
    )
    for e in entries:
        writer.writerow(
            [
                e.id,
                e.title,
                "; ".join(e.authors),
                e.venue,
                e.year or "",
                "; ".join(e.collections),
                int(e.bookmarked),
                e.note,
                "; ".join(e.tags),
                e.feedback or "",
                int(e.read),
                "" if e.title_derived is None else str(e.title_derived).lower(),
                " ".join(e.urls),
                e.abstract,
            ]
        )
    return out.getvalue()


def _bib_value(text: str) -> str:
    """A braced BibTeX value. Unbalanced braces would end the field early, so escape them."""
    text = " ".join(text.split())
    depth = 0
    balanced = True
    for ch in text:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            balanced = False
            break
    if not balanced or depth != 0:
        text = text.replace("{", "\\{").replace("}", "\\}")
    return "{" + text + "}"


def to_bibtex(entries: Sequence[Entry]) -> str:
    chunks = []
    for e in entries:
        fields = [("title", e.title)]
        if e.authors:
            fields.append(("author", " and ".join(e.authors)))
        if e.year:
            fields.append(("year", str(e.year)))
        if e.venue:
            fields.append(("booktitle", e.venue))
        fields.append(("abstract", e.abstract))
        if e.urls:
            fields.append(("url", e.urls[0]))
        fields.append(("howpublished", ", ".join(e.collections)))
        if e.note.strip():
            fields.append(("note", e.note))
        if e.tags:
            fields.append(("keywords", ", ".join(e.tags)))
        if e.title_derived:
            fields.append(("addendum", DERIVED_REMARK))
        body = ",\n".join(f"  {name} = {_bib_value(value)}" for name, value in fields)
        key = re.sub(r"[^A-Za-z0-9]", "", e.id)
        chunks.append(f"@misc{{papertui{key},\n{body}\n}}\n")
    return "\n".join(chunks)


def render(entries: Sequence[Entry], fmt: str) -> str:
    return {"markdown": to_markdown, "json": to_json, "csv": to_csv, "bibtex": to_bibtex}[fmt](
        entries
    )
