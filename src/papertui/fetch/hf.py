"""Hugging Face Daily Papers: `GET {hf}/api/daily_papers?date=|week=|month=`, paged with `p` and
`limit` until a short page. A day, week or month that was over when it was fetched is complete:
it is never asked for again."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from papertui.fetch.client import FetchFailed, path_of
from papertui.fetch.context import Context, Page, Record, json_body
from papertui.fetch.specs import Spec, hf_period, period_end

LIMIT = 50  # the official client's page size
MAX_PAGES = 100
PUBLIC = "https://huggingface.co"  # links point at the public pages, whatever served the list


def periods(spec: Spec, now: dt.datetime) -> list[tuple[str, str]]:
    """The (kind, value) periods `spec` asks for: `hf` alone is today and yesterday (early in
    the day today's list is short; yesterday's is complete after one fetch)."""
    kind, value = hf_period(spec.arg)
    if value:
        return [(kind, value)]
    today = now.date()
    return [("date", (today - dt.timedelta(days=1)).isoformat()), ("date", today.isoformat())]


def fetch(spec: Spec, ctx: Context) -> Iterator[Page]:
    for kind, value in periods(spec, ctx.now):
        key = f"hf-{value}"
        if f"hf/{key}" in ctx.state.complete:
            yield Page(key, note=f"{value}: complete since the last fetch (not asked again)")
            continue
        yield from _period(kind, value, key, ctx)


def _period(kind: str, value: str, key: str, ctx: Context) -> Iterator[Page]:
    url = ctx.base + "/api/daily_papers"
    count = 0
    for page in range(MAX_PAGES):
        ctx.status(f"{value} page {page + 1}")
        answer = ctx.client.get(
            url, {kind: value, "p": page, "limit": LIMIT}, conditional=page == 0
        )
        if answer.status == 304:
            yield Page(key, note=f"{value}: unchanged since the last fetch")
            break
        items = json_body(answer)
        if not isinstance(items, list):
            found = type(items).__name__
            raise FetchFailed(f"{path_of(answer.url)}: expected a list of papers, got a {found}")
        records = [r for r in (record(item, value) for item in items) if r is not None]
        count += len(records)
        note = ""
        if page == 0 and not items:
            note = f"{value}: no papers listed (yet)"
        yield Page(key, records, note=note)
        if len(items) < LIMIT:
            break
    # a period is complete once it is over and was listed (an empty day may be filled later)
    over = ctx.now >= period_end(kind, value)
    yield Page(key, complete=over and count > 0)


def record(item: Any, listed: str) -> Record | None:
    """One listing as a dump record; None when it has no abstract."""
    if not isinstance(item, dict):
        return None
    inner = item.get("paper")
    paper: dict[str, Any] = inner if isinstance(inner, dict) else {}
    abstract = str(paper.get("summary") or item.get("summary") or "").strip()
    if not abstract:
        return None
    arxiv = str(paper.get("id") or "").strip()
    published = str(paper.get("publishedAt") or "")
    page = f"{PUBLIC}/papers/{arxiv}" if arxiv else ""
    links = [
        page,
        f"https://arxiv.org/abs/{arxiv}" if arxiv else "",
        str(paper.get("githubRepo") or ""),
        str(paper.get("projectPage") or ""),
    ]
    names = paper.get("authors")
    authors: list[Any] = names if isinstance(names, list) else []
    upvotes = paper.get("upvotes")
    return {
        "title": str(paper.get("title") or item.get("title") or "").strip(),
        "abstract": abstract,
        "authors": [str(a.get("name")) for a in authors if isinstance(a, dict) and a.get("name")],
        "arxiv_id": arxiv,
        "url": page,
        "urls": [u for u in links if u.startswith(("http://", "https://"))],
        "year": published[:4] or None,
        "published": published[:10],
        "upvotes": upvotes if isinstance(upvotes, int) else None,
        "listed": str(item.get("publishedAt") or paper.get("submittedOnDailyAt") or listed)[:10],
        "source": "hf",
    }
