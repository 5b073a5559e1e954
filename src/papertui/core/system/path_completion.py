"""Completing a file path typed in a prompt, as a shell's Tab does: the one entry the typed
prefix names (a folder gets its "/"), else the longest prefix all the matching entries share;
`candidates` lists them for a second Tab."""

from __future__ import annotations

import os
from itertools import islice

MAX_ENTRIES = 5_000  # a huge folder is read no further: completion must answer as you type


def candidates(typed: str) -> list[str]:
    """The entries of the typed folder that start with the typed name (folders with a "/"),
    sorted; dot files only when the name starts with a dot, as a shell does."""
    if "\n" in typed or "\0" in typed:
        return []
    head, sep, prefix = typed.rpartition(os.sep)
    folder = os.path.expanduser(head + sep if sep else ".") or os.sep
    hidden = prefix.startswith(".")
    try:
        with os.scandir(folder) as it:
            return sorted(
                e.name + (os.sep if _is_dir(e) else "")
                for e in islice(it, MAX_ENTRIES)
                if e.name.startswith(prefix) and (hidden or not e.name.startswith("."))
            )
    except (OSError, ValueError):
        return []


def complete_path(typed: str) -> str | None:
    """`typed` completed, or None when nothing longer can be said."""
    if not typed:
        return None
    names = candidates(typed)
    if not names:
        return None
    head, sep, prefix = typed.rpartition(os.sep)
    shared = names[0] if len(names) == 1 else os.path.commonprefix(names)
    return head + sep + shared if len(shared) > len(prefix) else None


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
