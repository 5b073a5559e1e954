"""A venue's accepted papers from OpenReview API v2: `GET {openreview}/notes?content.venueid=...
&limit=1000&offset=...`. Anonymous calls are answered 403 (ChallengeRequiredError), so papertui
logs in with `OPENREVIEW_USERNAME` / `OPENREVIEW_PASSWORD` (`POST /login`) or sends
`OPENREVIEW_TOKEN`, and says exactly that when neither is set."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from papertui.fetch.client import FetchFailed, PoliteClient, host_of
from papertui.fetch.context import Context, Page, Record, json_body
from papertui.fetch.specs import Spec, slug

LIMIT = 1000
MAX_PAGES = 50
NEEDS_LOGIN = (
    "OpenReview answers anonymous calls with 403: set OPENREVIEW_USERNAME and "
    "OPENREVIEW_PASSWORD (or OPENREVIEW_TOKEN) in the environment"
)
_STATUS = re.compile(r"\b(oral|spotlight|poster|highlight|findings)\b", re.IGNORECASE)


def token(client: PoliteClient, base: str) -> str:
    """A bearer token: `OPENREVIEW_TOKEN`, else one from logging in."""
    given = os.environ.get("OPENREVIEW_TOKEN", "").strip()
    if given:
        return given
    user = os.environ.get("OPENREVIEW_USERNAME", "").strip()
    password = os.environ.get("OPENREVIEW_PASSWORD", "")
    if not user or not password:
        raise FetchFailed(NEEDS_LOGIN)
    try:
        answer = client.post_json(base + "/login", {"id": user, "password": password})
    except FetchFailed as exc:
        if exc.status in (400, 401, 403, 404):
            raise FetchFailed(
                f"OpenReview refused the login of {user} ({exc.status}): check "
                "OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD"
            ) from None
        raise
    found = json_body(answer)
    value = found.get("token") if isinstance(found, dict) else None
    if not isinstance(value, str) or not value:
        raise FetchFailed(f"{host_of(base)} answered the login without a token")
    return value


def fetch(spec: Spec, ctx: Context) -> Iterator[Page]:
    key = "openreview-" + slug(spec.arg)
    headers = {"Authorization": f"Bearer {token(ctx.client, ctx.base)}"}
    for page in range(MAX_PAGES):
        ctx.status(f"page {page + 1}")
        params = {"content.venueid": spec.arg, "limit": LIMIT, "offset": page * LIMIT}
        try:
            answer = ctx.client.get(ctx.base + "/notes", params, headers=headers)
        except FetchFailed as exc:
            if exc.status == 403:
                raise FetchFailed(
                    f"{host_of(ctx.base)} refused the token (403): log in again, or check "
                    "OPENREVIEW_TOKEN"
                ) from None
            raise
        found = json_body(answer)
        notes = found.get("notes") if isinstance(found, dict) else None
        if not isinstance(notes, list):
            raise FetchFailed(f"{host_of(ctx.base)} sent no notes for {spec.arg}")
        records = [r for r in (record(n, spec.arg) for n in notes) if r is not None]
        note = f"no accepted papers under {spec.arg}" if page == 0 and not notes else ""
        yield Page(key, records, note=note)
        if len(notes) < LIMIT:
            break


def _value(content: dict[str, Any], name: str) -> Any:
    field = content.get(name)
    return field.get("value") if isinstance(field, dict) else field


def record(note: Any, venue_id: str) -> Record | None:
    if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
        return None
    content = note["content"]
    abstract = str(_value(content, "abstract") or "").strip()
    if not abstract:
        return None
    venue = " ".join(str(_value(content, "venue") or "").split())
    status = _STATUS.search(venue)
    forum = str(note.get("forum") or note.get("id") or "")
    authors = _value(content, "authors")
    year = re.search(r"/(\d{4})/", venue_id)
    track = venue_id.rsplit("/", 1)[-1]
    out: Record = {
        "title": " ".join(str(_value(content, "title") or "").split()),
        "abstract": abstract,
        "authors": [str(a) for a in authors] if isinstance(authors, list) else [],
        "venue": _STATUS.sub("", venue).strip() if status else venue,
        "year": int(year.group(1)) if year else None,
        "url": f"https://openreview.net/forum?id={forum}" if forum else "",
        "status": status.group(1).capitalize() if status else "",
        "track": "main" if track == "Conference" else track.replace("_", " "),
        "source": "openreview",
    }
    return {k: v for k, v in out.items() if v not in ("", None)}
