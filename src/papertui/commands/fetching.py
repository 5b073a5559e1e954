"""The morning loop's commands: fetch sources (or subscribe to them), and daily (fetch the
subscriptions, then read). Exit codes: 0 every source fetched, 2 bad input (nothing fetched),
3 a source failed (the others still ran; what it sent before failing is kept)."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from papertui.cli_args import UsageError
from papertui.commands.common import open_library, print_json
from papertui.core.system import paths
from papertui.core.system.settings import load_settings, remember_fetch_sources
from papertui.core.text import counted

if TYPE_CHECKING:  # httpx loads only when something is fetched
    from papertui.fetch.context import FetchOptions
    from papertui.fetch.run import Outcome
    from papertui.fetch.specs import Spec

SOURCE_FAILED = 3


def cmd_fetch(args: argparse.Namespace) -> int:
    if args.subscribe:
        _subscribe(args.subscribe)
        if not args.sources:
            return 0
    texts = args.sources or load_settings().fetch_sources
    if not texts:
        raise UsageError(
            "papertui fetch: name a source (papertui fetch hf arxiv:cs.LG), or subscribe to "
            "some (papertui fetch --subscribe hf); see papertui fetch --help"
        )
    specs = parse_specs(texts, "papertui fetch")
    outcomes = run_fetch(specs, options_of(args), quiet=args.json)
    if args.json:
        print_json(fetched_records(outcomes))
    return SOURCE_FAILED if any(o.failure for o in outcomes) else 0


def cmd_daily(args: argparse.Namespace) -> int:
    """Fetch the subscriptions, then open the reader on everything fetched, new papers first in
    the "for you" order."""
    status = 0
    if not args.no_fetch:
        texts = load_settings().fetch_sources
        if not texts:
            raise UsageError(
                "papertui daily: no subscriptions yet; add some with papertui fetch --subscribe "
                'hf (or [fetch] sources = ["hf", "arxiv:cs.LG"] in settings.toml)'
            )
        outcomes = run_fetch(parse_specs(texts, "papertui daily"), options_of(None), quiet=False)
        status = SOURCE_FAILED if any(o.failure for o in outcomes) else 0
    sources = [str(p) for p in paths.fetched_sources()]
    if not sources:
        raise UsageError("papertui daily: nothing fetched yet (see the lines above)")
    library = open_library(sources, deferred=True)
    from papertui.ui.app import make_app  # textual loads only when the reader starts

    make_app(library=library, sort="new").run()
    library.close()
    return status


def parse_specs(texts: Sequence[str], who: str) -> list[Spec]:
    """Every source checked before any request: all bad ones named, one line each."""
    from papertui.fetch.specs import SpecError, parse_spec

    specs: list[Spec] = []
    problems: list[str] = []
    for text in texts:
        try:
            specs.append(parse_spec(text))
        except SpecError as exc:
            problems.append(f"{who}: {exc}")
    if problems:
        raise UsageError("\n".join(problems))
    return list({s.text: s for s in specs}.values())  # each once


def options_of(args: argparse.Namespace | None) -> FetchOptions:
    from papertui.fetch.context import FetchOptions

    if args is None:
        return FetchOptions()
    if args.max < 1:
        raise UsageError("papertui fetch: --max must be at least 1")
    since = None
    if args.since:
        try:
            since = dt.date.fromisoformat(args.since)
        except ValueError:
            raise UsageError(
                f"papertui fetch: --since {args.since!r} is not a date (YYYY-MM-DD)"
            ) from None
    return FetchOptions(max=args.max, since=since, replacements=args.replacements, all=args.all)


def run_fetch(specs: Sequence[Spec], options: FetchOptions, quiet: bool) -> list[Outcome]:
    """Fetch with a progress line on a terminal (nothing on a pipe), a summary line per source
    (on stderr when stdout carries JSON) and one line per failure."""
    from papertui.fetch.client import FetchCancelled
    from papertui.fetch.config import ConfigError
    from papertui.fetch.run import fetch_sources

    out = sys.stderr if quiet else sys.stdout
    line = _ProgressLine()

    def done(outcome: Outcome) -> None:
        line.clear()
        _report(outcome, out)

    try:
        return fetch_sources(specs, options, progress=line.show, done=done)
    except ConfigError as exc:
        raise UsageError(f"papertui fetch: {exc}") from None
    except FetchCancelled:
        raise KeyboardInterrupt from None
    finally:
        line.clear()


def _report(outcome: Outcome, out: TextIO) -> None:
    got = len(outcome.records)
    parts = [f"{counted(got, 'paper')}, {len(outcome.new)} new"] if got else []
    parts += outcome.notes
    where = ""
    if outcome.dumps:
        shown = [str(p) for p in outcome.dumps]
        where = f"  -> {shown[0]}" + (f" (and {len(shown) - 1} more)" if len(shown) > 1 else "")
    if outcome.failure is None:
        print(f"{outcome.spec.text}: {'; '.join(parts) or 'nothing new'}{where}", file=out)
        return
    kept = f" (kept {counted(got, 'paper')} that arrived before{where})" if outcome.dumps else ""
    print(f"papertui fetch: {outcome.spec.text}: {outcome.failure}{kept}", file=sys.stderr)


def _subscribe(texts: Sequence[str]) -> None:
    """--subscribe SOURCE adds it to `[fetch] sources`; -SOURCE takes it out."""
    current = load_settings().fetch_sources
    wanted = list(current)
    adding = [t for t in texts if not t.startswith("-")]
    parse_specs(adding, "papertui fetch --subscribe")
    for text in texts:
        if text.startswith("-"):
            name = text[1:].strip()
            if name not in wanted:
                listed = ", ".join(wanted) or "none yet"
                raise UsageError(f"papertui fetch: not subscribed to {name!r} (you are: {listed})")
            wanted.remove(name)
        elif text.strip() not in wanted:
            wanted.append(text.strip())
    problem = remember_fetch_sources(wanted)
    if problem is not None:
        raise UsageError(f"papertui fetch: {problem}")
    print(f"subscriptions: {', '.join(wanted) or 'none'}", file=sys.stderr)


def fetched_records(outcomes: Sequence[Outcome]) -> list[dict[str, object]]:
    """This run's papers as `list --json` prints them, with the source they came from and
    whether they are new (never fetched before)."""
    dumps = sorted({str(p) for o in outcomes for p in o.dumps})
    if not dumps:
        return []
    library = open_library(dumps)
    library.indexing.complete_titles(matcher=False)
    where: dict[str, int] = {}
    for n, paper in enumerate(library.papers):
        where[paper.id] = n
        for alias in paper.meta.aliases:
            where.setdefault(alias, n)
    records: list[dict[str, object]] = []
    shown: set[int] = set()
    for outcome in outcomes:
        for fetched in outcome.records:
            n = where.get(str(fetched["id"]), -1)
            if n < 0 or n in shown:
                continue
            shown.add(n)
            record = library.record(library.papers[n])
            record["source"] = outcome.spec.text
            record["new"] = fetched["id"] in outcome.new
            records.append(record)
    library.close()
    return records


class _ProgressLine:
    """One line on stderr that says what is being fetched, only when stderr is a terminal
    (written past the CLI's sanitising wrapper, which would show its carriage return)."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty() and sys.__stderr__ is not None
        self.stream: TextIO = sys.__stderr__ if self.tty else sys.stderr  # type: ignore[assignment]
        self.shown = False

    def show(self, source: str, papers: int, doing: str) -> None:
        if not self.tty:
            return
        text = f"fetching {source}: {doing}" + (f", {counted(papers, 'paper')}" if papers else "")
        self.stream.write("\r\x1b[K" + text[:200])
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
