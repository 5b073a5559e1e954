"""The commands of related papers, topics and "for you": semantic, overview, rank, like,
skip and feedback."""

from __future__ import annotations

import argparse
import json
import os
import sys

from papertui.cli_args import UsageError
from papertui.commands.common import (
    ensure_semantic,
    find_paper,
    limit_of,
    open_library,
    print_json,
)
from papertui.core.system.lifeline import end_with_parent
from papertui.core.text import counted


def cmd_semantic(args: argparse.Namespace) -> int:
    from papertui.core.semantic.child import one_blas_thread_env

    one_blas_thread_env()  # before numpy loads
    if args.progress_json:  # the reader's child: it ends with the reader, however that ends
        end_with_parent()
    library = open_library(args.corpus, args.input_format)
    ensure_semantic(library, args.progress_json)
    topics = library.semantic.cache().topics
    summary = (
        f"vectors and {len(topics.topics) if topics else 0} topics for {len(library.papers)} papers"
    )
    print(json.dumps({"summary": summary}) if args.progress_json else summary, flush=True)
    return 0


def cmd_overview(args: argparse.Namespace) -> int:
    library = open_library(args.corpus, args.input_format)
    library.indexing.complete_titles()
    if args.query:
        library.indexing.ensure()
    ensure_semantic(library)
    indices = (
        library.run_query(args.query, depth=None).indices
        if args.query
        else list(range(len(library.papers)))
    )
    overview = library.semantic.overview(indices)
    from papertui.core.semantic.overview import to_json

    data = to_json(overview, ids_per_topic=None if args.json else 0)
    if args.json:
        print_json(data)
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


def cmd_rank(args: argparse.Namespace) -> int:
    limit = limit_of(args)
    library = open_library(args.corpus, args.input_format)
    library.indexing.complete_titles(matcher=False)
    ensure_semantic(library)
    view = library.foryou.rank(limit)
    for note in view.remarks:
        print(f"papertui: {note}", file=sys.stderr)
    papers = library.papers
    records = []
    for i in view.indices:
        record = library.record(papers[i], view.scores.get(i, 0.0))
        record["why"] = view.why.get(i, "")
        records.append(record)
    if args.json:
        print_json(records)
        return 0
    for r in records:
        why = f"  ({r['why']})" if r["why"] else ""
        print(f"{r['id']}  {float(r['score']):7.3f}  {r['title']}{why}")  # type: ignore[arg-type]
    return 0


def cmd_like(args: argparse.Namespace) -> int:
    # ids are hex: anything with a dot or a slash is a file the reader meant
    if not args.remove and not os.path.isfile(args.id) and ("." in args.id or os.sep in args.id):
        raise UsageError(f"papertui like: {args.id}: no such file")
    if os.path.isfile(args.id) and not args.remove:
        library = open_library(args.corpus, args.input_format)
        problems: list[str] = []
        try:
            count = library.foryou.add_seeds(args.id, problems)
        except ValueError as exc:
            raise UsageError(f"papertui like: {exc}") from exc
        for problem in problems:  # the entries left out, as `list` reports them
            print(f"papertui: {problem}", file=sys.stderr)
        print(f"liked {counted(count, 'paper')} from {args.id}")
        return 0
    library, paper = find_paper(args)
    (library.marks.unjudge if args.remove else library.marks.like)([paper])
    print(f"{'forgot like on' if args.remove else 'liked'} {paper.id}  {paper.title}")
    return 0


def cmd_skip(args: argparse.Namespace) -> int:
    library, paper = find_paper(args)
    (library.marks.unjudge if args.remove else library.marks.skip)([paper])
    print(f"{'forgot skip on' if args.remove else 'skipped'} {paper.id}  {paper.title}")
    return 0


def cmd_feedback(args: argparse.Namespace) -> int:
    if not args.reset:
        raise UsageError("papertui feedback: say --reset to forget every like, skip and seed")
    library = open_library(args.corpus, args.input_format)
    library.marks.reset_feedback()
    print("forgot every like, skip and seed file")
    return 0
