"""An export's file name and its format's extension: what the export dialog adds or swaps."""

from __future__ import annotations

from papertui.core.export.rendering import BY_EXTENSION, SUFFIXES


def _split(path: str) -> tuple[str, str]:
    """(path without a known export extension, that extension or "")."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot > 0 and name[dot:].lower() in BY_EXTENSION:
        return path[: len(path) - len(name) + dot], name[dot:]
    return path, ""


def with_extension(path: str, fmt: str) -> str:
    """`path` as written when it ends in an export extension; else with `fmt`'s added ("mine"
    -> "mine.bib", "notes on OT v2.1" -> "notes on OT v2.1.bib": a dot in a name is no
    extension unless it is one of ours)."""
    if not path or path.endswith("/") or _split(path)[1]:
        return path
    return path + SUFFIXES[fmt]


def swap_extension(path: str, fmt: str) -> str:
    """`path` with its export extension replaced by `fmt`'s (or `fmt`'s added)."""
    if not path or path.endswith("/"):
        return path
    return _split(path)[0] + SUFFIXES[fmt]
