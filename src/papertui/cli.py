"""The command line: start the reader, or script the same core without a TUI.

Exit codes: 0 success, 1 a change could not be saved, 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from papertui import __version__
from papertui.core import paths
from papertui.core.corpus import Paper
from papertui.core.export import FORMATS as EXPORT_FORMATS
from papertui.core.export import render
from papertui.core.formats import FORMATS
from papertui.core.library import DEPTH, Library, PaperNotFound, View, quick_search
from papertui.core.settings import load_settings
from papertui.core.store import Store, StoreError

COMMANDS = ("list", "search", "index", "similar", "bookmark", "note", "tag", "read", "export")


class UsageError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")


def _parser() -> argparse.ArgumentParser:
    top = _Parser(
        prog="papertui",
        description="A keyboard-driven terminal reader for research-paper abstracts. "
        "With no command, opens the reader on PATHs (default: the bundled collections).",
        epilog="commands: " + ", ".join(COMMANDS) + " (papertui COMMAND --help for each)",
    )
    top.add_argument("--version", action="version", version=f"papertui {__version__}")
    sub = top.add_subparsers(dest="command", parser_class=_Parser)

    def corpus_paths(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "paths", nargs="*", metavar="PATH", help="corpus files or folders (default: bundled)"
        )
        format_option(p)

    def format_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--format",
            dest="input_format",
            choices=FORMATS,
            metavar="FORMAT",
            help="read every file as FORMAT (" + ", ".join(FORMATS) + "); default: detected",
        )

    def corpus_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "-c",
            "--corpus",
            action="append",
            default=[],
            metavar="PATH",
            help="corpus file or folder to find the paper in (repeatable; default: bundled)",
        )

    p = sub.add_parser("list", help="list papers")
    corpus_paths(p)
    p.add_argument("--json", action="store_true", help="one JSON array of paper records")

    p = sub.add_parser("search", help="full-text search (same syntax as the reader)")
    p.add_argument("query")
    corpus_paths(p)
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N results (20)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("similar", help="papers most like a paper (by id prefix)")
    p.add_argument("id")
    corpus_paths(p)
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N results (20)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("tag", help="add (or --remove) a tag on a paper")
    p.add_argument("id")
    p.add_argument("tag")
    p.add_argument("--remove", action="store_true", help="remove the tag instead")
    corpus_option(p)

    p = sub.add_parser("read", help="mark a paper read (or --unread)")
    p.add_argument("id")
    p.add_argument("--unread", action="store_true", help="mark it unread instead")
    corpus_option(p)

    p = sub.add_parser("index", help="build or update the search index, with progress")
    corpus_paths(p)
    p.add_argument("--progress-json", action="store_true", help=argparse.SUPPRESS)

    p = sub.add_parser("bookmark", help="bookmark a paper by id (any unique prefix)")
    p.add_argument("id")
    p.add_argument("--remove", action="store_true", help="remove the bookmark instead")
    corpus_option(p)

    p = sub.add_parser("note", help="print a paper's note, or set it (empty text clears it)")
    p.add_argument("id")
    p.add_argument("text", nargs="?", help="the new note; '-' reads it from standard input")
    corpus_option(p)

    p = sub.add_parser(
        "export",
        help="export papers with their notes: bookmarked and annotated ones, or those a query "
        "or a tag selects",
    )
    p.add_argument("--format", choices=EXPORT_FORMATS, default="markdown")
    p.add_argument("--query", metavar="QUERY", help="export the papers this search finds")
    p.add_argument("--tag", metavar="TAG", help="export the papers with this tag")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    corpus_option(p)
    return top


def _tui_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="papertui", description="Open the reader.")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--format", dest="input_format", choices=FORMATS, metavar="FORMAT")
    return p


def _open(sources: Sequence[str], fmt: str | None = None) -> Library:
    for problem in load_settings().problems:
        print(f"papertui: {problem}", file=sys.stderr)
    library = Library.open(sources or None, fmt)
    for line in library.corpus.errors + library.corpus.warnings:
        print(f"papertui: {line}", file=sys.stderr)
    if library.store.moved_aside is not None:
        print(
            f"papertui: the data file was damaged; moved it to {library.store.moved_aside} "
            "and started a fresh one",
            file=sys.stderr,
        )
    if not library.papers:
        where = ", ".join(sources) if sources else str(paths.bundled_corpus_dir())
        raise UsageError(f"papertui: no papers could be read from {where}")
    return library


def record(library: Library, paper: Paper) -> dict[str, object]:
    return {
        "id": paper.id,
        "title": paper.title,
        "collection": paper.collection,
        "collections": list(paper.collections),
        "abstract": paper.abstract,
        "urls": list(paper.urls),
        "authors": list(paper.authors),
        "venue": paper.venue,
        "year": paper.year,
        "bookmarked": library.is_bookmarked(paper),
        "note": library.note(paper),
        "read": library.is_read(paper),
        "new": library.is_new(paper),
        "tags": library.tags_of(paper),
    }


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def file_report(library: Library) -> list[str]:
    """One line per file: the format detected, papers read, records skipped and why."""
    return [f"{f.path}: {f.summary()}" for f in library.corpus.files]


def _cmd_list(args: argparse.Namespace) -> int:
    library = _open(args.paths, args.input_format)
    library.complete_titles()
    library.mark_seen()
    for line in file_report(library):
        print(f"papertui: {line}", file=sys.stderr)
    if args.json:
        _print_json([record(library, p) for p in library.papers])
        return 0
    for paper in library.papers:
        mark = ("*" if library.is_bookmarked(paper) else " ") + (
            "n" if library.note(paper) else " "
        )
        print(f"{paper.id}  {mark}  {paper.title}  [{paper.collection}]")
    return 0


def _cmd_search(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise UsageError("papertui search: --limit must be at least 1")
    quick = None if args.input_format else quick_search(args.paths, args.query, args.limit)
    if quick is not None:
        return _print_quick(quick, args.json)
    library = _open(args.paths, args.input_format)
    library.ensure_index()
    view = library.run_query(args.query, limit=args.limit, depth=max(DEPTH, args.limit))
    for note in view.notes:
        print(f"papertui: {note}", file=sys.stderr)
    return _print_view(library, view, args.json)


def _print_quick(records: list[dict[str, object]], as_json: bool) -> int:
    """Results straight from the index (the corpus was not read): the same fields as records."""
    store = Store(paths.store_path())
    out = []
    for rec in records:
        pid = str(rec["id"])
        collections = [str(c) for c in rec["collections"]]  # type: ignore[attr-defined]
        out.append(
            {
                "id": pid,
                "title": rec["title"],
                "collection": collections[0] if collections else "",
                "collections": collections,
                "abstract": rec["abstract"],
                "urls": rec["urls"],
                "authors": rec.get("authors", []),
                "venue": rec.get("venue", ""),
                "year": rec.get("year"),
                "bookmarked": store.is_bookmarked(pid),
                "note": store.note(pid),
                "score": round(float(rec["score"]), 4),  # type: ignore[arg-type]
            }
        )
    store.close()
    if as_json:
        _print_json(out)
        return 0
    for r in out:
        print(f"{r['id']}  {r['score']:7.2f}  {r['title']}  [{r['collection']}]")
    return 0


class _ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.tty = sys.stderr.isatty()
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
            print(f"\rindexing [{bar:<25}] {percent:3d}%  {done}/{total}", end="", file=sys.stderr)

    def close(self) -> None:
        if self.tty and not self.as_json and self.last >= 0:
            print(file=sys.stderr)


def _cmd_index(args: argparse.Namespace) -> int:
    library = _open(args.paths, args.input_format)
    bar = _ProgressBar(args.progress_json)
    try:
        report = library.ensure_index(progress=bar)
    finally:
        bar.close()
    summary = (
        f"{report.how} index: {report.papers} papers in {report.seconds:.1f} s, "
        f"{report.size_bytes / 1e6:.1f} MB at {report.directory}"
    )
    if args.progress_json:
        print(json.dumps({"summary": summary}), flush=True)
    else:
        print(summary)
    return 0


def _find(args: argparse.Namespace) -> tuple[Library, Paper]:
    library = _open(args.corpus)
    try:
        return library, library.resolve(args.id)
    except PaperNotFound as exc:
        raise UsageError(f"papertui: {exc}") from exc


def _cmd_bookmark(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    library.set_bookmark(paper, not args.remove)
    print(f"{'removed bookmark' if args.remove else 'bookmarked'} {paper.id}  {paper.title}")
    return 0


def _cmd_tag(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    tag = args.tag.strip()
    if not tag or any(c.isspace() for c in tag):
        raise UsageError(f"papertui tag: {args.tag!r} is not a tag (one word, no spaces)")
    library.set_tag([paper], tag, not args.remove)
    print(f"{'untagged' if args.remove else 'tagged'} {paper.id} {tag}: {paper.title}")
    return 0


def _cmd_read(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    library.set_read([paper], not args.unread)
    print(f"marked {'unread' if args.unread else 'read'} {paper.id}  {paper.title}")
    return 0


def _cmd_similar(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise UsageError("papertui similar: --limit must be at least 1")
    library = _open(args.paths, args.input_format)
    try:
        paper = library.resolve(args.id)
    except PaperNotFound as exc:
        raise UsageError(f"papertui: {exc}") from exc
    library.ensure_index()
    view = library.similar(paper, args.limit)
    return _print_view(library, view, args.json)


def _print_view(library: Library, view: View, as_json: bool) -> int:
    if as_json:
        out = []
        for pos in view.indices:
            item = record(library, library.papers[pos])
            item["score"] = round(view.scores.get(pos, 0.0), 4)
            out.append(item)
        _print_json(out)
        return 0
    for pos in view.indices:
        paper = library.papers[pos]
        print(f"{paper.id}  {view.scores.get(pos, 0.0):7.2f}  {paper.title}  [{paper.collection}]")
    return 0


def _cmd_note(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    if args.text is None:
        note = library.note(paper)
        if note:
            print(note)
        return 0
    text = sys.stdin.read() if args.text == "-" else args.text
    library.set_note(paper, text)
    print(f"{'saved note on' if text.strip() else 'cleared note on'} {paper.id}  {paper.title}")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    library = _open(args.corpus)
    if args.query is not None or args.tag is not None:
        query = " ".join(
            part for part in (args.query or "", f"tag:{args.tag}" if args.tag else "") if part
        )
        if args.query:
            library.ensure_index()
        view = library.run_query(query, depth=None)
        entries = [library.entry(library.papers[i]) for i in view.indices]
    else:
        entries = library.export_entries()
    text = render(entries, args.format)
    if args.output:
        try:
            Path(args.output).write_text(text, "utf-8")
        except OSError as exc:
            raise UsageError(f"papertui: {args.output}: {exc.strerror or exc}") from exc
        print(f"exported to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _run_tui(argv: Sequence[str]) -> int:
    args = _tui_parser().parse_args(argv)
    library = _open(args.paths, args.input_format)
    from papertui.ui.app import PaperTUI  # textual loads only when the reader starts

    PaperTUI(library).run()
    library.close()
    return 0


_HANDLERS = {
    "list": _cmd_list,
    "search": _cmd_search,
    "similar": _cmd_similar,
    "tag": _cmd_tag,
    "read": _cmd_read,
    "index": _cmd_index,
    "bookmark": _cmd_bookmark,
    "note": _cmd_note,
    "export": _cmd_export,
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if (
            argv
            and argv[0] in COMMANDS
            or any(a in ("-h", "--help", "--version") for a in argv[:1])
        ):
            args = _parser().parse_args(argv)
            return _HANDLERS[args.command](args)
        return _run_tui(argv)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"papertui: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
