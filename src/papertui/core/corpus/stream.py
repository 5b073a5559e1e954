"""Reading a large JSONL dump into the corpus cache a line at a time.

Parsing a file whole holds its bytes, its decoded text, its lines, every record and every
paper at once: 1.75 GB for a 192 MB file of 100,000 records, 14 GB at a million. Here each line
becomes its record and its paper at once, and the paper's abstract goes straight to a scratch
file (`SpilledTexts`), so what stays in memory is the papers without their abstracts. The
cache written from it is the one `cache_file.write_file_cache` writes from a whole
parse, byte for byte, and so are the papers, report and warnings.

Only plain JSONL files whose bytes need no repair are read this way: a gzipped file, invalid
UTF-8 (whose lines are read as cp1252, and the warning counts them) or a binary-looking start
are left to the whole-file reader, which says what it says about them today.
"""

from __future__ import annotations

import json
import os
import tempfile
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

from papertui.core.corpus import FileReport, Paper, build_papers
from papertui.core.corpus.formats import SUFFIXES, sniff
from papertui.core.corpus.formats.base import CorpusError, ParsedFile, RawRecord, looks_binary
from papertui.core.corpus.formats.structured import NO_ABSTRACT, NOT_A_RECORD, record_of
from papertui.core.corpus.split import Counts, Helper, split_point

# Files at least this large are streamed (below it the whole-file reader is as good).
STREAM_FROM = 8 << 20
_HEAD = 16384  # bytes looked at to choose the reader, as `sniff` and `looks_binary` do


class NotStreamable(Exception):
    """The file needs the whole-file reader (see the module docstring)."""


class SpilledTexts:
    """Abstracts written one after another to a scratch file while a dump is read; `text(n)`
    reads one back (a paper completed by a later copy may need its abstract for a title)."""

    def __init__(self, where: Path) -> None:
        where.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".abstracts-", dir=where)
        os.unlink(name)  # open, nameless: a process killed midway leaves nothing behind
        self.handle: IO[bytes] = os.fdopen(fd, "w+b")
        self.offsets = array("Q", [0])

    def take(self, paper: Paper) -> None:
        """Move `paper`'s abstract to the file; the paper reads it from here meanwhile."""
        blob = paper.abstract.encode("utf-8", "surrogatepass")
        self.handle.write(blob)
        self.offsets.append(self.offsets[-1] + len(blob))
        paper.keep_abstract_in(self, len(self.offsets) - 2)

    def text(self, n: int) -> str:
        self.handle.flush()
        a, b = self.offsets[n], self.offsets[n + 1]
        return os.pread(self.handle.fileno(), b - a, a).decode("utf-8", "surrogatepass")

    def numbers_containing(self, chars: str) -> set[int]:
        return {n for n in range(len(self.offsets) - 1) if any(c in self.text(n) for c in chars)}

    def copy_to(self, target: IO[bytes]) -> None:
        """Write every abstract, in order, to `target`."""
        self.handle.flush()
        self.handle.seek(0)
        while block := self.handle.read(1 << 20):
            target.write(block)

    def close(self) -> None:
        self.handle.close()


def streamable(path: Path, forced: str | None) -> bool:
    """Whether `path` is a JSONL file the whole-file reader would read as JSONL, large
    enough to be worth streaming."""
    if forced not in (None, "jsonl"):
        return False
    try:
        if path.stat().st_size < STREAM_FROM:
            return False
        with open(path, "rb") as handle:
            head = handle.read(_HEAD)
    except OSError:
        return False
    if head[:2] == b"\x1f\x8b" or looks_binary(head):
        return False
    if forced == "jsonl":
        return True
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return True
    return (suffix == ".json" or suffix not in SUFFIXES) and sniff(head) == "jsonl"


def read_streamed(
    path: Path, scratch: Path, digest: Any = None, start: int = 0
) -> tuple[list[Paper], FileReport, list[str], Any]:
    """The papers, report and warnings of JSONL file `path` (as `parse_file` then
    `build_papers` give them), their abstracts in a `SpilledTexts` under `scratch` (which the
    caller closes). NotStreamable when the file needs the whole-file reader; CorpusError as
    the whole-file reader raises it. `digest` (a hashlib object) is fed every byte read;
    `start`: read from this byte offset on, a line's start (what was appended to a file).
    A large file's later part is parsed by a helper process meanwhile (`corpus_split`)."""
    name = str(path)
    warnings: list[str] = []
    counts = Counts()
    with open(path, "rb") as handle:
        handle.seek(start)
        spill = SpilledTexts(scratch)
        try:
            records = _all_records(path, handle, start, digest, scratch, counts, warnings)
            collection = Path(name).stem.removesuffix(".json")
            parsed = ParsedFile(name, collection, "jsonl", cast(list[RawRecord], records))
            parsed.warnings, parsed.skipped = warnings, counts.skipped
            reports: list[FileReport] = []
            papers = build_papers([parsed], reports, made=spill.take)
        except BaseException:
            spill.close()
            raise
    if not papers:
        spill.close()
        if not counts.items and counts.bad:
            first = counts.first_bad
            raise CorpusError(name, f"no readable JSON line (first error at line {first})")
        reasons = ", ".join(f"{k}: {v}" for k, v in reports[0].skipped.items()) or "no records"
        raise CorpusError(name, f"no papers with an abstract (jsonl; {reasons})")
    return papers, reports[0], warnings, spill


