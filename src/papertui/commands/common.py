"""What every command shares: opening the library with its problems on stderr, printing
records as text or JSON, the progress bar, and finding a paper by id prefix."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from papertui.cli_args import UsageError
from papertui.core.system import paths
from papertui.core.system.settings import load_settings
from papertui.core.text import once_each

if TYPE_CHECKING:  # the library loads only when a command needs it, not for a quick search
    from papertui.core.corpus import Paper
    from papertui.core.library import Library
    from papertui.core.query.view import View


def open_library(sources: Sequence[str], fmt: str | None = None, deferred: bool = False) -> Library:
    for problem in load_settings().problems:
        print(f"papertui: {problem}", file=sys.stderr)
    from papertui.core.library import Library

    opener = Library.open_deferred if deferred else Library.open
    library = opener(sources or None, fmt)
    for line in once_each(library.corpus.errors + library.corpus.warnings):
        print(f"papertui: {line}", file=sys.stderr)
    for _severity, message in library.marks.problems():
        print(f"papertui: {message}", file=sys.stderr)
    if not library.papers and not library.loading:
        where = ", ".join(sources) if sources else str(paths.bundled_corpus_dir())
        raise UsageError(f"papertui: no papers could be read from {where}")
    return library


@contextlib.contextmanager
def exit_on_terminate() -> Iterator[None]:
    """SIGTERM (the reader cancelling a build it started, or a `kill`) leaves through the
    cleanup path instead of ending the process on the spot: a segment writer the build forked
    is stopped and half-written files are removed."""
    if threading.current_thread() is not threading.main_thread():
        yield  # a handler can only be set from the main thread
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def limit_of(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise UsageError(f"papertui {args.command}: --limit must be at least 1")
    return int(args.limit)


def print_records(records: list[dict[str, object]], as_json: bool) -> int:
    if as_json:
        print_json(records)
        return 0
    for r in records:
        score = float(r.get("score") or 0.0)  # type: ignore[arg-type]
        print(f"{r['id']}  {score:7.2f}  {r['title']}  [{r['collection']}]")
    return 0


def print_view(library: Library, view: View, as_json: bool) -> int:
    papers = library.papers
    records = [library.record(papers[i], view.scores.get(i, 0.0)) for i in view.indices]
    return print_records(records, as_json)


def ensure_semantic(library: Library, progress_json: bool = False) -> None:
    """Vectors and topics, built here (a CLI command is its own process) with a bar on a tty."""
    bar = ProgressBar(progress_json, "vectors")
    try:
        library.semantic.ensure(progress=bar, in_process=True)
    finally:
        bar.close()


class ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal. Written past the
    CLI's sanitising wrapper (which shows a carriage return as a placeholder, and the bar then
    ran on along the line): the bar holds no corpus text."""

    def __init__(self, as_json: bool, what: str = "indexing") -> None:
        self.as_json = as_json
        self.what = what
        self.tty = sys.stderr.isatty() and sys.__stderr__ is not None
        self.stream = sys.__stderr__ if self.tty else sys.stderr
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        if percent == self.last:
            return
        self.last = percent
        if self.as_json:
            print(json.dumps({"done": done, "total": total}), flush=True)
        elif self.tty:
            bar = "#" * (percent // 4)
            print(
                f"\r{self.what} [{bar:<25}] {percent:3d}%  {done}/{total}",
                end="",
                file=self.stream,
                flush=True,
            )

    def close(self) -> None:
        if self.tty and not self.as_json and self.last >= 0:
            print(file=self.stream)


def find_paper(args: argparse.Namespace) -> tuple[Library, Paper]:
    """The library of args.corpus and the paper args.id names in it. A corpus path that is
    not there is refused first (`bookmark ID1 ID2` would otherwise open "ID2" as a corpus)."""
    from papertui.core.library import PaperNotFound

    for path in args.corpus:
        if not os.path.exists(path):
            raise UsageError(f"papertui {args.command}: {path}: no such corpus file or folder")
    library = open_library(args.corpus, getattr(args, "input_format", None))
    try:
        return library, library.resolve(args.id)
    except PaperNotFound as exc:
        # without -c the default collections are searched: say how to name the paper's file
        hint = "" if args.corpus else " (the default collections; -c PATH opens another)"
        raise UsageError(f"papertui: {exc}{hint}") from exc
