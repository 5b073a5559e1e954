"""The helper process of `split`: it parses the later part of a large JSONL dump into frames
of records for the process that started it (`python -m papertui.core.corpus.split_child`).
Apart from `split`, which reads its frames, because it parses with `stream`'s reader and
`stream` uses `split`: one module each way would be an import circle."""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from papertui.core.corpus.formats.base import RawRecord
from papertui.core.corpus.split import FRAME, HEADER, Counts
from papertui.core.corpus.stream import NotStreamable, parse_lines


def _row(record: RawRecord) -> tuple[Any, ...]:
    return (
        record.abstract, record.title, record.authors, record.venue, record.year, record.url,
        record.cite, record.title_derived, record.meta, record.more_urls,
    )  # fmt: skip


def run_helper(
    path: str, split: int, end: int, out: IO[bytes], report: IO[bytes], frame: int = FRAME
) -> None:
    """Parse `path` from byte `split` to `end` (a line's start and the file's end) into frames
    of `frame` records on `out`, each one's end reported on `report`, then "done"."""
    counts = Counts()
    rows: list[tuple[Any, ...]] = []
    written = 0

    def flush(offset: int) -> None:
        nonlocal written
        blob = marshal.dumps((rows, offset, counts.as_tuple()))
        out.write(HEADER.pack(len(blob)) + blob)
        out.flush()
        written += HEADER.size + len(blob)
        report.write(b"%d\n" % written)
        report.flush()
        rows.clear()

    def lines(handle: IO[bytes]) -> Iterator[bytes]:
        offset = split
        for raw in handle:
            if len(rows) >= frame:  # every line before `offset` is in `rows` and `counts`
                flush(offset)
            yield raw
            offset += len(raw)
            if offset >= end:
                break
        flush(offset)

    try:
        with open(path, "rb") as handle:
            handle.seek(split)
            for record in parse_lines(path, lines(handle), counts, first=False):
                rows.append(_row(record))
    except NotStreamable:
        report.write(b"not streamable\n")
    else:
        report.write(b"done\n")
    report.flush()


def main(argv: list[str]) -> int:
    path, split, end, fd, frame = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), int(argv[4])
    try:
        with os.fdopen(fd, "wb") as out:
            run_helper(path, split, end, out, sys.stdout.buffer, frame)
    except (BrokenPipeError, KeyboardInterrupt):
        return 1  # the process that started it is gone, or gave up on it
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