def _all_records(
    path: Path,
    handle: IO[bytes],
    start: int,
    digest: Any,
    scratch: Path,
    counts: Counts,
    warnings: list[str],
) -> Iterator[RawRecord]:
    """The records of the file from `start` on, in order, read here alone or with a helper
    process for the later part; then the broken lines are counted and the first one named."""
    name = str(path)
    cut = split_point(path, start)
    helper = None
    if cut is not None:
        try:
            helper = Helper(path, cut[0], cut[1], scratch)
        except (OSError, ValueError):  # no process to be had (ValueError: no pass_fds)
            helper = None
    if helper is None or cut is None:
        yield from parse_lines(name, _fed(handle, digest, None), counts, first=start == 0)
    else:
        split, end = cut
        try:
            own = _fed(handle, digest, split - start)
            yield from parse_lines(name, own, counts, first=start == 0)
            if digest is not None:
                _feed_range(handle, split, end, digest)
            last = None
            for records, so_far in helper.frames():
                yield from records
                last = so_far
            if helper.not_streamable:
                raise NotStreamable(name)
            if last is not None:
                _add_counts(counts, last)
            if not helper.finished:  # it stopped early: the rest is read here
                handle.seek(helper.offset)
                rest = _fed(handle, None, end - helper.offset)
                yield from parse_lines(name, rest, counts, first=False)
        finally:
            helper.close()
    if counts.bad:  # after the other reasons, before duplicates, as the whole file gives
        counts.skipped["broken JSON line"] = counts.bad
        warnings.append(
            f"{name}: broken JSON at line {counts.first_bad}, column {counts.first_bad_col}: "
            f"{counts.first_bad_msg} (the line is skipped)"
        )


def _add_counts(counts: Counts, part: Counts) -> None:
    """`part`'s counts (its lines numbered from 1) added after those of `counts`."""
    if part.bad and not counts.bad:
        counts.first_bad = counts.lines + part.first_bad
        counts.first_bad_col, counts.first_bad_msg = part.first_bad_col, part.first_bad_msg
    counts.lines += part.lines
    counts.items += part.items
    counts.bad += part.bad
    for reason, n in part.skipped.items():
        # the reason's own string, not the helper's copy: marshal marks a string used twice,
        # and the cache file's bytes stay those of a read in one process
        reason = _REASONS.get(reason, reason)
        counts.skipped[reason] = counts.skipped.get(reason, 0) + n


_REASONS = {reason: reason for reason in (NO_ABSTRACT, NOT_A_RECORD)}


def _fed(handle: IO[bytes], digest: Any, limit: int | None) -> Iterator[bytes]:
    """The raw lines of `handle` from where it is, `limit` bytes of them if given (a line's
    end), each fed to `digest` if any."""
    taken = 0
    for raw in handle:
        if digest is not None:
            digest.update(raw)
        yield raw
        taken += len(raw)
        if limit is not None and taken >= limit:
            return


def _feed_range(handle: IO[bytes], begin: int, end: int, digest: Any) -> None:
    handle.seek(begin)
    left = end - begin
    while left > 0 and (block := handle.read(min(left, 1 << 20))):
        digest.update(block)
        left -= len(block)


def parse_lines(
    name: str, handle: Iterator[bytes], counts: Counts, first: bool = True
) -> Iterator[RawRecord]:
    """The records of the lines of `handle`, counted as `structured.parse_jsonl` counts them
    (a line ends at "\\n", "\\r\\n" or "\\r", as `decode` makes them) from `counts.lines` on;
    `first`: the file's first line comes first (it may open with a byte order mark)."""
    skipped = counts.skipped
    for n, raw in enumerate(handle):
        try:
            text = raw.decode("utf-8-sig" if n == 0 and first else "utf-8")
        except UnicodeDecodeError:
            raise NotStreamable(name) from None
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if lines[-1] == "":
            lines.pop()  # what followed this line's end: the next raw line
        for line in lines:
            counts.lines += 1
            line = line.strip().rstrip("\r")
            if not line:
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                counts.bad += 1
                if counts.bad == 1:
                    counts.first_bad, counts.first_bad_col = counts.lines, exc.colno
                    counts.first_bad_msg = exc.msg
                continue
            counts.items += 1
            record = record_of(item, skipped)
            if record is not None:
                yield record
