"""A conference's paper list from Paper Copilot's paperlists: `GET {papercopilot}/{conf}/
{conf}{year}.json`, a JSON array of flat records whose fields vary by file (read defensively).
Rejected and withdrawn papers are left out unless `--all`, as the project's own tools do."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from papertui.core.corpus.formats.fields import split_authors
from papertui.fetch.client import FetchFailed, host_of
from papertui.fetch.context import Context, Page, Record, json_body
from papertui.fetch.specs import Spec

LEFT_OUT = ("reject", "withdraw", "desk reject", "desk rejected", "withdrawn", "rejected")
NAMES = {
    "nips": "NeurIPS",
    "iclr": "ICLR",
    "icml": "ICML",
    "cvpr": "CVPR",
    "iccv": "ICCV",
    "eccv": "ECCV",
    "aaai": "AAAI",
    "ijcai": "IJCAI",
    "acl": "ACL",
    "emnlp": "EMNLP",
    "naacl": "NAACL",
    "colm": "COLM",
    "corl": "CoRL",
    "aistats": "AISTATS",
    "uai": "UAI",
    "wacv": "WACV",
    "kdd": "KDD",
    "www": "WWW",
    "siggraph": "SIGGRAPH",
}


def fetch(spec: Spec, ctx: Context) -> Iterator[Page]:
    match = re.fullmatch(r"([a-z][a-z0-9]*?)(\d{4})", spec.arg)
    assert match is not None  # checked by parse_spec
    conf, year = match.group(1), match.group(2)
    key = f"venue-{conf}{year}"
    url = f"{ctx.base}/{conf}/{conf}{year}.json"
    ctx.status("list")
    try:
        answer = ctx.client.get(url, conditional=True)
    except FetchFailed as exc:
        if exc.status == 404:
            raise FetchFailed(
                f"{host_of(url)} has no list {conf}/{conf}{year}.json (404): "
                "Paper Copilot names lists as nips2025, iclr2025, icml2024"
            ) from None
        raise
    if answer.status == 304:
        yield Page(key, note="unchanged since the last fetch")
        return
    items = json_body(answer)
    if isinstance(items, dict):  # some lists wrap the array
        items = next((v for v in items.values() if isinstance(v, list)), [])
    if not isinstance(items, list):
        raise FetchFailed(f"{host_of(url)} sent no list of papers for {conf}{year}")
    venue = f"{NAMES.get(conf, conf.upper())} {year}"
    records: list[Record] = []
    left: dict[str, int] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        status = str(item.get("status") or "").strip()
        if status.lower() in LEFT_OUT and not ctx.options.all:
            left[status] = left.get(status, 0) + 1
            continue
        found = record(item, venue, int(year))
        if found is not None:
            records.append(found)
    note = ""
    if left:
        counts = ", ".join(f"{name} {n}" for name, n in sorted(left.items()))
        note = f"left out {counts} (--all keeps them)"
    yield Page(key, records, note=note)


def record(item: dict[str, Any], venue: str, year: int) -> Record | None:
    abstract = str(item.get("abstract") or "").strip()
    if not abstract:
        return None
    authors = item.get("author") or item.get("authors") or ""
    if isinstance(authors, str) and ";" in authors:
        names = [a.strip() for a in authors.split(";") if a.strip()]
    else:
        names = list(split_authors(authors))
    out: Record = {
        "title": " ".join(str(item.get("title") or "").split()),
        "abstract": abstract,
        "authors": names,
        "venue": venue,
        "year": year,
        "url": str(item.get("site") or item.get("url") or ""),
        "status": str(item.get("status") or "").strip(),
        "track": str(item.get("track") or "").strip(),
        "source": "venue",
    }
    rating = item.get("rating_avg", item.get("rating"))
    if rating not in (None, "", []):
        out["rating_avg"] = rating
    for name in ("github", "project"):
        link = str(item.get(name) or "")
        if link.startswith(("http://", "https://")):
            out.setdefault("urls", [out["url"]] if out["url"] else []).append(link)
    return {k: v for k, v in out.items() if v not in ("", None)}
