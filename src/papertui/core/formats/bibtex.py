"""BibTeX with abstracts, read by bibtexparser: @string macros, braces and quotes, LaTeX
accents and commands turned into Unicode (Herv\\'e -> Hervé, \\textit{x} -> x)."""

from __future__ import annotations

import logging

import bibtexparser
from bibtexparser import middlewares

from papertui.core.formats.base import CorpusError, ParsedFile, decode
from papertui.core.formats.structured import _collect

# bibtexparser logs every failed block itself; we report them in our own one-line form
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def parse_bibtex(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    text = decode(path, data, warnings)
    try:
        library = bibtexparser.parse_string(
            text, append_middleware=[middlewares.LatexDecodingMiddleware()]
        )
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
