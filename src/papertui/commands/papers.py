"""The commands over papers and their annotations: list, search, similar, index, bookmark,
tag, read and export (note has a module of its own, notes)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from papertui.cli_args import UsageError
from papertui.commands.common import (
    ProgressBar,
    ensure_semantic,
    exit_on_terminate,
    find_paper,
    limit_of,
    open_library,
    print_json,
    print_records,
    print_view,
)
from papertui.core.library.sources import quick_search
from papertui.core.query import KNOWN_FILTERS, parse_query
from papertui.core.system.lifeline import end_with_parent
from papertui.core.text import counted


def cmd_list(args: argparse.Namespace) -> int:
    library = open_library(args.corpus, args.input_format)
    library.indexing.complete_titles(matcher=False)
    library.marks.mark_seen()
    for f in library.corpus.files:
        print(f"papertui: {f.path}: {f.summary()}", file=sys.stderr)
    if args.json:
        print_json([library.record(p) for p in library.papers])
        return 0
    for paper in library.papers:
        mark = ("*" if library.marks.is_bookmarked(paper) else " ") + (
            "n" if library.marks.note(paper) else " "
        )
        print(f"{paper.id}  {mark}  {paper.title}  [{paper.collection}]")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    limit = limit_of(args)
    quick = None if args.input_format else quick_search(args.corpus, args.query, limit)
    if quick is not None:
        return print_records(quick, args.json) or _nothing_found(args.query, len(quick))
    library = open_library(args.corpus, args.input_format)
    library.indexing.ensure()
    library.marks.mark_seen()  # `is:new` answers as in the reader
    parsed = parse_query(args.query)
    if parsed.semantic or any(f.kind == "topic" for f in parsed.filters):
        ensure_semantic(library)
    from papertui.core.library import DEPTH

    view = library.run_query(args.query, limit=limit, depth=max(DEPTH, limit))
    if view.corrections:  # as the reader's status line says it
        fixed = ", ".join(f"{a}→{b}" for a, b in view.corrections.items())
        print(f"papertui: searched {fixed}", file=sys.stderr)
    for note in view.remarks:
        print(f"papertui: {note}", file=sys.stderr)
    return print_view(library, view, args.json) or _nothing_found(args.query, len(view.indices))


def _nothing_found(query: str, found: int) -> int:
    """Exit status 1 with a word on stderr when nothing matched, as grep does (the JSON on
    stdout is still `[]`)."""
    if found:
        return 0
    print(f"papertui: no papers match {query!r}", file=sys.stderr)
    return 1


def cmd_similar(args: argparse.Namespace) -> int:
    limit = limit_of(args)
    library, paper = find_paper(args)
    ensure_semantic(library)
    return print_view(library, library.semantic.similar(paper, limit), args.json)


def cmd_index(args: argparse.Namespace) -> int:
    if args.progress_json:  # the reader's child: it ends with the reader, however that ends
        end_with_parent()
    library = open_library(args.corpus, args.input_format)
    bar = ProgressBar(args.progress_json)
    try:
        with exit_on_terminate():
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


def cmd_bookmark(args: argparse.Namespace) -> int:
    library, paper = find_paper(args)
    library.marks.set_bookmark(paper, not args.remove)
    print(f"{'removed bookmark' if args.remove else 'bookmarked'} {paper.id}  {paper.title}")
    return 0


def cmd_tag(args: argparse.Namespace) -> int:
    library, paper = find_paper(args)
    from papertui.core.library.marks import tag_problem

    tag = args.tag.strip().lstrip("#")
    problem = tag_problem(tag) if not args.remove else None
    if problem is not None:
        raise UsageError(f"papertui tag: {problem}")
    library.marks.set_tag([paper], tag, not args.remove)
    print(f"{'untagged' if args.remove else 'tagged'} {paper.id} {tag}: {paper.title}")
    return 0


def cmd_read(args: argparse.Namespace) -> int:
    library, paper = find_paper(args)
    library.marks.set_read([paper], not args.unread)
    print(f"marked {'unread' if args.unread else 'read'} {paper.id}  {paper.title}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from papertui.core.export import ExportError, ExportExists, export_to, render

    library = open_library(args.corpus)
    papers = None
    if args.query is not None or args.tag is not None:
        query = " ".join(
            part for part in (args.query or "", f"tag:{args.tag}" if args.tag else "") if part
        )
        unknown = parse_query(query).unknown
        if unknown:  # exporting the whole library instead would write what was not asked for
            names = ", ".join(repr(u) for u in unknown)
            raise UsageError(f"papertui export: unknown filter {names} (known: {KNOWN_FILTERS})")
        if args.query:
            library.indexing.ensure()
        view = library.run_query(query, depth=None)
        for note in view.remarks:
            print(f"papertui: {note}", file=sys.stderr)
        papers = [library.papers[i] for i in view.indices]
    entries = library.entries(papers)
    fmt = args.format or _format_of(args.output)
    if fmt == "notes":
        return _export_notes(args.output, entries)
    if not args.output:
        sys.stdout.write(render(entries, fmt))
        return 0
    try:
        target = export_to(args.output, entries, fmt, overwrite=args.force)
    except ExportExists as exc:
        raise UsageError(
            f"papertui export: {exc.path} exists; add --force to overwrite it"
        ) from exc
    except ExportError as exc:
        raise UsageError(f"papertui export: {exc}") from exc
    print(f"exported {counted(len(entries), 'paper')} to {target}", file=sys.stderr)
    return 0


def _export_notes(folder: str | None, entries: list) -> int:  # type: ignore[type-arg]
    """A notes vault: one Markdown file per paper in FOLDER, updated in place when exported
    again (the user's own text kept)."""
    from papertui.core.export.notes_vault import NotesError, export_notes

    if not folder:
        raise UsageError("papertui export: --format notes writes a folder: give it with -o FOLDER")
    try:
        report = export_notes(folder, entries)
    except NotesError as exc:
        raise UsageError(f"papertui export: {exc}") from exc
    print(
        f"exported {counted(len(entries), 'paper')} to {report.folder} ({report.created} new, "
        f"{report.updated} updated, {report.unchanged} unchanged)",
        file=sys.stderr,
    )
    return 0


def _format_of(output: str | None) -> str:
    """The export format a file name asks for by its extension (markdown when it says none)."""
    from papertui.core.export import BY_EXTENSION

    return BY_EXTENSION.get(os.path.splitext(output or "")[1].lower(), "markdown")
