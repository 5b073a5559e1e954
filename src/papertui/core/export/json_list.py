"""The JSON export: a list of entries, every field as it is."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry


def to_json(entries: Sequence[Entry]) -> str:
    return json.dumps([_record(e) for e in entries], ensure_ascii=False, indent=2) + "\n"


def _record(entry: Entry) -> dict[str, Any]:
    """Every field, translations only when the paper has some (read back as papertui reads
    them)."""
    out = asdict(entry)
    if not out["translations"]:
        del out["translations"]
    return out
