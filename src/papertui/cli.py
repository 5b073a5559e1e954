"""The command line: start the reader, or script the same core without a TUI.

Exit codes: 0 success, 1 a change could not be saved, 2 bad input (one line on stderr). The
commands and their arguments are described once, in `cli_args.COMMANDS`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from papertui.cli_args import NAMES, UsageError, parser, positionals_first, reader_parser
from papertui.core import paths
from papertui.core.corpus import Paper
from papertui.core.export import ExportError, ExportExists, export_to, render
from papertui.core.library import DEPTH, Library, PaperNotFound, View, quick_search
from papertui.core.query import parse_query
from papertui.core.settings import load_settings
from papertui.core.store import StoreError


def _open(sources: Sequence[str], fmt: str | None = None, deferred: bool = False) -> Library:
    for problem in load_settings().problems:
        print(f"papertui: {problem}", file=sys.stderr)
    opener = Library.open_deferred if deferred else Library.open
    library = opener(sources or None, fmt)
    for line in library.corpus.errors + library.corpus.warnings:
        print(f"papertui: {line}", file=sys.stderr)
    for _severity, message in library.marks.problems():
        print(f"papertui: {message}", file=sys.stderr)
    if not library.papers and not library.loading:
        where = ", ".join(sources) if sources else str(paths.bundled_corpus_dir())
        raise UsageError(f"papertui: no papers could be read from {where}")
    return library


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def _cmd_list(args: argparse.Namespace) -> int:
    library = _open(args.paths, args.input_format)
    library.indexing.complete_titles()
    library.marks.mark_seen()
    for f in library.corpus.files:
        print(f"papertui: {f.path}: {f.summary()}", file=sys.stderr)
    if args.json:
        _print_json([library.record(p) for p in library.papers])
        return 0
    for paper in library.papers:
        mark = ("*" if library.marks.is_bookmarked(paper) else " ") + (
            "n" if library.marks.note(paper) else " "
        )
        print(f"{paper.id}  {mark}  {paper.title}  [{paper.collection}]")
    return 0


def _limit(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise UsageError(f"papertui {args.command}: --limit must be at least 1")
    return int(args.limit)


def _cmd_search(args: argparse.Namespace) -> int:
    limit = _limit(args)
    quick = None if args.input_format else quick_search(args.paths, args.query, limit)
    if quick is not None:
        return _print_records(quick, args.json)
    library = _open(args.paths, args.input_format)
    library.indexing.ensure()
    library.marks.mark_seen()  # `is:new` answers as in the reader
    parsed = parse_query(args.query)
    if parsed.semantic or any(f.kind == "topic" for f in parsed.filters):
        _ensure_semantic(library)
    view = library.run_query(args.query, limit=limit, depth=max(DEPTH, limit))
    if view.corrections:  # as the reader's status line says it
        fixed = ", ".join(f"{a}→{b}" for a, b in view.corrections.items())
        print(f"papertui: searched {fixed}", file=sys.stderr)
    for note in view.notes:
        print(f"papertui: {note}", file=sys.stderr)
    return _print_view(library, view, args.json)


def _print_records(records: list[dict[str, object]], as_json: bool) -> int:
    if as_json:
        _print_json(records)
        return 0
    for r in records:
        score = float(r.get("score") or 0.0)  # type: ignore[arg-type]
        print(f"{r['id']}  {score:7.2f}  {r['title']}  [{r['collection']}]")
    return 0


def _print_view(library: Library, view: View, as_json: bool) -> int:
    papers = library.papers
    records = [library.record(papers[i], view.scores.get(i, 0.0)) for i in view.indices]
    return _print_records(records, as_json)


def _ensure_semantic(library: Library, progress_json: bool = False) -> None:
    """Vectors and topics, built here (a CLI command is its own process) with a bar on a tty."""
    bar = _ProgressBar(progress_json, "vectors")
    try:
        library.semantic.ensure(progress=bar, in_process=True)
    finally:
        bar.close()


class _ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, as_json: bool, what: str = "indexing") -> None:
        self.as_json = as_json
        self.what = what
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
            print(
                f"\r{self.what} [{bar:<25}] {percent:3d}%  {done}/{total}", end="", file=sys.stderr
            )

    def close(self) -> None:
        if self.tty and not self.as_json and self.last >= 0:
            print(file=sys.stderr)


def _cmd_index(args: argparse.Namespace) -> int:
    library = _open(args.paths, args.input_format)
    bar = _ProgressBar(args.progress_json)
    try:
        report = library.indexing.ensure(progress=bar)
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


def _cmd_semantic(args: argparse.Namespace) -> int:
    from papertui.core.semantic.child import one_blas_thread_env

    one_blas_thread_env()  # before numpy loads
    library = _open(args.paths, args.input_format)
    _ensure_semantic(library, args.progress_json)
    topics = library.semantic.cache().topics
    summary = (
        f"vectors and {len(topics.topics) if topics else 0} topics for {len(library.papers)} papers"
    )
    print(json.dumps({"summary": summary}) if args.progress_json else summary, flush=True)
    return 0


def _cmd_overview(args: argparse.Namespace) -> int:
    library = _open(args.paths, args.input_format)
    library.indexing.complete_titles()
    if args.query:
        library.indexing.ensure()
    _ensure_semantic(library)
    indices = (
        library.run_query(args.query, depth=None).indices
        if args.query
        else list(range(len(library.papers)))
    )
    overview = library.semantic.overview(indices)
    from papertui.core.overview import to_json

    data = to_json(overview, ids_per_topic=None if args.json else 0)
    if args.json:
        _print_json(data)
        return 0
    view = data["counts"]["view"]
    print(
        f"{view['papers']} papers in {view['collections']} collections: {view['unread']} unread,"
        f" {view['bookmarked']} bookmarked, {view['noted']} noted, {view['tagged']} tagged"
    )
    for name, key in (("years", "year"), ("venues", "venue"), ("collections", "collection")):
        if data[name]:
            print(f"{name}: " + ", ".join(f"{r[key]} {r['papers']}" for r in data[name]))
    if data["terms"]:
        print("terms: " + ", ".join(t["term"] for t in data["terms"]))
    for t in data["topics"]:
        print(f"topic:{t['number']:<3} {t['size']:>6} papers {t['unread']:>6} unread  {t['label']}")
    return 0


def _cmd_rank(args: argparse.Namespace) -> int:
    limit = _limit(args)
    library = _open(args.paths, args.input_format)
    library.indexing.complete_titles()
    _ensure_semantic(library)
    view = library.foryou.rank(limit)
    for note in view.notes:
        print(f"papertui: {note}", file=sys.stderr)
    papers = library.papers
    records = []
    for i in view.indices:
        record = library.record(papers[i], view.scores.get(i, 0.0))
        record["why"] = view.why.get(i, "")
        records.append(record)
    if args.json:
        _print_json(records)
        return 0
    for r in records:
        print(f"{r['id']}  {float(r['score']):7.3f}  {r['title']}  ({r['why']})")  # type: ignore[arg-type]
    return 0


def _cmd_like(args: argparse.Namespace) -> int:
    if os.path.isfile(args.id) and not args.remove:
        library = _open(args.corpus)
        try:
            count = library.foryou.add_seeds(args.id)
        except ValueError as exc:
            raise UsageError(f"papertui like: {exc}") from exc
        print(f"liked {count} papers from {args.id}")
        return 0
    library, paper = _find(args)
    (library.marks.unjudge if args.remove else library.marks.like)([paper])
    print(f"{'forgot like on' if args.remove else 'liked'} {paper.id}  {paper.title}")
    return 0


def _cmd_skip(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    (library.marks.unjudge if args.remove else library.marks.skip)([paper])
    print(f"{'forgot skip on' if args.remove else 'skipped'} {paper.id}  {paper.title}")
    return 0


def _cmd_feedback(args: argparse.Namespace) -> int:
    if not args.reset:
        raise UsageError("papertui feedback: say --reset to forget every like, skip and seed")
    library = _open(args.corpus)
    library.marks.reset_feedback()
    print("forgot every like, skip and seed file")
    return 0


def _find(args: argparse.Namespace) -> tuple[Library, Paper]:
    library = _open(args.corpus)
    try:
        return library, library.resolve(args.id)
    except PaperNotFound as exc:
        raise UsageError(f"papertui: {exc}") from exc


def _cmd_bookmark(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    library.marks.set_bookmark(paper, not args.remove)
    print(f"{'removed bookmark' if args.remove else 'bookmarked'} {paper.id}  {paper.title}")
    return 0


def _cmd_tag(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    tag = args.tag.strip()
    if not tag or any(c.isspace() for c in tag):
        raise UsageError(f"papertui tag: {args.tag!r} is not a tag (one word, no spaces)")
    library.marks.set_tag([paper], tag, not args.remove)
    print(f"{'untagged' if args.remove else 'tagged'} {paper.id} {tag}: {paper.title}")
    return 0


def _cmd_read(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    library.marks.set_read([paper], not args.unread)
    print(f"marked {'unread' if args.unread else 'read'} {paper.id}  {paper.title}")
    return 0


def _cmd_similar(args: argparse.Namespace) -> int:
    limit = _limit(args)
    library = _open(args.paths, args.input_format)
    try:
        paper = library.resolve(args.id)
    except PaperNotFound as exc:
        raise UsageError(f"papertui: {exc}") from exc
    _ensure_semantic(library)
    return _print_view(library, library.similar(paper, limit), args.json)


def _cmd_note(args: argparse.Namespace) -> int:
    library, paper = _find(args)
    if args.text is None:
        note = library.marks.note(paper)
        if note:
            print(note)
        return 0
    text = sys.stdin.read() if args.text == "-" else args.text
    library.marks.set_note(paper, text)
    print(f"{'saved note on' if text.strip() else 'cleared note on'} {paper.id}  {paper.title}")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    library = _open(args.corpus)
    papers = None
    if args.query is not None or args.tag is not None:
        query = " ".join(
            part for part in (args.query or "", f"tag:{args.tag}" if args.tag else "") if part
        )
        if args.query:
            library.indexing.ensure()
        view = library.run_query(query, depth=None)
        papers = [library.papers[i] for i in view.indices]
    entries = library.entries(papers)
    if not args.output:
        sys.stdout.write(render(entries, args.format))
        return 0
    try:
        target = export_to(args.output, entries, args.format, overwrite=args.force)
    except ExportExists as exc:
        raise UsageError(
            f"papertui export: {exc.path} exists; add --force to overwrite it"
        ) from exc
    except ExportError as exc:
        raise UsageError(f"papertui export: {exc}") from exc
    print(f"exported {len(entries)} papers to {target}", file=sys.stderr)
    return 0


def _run_reader(argv: Sequence[str]) -> int:
    args = reader_parser().parse_args(argv)
    # a cold start shows the first papers while the indexing child reads the rest
    library = _open(args.paths, args.input_format, deferred=True)
    from papertui.ui.app import make_app  # textual loads only when the reader starts

    make_app(library=library).run()
    library.close()
    return 0


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": _cmd_list,
    "search": _cmd_search,
    "similar": _cmd_similar,
    "index": _cmd_index,
    "semantic": _cmd_semantic,
    "overview": _cmd_overview,
    "rank": _cmd_rank,
    "like": _cmd_like,
    "skip": _cmd_skip,
    "feedback": _cmd_feedback,
    "bookmark": _cmd_bookmark,
    "note": _cmd_note,
    "tag": _cmd_tag,
    "read": _cmd_read,
    "export": _cmd_export,
}
assert list(HANDLERS) == NAMES, "cli_args.COMMANDS and HANDLERS name the same commands"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in NAMES:
            args = parser().parse_args([argv[0], *positionals_first(argv[0], argv[1:])])
            return HANDLERS[args.command](args)
        if argv[:1] and argv[0] in ("-h", "--help", "--version"):
            parser().parse_args(argv[:1])
            return 0
        return _run_reader(argv)
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
