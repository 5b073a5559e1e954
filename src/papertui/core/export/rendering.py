"""The export formats, their file extensions, and the one way every format is rendered."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from papertui.core.export.bibtex import to_bibtex
from papertui.core.export.csv_table import to_csv
from papertui.core.export.json_list import to_json
from papertui.core.export.markdown import to_markdown

if TYPE_CHECKING:  # the CLI reads FORMATS without loading the corpus and the store
    from papertui.core.export.entries import Entry

FORMATS = ("markdown", "json", "csv", "bibtex", "ris", "csl-json")
SUFFIXES = {
    "markdown": ".md",
    "json": ".json",
    "csv": ".csv",
    "bibtex": ".bib",
    "ris": ".ris",
    "csl-json": ".json",
}
# what a file name's extension asks for, when no format is given (.json: papertui's own JSON)
BY_EXTENSION = {suffix: fmt for fmt, suffix in SUFFIXES.items() if fmt != "csl-json"} | {
    ".markdown": "markdown",
    ".bibtex": "bibtex",
}


def render(entries: Sequence[Entry], fmt: str) -> str:
    if fmt in ("ris", "csl-json"):  # their modules (and rispy) load only for them
        from papertui.core.export.csl_json import to_csl_json
        from papertui.core.export.ris import to_ris

        writer = to_ris if fmt == "ris" else to_csl_json
    else:
        writer = {"markdown": to_markdown, "json": to_json, "csv": to_csv, "bibtex": to_bibtex}[fmt]
    return writer([_plain(e) for e in entries])


# Control characters other than tab and newline: an escape sequence in an untrusted abstract
# would colour, move or write to the clipboard of the terminal that shows the exported file.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain(e: Entry) -> Entry:
    def clean(text: str) -> str:
        return _CONTROL.sub("", text) if _CONTROL.search(text) else text

    return replace(
        e,
        title=clean(e.title),
        abstract=clean(e.abstract),
        note=clean(e.note),
        venue=clean(e.venue),
        authors=[clean(a) for a in e.authors],
        collections=[clean(c) for c in e.collections],
        urls=[clean(u) for u in e.urls],
        tags=[clean(t) for t in e.tags],
    )
