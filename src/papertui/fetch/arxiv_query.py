"""arXiv's search API: `GET {arxiv-api}/api/query?search_query=...&start=&max_results=
&sortBy=submittedDate&sortOrder=descending`, an Atom feed read by papertui's own arXiv reader.
Newest first, 100 a page, up to `--max`; `--since DATE` stops at older submissions. A page of
papers the dump already holds ends the paging: the next run asks only for what is new. Empty
pages happen (arXiv's own client retries them): retried three times, then a failure."""

from __future__ import annotations

import re
from collections.abc import Iterator

from papertui.core.corpus.formats.base import CorpusError
from papertui.core.corpus.formats.structured import atom_items
from papertui.fetch.client import FetchFailed, host_of
from papertui.fetch.context import Context, Page, Record, xml_body
from papertui.fetch.dumps import dump_path, read_dump
from papertui.fetch.specs import Spec, slug

PAGE = 100
EMPTY_RETRIES = 3
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_VERSION = re.compile(r"v\d+$")


def fetch(spec: Spec, ctx: Context) -> Iterator[Page]:
    key = "arxiv-query-" + slug(spec.arg)
    since = ctx.options.since
    query = spec.arg
    if since is not None:  # the API filters too: fewer pages to ask for
        query = f"({query}) AND submittedDate:[{since:%Y%m%d}0000 TO 299912312359]"
    had = {str(r.get("arxiv_id")) for r in read_dump(dump_path("arxiv-query", key))}
    want = ctx.options.max
    start = 0
    while start < want:
        size = min(PAGE, want - start)
        params = {
            "search_query": query,
            "start": start,
            "max_results": size,
            "sortBy": "submittedDate",
            "sortOrder": "descending",
        }
        items, total = _page(ctx, params, start)
        records = [r for r in (record(item) for item in items) if r is not None]
        older = [r for r in records if since is not None and r["published"] < since.isoformat()]
        records = [r for r in records if r not in older]
        yield Page(key, records, total=min(total, want))
        start += len(items)
        ctx.status(f"{min(start, total)} of {min(total, want)}")
        if older or len(items) < size or start >= total:
            break
        if had and all(r["arxiv_id"] in had for r in records):
            break  # reached what the last run fetched


def _page(ctx: Context, params: dict[str, object], start: int) -> tuple[list[Record], int]:
    """One page's entries and the total the API reports; an empty page while the total says
    there are more is asked for again."""
    url = ctx.base + "/api/query"
    for _attempt in range(EMPTY_RETRIES + 1):
        answer = ctx.client.get(url, params, spaced=True)
        root = xml_body(answer)
        total_text = root.findtext(f"{_OPENSEARCH}totalResults") or "0"
        total = int(total_text) if total_text.strip().isdigit() else 0
        try:
            items, _name = atom_items(answer.url, answer.body)
        except CorpusError as exc:
            raise FetchFailed(f"{host_of(answer.url)} sent {exc.problem}") from None
        error = next((i for i in items if "/api/errors" in str(i.get("url", ""))), None)
        if error is not None:  # arXiv reports a bad query as an entry
            raise FetchFailed(f"arXiv refused the query: {error.get('abstract', '').strip()}")
        if items or start >= total:
            return items, total
    raise FetchFailed(
        f"{host_of(url)} sent empty pages at {start} of {total} (after {EMPTY_RETRIES} retries)"
    )


def record(item: Record) -> Record | None:
    abstract = str(item.get("abstract") or "").strip()
    if not abstract:
        return None
    arxiv = str(item.get("arxiv_id") or "")
    base = _VERSION.sub("", arxiv)
    published = str(item.get("published") or "")[:10]
    return {
        "title": " ".join(str(item.get("title") or "").split()),
        "abstract": abstract,
        "authors": item.get("authors") or [],
        "arxiv_id": base,
        "url": f"https://arxiv.org/abs/{base}" if base else str(item.get("url") or ""),
        "categories": item.get("categories") or [],
        "published": published,
        "year": published[:4] or None,
        "venue": "arXiv",
        "source": "arxiv-query",
    }
