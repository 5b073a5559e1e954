"""Writing an export to a file: whole or not at all, never over a file without asking."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core.export.rendering import render
from papertui.core.system.atomic_file import replace_text

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry


class ExportError(Exception):
    """An export that could not be written; `str()` is one line for the user."""


class ExportExists(ExportError):
    """The target file exists and `overwrite` was not given: ask the user first."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} exists; not overwritten")
        self.path = path


def write_export(path: str | os.PathLike[str], text: str, *, overwrite: bool = False) -> Path:
    """Write an export; returns the absolute path written.

    Raises ExportExists when the file exists and `overwrite` is false (the UI asks, then calls
    again with `overwrite=True`), ExportError with a one-line reason when it cannot be written.
    The file appears whole or not at all: a full disk never leaves half an export, nor
    destroys the file it was to replace.
    """
    target = Path(os.path.abspath(Path(path).expanduser()))
    if target.is_dir():
        raise ExportError(f"{target} is a folder; give a file name")
    if not overwrite and os.path.lexists(target):
        raise ExportExists(target)
    try:
        replace_text(target, text, newline="", keep_existing=not overwrite)
    except FileExistsError:
        raise ExportExists(target) from None
    except OSError as exc:
        raise ExportError(f"{target}: {exc.strerror or exc}") from exc
    return target


def export_to(
    path: str | os.PathLike[str], entries: Sequence[Entry], fmt: str, *, overwrite: bool = False
) -> Path:
    """Render `entries` as `fmt` and write them to `path` (see `write_export`)."""
    return write_export(path, render(entries, fmt), overwrite=overwrite)
