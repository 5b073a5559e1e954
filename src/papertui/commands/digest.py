"""`papertui digest`: the papers fetched since the last digest (or a date), best first for you,
as Markdown or JSON: for cron, or an email to oneself. It remembers when it last ran."""

from __future__ import annotations

import argparse
import datetime as dt
import sys

from papertui.cli_args import UsageError
from papertui.commands.common import ensure_semantic, limit_of, open_library, print_json
from papertui.core.system import paths
from papertui.core.text import counted

ABSTRACT_CHARS = 700  # a digest is skimmed: the rest is one link away


def cmd_digest(args: argparse.Namespace) -> int:
    from papertui.fetch.state import FetchState  # no HTTP: the state file only

    limit = limit_of(args)
    state = FetchState.load()
    since = _since(args.since, state.last_digest)
    dumps = [str(p) for p in paths.fetched_sources()]
    if not dumps:
        raise UsageError("papertui digest: nothing fetched yet (papertui fetch hf, or daily)")
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    library = open_library(dumps)
    library.indexing.complete_titles(matcher=False)
    papers = library.papers
    fresh = {i for i, p in enumerate(papers) if p._meta and p.meta.fetched > since}
    records: list[dict[str, object]] = []
    if fresh:
        ensure_semantic(library)
        view = library.run_query("", depth=None, sort="upvotes")  # without a model: most upvoted
        library.foryou.order(view, library.annotations())
        for i in [i for i in view.indices if i in fresh][:limit]:
            record = library.record(papers[i], view.scores.get(i))
            record["why"] = view.why.get(i, "")
            records.append(record)
    library.close()
    if args.format == "json":
        print_json(records)
    else:
        sys.stdout.write(markdown(records, len(fresh), since, now))
    state.last_digest = now
    state.save()
    return 0


def _since(text: str, last: str) -> str:
    """The ISO time papers must have been first fetched after: the last digest's, or DATE's
    start ("" for everything when no digest ran yet)."""
    if text == "last":
        return last
    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise UsageError(
            f"papertui digest: --since {text!r} is neither 'last' nor a date (YYYY-MM-DD)"
        ) from None


def markdown(records: list[dict[str, object]], total: int, since: str, now: str) -> str:
    when = f"since {shown_time(since)}" if since else "so far"
    head = f"# papertui digest, {now[:10]}\n\n{counted(total, 'paper')} fetched {when}"
    if not records:
        return head + ".\n"
    shown = f"; the best {len(records)} for you first" if len(records) < total else ", best first"
    lines = [head + shown + ".", ""]
    for n, r in enumerate(records, 1):
        lines.append(f"## {n}. {_one_line(r['title'])}")
        facts = [", ".join(str(a) for a in _items(r.get("authors")))]
        venue, year = str(r.get("venue") or ""), str(r.get("year") or "")
        facts.append(venue if year in venue else f"{venue} {year}".strip())
        if r.get("categories"):
            facts.append(" ".join(str(c) for c in _items(r["categories"])))
        if r.get("upvotes") is not None:
            facts.append(f"{r['upvotes']} upvotes")
        if r.get("status"):
            facts.append(str(r["status"]))
        lines.append(" · ".join(f for f in facts if f))
        lines.append("")
        abstract = str(r["abstract"])
        if len(abstract) > ABSTRACT_CHARS:
            abstract = abstract[:ABSTRACT_CHARS].rsplit(" ", 1)[0] + " …"
        lines.append(abstract)
        links = [str(u) for u in _items(r.get("urls"))][:2]
        if links:
            lines += ["", " · ".join(links)]
        if r.get("why"):
            lines += ["", f"*for you: {r['why']}*"]
        lines.append("")
    return "\n".join(lines)


def shown_time(stamp: str) -> str:
    """A stored time as a reader reads it: "2025-09-08 07:00:01 UTC" (kept to the microsecond,
    to compare with the fetch times; shown to the second), a date as it is."""
    try:
        when = dt.datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if "T" not in stamp and " " not in stamp:
        return stamp
    zone = "UTC" if when.utcoffset() == dt.timedelta(0) else when.strftime("%z")
    return f"{when:%Y-%m-%d %H:%M:%S} {zone}".rstrip()


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _items(value: object) -> list[object]:
    """A record's list field (authors, urls, categories), or none."""
    return list(value) if isinstance(value, (list, tuple)) else []
