"""A notes vault (Obsidian, Logseq): one Markdown file per paper, named by its citation key, with
YAML front matter (title, authors, year, venue, url, arxiv, tags, bookmarked, liked) and the
abstract and note in the body.

Exporting again updates the files: papertui rewrites only its marked block and its own front
matter keys; what the user wrote outside the block, and front matter keys of their own, are
kept. A paper's file is found again by its `papertui_id`, whatever it was renamed to; files of
papers no longer exported are left alone."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core.export.csl_json import citation_key, identifiers
from papertui.core.export.markdown import byline
from papertui.core.system.atomic_file import replace_text
from papertui.core.text.markdown_marks import _MARKUP_LINE, DERIVED_REMARK

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry

BEGIN = (
    "<!-- papertui:begin. papertui rewrites this block when it exports again: "
    "write your own notes above or below it -->"
)
END = "<!-- papertui:end -->"
OUR_KEYS = (
    "title",
    "authors",
    "year",
    "venue",
    "url",
    "arxiv",
    "tags",
    "bookmarked",
    "liked",
    "papertui_id",
)
_ID_LINE = re.compile(r'^papertui_id:\s*"?([0-9a-f]{6,32})"?\s*$', re.M)
_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


class NotesError(Exception):
    """The vault could not be written; `str()` is one line naming the file or folder."""


@dataclass(slots=True)
class NotesReport:
    folder: Path
    created: int = 0
    updated: int = 0
    unchanged: int = 0


def export_notes(folder: str | os.PathLike[str], entries: Sequence[Entry]) -> NotesReport:
    root = Path(os.path.abspath(Path(folder).expanduser()))
    if root.exists() and not root.is_dir():
        raise NotesError(f"{root} is a file; the notes export writes a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
        known = _files_by_id(root)
    except OSError as exc:
        raise NotesError(f"{root}: {exc.strerror or exc}") from exc
    used = {p.stem for p in root.glob("*.md")}
    report = NotesReport(root)
    for e in entries:
        path = known.get(e.id)
        if path is None:
            path = root / f"{citation_key(e, used)}.md"
        try:
            old = path.read_text("utf-8") if path.exists() else None
            text = note_file(e, old)
            if old == text:
                report.unchanged += 1
                continue
            replace_text(path, text)
        except (OSError, UnicodeDecodeError) as exc:
            raise NotesError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from exc
        if old is None:
            report.created += 1
        else:
            report.updated += 1
    return report


def note_file(e: Entry, old: str | None = None) -> str:
    """The file for `e`: its front matter and block, with what `old` (the file as it is) holds
    of the user's own kept around them."""
    theirs_meta: list[str] = []
    before, after = "", ""
    if old is not None:
        meta, body = _split_front_matter(old)
        theirs_meta = _their_keys(meta)
        start, end = body.find(BEGIN), body.find(END)
        if 0 <= start < end:
            before, after = body[:start], body[end + len(END) :].removeprefix("\n")
        else:  # the markers were removed: their whole text stays, below ours
            after = "\n" + body
    head = "---\n" + "\n".join(_front_matter(e) + theirs_meta) + "\n---\n"
    return head + before + _block(e) + (after if after.strip() else "\n")


def _front_matter(e: Entry) -> list[str]:
    _doi, arxiv = identifiers(e.urls)
    lines = [f"title: {_yaml(e.title)}", f"authors: {_yaml(list(e.authors))}"]
    if e.year:
        lines.append(f"year: {e.year}")
    if e.venue:
        lines.append(f"venue: {_yaml(e.venue)}")
    if e.urls:
        lines.append(f"url: {_yaml(e.urls[0])}")
    if arxiv:
        lines.append(f"arxiv: {_yaml(arxiv)}")
    lines.append(f"tags: {_yaml(list(e.tags))}")
    lines.append(f"bookmarked: {'true' if e.bookmarked else 'false'}")
    lines.append(f"liked: {'true' if e.feedback == 'liked' else 'false'}")
    lines.append(f"papertui_id: {_yaml(e.id)}")
    return lines


def _block(e: Entry) -> str:
    parts = [BEGIN, f"# {_defuse(' '.join(e.title.split()))}", ""]
    if e.title_derived:
        parts += [f"*({DERIVED_REMARK})*", ""]
    line = byline(e.authors, e.venue, e.year)
    if line:
        parts += [f"*{_defuse(line)}*", ""]
    parts.append(_MARKUP_LINE.sub("\\\\", _defuse(e.abstract)))
    if e.urls:
        parts += ["", *[f"- <{u}>" for u in e.urls]]
    if e.note.strip():
        parts += ["", "## Note", "", _defuse(e.note.rstrip())]
    return "\n".join(parts) + "\n" + END + "\n"


def _yaml(value: object) -> str:
    """A YAML scalar or flow list: JSON's double-quoted strings are valid YAML, and escape
    every character that could end the value."""
    return json.dumps(value, ensure_ascii=False)


def _defuse(text: str) -> str:
    """Text that cannot open or close papertui's block (an abstract holding "<!--")."""
    return text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")


def _split_front_matter(text: str) -> tuple[list[str], str]:
    if not text.startswith("---\n"):
        return [], text
    end = text.find("\n---\n", 3)
    if end < 0:
        return [], text
    return text[4:end].split("\n"), text[end + 5 :]


def _their_keys(meta: list[str]) -> list[str]:
    """The front matter lines of keys papertui does not write (with their indented lines)."""
    kept: list[str] = []
    keep = False
    for line in meta:
        m = _KEY_LINE.match(line)
        if m:
            keep = m.group(1) not in OUR_KEYS
        if keep:
            kept.append(line)
    return kept


def _files_by_id(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(root.glob("*.md")):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            meta, _ = _split_front_matter(path.read_text("utf-8"))
            m = _ID_LINE.search("\n".join(meta))
            if m:
                found.setdefault(m.group(1), path)
    return found
