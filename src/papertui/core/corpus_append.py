"""Reading only what was appended to a large JSONL file since its cache was written.

A file that grew is otherwise parsed again whole: 10,000 papers appended to a million-record
arXiv snapshot would cost minutes of parsing the million again. When the cache recorded the hash
of the file's bytes, and the file's first bytes still have that hash (and end a line), only the
lines after them are read; the cache is written again from the old cache's papers and
abstracts plus the new ones. The result is what parsing the whole file gives; where it might
not be (the new lines hold a copy of an earlier paper or a broken line, or the old part had
warnings whose line numbers a whole read counts), the whole file is read instead. Records
skipped among the new lines (no abstract, a copy of another new paper) are counted as a whole
read counts them: a generated or downloaded update often repeats an abstract.
"""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import IO, Any

from papertui.core.corpus import DUPLICATE, FileReport, Paper
from papertui.core.corpus_cache_file import (
    CachedFile,
    MappedTexts,
    hashed_prefix,
    open_cache,
    paper_records,
    write_file_cache,
)
from papertui.core.corpus_stream import NotStreamable, read_streamed
from papertui.core.formats.base import CorpusError
from papertui.core.paper_meta import PaperMeta


class _Joined:
    """The old cache's abstracts, then the new ones, as `write_file_cache` copies them."""

    def __init__(self, old: MappedTexts, new: Any) -> None:
        self.old, self.new = old, new
        base = old.offsets[-1]
        self.offsets = array("Q", old.offsets)
        self.offsets.extend(base + x for x in new.offsets[1:])

    def copy_to(self, target: IO[bytes]) -> None:
        self.old.copy_to(target)
        self.new.copy_to(target)


def read_appended(
    path: Path, stat: list[object], cache: Path, forced: str | None, scratch: Path
) -> CachedFile | None:
    """`path`'s papers from its stale cache and the lines appended since, its cache written
    again; None when the whole file must be read (see the module docstring)."""
    opened = open_cache(cache, None, forced)
    if opened is None:
        return None
    head, old_texts = opened
    old_stat, digest = head["stat"], head.get("digest")
    report_path, fmt, collection, count = head["report"]
    if (
        digest is None
        or fmt != "jsonl"
        or head["warnings"]
        or old_stat[0] != stat[0]
        or not isinstance(old_stat[1], int)
        or not isinstance(stat[1], int)
        or stat[1] <= old_stat[1]
    ):
        return None
    size = old_stat[1]
    hasher = _prefix_hasher(path, size, digest)
    if hasher is None:
        return None
    try:
        new, report, warnings, spilled = read_streamed(path, scratch, hasher, start=size)
    except (CorpusError, NotStreamable):
        return None  # nothing readable was appended: the whole read says what it says
    try:
        if warnings or not _all_new(head, new):
            return None
        old = paper_records(head, old_texts)
        papers = old + new
        skipped = _merged_skipped(head["skipped"], report.skipped)
        merged = FileReport(report_path, fmt, collection, count + len(new), skipped)
        found = CachedFile(papers, merged, [])
        if not write_file_cache(
            cache, found, stat, forced, _Joined(old_texts, spilled), hasher.digest()
        ):
            return None
        reopened = open_cache(cache, stat, forced)
        if reopened is None:
            return None
        for n, paper in enumerate(papers):
            paper.keep_in_cache(reopened[1], n)
        return found
    finally:
        spilled.close()


def _prefix_hasher(path: Path, size: int, digest: bytes) -> Any:
    """A hash fed with the file's first `size` bytes, if they hash to `digest` and end a line
    (the appended lines start a line of their own); else None."""
    fed = hashed_prefix(path, size)
    if fed is None or fed[1] != b"\n" or fed[0].digest() != digest:
        return None
    return fed[0]


def _merged_skipped(old: dict[str, int], new: dict[str, int]) -> dict[str, int]:
    """The records skipped in the old lines and the appended ones, counted by reason in the
    order a whole read gives (reasons as first met, copies last). A copy among the appended
    lines of another appended paper joins it as a whole read joins it (`_all_new` has checked
    that no appended paper is an earlier one)."""
    merged = {k: v for k, v in old.items() if k != DUPLICATE}
    for reason, count in new.items():
        if reason != DUPLICATE:
            merged[reason] = merged.get(reason, 0) + count
    copies = old.get(DUPLICATE, 0) + new.get(DUPLICATE, 0)
    if copies:
        merged[DUPLICATE] = copies
    return merged


def _all_new(head: dict[str, Any], new: list[Paper]) -> bool:
    """No appended paper is a copy of one before it (by id, an alias or an arXiv id): such a
    copy joins the earlier paper, which a whole read would change."""
    ids: set[str] = set()
    arxiv: set[str] = set()
    for record in head["papers"]:
        ids.add(record[0])
        meta = record[-1]
        if meta:
            decoded = PaperMeta.decode(meta)
            ids.update(decoded.aliases)
            if decoded.arxiv:
                arxiv.add(decoded.arxiv)
    for paper in new:
        if paper.id in ids or (paper.meta.arxiv and paper.meta.arxiv in arxiv):
            return False
        if paper.meta.aliases:
            return False  # two appended copies of one arXiv paper: read whole
    return True
