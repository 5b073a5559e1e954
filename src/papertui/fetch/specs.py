"""What a user names as a source (`hf:2025-09-08`, `arxiv:cs.LG+cs.CV`, `venue:iclr2025`, ...):
read and checked before any request, so a typo costs no network call and says what is expected."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

SOURCES = ("hf", "arxiv", "arxiv-query", "venue", "openreview")
EXAMPLES = (
    "hf, hf:2025-09-08, hf:2025-W36, hf:2025-09, arxiv:cs.LG+cs.CV, arxiv-query:'ti:diffusion', "
    "venue:iclr2025, openreview:NeurIPS.cc/2025/Conference"
)
_CATEGORY = re.compile(r"[a-z][a-z-]*(\.[A-Za-z][A-Za-z-]*)?")
_VENUE = re.compile(r"([a-z][a-z0-9]*?)(\d{4})")
_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_MONTH = re.compile(r"(\d{4})-(\d{2})")


class SpecError(ValueError):
    """A source named wrongly: one line, with what was expected."""


@dataclass(frozen=True, slots=True)
class Spec:
    source: str  # one of SOURCES
    arg: str  # "2025-09-08", "cs.LG+cs.CV", the query, "iclr2025", the venue id; "" for `hf`
    text: str  # as the user wrote it (messages, subscriptions)


def parse_spec(text: str) -> Spec:
    raw = text.strip()
    source, colon, arg = raw.partition(":")
    source = source.lower()
    if source not in SOURCES:
        raise SpecError(f"unknown source {raw!r}; sources look like: {EXAMPLES}")
    arg = arg.strip()
    if not arg and (colon or source != "hf"):
        raise SpecError(f"{raw!r} names nothing after the colon; for example: {EXAMPLES}")
    if source == "hf":
        hf_period(arg, raw)
    elif source == "arxiv":
        cats = arg.split("+")
        bad = [c for c in cats if not _CATEGORY.fullmatch(c)]
        if bad:
            raise SpecError(
                f"{raw!r}: {bad[0]!r} is not an arXiv category (cs.LG, math.AG, hep-th; "
                "join several with +)"
            )
    elif source == "venue":
        if not _VENUE.fullmatch(arg.lower()):
            raise SpecError(
                f"{raw!r}: a venue is a conference and a year, as Paper Copilot names its lists "
                "(nips2025, iclr2025, icml2024, cvpr2025)"
            )
        arg = arg.lower()
    elif source == "openreview" and ("/" not in arg or " " in arg):
        raise SpecError(f"{raw!r}: an OpenReview venue id looks like NeurIPS.cc/2025/Conference")
    return Spec(source, arg, raw)


def hf_period(arg: str, raw: str = "") -> tuple[str, str]:
    """The Daily Papers API parameter for `arg`: ("date", "2025-09-08"), ("week", "2025-W36"),
    ("month", "2025-09"); ("date", "") for today."""
    if arg in ("", "today"):
        return "date", ""
    try:
        if len(arg) == 10:
            return "date", dt.date.fromisoformat(arg).isoformat()
        if m := _WEEK.fullmatch(arg):
            dt.date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
            return "week", arg
        if (m := _MONTH.fullmatch(arg)) and 1 <= int(m.group(2)) <= 12:
            return "month", arg
    except ValueError:
        pass
    raise SpecError(
        f"{raw or arg!r}: Daily Papers are fetched by day (hf:2025-09-08), ISO week "
        "(hf:2025-W36) or month (hf:2025-09); hf alone is today and yesterday"
    )


def period_end(kind: str, value: str) -> dt.datetime:
    """When a day, ISO week or month ends (UTC): after it, its list is complete."""
    if kind == "date":
        start = dt.date.fromisoformat(value)
        end = start + dt.timedelta(days=1)
    elif kind == "week":
        year, week = int(value[:4]), int(value[6:])
        end = dt.date.fromisocalendar(year, week, 7) + dt.timedelta(days=1)
    else:
        year, month = int(value[:4]), int(value[5:])
        end = dt.date(year + month // 12, month % 12 + 1, 1)
    return dt.datetime(end.year, end.month, end.day, tzinfo=dt.UTC)


def slug(text: str) -> str:
    """A file-name-safe form of a source's argument ("NeurIPS.cc/2025/Conference" ->
    "NeurIPS.cc_2025_Conference")."""
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", text).strip("_.")[:80] or "query"
