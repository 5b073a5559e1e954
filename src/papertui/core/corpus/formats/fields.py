"""Map the field names real dumps use onto a paper record.

Conference lists, scraped OpenReview CSVs, the Hugging Face daily-papers API and others name the
same things differently: `abstract` / `summary` / `paperAbstract`, authors as strings, as
`{name: ...}` objects or as one string. Matching is case-insensitive.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from papertui.core.corpus.formats.base import RawRecord
from papertui.core.corpus.formats.translations import has_translations, translations_of
from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.text import normalise_ws, strip_controls
from papertui.core.text.latex import plain_text
from papertui.core.text.markdown_marks import DERIVED_REMARK

TITLE = ("title", "paper_title", "papertitle", "name")
ABSTRACT = ("abstract", "summary", "paperabstract", "abstracttext", "abstract_text", "description")
AUTHORS = ("authors", "author", "authornames", "author_names", "creators", "creator")
URL = ("url", "site", "link", "html_url", "paper_url", "pdf", "pdf_url", "pdfurl", "forum")
ARXIV = ("arxiv_id", "arxivid", "arxiv", "eprint")
DOI = ("doi",)
VENUE = (
    "venue",
    "conference",
    "journal",
    "booktitle",
    "publication",
    "venue_name",
    "container-title",  # CSL-JSON
)
YEAR = (
    "year",
    "date",
    "published",
    "publishedat",
    "published_at",
    "publicationdate",
    "publication_date",
    "pub_date",
    "created",
    "issued",  # CSL-JSON: {"date-parts": [[2024]]}
)
# fields shown as one line: decoded from LaTeX by `record_from_fields` (`_plain`)
SHORT_FIELDS = frozenset((*TITLE, *AUTHORS, *VENUE))

_ARXIV_ID = re.compile(
    r"^(?:arxiv:)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})$", re.IGNORECASE
)
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d|2100)(?!\d)")


def _unwrap(value: Any) -> Any:
    """OpenReview wraps every value: {"value": ...}."""
    if isinstance(value, Mapping) and "value" in value and len(value) <= 3:
        return value["value"]
    return value


def _get(fields: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        if name in fields:
            value = _unwrap(fields[name])
            if value not in (None, "", [], {}):
                return value
    return None


def _derived(fields: Mapping[str, Any]) -> bool:
    """Whether papertui's own export says it derived the title (JSON and CSV: `title_derived`;
    CSL-JSON: its note)."""
    if str(fields.get("title_derived", "")).strip().lower() == "true":
        return True
    note = fields.get("note")
    return isinstance(note, str) and DERIVED_REMARK in note


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    if isinstance(value, Mapping):
        return _text(value.get("name") or value.get("value") or "")
    return str(value)


def split_authors(value: Any) -> tuple[str, ...]:
    """A list of names from a list of strings, of {name} / {given, family} / {literal} objects
    (CSL-JSON's "Ada Lovelace" is given "Ada", family "Lovelace"), or a string separated by
    ";", else by "," and " and " ("A, B and C"; but "Smith, J. and Doe, K." is two names)."""
    if value is None:
        return ()
    if isinstance(value, list):
        names = []
        for item in value:
            item = _unwrap(item)
            if isinstance(item, Mapping):
                name = (
                    item.get("name")
                    or item.get("literal")
                    or " ".join(str(item[k]) for k in ("given", "family") if item.get(k))
                )
                names.append(str(name))
            else:
                names.append(str(item))
        return tuple(n for n in (normalise_ws(n) for n in names) if n)
    text = normalise_ws(str(value))
    if ";" in text:
        return tuple(p.strip() for p in text.split(";") if p.strip())
    if " and " in text:
        parts = [p.strip(" ,") for p in _AND.split(text)]
        if all(p.count(",") == 1 for p in parts):  # "Smith, J. and Doe, K.": BibTeX's way
            return tuple(p for p in parts if p)
        # "A, B and C" (the arXiv snapshot's way): every comma and "and" parts two names
        return tuple(n.strip() for p in parts for n in p.split(",") if n.strip())
    if "," in text:
        return tuple(p.strip() for p in text.split(",") if p.strip())
    return (text,) if text else ()


_AND = re.compile(r",?\s+and\s+")


def parse_year(value: Any) -> int | None:
    if isinstance(value, int) and 1800 <= value <= 2100:
        return value
    match = _YEAR.search(str(value or ""))
    return int(match.group(1)) if match else None


# the BibTeX reader's "type key" of an entry; a name no dump's own field can have
CITE_FIELD = "\x00cite"
# a title papertui derived that a reader keeps as written (BibTeX: see `bibtex.parse_bibtex`)
DERIVED_TITLE_FIELD = "\x00derived title"


def _plain(value: Any) -> str:
    """A short field (title, venue, a name) as it is shown: LaTeX decoded as BibTeX would
    (`Herv\\'e` -> Hervé, in every format, so that the same name reads the same wherever it
    came from), control characters out, whitespace collapsed."""
    return normalise_ws(strip_controls(plain_text(_text(value))))


def _snapshot_year(fields: Mapping[str, Any]) -> int | None:
    """The arXiv metadata snapshot's year: its first version's date (the year the paper
    appeared), else the day the record was last updated."""
    versions = fields.get("versions")
    if isinstance(versions, list) and versions and isinstance(versions[0], Mapping):
        found = parse_year(versions[0].get("created"))
        if found is not None:
            return found
    return parse_year(fields.get("update_date"))


def _first_own_link(links: Any, abstract: str) -> str:
    """The paper's own link from papertui's export (`urls`: a JSON list, or space-separated in
    CSV): the first one its abstract does not hold (those are found in the abstract again)."""
    found = [str(u) for u in links] if isinstance(links, list) else _text(links).split()
    return next((u for u in found if u not in abstract), found[0] if found else "").strip()


def record_from_fields(raw: Mapping[str, Any]) -> RawRecord | None:
    """A record from one item of a dump; None when it has no abstract (skipped, counted)."""
    fields = {str(k).lower().strip(): v for k, v in raw.items()}
    listed = ""
    nested = fields.get("paper")  # the Hugging Face daily-papers shape: {"paper": {...}, ...}
    if isinstance(nested, Mapping):
        # the listing's own time is the day it was on Daily Papers; the paper's is arXiv's
        listed = _text(fields.get("publishedat") or "")[:10]
        inner = {str(k).lower().strip(): v for k, v in nested.items()}
        fields = {**fields, **inner}
    content = fields.get("content")  # OpenReview notes: {"content": {"title": {"value"}}}
    if isinstance(content, Mapping):
        fields = {**fields, **{str(k).lower(): v for k, v in content.items()}}
    abstract = normalise_ws(_text(_get(fields, ABSTRACT)))
    if not abstract:
        return None
    url = _text(_get(fields, URL)).strip()
    if not url:  # papertui's own JSON (a list) and CSV (space-separated) exports
        url = _first_own_link(_get(fields, ("urls",)), abstract)
    arxiv = _text(_get(fields, ARXIV)).strip()
    if not arxiv and isinstance(fields.get("id"), str) and _ARXIV_ID.match(fields["id"].strip()):
        arxiv = fields["id"].strip()
    arxiv_match = _ARXIV_ID.match(arxiv) if arxiv else None
    if arxiv_match:
        arxiv_url = "https://arxiv.org/abs/" + arxiv_match.group(1)
        url = url if url.startswith("http") else arxiv_url
    doi = _text(_get(fields, DOI)).strip()
    if not url.startswith("http") and doi:
        url = "https://doi.org/" + doi.removeprefix("https://doi.org/")
    if url and not url.lower().startswith(("http://", "https://")):
        url = ""
    kept = fields.get(DERIVED_TITLE_FIELD)
    if isinstance(kept, str):
        title = _plain(kept)
    else:  # a title papertui derived (its own exports say so) is derived again, in full
        title = "" if _derived(fields) else _plain(_get(fields, TITLE))
    return RawRecord(
        abstract=abstract,
        title=title,
        title_derived=isinstance(kept, str) and bool(title),
        authors=tuple(n for n in (_plain(a) for a in split_authors(_get(fields, AUTHORS))) if n),
        venue=_plain(_get(fields, VENUE)),
        year=parse_year(_get(fields, YEAR)) or _snapshot_year(fields),
        url=url,
        cite=fields[CITE_FIELD] if isinstance(fields.get(CITE_FIELD), str) else "",
        meta=_meta(fields, arxiv_match.group(1) if arxiv_match else "", listed),
        more_urls=_more_urls(fields, url),
    )


# the fields beyond title, authors, venue and year that a record may carry (see `paper_meta`)
CATEGORIES = ("categories", "arxiv_categories")
_META_KEYS = frozenset(
    (*CATEGORIES, "upvotes", "listed", "status", "track", "rating", "rating_avg", "fetched_at")
)
_VERSION = re.compile(r"v\d+$")


def _meta(fields: Mapping[str, Any], arxiv: str, listed: str) -> str:
    """The record's extra metadata, encoded as a paper keeps it ("" for most dumps: cheap)."""
    translated = translations_of(fields) if has_translations(fields) else ()
    if not arxiv and not listed and not translated and not (_META_KEYS & fields.keys()):
        return ""
    cats = _get(fields, CATEGORIES)
    if isinstance(cats, str):
        cats = cats.replace(",", " ").split()
    categories = tuple(str(c).strip() for c in cats or () if str(c).strip())
    upvotes = _get(fields, ("upvotes",))
    rating = _get(fields, ("rating_avg", "rating"))
    return PaperMeta(
        arxiv=_VERSION.sub("", arxiv.lower().removeprefix("arxiv:")) if arxiv else "",
        categories=categories,
        upvotes=upvotes if isinstance(upvotes, int) and not isinstance(upvotes, bool) else None,
        listed=listed or _text(_get(fields, ("listed",)))[:10],
        status=normalise_ws(_text(_get(fields, ("status",)))),
        track=normalise_ws(_text(_get(fields, ("track",)))),
        rating=_mean(rating),
        fetched=_text(_get(fields, ("fetched_at",))).strip(),
        translations=translated,
    ).encode()


def _mean(value: Any) -> float | None:
    """A mean rating from a number, [mean, std] or "5;6;6"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list) and value and isinstance(value[0], (int, float)):
        return float(value[0])
    if isinstance(value, str):
        numbers = []
        for part in value.replace(",", ";").split(";"):
            try:
                numbers.append(float(part))
            except ValueError:
                continue
        return sum(numbers) / len(numbers) if numbers else None
    return None


def _more_urls(fields: Mapping[str, Any], url: str) -> str:
    """Links beyond the first one (papertui's own JSON lists them all under `urls`), space
    separated: a paper met on Hugging Face and on arXiv keeps both pages."""
    links = fields.get("urls")
    if not isinstance(links, list) or len(links) < 2:
        return ""
    found = [str(u) for u in links if isinstance(u, str) and u.startswith(("http://", "https://"))]
    return " ".join(u for u in found if u != url and " " not in u)
