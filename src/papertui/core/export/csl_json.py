"""CSL-JSON, the citation format Zotero, Mendeley and Pandoc import: one object per paper with its
type, title, authors (family and given names), date, venue, abstract, links, arXiv id and DOI,
tags as keywords and the note as a note; derived titles are marked."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from papertui.core.export.bibtex import _ARXIV_URL, _DOI_URL, _cite_key
from papertui.core.text.markdown_marks import DERIVED_REMARK

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry

# lower-case words that belong to the family name ("Ludwig van Beethoven": "van Beethoven")
_PARTICLES = frozenset(
    ("van", "von", "der", "den", "de", "del", "della", "da", "di", "du", "dos", "das")
    + ("la", "le", "ten", "ter", "bin", "al", "el", "st")
)
_ARXIV_VENUE = re.compile(r"^arxiv(\.org)?$", re.IGNORECASE)


def identifiers(urls: Sequence[str]) -> tuple[str, str]:
    """(DOI, arXiv id) from the paper's links; "" when it has none."""
    doi = arxiv = ""
    for url in urls:
        if not doi and (m := _DOI_URL.match(url)):
            doi = m.group(1)
        if not arxiv and (m := _ARXIV_URL.match(url)):
            arxiv = m.group(1)
    return doi, arxiv


def is_preprint(e: Entry) -> bool:
    """A paper known only as an arXiv preprint (no venue but arXiv's)."""
    return not e.venue or bool(_ARXIV_VENUE.match(e.venue.strip()))


def split_name(name: str) -> dict[str, str]:
    """CSL's name parts: "Ada Lovelace" and "Lovelace, Ada" give family "Lovelace" and given
    "Ada"; one word (or an organisation's name) is a literal."""
    name = " ".join(name.split())
    if "," in name:
        family, _, given = name.partition(",")
        return {"family": family.strip(), "given": given.strip()}
    words = name.split(" ")
    if len(words) < 2:
        return {"literal": name}
    start = len(words) - 1
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    return {"family": " ".join(words[start:]), "given": " ".join(words[:start])}


def csl_item(e: Entry, key: str) -> dict[str, Any]:
    doi, arxiv = identifiers(e.urls)
    preprint = is_preprint(e)
    item: dict[str, Any] = {
        "id": key,
        "type": "article" if preprint else "paper-conference",
        "title": e.title,
    }
    if e.authors:
        item["author"] = [split_name(a) for a in e.authors]
    if e.year:
        item["issued"] = {"date-parts": [[e.year]]}
    if preprint and arxiv:
        item["publisher"] = "arXiv"
        item["number"] = f"arXiv:{arxiv}"
        doi = doi or f"10.48550/arXiv.{arxiv}"  # arXiv's own DOI for every paper
    if e.venue:  # "arXiv" too: what the paper was read with comes back
        item["container-title"] = e.venue
    item["abstract"] = e.abstract
    if e.urls:  # the paper's own link, its arXiv page first (what a preprint's citation
        # links); one its abstract holds only when it has no other, so it reads back the same
        own = [u for u in e.urls if u not in e.abstract] or e.urls[:1]
        item["URL"] = next((u for u in own if _ARXIV_URL.match(u)), own[0])
    if doi:
        item["DOI"] = doi
    if e.tags:
        item["keyword"] = ", ".join(e.tags)
    notes = [e.note.strip()] if e.note.strip() else []
    if arxiv:
        notes.append(f"arXiv: {arxiv}")
    if e.title_derived:
        notes.append(DERIVED_REMARK)
    if notes:
        item["note"] = "\n".join(notes)
    return item


def citation_key(e: Entry, used: set[str]) -> str:
    """The key BibTeX exports give the paper too: the key of the entry it was read from, else
    one made as reference managers make them; unique within `used` (added to it)."""
    own = e.cite.partition(" ")[2]
    if own and own not in used:
        used.add(own)
        return own
    return _cite_key(e, used)


def to_csl_json(entries: Sequence[Entry]) -> str:
    used: set[str] = set()
    items = [csl_item(e, citation_key(e, used)) for e in entries]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
