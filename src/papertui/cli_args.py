"""The command line's grammar: one table of commands, each with its arguments and help.

`cli.py` runs them; this module only describes them, so `papertui --help`, each command's
`--help` and the dispatcher all come from `COMMANDS`.
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from papertui import __version__
from papertui.cli_args_corpus import corpus_arguments
from papertui.cli_args_fetch import daily_arguments, digest_arguments, fetch_arguments
from papertui.core.export import FORMATS as EXPORT_FORMATS


class UsageError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        if message.startswith("the following arguments are required"):
            # what the command takes, on the same line: usage: ... QUERY [PATH ...]
            message += "; " + " ".join(self.format_usage().split())
        raise UsageError(f"{self.prog}: {message} (see --help)")


def limit_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N results (20)")
    p.add_argument("--json", action="store_true", help="one JSON array of paper records")


def _list(p: argparse.ArgumentParser) -> None:
    corpus_arguments(p)
    p.add_argument("--json", action="store_true", help="one JSON array of paper records")


def _search(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "query", metavar="QUERY", help="same syntax as the reader; may start with - (-word, -tag:x)"
    )
    corpus_arguments(p)
    limit_json(p)


def _similar(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")
    corpus_arguments(p)
    limit_json(p)


def _tag(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")
    p.add_argument("tag", metavar="TAG")
    p.add_argument("--remove", action="store_true", help="remove the tag instead")
    corpus_arguments(p)


def _read(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")
    p.add_argument("--unread", action="store_true", help="mark it unread instead")
    corpus_arguments(p)


def _index(p: argparse.ArgumentParser) -> None:
    corpus_arguments(p)
    p.add_argument("--progress-json", action="store_true", help=argparse.SUPPRESS)


def _semantic(p: argparse.ArgumentParser) -> None:
    corpus_arguments(p)
    p.add_argument("--progress-json", action="store_true", help=argparse.SUPPRESS)


def _overview(p: argparse.ArgumentParser) -> None:
    corpus_arguments(p)
    p.add_argument("--query", metavar="QUERY", help="describe the papers this query finds")
    p.add_argument("--json", action="store_true", help="one JSON object")


def _rank(p: argparse.ArgumentParser) -> None:
    corpus_arguments(p)
    limit_json(p)


def _like(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID|FILE", help="a paper id prefix, or a file of papers you like")
    p.add_argument("--remove", action="store_true", help="forget the like instead")
    corpus_arguments(p, positional=False)  # `like A B`: two files of papers, or a corpus?


def _skip(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")
    p.add_argument("--remove", action="store_true", help="forget the skip instead")
    corpus_arguments(p)


def _feedback(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--reset", action="store_true", help="forget every like, skip and seed file (required)"
    )
    corpus_arguments(p)


def _bookmark(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")
    p.add_argument("--remove", action="store_true", help="remove the bookmark instead")
    corpus_arguments(p)


def _note(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "text",
        nargs="*",
        default=[],
        metavar="TEXT",
        help="the new note (the words joined by spaces); '-' reads it from standard input; "
        "'' clears it; none: print the note",
    )
    p.add_argument(
        "--text",
        dest="text_option",
        metavar="TEXT",
        help="the new note, even one that names a file or folder (TEXT that does is refused)",
    )
    p.add_argument(
        "--append", action="store_true", help="add the text to the note, after a newline"
    )
    corpus_arguments(p, positional=False)  # the words after ID are the note


def _export(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=(*EXPORT_FORMATS, "notes"),
        default=None,
        help="default: from the -o file's extension (.bib .json .csv .md .ris), else markdown; "
        "notes: one Markdown file per paper in the -o FOLDER (a notes vault)",
    )
    p.add_argument("--query", metavar="QUERY", help="export the papers this search finds")
    p.add_argument("--tag", metavar="TAG", help="export the papers with this tag")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (a folder for notes), not stdout"
    )
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    # no positional PATH: `export out.bib` would read out.bib; --format is the export's
    corpus_arguments(p, positional=False, input_format=False)


def _serve(p: argparse.ArgumentParser) -> None:
    corpus_arguments(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000; 0: any free)")
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when behind a proxy (https://papers.example.org)",
    )
    p.add_argument("--token", help="the token to ask for (default: a random one, printed)")
    p.add_argument("--token-file", metavar="FILE", help="read the token from FILE")


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]


COMMANDS = [
    Command("list", "list papers", _list),
    Command("search", "full-text search (same syntax as the reader)", _search),
    Command("similar", "papers most like a paper (by id prefix)", _similar),
    Command("index", "build or update the search index, with progress", _index),
    Command("semantic", "build or update related-paper vectors and topics", _semantic),
    Command("overview", "counts, histograms, distinctive terms and topics", _overview),
    Command("rank", "unread papers, most interesting to you first (for you)", _rank),
    Command("like", "like a paper (for you), or read a FILE of papers you like", _like),
    Command("skip", "skip a paper: not for you", _skip),
    Command("feedback", "--reset: forget every like, skip and seed file", _feedback),
    Command("bookmark", "bookmark a paper by id (any unique prefix)", _bookmark),
    Command("note", "print a paper's note, or set it (empty text clears it)", _note),
    Command("tag", "add (or --remove) a tag on a paper", _tag),
    Command("read", "mark a paper read (or --unread)", _read),
    Command(
        "export",
        "export papers with their notes and tags: bookmarked, annotated and liked ones, or "
        "those a query or a tag selects",
        _export,
    ),
    Command("serve", "serve the reader to web browsers (a token on every request)", _serve),
    Command(
        "fetch", "fetch papers from Daily Papers, arXiv, Paper Copilot, OpenReview", fetch_arguments
    ),
    Command(
        "daily", "fetch the subscriptions, then read what is new (for you first)", daily_arguments
    ),
    Command(
        "digest", "the papers fetched since the last digest, best first, for cron", digest_arguments
    ),
]
NAMES = [c.name for c in COMMANDS]

READER_HELP = """\
the reader:
  papertui [PATH...] [-c PATH] [--format FORMAT] [--fetched]
      opens the reader on PATHs (files or folders; default: the settings' default_paths,
      else the bundled collections). FORMAT forces one input format for every file;
      --fetched adds what papertui fetch fetched. Press ? in the reader for its keys.

