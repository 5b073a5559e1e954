"""Readers for record-shaped dumps: JSON, JSONL / NDJSON, CSV / TSV, arXiv Atom feeds."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from papertui.core.corpus.formats.base import CorpusError, ParsedFile, RawRecord, decode
from papertui.core.corpus.formats.fields import ABSTRACT, record_from_fields

NOT_A_RECORD = "not a record"
NO_ABSTRACT = "no abstract"


def record_of(item: Any, skipped: dict[str, int]) -> RawRecord | None:
    """The paper an item of a JSON dump holds; None, counted in `skipped` by why, when none."""
    if not isinstance(item, Mapping):
        skipped[NOT_A_RECORD] = skipped.get(NOT_A_RECORD, 0) + 1
        return None
    record = record_from_fields(item)
    if record is None:
        skipped[NO_ABSTRACT] = skipped.get(NO_ABSTRACT, 0) + 1
    return record


def _collect(path: str, fmt: str, items: Iterable[Any], warnings: list[str]) -> ParsedFile:
    skipped: dict[str, int] = {}
    records = [r for r in (record_of(item, skipped) for item in items) if r is not None]
    return ParsedFile(path, Path(path).stem.removesuffix(".json"), fmt, records, warnings, skipped)


def _records_in(value: Any) -> list[Any] | None:
    """The list of records in a JSON document: the array itself, or the first array of objects
    an object holds (`{"papers": [...]}`, `{"data": {"items": [...]}}`)."""
    if isinstance(value, list):
        return value
    if isinstance(value, Mapping):
        if any(str(key).lower() in ABSTRACT for key in value):
            return [value]  # one record whose own lists (versions, authors) are not records
        for inner in value.values():
            if isinstance(inner, list) and any(isinstance(x, Mapping) for x in inner):
                return inner
        for inner in value.values():
            found = _records_in(inner) if isinstance(inner, Mapping) else None
            if found is not None:
                return found
        return [value]  # one record on its own
    return None


def parse_json(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorpusError(
            path, f"broken JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    items = _records_in(value)
    if items is None:
        raise CorpusError(path, "JSON holds no list of records")
    return _collect(path, "json", items, warnings)


def parse_jsonl(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    items: list[Any] = []
    bad: list[int] = []
    # only \n ends a record: U+2028 and friends may sit inside JSON strings
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip().rstrip("\r")
        if not line:
            continue
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as exc:
            bad.append(number)
            if len(bad) == 1:
                warnings.append(
                    f"{path}: broken JSON at line {number}, column {exc.colno}: "
                    f"{exc.msg} (the line is skipped)"
                )
    parsed = _collect(path, "jsonl", items, warnings)
    if bad:
        parsed.skipped["broken JSON line"] = len(bad)
    if not items and bad:
        raise CorpusError(path, f"no readable JSON line (first error at line {bad[0]})")
    return parsed


def parse_csv(path: str, data: bytes, delimiter: str | None = None) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    if delimiter is None:
        head = text.split("\n", 1)[0]
        delimiter = "\t" if head.count("\t") > head.count(",") else ","
    csv.field_size_limit(1 << 28)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    if not reader.fieldnames:
        raise CorpusError(path, "empty CSV (no header row)")
    names = [str(n or "").strip().lower() for n in reader.fieldnames]
    if not any(n in ("abstract", "summary", "paperabstract", "description") for n in names):
        raise CorpusError(path, f"no abstract column among: {', '.join(names)[:200]}")
    try:
        rows = [{k: csv_cell(v) for k, v in row.items() if k is not None} for row in reader]
    except csv.Error as exc:
        raise CorpusError(path, f"broken CSV at line {reader.line_num}: {exc}") from None
    return _collect(path, "tsv" if delimiter == "\t" else "csv", rows, warnings)


# a cell a spreadsheet would run as a formula: papertui's CSV export writes it after an
# apostrophe (and one that starts with apostrophes before such a character, after one more)
FORMULA = re.compile("'*[=+\\-@\t\r]")


def csv_cell(value: Any) -> Any:
    """A cell as it was before the export guarded it against spreadsheets."""
    if isinstance(value, str) and value[:1] == "'" and FORMULA.match(value, 1):
        return value[1:]
    return value


_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"


def parse_atom(path: str, data: bytes) -> ParsedFile:
    """An arXiv API `export` response: title, summary, authors, link, arXiv id, categories
    (primary first) and published date."""
    items, name = atom_items(path, data)
    parsed = _collect(path, "arxiv", items, [])
    if name and "query" not in name.lower():
        parsed.collection = name
    return parsed


def atom_items(path: str, data: bytes) -> tuple[list[dict[str, Any]], str]:
    """The entries of an arXiv Atom feed as records, and the feed's title. XML with a DOCTYPE
    or entities is refused (an entity bomb), and so is a cut-short document."""
    if b"<!DOCTYPE" in data[:2000] or b"<!ENTITY" in data[:4000]:
        raise CorpusError(path, "XML with a DOCTYPE or entities is not read (unsafe)")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, column = exc.position
        raise CorpusError(path, f"broken XML at line {line}, column {column}") from None
    items = []
    for entry in root.iter(f"{_ATOM}entry"):

        def text(tag: str, node: ET.Element = entry) -> str:
            found = node.find(f"{_ATOM}{tag}")
            return (found.text or "") if found is not None else ""

        link = next(
            (
                el.get("href", "")
                for el in entry.findall(f"{_ATOM}link")
                if el.get("rel") == "alternate"
            ),
            "",
        )
        abs_url = text("id").strip()
        primary = entry.find(f"{_ARXIV}primary_category")
        terms = [primary.get("term", "")] if primary is not None else []
        terms += [el.get("term", "") for el in entry.findall(f"{_ATOM}category")]
        items.append(
            {
                "title": text("title"),
                "abstract": text("summary"),
                "authors": [text("name", a) for a in entry.findall(f"{_ATOM}author")],
                "url": link or abs_url,
                "year": text("published"),
                "published": text("published"),
                "venue": "arXiv",
                "arxiv_id": abs_url.partition("/abs/")[2],
                "categories": list(dict.fromkeys(t for t in terms if t)),
            }
        )
    name = root.find(f"{_ATOM}title")
    return items, (name.text or "").strip() if name is not None else ""
