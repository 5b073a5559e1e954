"""How a command is told which corpus to read, the same way for every command that reads one.

The rule: `-c PATH` (`--corpus`, repeatable) names a corpus file or folder, on the reader and on
every command that reads a corpus. PATHs may also follow a command's other positionals where
they cannot be read as anything else (`list PATH...`, `search QUERY PATH...`,
`bookmark ID PATH...`); `note` takes free text after its ID and `like` a file of papers, so
they take the corpus with `-c` only, and `export` too (a positional there reads as the file to
write). Both ways end in one list, args.corpus (`merge_corpus`).
"""

from __future__ import annotations

import argparse

from papertui.cli_args_fetch import fetched_option
from papertui.core.corpus.formats import FORMATS

CORPUS_HELP = (
    "a corpus file or folder (repeatable; default: the settings' default_paths, else the "
    "bundled collections)"
)


def format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        dest="input_format",
        choices=FORMATS,
        metavar="FORMAT",
        help="read every file as FORMAT (" + ", ".join(FORMATS) + "); default: detected",
    )


def corpus_arguments(
    p: argparse.ArgumentParser, positional: bool = True, input_format: bool = True
) -> None:
    """`-c PATH`, with PATHs after the other positionals when `positional`, `--format` (the
    input format) when `input_format`, and `--fetched`."""
    if positional:
        # a default makes argparse treat "*" as optional: a missing PATH is never "required"
        p.add_argument("paths", nargs="*", default=[], metavar="PATH", help="the same as -c PATH")
    p.add_argument("-c", "--corpus", action="append", default=[], metavar="PATH", help=CORPUS_HELP)
    if input_format:
        format_option(p)
    fetched_option(p)


def merge_corpus(args: argparse.Namespace) -> None:
    """The positional PATHs join the `-c` ones in args.corpus (positional ones first)."""
    positional = getattr(args, "paths", None)
    if positional is not None:
        args.corpus = [*positional, *getattr(args, "corpus", [])]
        del args.paths


def unexpected_arguments(command: str, extra: list[str], has_corpus: bool) -> str:
    """The one line for words a command has no place for (`like ID dump.txt`), saying how a
    corpus is given, since that is what such a word most often is."""
    words = [repr(w) for w in extra if w != "--"]
    hints = ["-o FILE names the file to write"] if command == "export" else []
    if has_corpus:
        hints.append("a corpus is given as -c PATH")
    hint = "; ".join([*hints, f"see papertui {command} --help"])
    what = "argument" if len(words) == 1 else "arguments"
    return f"papertui {command}: unexpected {what} {' '.join(words)} ({hint})"
