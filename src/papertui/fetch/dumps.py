"""Fetched papers as ordinary JSONL dumps, `fetched/SOURCE/KEY.jsonl`, which every command reads
like any other file. A dump is rewritten atomically with what it held joined with what just
arrived (the same paper by papertui id or arXiv id: fresh fields win, the first fetch time stays),
so a page that arrived before a failure is kept and a second fetch adds only what is new."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from papertui.core.corpus.identity import paper_id
from papertui.core.text import normalise_ws
from papertui.fetch.state import KnownPapers, fetched_dir, write_atomically

Record = dict[str, Any]


def dump_path(source: str, key: str) -> Path:
    return fetched_dir() / source / f"{key}.jsonl"


def read_dump(path: Path) -> list[Record]:
    """The records of a dump; lines that do not parse are left out (the readers say so)."""
    try:
        text = path.read_text("utf-8", errors="replace")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("abstract"):
            out.append(value)
    return out


def finish(record: Record, known: KnownPapers, now: str) -> bool:
    """Give a fetched record its papertui id and first fetch time; True when it is new (never
    fetched before under its id or arXiv id)."""
    record["abstract"] = normalise_ws(str(record["abstract"]))
    pid = paper_id(record["abstract"])
    record["id"] = pid
    arxiv = str(record.get("arxiv_id") or "")
    first = known.first_fetched(pid, arxiv)
    record["fetched_at"] = first or now
    known.add(pid, arxiv, first or now)
    return first is None


def save_dump(source: str, key: str, fresh: Iterable[Record]) -> Path:
    """Join `fresh` into the dump `source/key` and write it atomically."""
    path = dump_path(source, key)
    records = read_dump(path)
    where: dict[str, int] = {}
    for n, old in enumerate(records):
        for name in _names(old):
            where.setdefault(name, n)
    for record in fresh:
        at = next((where[name] for name in _names(record) if name in where), None)
        if at is None:
            at = len(records)
            records.append(record)
        else:
            kept = records[at].get("fetched_at")
            records[at] = {**records[at], **record}
            if kept:
                records[at]["fetched_at"] = min(str(kept), str(record.get("fetched_at") or kept))
        for name in _names(record):
            where.setdefault(name, at)
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    write_atomically(path, lines)
    return path


def _names(record: Record) -> list[str]:
    names = [str(record.get("id") or "")]
    if record.get("arxiv_id"):
        names.append("arxiv:" + str(record["arxiv_id"]))
    return [n for n in names if n]
