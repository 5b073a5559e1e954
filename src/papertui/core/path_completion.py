"""Completing a file path typed in a prompt, as a shell's Tab does: the one entry the typed
prefix names (a folder gets its "/"), else the longest prefix all the matching entries share."""

from __future__ import annotations

import os
from itertools import islice

MAX_ENTRIES = 5_000  # a huge folder is read no further: completion must answer as you type


def complete_path(typed: str) -> str | None:
    """`typed` completed, or None when nothing longer can be said."""
    if not typed or "\n" in typed or "\0" in typed:
        return None
    head, sep, prefix = typed.rpartition(os.sep)
    folder = os.path.expanduser(head + sep if sep else ".") or os.sep
    hidden = prefix.startswith(".")  # dot files only when asked for, as a shell does
    try:
        with os.scandir(folder) as it:
            entries = [
                (e.name, _is_dir(e))
                for e in islice(it, MAX_ENTRIES)
                if e.name.startswith(prefix) and (hidden or not e.name.startswith("."))
            ]
    except (OSError, ValueError):
        return None
    if not entries:
        return None
    if len(entries) == 1:
        name, is_dir = entries[0]
        done = head + sep + name + (os.sep if is_dir else "")
        return done if done != typed else None
    shared = os.path.commonprefix([name for name, _ in entries])
    return head + sep + shared if len(shared) > len(prefix) else None


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
