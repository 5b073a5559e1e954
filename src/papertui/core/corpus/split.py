"""A large JSONL dump read by two processes: the later part of the file is parsed into records
by a helper process while this one parses the earlier part, then takes the helper's records
in file order, as they come.

Decoding JSON and picking a record's fields is most of the cost of reading a dump (about
0.1 ms a line); making papers of the records, writing their abstracts out and the cache is
the rest, and stays here, in one place, so that duplicates, aliases and the report come out
as one process reading the file gives them (`corpus_stream` tests that, byte for byte).

The helper (`python -m papertui.core.corpus.split_child`) writes frames of records to a nameless
file it is given, and after each frame a line on its stdout: the frame's end. A frame ends at
a line's end and carries the helper's counts so far, so if the helper stops early (killed, out
of memory), this process reads the rest of the file itself from the last frame's end. It is a
separate program, not a fork: the reader has threads running. It ends when its stdout's
reader is gone (a broken pipe), so it never outlives the process that started it.
"""

from __future__ import annotations

import marshal
import os
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papertui.core.corpus.formats.base import RawRecord

# From this many bytes still to read, the later part goes to a helper (spawning it costs
# about 0.3 s; 64 MB is about 35,000 arXiv records, 4 s of parsing).
SPLIT_FROM = 64 << 20
# The share of the bytes this process parses itself: it also makes the papers and writes the
# cache for all of them (a fifth: 400,000 arXiv records in 28-34 s against 48 s read alone;
# a quarter or three tenths were no faster).
OWN_SHARE = 0.2
# Records a frame holds.
FRAME = 2000
HEADER = struct.Struct("<Q")


@dataclass
class Counts:
    """What a part of the file's lines gave besides records, numbered within the part."""

    lines: int = 0
    items: int = 0
    bad: int = 0
    first_bad: int = 0
    first_bad_col: int = 0
    first_bad_msg: str = ""
    skipped: dict[str, int] = field(default_factory=dict)

    def as_tuple(self) -> tuple[Any, ...]:
        return (
            self.lines, self.items, self.bad, self.first_bad, self.first_bad_col,
            self.first_bad_msg, dict(self.skipped),
        )  # fmt: skip


def split_point(path: Path, start: int) -> tuple[int, int] | None:
    """(where the helper's part starts, where the file ends) for reading `path` from `start`
    in two processes, or None: too small to be worth it, one core, or no line end to split at."""
    if (os.cpu_count() or 1) < 2:
        return None
    try:
        end = path.stat().st_size
        if end - start < SPLIT_FROM:
            return None
        with open(path, "rb") as handle:
            handle.seek(start + int((end - start) * OWN_SHARE))
            handle.readline()  # to the end of the line the cut falls in
            split = handle.tell()
    except OSError:
        return None
    return (split, end) if start < split < end else None


class Helper:
    """The helper process parsing `path` from `split` to `end`; `frames()` yields its
    records and counts in order, `finished` says whether it got to the end."""

    def __init__(self, path: Path, split: int, end: int, scratch: Path) -> None:
        scratch.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".records-", dir=scratch)
        os.unlink(name)  # nameless: nothing is left behind, however either process ends
        self._file = os.fdopen(fd, "rb")
        self.offset = split  # where the records taken so far end in the file
        self.finished = False
        self.not_streamable = False
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
                command(path, split, end, fd),
                pass_fds=(fd,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except BaseException:
            self._file.close()
            raise

    def frames(self) -> Iterator[tuple[list[RawRecord], Counts]]:
        """Each frame as the helper finishes it: its records and the helper's counts so far
        (the last one's are all of them). Stops early if the helper stopped early."""
        assert self._process is not None and self._process.stdout is not None
        read = 0
        for line in self._process.stdout:
            word = line.strip()
            if word == b"done":
                self.finished = True
                return
            if word == b"not streamable":
                self.not_streamable = True
                return
            written = int(word)
            while read < written:
                (size,) = HEADER.unpack(os.pread(self._file.fileno(), HEADER.size, read))
                blob = os.pread(self._file.fileno(), size, read + HEADER.size)
                read += HEADER.size + size
                rows, offset, counts = marshal.loads(blob)
                self.offset = offset
                yield [RawRecord(*row) for row in rows], Counts(*counts)

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            if process.stdout is not None:
                process.stdout.close()
        self._file.close()


def command(path: Path, split: int, end: int, fd: int) -> list[str]:
    """The helper's command line: it writes its frames to the open file `fd`."""
    child = "papertui.core.corpus.split_child"
    return [sys.executable, "-m", child, str(path), str(split), str(end), str(fd), str(FRAME)]
