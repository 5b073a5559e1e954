"""The first papers of a large file that no cache holds yet, read from the file's head.

A cold start of one large file would otherwise show an empty list until the indexing child has
parsed all of it (27 s for 100,000 arXiv records). Its first megabytes are read here, in the
reader's own process, with the reader the whole file gets: the papers they give are the first
papers of the whole file, in the same order with the same ids (a later duplicate joins its first
copy, never moves it), so positions stay valid when the whole file replaces them.

Only formats whose records a cut at a line or paragraph end cannot change are read so: JSON
lines (one record a line) and the native text dump (one abstract a paragraph).
"""

from __future__ import annotations

import re
from pathlib import Path

from papertui.core.corpus import Corpus, FileReport, build_papers
from papertui.core.corpus.formats import CorpusError, chosen_format, read_corpus_file, sniff
from papertui.core.corpus.formats.base import looks_binary
from papertui.core.corpus.formats.native import paragraphs

# ~1,000 papers: parsed in about 0.1 s, many screens of rows.
PREVIEW_BYTES = 2 << 20
# a paragraph ends at an empty or whitespace-only line (as `native.paragraphs` splits)
_PARAGRAPH_END = re.compile(rb"\n[^\S\n]*\n")


def head_format(path: Path, head: bytes, forced: str | None) -> str | None:
    """The reader `read_corpus_file` would choose for the whole file, if its head can be read
    alone; else None."""
    if head[:2] == b"\x1f\x8b" or looks_binary(head[:8192]):
        return None
    fmt = chosen_format(path.name, head, forced)
    if fmt == "text" and not forced and sniff(head) != "text":
        return None  # a .txt read as another format when that works: left to the whole read
    return fmt if fmt in ("jsonl", "text") else None


def _cut(head: bytes, fmt: str) -> bytes:
    """`head` up to its last whole record."""
    if fmt == "jsonl":
        return head[: head.rfind(b"\n") + 1]
    ends = list(_PARAGRAPH_END.finditer(head, max(0, len(head) - (256 << 10))))
    return head[: ends[-1].start()] if ends else b""


def head_corpus(path: Path, forced: str | None, budget: int | None = None) -> Corpus | None:
    """The papers of the first `budget` bytes of `path` (`PREVIEW_BYTES`; whole records only),
    or None when the file is small enough to read whole, its format cannot be read in part, or
    the head holds no paper."""
    budget = PREVIEW_BYTES if budget is None else budget
    try:
        with open(path, "rb") as handle:
            head = handle.read(budget + 1)
    except OSError:
        return None
    if len(head) <= budget:
        return None
    fmt = head_format(path, head, forced)
    if fmt is None:
        return None
    part = _cut(head[:budget], fmt)
    if not part.strip():
        return None
    if fmt == "text" and len(paragraphs(part.decode("utf-8", "replace"))) < 2:
        return None  # a lone paragraph: the whole file may read it as its name line
    try:
        parsed = read_corpus_file(str(path), part, fmt)
    except CorpusError:
        return None  # the whole read says what is wrong with the file
    reports: list[FileReport] = []
    papers = build_papers([parsed], reports)
    if not papers:
        return None
    return Corpus(papers=papers, files=reports, errors=[], warnings=[])
