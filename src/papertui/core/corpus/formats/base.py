"""What every format reader returns, and the decoding they share."""

from __future__ import annotations

import codecs
import re
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
    title_derived: bool = False  # `title` is one papertui derived (read back from its export)
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
    """True for files that are not text: known magic numbers, a NUL byte in the first 8 KB (as
    git decides), or mostly control bytes."""
    if data.startswith(_BINARY_MAGIC) or b"\x00" in data[:8192]:
        return True
    sample = data[:4096]
    if not sample:
        return False
    controls = sum(1 for b in sample if b < 0x20 and b not in (0x09, 0x0A, 0x0C, 0x0D))
    return controls / len(sample) > 0.10


def decode(path: str, data: bytes, warnings: list[str], paragraphs: bool = False) -> str:
    """UTF-8 (BOM optional) with every line ending turned into "\\n".

    A file that is not all UTF-8 is not a reason to refuse a dump: each line (`paragraphs`:
    each blank-line separated paragraph, as text dumps hold abstracts) that is not valid UTF-8
    is read as cp1252, the Windows codepage that old exports and spreadsheets write (a
    superset of Latin-1's letters: "Résumé", "naïve", “quotes”), and the warning says how many.
    """
    if looks_binary(data):
        raise CorpusError(path, "binary file, not a text corpus")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text, first, count = _decode_mixed(data, _PARAGRAPH if paragraphs else _LINE)
        unit = "paragraph" if paragraphs else "line"
        warnings.append(
            f"{path}: invalid UTF-8 at byte {first} ({count} {unit}"
            f"{'s' if count != 1 else ''} read as cp1252)"
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


# what ends a line, and a blank line (whitespace only) with the line ending before it; a CR
# before an LF is one line ending with it, never a line of its own
_END = rb"(?:\r\n|\r(?!\n)|\n)"
_LINE = re.compile(_END)
_PARAGRAPH = re.compile(_END + rb"(?:[ \t\f\v]*" + _END + rb")+")
_BOM = b"\xef\xbb\xbf"


def _decode_mixed(data: bytes, separator: re.Pattern[bytes]) -> tuple[str, int, int]:
    """`data` decoded as UTF-8 where it is, each unit `separator` ends that is not as cp1252;
    with where the first bad byte is and how many units were read as cp1252. One pass: each
    stretch of valid UTF-8 is decoded up to the next bad byte only (a memoryview, not a copy of
    the rest), so a large Latin-1 file costs no more than a mostly UTF-8 one."""
    view = memoryview(data)
    pieces: list[str] = []
    at = len(_BOM) if data.startswith(_BOM) else 0
    first, count = -1, 0
    while True:
        try:
            pieces.append(codecs.utf_8_decode(view[at:], "strict", True)[0])
            break
        except UnicodeDecodeError as exc:
            bad = at + exc.start
            begin = _unit_start(data, at, bad, separator)
            found = separator.search(data, bad)
            end = found.start() if found else len(data)
            pieces.append(codecs.utf_8_decode(view[at:begin], "strict", True)[0])
            pieces.append(data[begin:end].decode("cp1252", "replace"))
            first = bad if first < 0 else first
            count += 1
            at = end
    return "".join(pieces), first, count


def _unit_start(data: bytes, low: int, bad: int, separator: re.Pattern[bytes]) -> int:
    """Where the unit holding byte `bad` starts: after the last separator between `low` and
    it (looked for in a window that grows backwards, not from `low` on: a bad byte deep in a
    large file is found without scanning all that comes before it)."""
    window = 4096
    while True:
        begin = max(low, bad - window)
        last = None
        for last in separator.finditer(data, begin, bad):  # noqa: B007 - the last one
            pass
        if last is not None:
            return last.end()
        if begin == low:
            return low
        window *= 8
