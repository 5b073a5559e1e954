"""What every format reader returns, and the decoding they share."""

from __future__ import annotations

import codecs
import threading
from dataclasses import dataclass, field

# Magic numbers of files people drop into a folder of dumps by accident.
_BINARY_MAGIC = (
    b"%PDF",
    b"\x89PNG",
    b"PK\x03\x04",
    b"\x1f\x8b",
    b"\x7fELF",
    b"GIF8",
    b"\xff\xd8\xff",
)


class CorpusError(Exception):
    """A file that yields no papers at all. `str()` is the one-line message for the user."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


@dataclass(slots=True)
class RawRecord:
    """One paper as a reader found it, before ids and titles are derived."""

    abstract: str
    title: str = ""
    authors: tuple[str, ...] = ()
    venue: str = ""
    year: int | None = None
    url: str = ""
    cite: str = ""  # "type key" of a BibTeX entry, kept for exports ("article smith2020deep")
    meta: str = ""  # arXiv id, categories, upvotes, decision...: `paper_meta.PaperMeta`, encoded
    more_urls: str = ""  # links beyond `url`, space separated


@dataclass(slots=True)
class ParsedFile:
    path: str
    collection: str
    format: str
    records: list[RawRecord]
    warnings: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)


def looks_binary(data: bytes) -> bool:
    """True for files that are not text: known magic numbers, or mostly control bytes."""
    if data.startswith(_BINARY_MAGIC):
        return True
    sample = data[:4096]
    if not sample:
        return False
    controls = sum(1 for b in sample if b < 0x20 and b not in (0x09, 0x0A, 0x0C, 0x0D))
    return controls / len(sample) > 0.10


def decode(path: str, data: bytes, warnings: list[str]) -> str:
    """UTF-8 (BOM optional) with every line ending turned into "\\n".

    Invalid UTF-8 is not a reason to refuse a whole dump: it is replaced and reported.
    """
    if looks_binary(data):
        raise CorpusError(path, "binary file, not a text corpus")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        _replaced.count = 0
        text = data.decode("utf-8-sig", errors=_COUNTING)
        bad = _replaced.count
        warnings.append(
            f"{path}: invalid UTF-8 at byte {exc.start} ({bad} bad sequence"
            f"{'s' if bad != 1 else ''} replaced with \ufffd)"
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


# One decoding pass both repairs and counts the bad sequences (counting by re-decoding the rest
# of the file after each bad byte was quadratic: a large Latin-1 file stalled loading).
_replaced = threading.local()
_COUNTING = "papertui-count-replace"


def _replace_and_count(exc: UnicodeError) -> tuple[str, int]:
    """The "replace" error handler, counting each replacement for this thread."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _replaced.count = getattr(_replaced, "count", 0) + 1
    return "\ufffd", exc.end


codecs.register_error(_COUNTING, _replace_and_count)
