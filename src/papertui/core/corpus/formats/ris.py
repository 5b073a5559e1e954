"""RIS, the tagged format reference managers (Zotero, EndNote, Mendeley) and papertui's own RIS
export write, read by rispy: one record from `TY  -` to `ER  -`; title, authors, year, venue
(the proceedings' or journal's name), abstract, links and DOI; a note saying papertui derived
the title marks it derived. A record rispy cannot read is reported and the rest is read."""

from __future__ import annotations

from typing import Any

from papertui.core.corpus.formats.base import CorpusError, ParsedFile, decode
from papertui.core.corpus.formats.structured import _collect
from papertui.core.text.markdown_marks import DERIVED_REMARK

# RIS tags as rispy names them, in the order that wins when a record has several
_TITLE = ("title", "primary_title", "translated_title")
_AUTHORS = ("authors", "first_authors")
_VENUE = (
    "secondary_title",
    "journal_name",
    "alternate_title3",
    "alternate_title1",
    "tertiary_title",
)
_YEAR = ("year", "publication_year", "date")
_ABSTRACT = ("abstract", "notes_abstract")


def _first(record: dict[str, Any], names: tuple[str, ...]) -> Any:
    return next((record[n] for n in names if record.get(n)), None)


def parse_ris(path: str, data: bytes) -> ParsedFile:
    import rispy  # only a RIS file loads it

    warnings: list[str] = []
    text = decode(path, data, warnings)
    try:
        records = rispy.loads(text, skip_unknown_tags=True, enforce_list_tags=False)
    except Exception as exc:  # noqa: BLE001 - rispy's own errors, as one line
        raise CorpusError(path, f"RIS could not be read: {exc}") from None
    items = []
    for record in records:
        notes = record.get("notes") or []
        notes = [notes] if isinstance(notes, str) else notes
        urls = record.get("urls") or []
        items.append(
            {
                "title": _first(record, _TITLE),
                "title_derived": str(any(DERIVED_REMARK in str(n) for n in notes)),
                "authors": _first(record, _AUTHORS),
                "venue": _first(record, _VENUE),
                "year": _first(record, _YEAR),
                "abstract": _first(record, _ABSTRACT),
                "urls": [urls] if isinstance(urls, str) else urls,
                "doi": record.get("doi"),
            }
        )
    return _collect(path, "ris", items, warnings)
