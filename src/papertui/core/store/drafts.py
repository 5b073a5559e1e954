"""Unsaved note text, kept on disk while it is typed: whatever stops the reader (a crash, a
killed terminal, a hang) before ctrl+s, the next `n` on that paper offers the text again.

One small file per paper in the data dir's `drafts/`, written atomically; gone once the note is
saved or the draft is discarded on purpose. Failing to keep a draft is silent: the note editor
still holds the text, and saving reports its own errors."""

from __future__ import annotations

import re
from pathlib import Path

from papertui.core.system import paths
from papertui.core.system.atomic_file import replace_text


def _path(pid: str) -> Path:
    return paths.data_dir() / "drafts" / (re.sub(r"[^0-9A-Za-z_-]", "_", pid) + ".txt")


def keep(pid: str, text: str) -> None:
    """Remember the text being typed for paper `pid`."""
    target = _path(pid)
    try:
        paths.ensure_private_dir(target.parent)
        replace_text(target, text)
    except OSError:
        return


def load(pid: str) -> str | None:
    """The draft left for paper `pid`, if any."""
    try:
        return _path(pid).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def drop(pid: str) -> None:
    """Forget the draft (the note was saved, or its changes discarded on purpose)."""
    try:
        _path(pid).unlink(missing_ok=True)
    except OSError:
        return


def pending() -> list[str]:
    """The ids of the papers with a draft left (oldest first): a note typed and never saved."""
    folder = paths.data_dir() / "drafts"
    try:
        found = [(p.stat().st_mtime, p.stem) for p in folder.glob("*.txt")]
    except OSError:
        return []
    return [pid for _, pid in sorted(found)]
