"""BibTeX with abstracts, read by bibtexparser: @string macros, `#` concatenation, braces and
quotes, LaTeX accents and commands turned into Unicode (Herv\\'e -> Hervé, \\textit{x} -> x)."""

from __future__ import annotations

import logging

import bibtexparser
from bibtexparser import Library, middlewares

from papertui.core.formats.base import CorpusError, ParsedFile, decode
from papertui.core.formats.structured import _collect

# bibtexparser logs every failed block itself; we report them in our own one-line form
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def parse_bibtex(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
        _concatenate(library)
        for step in (
            middlewares.ResolveStringReferencesMiddleware(True),
            middlewares.RemoveEnclosingMiddleware(True),
            middlewares.LatexDecodingMiddleware(),
        ):
            library = step.transform(library)
    except Exception as exc:  # noqa: BLE001 - the parser's own errors, as one line
        raise CorpusError(path, f"BibTeX could not be read: {exc}") from None
    items = []
    for entry in library.entries:
        fields = {k.lower(): f.value for k, f in entry.fields_dict.items()}
        fields.setdefault("venue", fields.get("booktitle") or fields.get("journal") or "")
        items.append(fields)
    parsed = _collect(path, "bibtex", items, warnings)
    failed = library.failed_blocks
    if failed:
        parsed.skipped["unreadable entry"] = len(failed)
        first = failed[0]
        line = getattr(first, "start_line", None)
        where = f"at line {line + 1}" if isinstance(line, int) else "somewhere"
        warnings.append(
            f"{path}: {len(failed)} BibTeX entr{'y' if len(failed) == 1 else 'ies'} could not "
            f"be read, the first {where} (an unclosed brace or quote?); the rest were read"
        )
    if not items and failed:
        raise CorpusError(path, warnings[-1].split(": ", 1)[1])
    return parsed


def _concatenate(library: Library) -> None:
    """Join `#` expressions ("Advances in " # nips # {33}) into one braced value, with @string
    macros put in (bibtexparser leaves them as written: its issue 396)."""
    macros: dict[str, str] = {}
    for block in library.strings:  # in file order: a macro may use the ones before it
        value = str(block.value)
        joined = _join(value, macros)
        macros[str(block.key).lower()] = joined if joined is not None else _bare(value, macros)
        if joined is not None:
            block.value = "{" + joined + "}"
    for entry in library.entries:
        for field in entry.fields:
            joined = _join(str(field.value), macros)
            if joined is not None:
                field.value = "{" + joined + "}"


def _bare(value: str, macros: dict[str, str]) -> str:
    """One operand's text: a braced or quoted string without its delimiters, a number, or a
    macro's value (an unknown name stays as written)."""
    value = value.strip()
    if len(value) >= 2 and (value[0], value[-1]) in (("{", "}"), ('"', '"')):
        return value[1:-1]
    return macros.get(value.lower(), value)


def _join(value: str, macros: dict[str, str]) -> str | None:
    """The text of a `#` expression; None when `value` is a single operand."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(value):
        if ch == "\\":
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 0 and (i == 0 or value[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    if not parts:
        return None
    parts.append(value[start:])
    return "".join(_bare(p, macros) for p in parts)
