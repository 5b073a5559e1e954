"""The one HTTP client papertui has: polite (it names itself, waits between calls to arXiv, one
at a time, and backs off when a server is busy), incremental (conditional requests) and bounded
(a timeout on every request, at most three retries). Every failure is a `FetchFailed` with one
line for the user."""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from papertui.fetch.config import FetchConfig


class FetchFailed(Exception):
    """A source could not be fetched; `str()` is one line naming the host and what happened."""

    def __init__(self, message: str, status: int | None = None, body: bytes = b"") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class FetchCancelled(Exception):
    """The caller asked to stop (the reader is quitting)."""


@dataclass(slots=True)
class Answer:
    url: str
    status: int  # 200, or 304: unchanged since the validators we sent
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)


# arXiv asks for one connection at a time and a pause between calls, from all of one's machines;
# this process keeps to it across sources and threads
_ARXIV_LOCK = threading.Lock()
_arxiv_last = [float("-inf")]
_RETRY_STATUS = {429, 500, 502, 503, 504}


class PoliteClient:
    """GET and POST with the rules above. `validators` maps a URL to the ETag and Last-Modified
    it was last answered with; new ones wait in `pending` until the caller knows the answer was
    used in full (`commit`), so a failure after a 200 never turns the next try into a 304."""

    def __init__(
        self,
        config: FetchConfig,
        validators: dict[str, dict[str, str]] | None = None,
        cancelled: Callable[[], bool] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.config = config
        self.validators = validators if validators is not None else {}
        self.pending: dict[str, dict[str, str]] = {}
        self.requests = 0  # made over the network (retries too): tests and the summary read it
        self._cancelled = cancelled or (lambda: False)
        self._http = httpx.Client(
            timeout=httpx.Timeout(config.timeout),
            headers={"User-Agent": config.user_agent, "Accept-Encoding": "gzip"},
            follow_redirects=True,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def commit(self, urls: list[str] | None = None) -> None:
        """Keep the validators of these answers (all pending ones when None) for next time."""
        for url in list(self.pending) if urls is None else urls:
            if url in self.pending:
                self.validators[url] = self.pending.pop(url)

    def get(
        self,
        url: str,
        params: Mapping[str, Any] | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        conditional: bool = False,
        spaced: bool = False,
    ) -> Answer:
        """One GET. `conditional`: send the validators this URL was last answered with (a 304
        comes back as `Answer.status == 304`); `spaced`: an arXiv call (one at a time, the
        configured delay apart)."""
        full = str(httpx.URL(url, params=params or None))
        sent = dict(headers or {})
        known = self.validators.get(full) if conditional else None
        if known:
            if known.get("etag"):
                sent["If-None-Match"] = known["etag"]
            if known.get("last_modified"):
                sent["If-Modified-Since"] = known["last_modified"]
        response = self._send("GET", full, sent, None, spaced)
        if response.status_code == 304:
            return Answer(full, 304, b"", response.headers)
        found = {
            "etag": response.headers.get("ETag", ""),
            "last_modified": response.headers.get("Last-Modified", ""),
        }
        if conditional and (found["etag"] or found["last_modified"]):
            self.pending[full] = found
        return Answer(full, response.status_code, response.content, response.headers)

    def post_json(self, url: str, payload: Mapping[str, Any]) -> Answer:
        response = self._send("POST", url, {}, dict(payload), False)
        return Answer(url, response.status_code, response.content, response.headers)

    # -- sending, with retries -------------------------------------------------------------------

    def _send(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        payload: dict[str, Any] | None,
        spaced: bool,
    ) -> httpx.Response:
        config = self.config
        host = host_of(url)
        for attempt in range(config.max_retries + 1):
            wait: float | None = None
            try:
                response = self._once(method, url, headers, payload, spaced)
            except httpx.TimeoutException:
                problem = f"no answer from {host} within {config.timeout:g} s"
            except httpx.ConnectError as exc:
                raise FetchFailed(f"cannot reach {host}: {_reason(exc)}") from None
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.DecodingError) as exc:
                problem = f"the answer from {host} was cut short ({_reason(exc)})"
            except httpx.HTTPError as exc:
                raise FetchFailed(f"{host}: {_reason(exc)}") from None
            else:
                status = response.status_code
                if status < 400 or status == 304:
                    return response
                phrase = f"{status} {response.reason_phrase}".strip()
                if status not in _RETRY_STATUS:
                    raise FetchFailed(
                        f"{host} answered {phrase} for {path_of(url)}", status, response.content
                    )
                problem = f"{host} answered {phrase}"
                wait = retry_after(response.headers.get("Retry-After", ""))
            if attempt == config.max_retries:
                raise FetchFailed(f"{problem} (after {config.max_retries} retries)")
            if wait is None:
                wait = config.backoff * (2**attempt)
            if wait > config.longest_wait:
                raise FetchFailed(f"{problem} and asks to wait {wait:.0f} s: try again later")
            self._sleep(wait)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _once(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        payload: dict[str, Any] | None,
        spaced: bool,
    ) -> httpx.Response:
        if self._cancelled():
            raise FetchCancelled()
        if not spaced:
            self.requests += 1
            return self._http.request(method, url, headers=headers, json=payload)
        with _ARXIV_LOCK:  # one call at a time, `arxiv_delay` after the end of the last
            self._sleep(_arxiv_last[0] + self.config.arxiv_delay - time.monotonic())
            try:
                self.requests += 1
                return self._http.request(method, url, headers=headers, json=payload)
            finally:
                _arxiv_last[0] = time.monotonic()

    def _sleep(self, seconds: float) -> None:
        """Wait, in short steps, stopping early when the caller cancels."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if self._cancelled():
                raise FetchCancelled()
            time.sleep(min(left, 0.1))


def retry_after(value: str) -> float | None:
    """Seconds to wait from a Retry-After header (seconds, or an HTTP date); None if absent."""
    value = value.strip()
    if not value:
        return None
    if value.isascii() and value.isdigit():  # "²" is a digit to Python, not to HTTP
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def host_of(url: str) -> str:
    parsed = httpx.URL(url)
    default = {"http": 80, "https": 443}.get(parsed.scheme)
    port = f":{parsed.port}" if parsed.port and parsed.port != default else ""
    return f"{parsed.host}{port}"


def path_of(url: str) -> str:
    parsed = httpx.URL(url)
    query = parsed.query.decode("ascii", "replace")
    return parsed.path + (f"?{query}" if query else "")


def _reason(exc: Exception) -> str:
    """The innermost cause's words ("[Errno 111] Connection refused"), on one line."""
    inner: BaseException = exc
    while inner.__cause__ is not None or inner.__context__ is not None:
        inner = inner.__cause__ or inner.__context__  # type: ignore[assignment]
    text = str(inner) or str(exc) or type(exc).__name__
    return " ".join(text.split())
