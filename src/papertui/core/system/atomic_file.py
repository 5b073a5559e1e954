"""Writing a text file so that a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def replace_text(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, flush it to disk, then rename it over
    `path` (a full disk or a crash leaves the old file whole)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.papertui-tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
