"""The CSV export: one row per entry, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from papertui.core.corpus.formats.structured import FORMULA

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry


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
                _cell(x)
                for x in (
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
                )
            ]
        )
    return out.getvalue()


def _cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: one starting with = + - @ would be run as a
    formula (a corpus is untrusted), so it gets a leading apostrophe, as does one that starts
    with apostrophes before such a character: the CSV reader takes one off
    (`structured.csv_cell`)."""
    if isinstance(value, str) and FORMULA.match(value):
        return "'" + value
    return value
