"""The one atomic writer: settings, exports, drafts and fetched dumps are written through it,
so that a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def replace_text(
    path: Path, text: str, *, newline: str | None = "\n", keep_existing: bool = False
) -> None:
    """Write `text` to a temporary file of a name of its own beside `path` (two writers at once
    never share one), flush it to disk, then give it `path`'s name: a full disk or a crash
    leaves the old file whole. With `keep_existing`, a file already at `path` stays and
    FileExistsError is raised (checked and done at once). OSError says why it could not."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.papertui-tmp")
    try:
        with open(tmp, "x", encoding="utf-8", newline=newline) as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if keep_existing:
            _link_new(tmp, path, text, newline)
        else:
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _link_new(tmp: Path, path: Path, text: str, newline: str | None) -> None:
    """Give the written file its name unless that name is taken."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: create the name exclusively
        with open(path, "x", encoding="utf-8", newline=newline) as handle:
            handle.write(text)
