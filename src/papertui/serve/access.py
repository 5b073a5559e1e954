"""Nobody without the token gets in: every request (the page, its assets, the websocket that
starts a reader) must carry it, as Jupyter's server asks. It is given once in the address
(`?token=...`), then kept in a cookie; scripts may send `Authorization: token ...` instead.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from urllib.parse import urlencode, urlsplit

from aiohttp import web

from papertui.serve.options import is_loopback

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

FORBIDDEN = (
    "403: this papertui needs its token. Open the address `papertui serve` printed "
    "(it ends in ?token=...).\n"
)
CROSS_SITE = "403: a page of another site may not open papertui's reader.\n"


def cookie_name(port: int) -> str:
    """One cookie per port: two servers on one machine must not overwrite each other's."""
    return f"papertui-token-{port}"


def same_token(given: str | None, token: str) -> bool:
    """Compared in constant time, so the answer's timing says nothing about the token."""
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


def _header_token(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() in ("token", "bearer") else None


def origin_allowed(request: web.Request, public_url: str | None) -> bool:
    """A websocket may come only from papertui's own page: its Origin is the address the page
    was loaded from (`Host`), or the public one behind a proxy. Without an Origin (not a
    browser) the token alone decides."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc.lower()
    if netloc == request.host.lower():
        return True
    return bool(public_url) and netloc == urlsplit(public_url or "").netloc.lower()


def secure_context(request: web.Request) -> bool:
    """Whether the page that opened this websocket may use the browser's clipboard: browsers
    allow it on https and on loopback addresses only."""
    origin = urlsplit(request.headers.get("Origin") or f"{request.scheme}://{request.host}")
    return origin.scheme == "https" or is_loopback(origin.hostname or "")


def token_middleware(token: str, port: int, secure_cookie: bool, public_url: str | None):  # type: ignore[no-untyped-def]
    """The aiohttp middleware that answers 403 to any request without the token, before a
    handler (and so a reader) runs."""
    name = cookie_name(port)

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        in_query = request.query.get("token")
        if same_token(in_query, token):
            if request.method == "GET" and request.path == "/":
                return _remember(request, name, token, secure_cookie)
        elif not (
            same_token(request.cookies.get(name), token)
            or same_token(_header_token(request), token)
        ):
            raise web.HTTPForbidden(text=FORBIDDEN)
        if request.path == "/ws" and not origin_allowed(request, public_url):
            raise web.HTTPForbidden(text=CROSS_SITE)
        return await handler(request)

    return check


def _remember(request: web.Request, name: str, token: str, secure: bool) -> web.StreamResponse:
    """Set the cookie and send the browser to the same page without the token in its address
    (so it stays out of the history and of what is shared from the address bar)."""
    rest = [(k, v) for k, v in request.query.items() if k != "token"]
    location = "./" + ("?" + urlencode(rest) if rest else "")
    response = web.Response(status=303, headers={"Location": location, "Cache-Control": "no-store"})
    # Lax, not Strict: a link to the address clicked in another site's page (a chat) must work;
    # Lax still keeps the cookie off requests other sites' pages make, websockets included
    response.set_cookie(name, token, httponly=True, samesite="Lax", secure=secure, path="/")
    return response
