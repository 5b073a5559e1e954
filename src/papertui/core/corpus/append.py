"""Reading only what was appended to a large JSONL file since its cache was written.

A file that grew is otherwise parsed again whole: 10,000 papers appended to a million-record
arXiv snapshot would cost minutes of parsing the million again. When the cache recorded the hash
of the file's bytes, and the file's first bytes still have that hash (and end a line), only the
lines after them are read; the cache is written again from the old cache's papers and
abstracts plus the new ones. The result is what parsing the whole file gives: a new line that
copies an earlier paper (its abstract, or its arXiv id) completes that paper as a whole read
would, and records skipped among the new lines (no abstract, a copy of another new paper) are
counted as a whole read counts them; a generated or downloaded update often repeats an
abstract. Where the result might differ (a broken line, two new texts of one arXiv paper, old
lines with warnings whose line numbers a whole read counts), the whole file is read instead.
"""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import IO, Any

from papertui.core.corpus import DUPLICATE, FileReport, Paper, complete_from
from papertui.core.corpus.cache_file import (
    CachedFile,
    MappedTexts,
    hashed_prefix,
    open_cache,
    paper_records,
    write_file_cache,
)
from papertui.core.corpus.formats.base import CorpusError
from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.corpus.stream import NotStreamable, read_streamed


class _Joined:
    """The old cache's abstracts, then the new ones (those numbered `kept`: all, when None),
    as `write_file_cache` copies them."""

    def __init__(self, old: MappedTexts, new: Any, kept: list[int] | None) -> None:
        self.old, self.new, self.kept = old, new, kept
        self.offsets = array("Q", old.offsets)
        at = old.offsets[-1]
        for n in range(len(new.offsets) - 1) if kept is None else kept:
            at += new.offsets[n + 1] - new.offsets[n]
            self.offsets.append(at)

    def copy_to(self, target: IO[bytes]) -> None:
        self.old.copy_to(target)
        if self.kept is None:
            self.new.copy_to(target)
        else:
            for n in self.kept:
                target.write(self.new.text(n).encode("utf-8", "surrogatepass"))


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
        copies = None if warnings else _earlier_copies(head, new)
        if copies is None:
            return None
        old = paper_records(head, old_texts)
        for i, j in copies.items():  # same file, same collection: a duplicate of paper j
            complete_from(old[j], new[i])
        kept = [n for n in range(len(new)) if n not in copies]
        papers = old + [new[n] for n in kept]
        skipped = _merged_skipped(head["skipped"], report.skipped, len(copies))
        merged = FileReport(report_path, fmt, collection, count + len(kept), skipped)
        found = CachedFile(papers, merged, [])
        abstracts = _Joined(old_texts, spilled, None if not copies else kept)
        if not write_file_cache(cache, found, stat, forced, abstracts, hasher.digest()):
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


def _merged_skipped(old: dict[str, int], new: dict[str, int], joined: int) -> dict[str, int]:
    """The records skipped in the old lines and the appended ones, counted by reason in the
    order a whole read gives (reasons as first met, copies last). A copy among the appended
    lines of another appended paper joins it as a whole read joins it; so do the `joined`
    appended papers that copy an earlier one."""
    merged = {k: v for k, v in old.items() if k != DUPLICATE}
    for reason, count in new.items():
        if reason != DUPLICATE:
            merged[reason] = merged.get(reason, 0) + count
    copies = old.get(DUPLICATE, 0) + new.get(DUPLICATE, 0) + joined
    if copies:
        merged[DUPLICATE] = copies
    return merged


def _earlier_copies(head: dict[str, Any], new: list[Paper]) -> dict[int, int] | None:
    """The appended papers whose abstract is an earlier paper's (by its id or an alias), by
    number: {appended: earlier}. None when the whole file must be read: an appended paper is
    an earlier one only by its arXiv id (whether a whole read finds it so depends on which
    copy first brought the id), or two appended texts are one arXiv paper."""
    if any(paper.meta.aliases for paper in new):
        return None
    wanted = {paper.id for paper in new}
    arxiv_wanted = {a for a in (paper.meta.arxiv for paper in new) if a}
    ids: dict[str, int] = {}
    arxiv: set[str] = set()
    for j, record in enumerate(head["papers"]):
        if record[0] in wanted:
            ids.setdefault(record[0], j)
        meta = record[-1]
        if meta:  # the two fields asked, not the whole record decoded (2 s at a million)
            for alias in PaperMeta.aliases_of(meta):
                if alias in wanted:
                    ids.setdefault(alias, j)
            arxiv_id = PaperMeta.arxiv_of(meta)
            if arxiv_id in arxiv_wanted:
                arxiv.add(arxiv_id)
    copies: dict[int, int] = {}
    for i, paper in enumerate(new):
        found = ids.get(paper.id)
        if found is not None:
            copies[i] = found
        elif paper.meta.arxiv in arxiv:
            return None
    return copies
