"""One small reader per input format, all returning `ParsedFile` records, and the choice of
reader: `--format` if given, else the file's extension, else a look at its content."""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Callable
from pathlib import Path

from papertui.core.corpus.formats.base import CorpusError, ParsedFile, RawRecord, decode
from papertui.core.corpus.formats.native import parse_native

Reader = Callable[[str, bytes], ParsedFile]
FORMATS = (
    "text",
    "json",
    "jsonl",
    "csv",
    "tsv",
    "bibtex",
    "markdown",
    "arxiv",
    "arxiv-mail",
    "ris",
)
# what a folder argument reads; .gz of each too
SUFFIXES = {
    ".txt": "text",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".md": "markdown",
    ".markdown": "markdown",
    ".xml": "arxiv",
    ".atom": "arxiv",
    ".ris": "ris",
}
MAX_UNPACKED = 2 << 30  # a gzip bomb stops here
# a paper's block in the arXiv digest: a "\\" line, its id, its date (or "replaced with")
_DIGEST = re.compile(rb"(?m)^\\\\\r?\narXiv:\S+.*\r?\n(?:Date|replaced with)")


def _reader(fmt: str) -> Reader:
    if fmt == "text":
        return parse_native
    if fmt in ("json", "jsonl", "csv", "tsv", "arxiv"):
        from papertui.core.corpus.formats import structured

        return {
            "json": structured.parse_json,
            "jsonl": structured.parse_jsonl,
            "csv": structured.parse_csv,
            "tsv": lambda path, data: structured.parse_csv(path, data, "\t"),
            "arxiv": structured.parse_atom,
        }[fmt]
    if fmt == "bibtex":
        from papertui.core.corpus.formats.bibtex import parse_bibtex

        return parse_bibtex
    if fmt == "ris":
        from papertui.core.corpus.formats.ris import parse_ris

        return parse_ris
    if fmt == "arxiv-mail":
        from papertui.core.corpus.formats.arxiv_mail import parse_arxiv_mail

        return parse_arxiv_mail
    from papertui.core.corpus.formats.markdown import parse_markdown

    return parse_markdown


def is_corpus_file(path: Path) -> bool:
    name = path.name.lower().removesuffix(".gz")
    return Path(name).suffix in SUFFIXES


def sniff(data: bytes) -> str:
    """The format of a file whose name does not say, from its first bytes."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):
        return "json"
    if head.startswith(b"{"):
        first, _, rest = head.partition(b"\n")
        return (
            "jsonl" if first.rstrip().endswith(b"}") and rest.strip().startswith(b"{") else ("json")
        )
    if head.startswith(b"TY  - "):
        return "ris"
    if _DIGEST.search(data, 0, 16384):  # the arXiv mailing list's digest, saved as text
        return "arxiv-mail"
    if head.startswith((b"<?xml", b"<feed")):
        return "arxiv"
    if head.startswith(b"@") or b"\n@article" in head or b"\n@inproceedings" in head:
        return "bibtex"
    lowered = head.lower()
    if (b"\n## " in lowered or lowered.startswith(b"#")) and b"abstract" in lowered:
        return "markdown"
    first_line = lowered.split(b"\n", 1)[0]
    if b"abstract" in first_line and (b"," in first_line or b"\t" in first_line):
        return "tsv" if first_line.count(b"\t") > first_line.count(b",") else "csv"
    return "text"


def _gunzip(path: str, data: bytes) -> bytes:
    try:
        unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out = unpacker.decompress(data, MAX_UNPACKED)
        if unpacker.unconsumed_tail:
            raise CorpusError(path, "gzip file unpacks to more than 2 GB; not read")
        return out
    except (zlib.error, EOFError, gzip.BadGzipFile) as exc:
        raise CorpusError(path, f"broken gzip file ({exc})") from None


def chosen_format(name: str, data: bytes, forced: str | None) -> str:
    """The reader for a file called `name` (unpacked) starting with `data`: `forced`, else its
    extension's, else a look at `data`. A .txt that looks like another format is tried as that
    format first (`read_corpus_file`)."""
    fmt = forced or SUFFIXES.get(Path(name.lower()).suffix) or sniff(data)
    if fmt == "json" and not forced and sniff(data) == "jsonl":
        fmt = "jsonl"  # one record a line under a .json name (the arXiv metadata snapshot)
    return fmt


def read_corpus_file(path: str, data: bytes, forced: str | None = None) -> ParsedFile:
    """Parse one file's bytes with the right reader; CorpusError when it yields nothing."""
    name = path.lower()
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(path, data)
        name = name.removesuffix(".gz")
    fmt = chosen_format(name, data, forced)
    if fmt == "text" and not forced and (guess := sniff(data)) != "text":
        # a .txt that looks like another format: read it so if that works, else as text
        try:
            found = _reader(guess)(path, data)
        except CorpusError:
            found = None
        if found is not None and found.records:
            return found
    parsed = _reader(fmt)(path, data)
    if not parsed.records and fmt != "text":
        reasons = ", ".join(f"{k}: {v}" for k, v in parsed.skipped.items()) or "no records"
        raise CorpusError(path, f"no papers with an abstract ({fmt}; {reasons})")
    return parsed


__all__ = [
    "FORMATS",
    "CorpusError",
    "ParsedFile",
    "RawRecord",
    "chosen_format",
    "decode",
    "is_corpus_file",
    "read_corpus_file",
    "sniff",
]
