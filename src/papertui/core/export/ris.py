"""RIS, the tagged format every reference manager imports (Zotero, EndNote, Mendeley), written
with rispy: a conference paper (`CONF`) when the venue is known, else an unpublished preprint
(`UNPB`); tags as keywords, the note as a note, the arXiv id as the accession number, links and
DOI; a derived title is marked in a note."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from papertui.core.export.csl_json import citation_key, identifiers, is_preprint
from papertui.core.text.markdown_marks import DERIVED_REMARK

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry


def ris_record(e: Entry, key: str) -> dict[str, Any]:
    doi, arxiv = identifiers(e.urls)
    preprint = is_preprint(e)
    record: dict[str, Any] = {
        "type_of_reference": "UNPB" if preprint else "CONF",
        "id": key,
        "title": _line(e.title),
    }
    if e.authors:
        record["authors"] = [_line(a) for a in e.authors]
    if e.year:
        record["year"] = str(e.year)
    if e.venue:  # the proceedings' name ("arXiv" too: what the paper was read with comes back)
        record["secondary_title"] = _line(e.venue)
    if arxiv:
        record["accession_number"] = f"arXiv:{arxiv}"
        record["name_of_database"] = "arXiv"
    record["abstract"] = _line(e.abstract)
    if e.urls:
        record["urls"] = [_line(u) for u in e.urls]
    if doi:
        record["doi"] = doi
    if e.tags:
        record["keywords"] = list(e.tags)
    notes = [_line(e.note)] if e.note.strip() else []
    if e.title_derived:
        notes.append(DERIVED_REMARK)
    if notes:
        record["notes"] = notes
    return record


def _line(text: str) -> str:
    """RIS is one tag a line: a value's own line breaks would start lines the reader takes for
    tags ("ER  - " in an abstract would end the record), so they become spaces."""
    return " ".join(text.split())


def to_ris(entries: Sequence[Entry]) -> str:
    import rispy  # only an RIS export loads it

    class Writer(rispy.RisWriter):  # type: ignore[misc]
        """Records as reference managers write them: no "1." line before each."""

        def set_header(self, count: int) -> str:
            return ""

    used: set[str] = set()
    records = [ris_record(e, citation_key(e, used)) for e in entries]
    return str(rispy.dumps(records, implementation=Writer)) if records else ""
