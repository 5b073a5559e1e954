"""The reader's export: what can be exported, and writing it, as functions over the library."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from papertui.core.corpus import Paper
from papertui.core.export import ExportError, ExportExists, export_to
from papertui.core.library import Library
from papertui.core.text import counted, safe_display

DEFAULT_NAME = "papertui-export.bib"


def choices(library: Library, selected: int, results: int) -> list[tuple[Text, str]]:
    """What can be exported, labelled as plain text (a tag may look like markup)."""
    found = [("bookmarked, annotated and liked papers", "bookmarks")]
    if selected:  # what E acts on when papers are selected: offered first
        what = "the selected paper" if selected == 1 else f"the {selected} selected papers"
        found.insert(0, (what, "selection"))
    found.append((f"the current results ({results})", "results"))
    found += [(f"tag #{tag}", f"tag:{tag}") for tag in library.marks.all_tags()]
    return [(Text(safe_display(label)), value) for label, value in found]


@dataclass(frozen=True, slots=True)
class Written:
    """How an export went: `path` written, or `exists` (ask first), or `problem` to show."""

    path: Path | None = None
    count: int = 0
    exists: Path | None = None
    problem: str = ""

    def message(self) -> str:
        shown = safe_display(str(self.path))
        return f"Exported {counted(self.count, 'paper')} to {shown}"


def write(
    library: Library,
    what: str,
    fmt: str,
    name: str,
    *,
    selection: Sequence[int],
    results: Sequence[int],
    overwrite: bool = False,
) -> Written:
    entries = library.entries(_papers(library, what, selection, results))
    if not entries:  # an empty file helps nobody, and would overwrite a good one
        nothing = "Nothing to export there: bookmark, note or tag papers first (b, n, t)"
        if what != "bookmarks":
            nothing = "Nothing to export there: it holds no papers"
        return Written(problem=nothing + ", or choose other papers above.")
    try:
        return Written(export_to(name, entries, fmt, overwrite=overwrite), len(entries))
    except ExportExists as exc:
        return Written(exists=exc.path)
    except ExportError as exc:
        return Written(problem=safe_display(str(exc)))


def _papers(
    library: Library, what: str, selection: Sequence[int], results: Sequence[int]
) -> list[Paper] | None:
    if what == "selection":
        return [library.papers[i] for i in sorted(selection)]
    if what == "results":
        return [library.papers[i] for i in results]
    if what.startswith("tag:"):
        return library.marks.tagged(what[4:])
    return None  # the bookmarked, annotated and liked papers
