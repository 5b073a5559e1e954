"""arXiv's announcements per category: `GET {arxiv-rss}/rss/CATS` (RSS 2.0, categories joined
with +), refreshed once a day at midnight US Eastern and empty at weekends. `new` and `cross`
announcements are kept, `replace` ones with `--replacements`. Read with ElementTree, as papertui's
arXiv Atom reader is (feedparser was measured and left out: see docs/fetch.md)."""

from __future__ import annotations

import email.utils
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from papertui.fetch.context import Context, Page, Record, xml_body
from papertui.fetch.specs import Spec

_ARXIV = "{http://arxiv.org/schemas/atom}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_ID = re.compile(r"(?:oai:arXiv\.org:|arXiv:)?([\w.\-/]+?)(?:v\d+)?$", re.IGNORECASE)
_ABSTRACT = re.compile(r"^.*?Announce Type:\s*[\w-]+\s*(?:Abstract:\s*)?", re.DOTALL)
KEPT = ("new", "cross")
REPLACED = ("replace", "replace-cross")


def fetch(spec: Spec, ctx: Context) -> Iterator[Page]:
    cats = spec.arg
    ctx.status("feed")
    answer = ctx.client.get(f"{ctx.base}/rss/{cats}", conditional=True, spaced=True)
    if answer.status == 304:
        yield Page(f"arxiv-{cats}", note="unchanged since the last fetch")
        return
    root = xml_body(answer)
    channel = root.find("channel")
    if channel is None:
        channel = root
    day = _day(channel.findtext("pubDate") or channel.findtext("lastBuildDate") or "") or (
        ctx.now.date().isoformat()
    )
    wanted = KEPT + (REPLACED if ctx.options.replacements else ())
    records: list[Record] = []
    left_out = 0
    items = channel.findall("item")
    for item in items:
        kind = (item.findtext(f"{_ARXIV}announce_type") or "new").strip().lower()
        if kind not in wanted:
            left_out += 1
            continue
        found = record(item, day, kind)
        if found is not None:
            records.append(found)
    if not items:
        note = f"{day}: no announcements (arXiv announces none on Saturdays and Sundays)"
    elif left_out:
        note = f"{left_out} replaced papers left out (--replacements keeps them)"
    else:
        note = ""
    yield Page(f"arxiv-{cats}-{day}", records, note=note)


def record(item: ET.Element, day: str, kind: str) -> Record | None:
    """One announcement as a dump record; None when it has no abstract."""
    description = item.findtext("description") or ""
    abstract = _ABSTRACT.sub("", description, count=1).strip()
    if not abstract:
        return None
    guid = (item.findtext("guid") or "").strip()
    match = _ID.match(guid) if guid else None
    link = (item.findtext("link") or "").strip()
    arxiv = match.group(1) if match else link.rpartition("/abs/")[2]
    creators = item.findtext(f"{_DC}creator") or ""
    authors = [a.strip() for a in re.split(r",\s*|\s+and\s+", creators) if a.strip()]
    categories = [c.text.strip() for c in item.findall("category") if c.text and c.text.strip()]
    out: Record = {
        "title": (item.findtext("title") or "").strip(),
        "abstract": abstract,
        "authors": authors,
        "arxiv_id": arxiv,
        "url": link or (f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
        "categories": categories,
        "listed": day,
        "year": day[:4],
        "venue": "arXiv",
        "announce_type": kind,
        "source": "arxiv",
    }
    doi = item.findtext(f"{_ARXIV}DOI")
    if doi:
        out["doi"] = doi.strip()
    return out


def _day(text: str) -> str:
    """ "Mon, 08 Sep 2025 00:00:00 -0400" -> "2025-09-08" (the announcement's own day)."""
    try:
        return email.utils.parsedate_to_datetime(text.strip()).date().isoformat()
    except (TypeError, ValueError, IndexError):
        return ""