the corpus: every command that reads papers takes it as -c PATH (repeatable); list,
  search, similar, index, semantic, overview, rank, bookmark, tag, read, skip, feedback
  and serve also take PATHs after their other arguments (not note: its words are the note).

commands (papertui COMMAND --help for each):
"""


def parser() -> argparse.ArgumentParser:
    top = Parser(
        prog="papertui",
        description="A keyboard-driven terminal reader for research-paper abstracts.",
        epilog=READER_HELP + "\n".join(f"  {c.name:<9} {c.help}" for c in COMMANDS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action="version", version=f"papertui {__version__}")
    sub = top.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    for command in COMMANDS:
        # listed once, in the epilog; the help still heads `papertui COMMAND --help`
        command.arguments(sub.add_parser(command.name, description=command.help))
    return top


def reader_parser() -> argparse.ArgumentParser:
    p = Parser(prog="papertui", description="Open the reader.")
    corpus_arguments(p)
    return p


# what reads as an option, not as a query or a file: "--word", "--word=value" or "-x"
_OPTION_SHAPE = re.compile(r"--[A-Za-z][\w-]*(=.*)?|-[A-Za-z]", re.DOTALL)


def positionals_first(command: str, args: Sequence[str]) -> list[str]:
    """Arguments that start with "-" but do not read as an option are positionals: a query
    like "-neural graph" or "-tag:x" works as typed. An option `command` does not have is an
    error (a path that starts with "-" goes after "--", or as "./-name"). Options move before
    a "--"."""
    sub = parser()._subparsers
    assert sub is not None
    choices: dict[str, argparse.ArgumentParser] = sub._group_actions[0].choices  # type: ignore[assignment]
    known = choices[command]._option_string_actions
    options: list[str] = []
    positionals: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            positionals += rest
            break
        name = arg.split("=", 1)[0]
        action = known.get(name)
        if action is None:
            if _OPTION_SHAPE.fullmatch(arg):
                raise UsageError(_unknown_option(command, name, known))
            positionals.append(arg)
            continue
        options.append(arg)
        if action.nargs != 0 and "=" not in arg and rest:
            options.append(f"{arg}={rest.pop(0)}")
            options.pop(-2)
    return options + (["--", *positionals] if positionals else [])


def _unknown_option(command: str, name: str, known: dict[str, argparse.Action]) -> str:
    close = difflib.get_close_matches(name, [k for k in known if k.startswith("--")], n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return (
        f"papertui {command}: unknown option {name}{hint} "
        f"(see papertui {command} --help; a path starting with - goes after --)"
    )
