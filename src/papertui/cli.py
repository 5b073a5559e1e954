"""The command line: start the reader, or script the same core without a TUI.

Exit codes: 0 success, 1 nothing matched (search), 2 bad input (one line on stderr), 3 a
source could not be fetched (fetch, daily: the others were). The
commands and their arguments are described once, in `cli_args.COMMANDS`; the commands
themselves live in `papertui.commands`.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

from papertui.cli_args import NAMES, UsageError, parser, positionals_first, reader_parser
from papertui.cli_args_corpus import merge_corpus, unexpected_arguments
from papertui.commands import digest, fetching, learning, notes, papers, serving
from papertui.commands.common import open_library
from papertui.core.store import StoreError
from papertui.core.system import paths
from papertui.core.text import safe_display


def _run_reader(argv: Sequence[str]) -> int:
    args = reader_parser().parse_args(argv)
    first = args.paths[0] if args.paths else ""
    merge_corpus(args)
    add_fetched(args)
    if first and not os.path.exists(first) and os.sep not in first and "." not in first:
        close = difflib.get_close_matches(first, NAMES, n=1)
        if close:  # "papertui serach graph": a command mistyped, not a missing file
            raise UsageError(f"papertui: no command or file {first!r}; did you mean {close[0]!r}?")
    # a cold start shows the first papers while the indexing child reads the rest
    library = open_library(args.corpus, args.input_format, deferred=True)
    from papertui.ui.app import make_app  # textual loads only when the reader starts

    make_app(library=library).run()
    library.close()
    return 0


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": papers.cmd_list,
    "search": papers.cmd_search,
    "similar": papers.cmd_similar,
    "index": papers.cmd_index,
    "semantic": learning.cmd_semantic,
    "overview": learning.cmd_overview,
    "rank": learning.cmd_rank,
    "like": learning.cmd_like,
    "skip": learning.cmd_skip,
    "feedback": learning.cmd_feedback,
    "bookmark": papers.cmd_bookmark,
    "note": notes.cmd_note,
    "tag": papers.cmd_tag,
    "read": papers.cmd_read,
    "export": papers.cmd_export,
    "serve": serving.cmd_serve,
    "fetch": fetching.cmd_fetch,
    "daily": fetching.cmd_daily,
    "digest": digest.cmd_digest,
}
assert list(HANDLERS) == NAMES, "cli_args.COMMANDS and HANDLERS name the same commands"


def add_fetched(args: argparse.Namespace) -> None:
    """`--fetched`: every fetched dump joins the corpus given (after `merge_corpus`)."""
    if not getattr(args, "fetched", False):
        return
    found = [str(p) for p in paths.fetched_sources()]
    if not found:
        raise UsageError(
            "papertui: --fetched: nothing fetched yet (papertui fetch hf fetches today's "
            "Daily Papers; see papertui fetch --help)"
        )
    args.corpus = [*args.corpus, *found]


class _SafeStream:
    """A text stream whose writes show control, escape and bidi characters as placeholders
    (titles and abstracts are untrusted: an ESC sequence must not restyle the terminal);
    newlines and tabs pass."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        if not text.isprintable():
            lines = (safe_display(part) for part in text.replace("\t", "    ").split("\n"))
            text = "\n".join(lines)
        return self._inner.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


@contextlib.contextmanager
def _terminal_safe(json_out: bool) -> Iterator[None]:
    """Sanitise what a command prints (stdout unless it is JSON, whose encoder escapes control
    characters itself; stderr always)."""
    saved = sys.stdout, sys.stderr
    if not json_out:
        sys.stdout = _SafeStream(sys.stdout)  # type: ignore[assignment]
    sys.stderr = _SafeStream(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def parse_command(argv: Sequence[str]) -> argparse.Namespace:
    """A command's arguments, its corpus in args.corpus however it was given (`-c PATH` or
    PATHs), with the fetched dumps when `--fetched` asks for them."""
    args, extra = parser().parse_known_args([argv[0], *positionals_first(argv[0], argv[1:])])
    if [word for word in extra if word != "--"]:
        raise UsageError(unexpected_arguments(argv[0], extra, hasattr(args, "corpus")))
    merge_corpus(args)
    add_fetched(args)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in NAMES:
            args = parse_command(argv)
            with _terminal_safe(json_out=bool(getattr(args, "json", False))):
                return HANDLERS[args.command](args)
        if argv[:1] and argv[0] in ("-h", "--help", "--version"):
            parser().parse_args(argv[:1])
            return 0
        return _run_reader(argv)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except StoreError as exc:  # 2 as any error: 1 is search's "nothing matched", as grep
        print(f"papertui: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
