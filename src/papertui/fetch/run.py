"""Fetching a list of sources: each in turn, each page written to its dump as it is kept, one
line per failure, the others still fetched. What a source sent before it failed is kept; the
validators and complete periods of a source are remembered only when it succeeded."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import httpx

from papertui.fetch import arxiv_feed, arxiv_query, hf, openreview, papercopilot
from papertui.fetch.client import FetchCancelled, FetchFailed, PoliteClient
from papertui.fetch.config import FetchConfig, base_url
from papertui.fetch.context import Context, FetchOptions, Page, Record
from papertui.fetch.dumps import dump_path, finish, save_dump
from papertui.fetch.specs import Spec
from papertui.fetch.state import FetchState, KnownPapers

MODULES: dict[str, ModuleType] = {
    "hf": hf,
    "arxiv": arxiv_feed,
    "arxiv-query": arxiv_query,
    "venue": papercopilot,
    "openreview": openreview,
}
# (source as typed, papers so far, what it is doing: "page 2") while fetching
Progress = Callable[[str, int, str], None]


@dataclass
class Outcome:
    """What one source gave this run."""

    spec: Spec
    records: list[Record] = field(default_factory=list)  # this run's, with papertui ids
    new: set[str] = field(default_factory=set)  # ids of those never fetched before
    dumps: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    failure: str | None = None
    requests: int = 0


def fetch_sources(
    specs: Sequence[Spec],
    options: FetchOptions,
    *,
    progress: Progress | None = None,
    done: Callable[[Outcome], object] | None = None,
    cancelled: Callable[[], bool] | None = None,
    now: dt.datetime | None = None,
    transport: httpx.BaseTransport | None = None,
) -> list[Outcome]:
    """Fetch every source, calling `done` with each one's outcome as it ends. Raises
    `ConfigError` (a bad environment variable) before any request, and `FetchCancelled` when
    `cancelled` says so (what arrived is kept)."""
    config = FetchConfig.from_env()
    bases = {spec.source: base_url(spec.source) for spec in specs}
    state = FetchState.load()
    known = KnownPapers()
    client = PoliteClient(config, state.validators, cancelled, transport)
    when = now or dt.datetime.now(dt.UTC)
    outcomes: list[Outcome] = []
    try:
        for spec in specs:
            outcome = Outcome(spec, notes=list(state.problems))
            state.problems = []
            outcomes.append(outcome)
            ctx = Context(client, options, state, when, bases[spec.source])
            _fetch_one(outcome, ctx, known, progress)
            if done is not None:
                done(outcome)
    finally:
        client.close()
        try:
            known.save()
            state.save()
        except OSError as exc:  # only what makes the next fetch shorter is lost
            if outcomes:
                outcomes[-1].notes.append(
                    f"could not remember this fetch in {exc.filename}: {exc.strerror or exc}"
                )
    return outcomes


def _fetch_one(
    outcome: Outcome, ctx: Context, known: KnownPapers, progress: Progress | None
) -> None:
    spec = outcome.spec
    client = ctx.client
    before = client.requests
    said = [""]

    def status(text: str) -> None:
        said[0] = text
        if progress is not None:
            progress(spec.text, len(outcome.records), text)

    ctx.status = status
    got: dict[str, list[Record]] = {}
    complete: list[str] = []
    pending = set(client.pending)
    try:
        for page in _pages(spec, ctx):
            for record in page.records:
                if finish(record, known, ctx.stamp):
                    outcome.new.add(record["id"])
            got.setdefault(page.key, []).extend(page.records)
            outcome.records.extend(page.records)
            if page.note:
                outcome.notes.append(page.note)
            if page.complete:
                complete.append(page.key)
            status(said[0])
    except FetchFailed as exc:
        outcome.failure = str(exc)
    finally:
        for key, records in got.items():
            if records:
                try:
                    outcome.dumps.append(save_dump(spec.source, key, records))
                except OSError as exc:  # a full disk, a read-only data dir
                    where = exc.filename or dump_path(spec.source, key)
                    outcome.failure = f"cannot write {where}: {exc.strerror or exc}"
        outcome.requests = client.requests - before
    mine = [url for url in client.pending if url not in pending]
    if outcome.failure is None:
        client.commit(mine)
        for key in complete:
            ctx.state.complete[f"{spec.source}/{key}"] = ctx.stamp
    else:  # a later try asks again in full
        for url in mine:
            client.pending.pop(url, None)


def _pages(spec: Spec, ctx: Context) -> Iterator[Page]:
    module = MODULES[spec.source]
    pages: Iterator[Page] = module.fetch(spec, ctx)
    yield from pages


__all__ = ["FetchCancelled", "FetchOptions", "Outcome", "fetch_sources"]
