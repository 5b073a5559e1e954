"""A local stand-in for every source papertui fetches, on 127.0.0.1: Daily Papers, arXiv's RSS
feed and search API, Paper Copilot's lists and OpenReview, in their documented shapes (`shapes`),
with ETags, and faults a test can queue (a status with headers, a slow answer, a cut-short body,
invalid JSON, an empty page). The tests start it in a thread; run it by hand to try the morning
loop against a few hundred papers, or to rehearse a failing source (docs/fetch.md):

    python tests/net/server.py --papers 300        # prints the environment to point papertui at it
    python tests/net/server.py --fault /api/daily_papers=503:2 --fault /rss/cs.LG=truncate
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

try:
    from . import shapes
    from .fault_specs import Fault, fault_arguments, faults_of
except ImportError:  # run as a script
    from fault_specs import Fault, fault_arguments, faults_of  # type: ignore[no-redef]

    import shapes  # type: ignore[no-redef]

__all__ = ["Fault", "FixtureServer", "Sources"]


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    started: float
    answering: float = 0.0  # the answer begins to go out (the client may have it before `ended`)
    ended: float = 0.0


class Sources:
    """What the server answers: `per_day` Daily Papers a day, the arXiv feed sharing half of a
    day's papers with Daily Papers (another wording of each abstract), search results and lists.
    The days served end today (UTC) unless `last_day` says otherwise."""

    def __init__(self, per_day: int = 40, days: int = 7, last_day: str = "") -> None:
        self.per_day = per_day
        last = dt.date.fromisoformat(last_day) if last_day else dt.datetime.now(dt.UTC).date()
        self.days = [(last - dt.timedelta(days=n)).isoformat() for n in range(days - 1, -1, -1)]
        self.papers = shapes.papers(per_day * days, seed=11)
        self.query_papers = shapes.papers(250, seed=12, start=50_000)
        self.venue_papers = shapes.papers(per_day * 3, seed=13, start=60_000)
        self.token = "t0ken"
        self.version = 1  # bump to change every ETag

    def day(self, date: str) -> list[shapes.FakePaper]:
        if date not in self.days:
            return []
        n = self.days.index(date)
        return self.papers[n * self.per_day : (n + 1) * self.per_day]

    def feed(self) -> list[tuple[shapes.FakePaper, str]]:
        """The latest announcements: half of the last day's Daily Papers, worded as arXiv words
        them, plus papers only arXiv has, and a few replacements."""
        last = self.day(self.days[-1])
        shared = [_reworded(p) for p in last[: len(last) // 2]]
        own = shapes.papers(self.per_day, seed=14, start=70_000)
        kinds = ["new"] * len(shared) + ["new", "cross", "replace"] * (len(own) // 3 + 1)
        return list(zip(shared + own, kinds, strict=False))


def _reworded(p: shapes.FakePaper) -> shapes.FakePaper:
    from dataclasses import replace

    return replace(p, abstract=p.abstract.replace(" that ", " which ", 1) + " Code is public.")


class Handler(BaseHTTPRequestHandler):
    server: FixtureServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def _answer(self, method: str) -> None:
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        seen = Seen(method, parts.path, query, dict(self.headers), time.monotonic())
        self.server.seen.append(seen)
        try:
            time.sleep(self.server.latency)
            fault = self.server.next_fault(parts.path)
            if fault is not None and self.server.verbose:  # run by hand: say what was rehearsed
                print(f"{method} {self.path}: {fault.describe()}", file=sys.stderr, flush=True)
            if fault is not None and not fault.then_normal:
                self._fault(fault)
            else:
                if fault is not None:
                    time.sleep(fault.delay)
                status, headers, body = self.server.route(method, parts.path, query, self)
                seen.answering = time.monotonic()
                self._send(status, headers, body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            seen.ended = time.monotonic()

    def _fault(self, fault: Fault) -> None:
        if fault.delay:
            time.sleep(fault.delay)
        if fault.truncate:
            self.send_response(fault.status)
            self.send_header("Content-Length", str(len(fault.body) * 2 + 100))
            self.end_headers()
            self.wfile.write(fault.body)
            self.wfile.flush()
            self.close_connection = True
            return
        self._send(fault.status, fault.headers, fault.body)

    def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class FixtureServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, sources: Sources | None = None, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.sources = sources or Sources()
        self.seen: list[Seen] = []
        self.latency = 0.0  # seconds before every answer (a far server, when run by hand)
        self.faults: dict[str, deque[Fault]] = {}
        self.standing: dict[str, Fault] = {}  # served on every request once `faults` run out
        self.verbose = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def env(self) -> dict[str, str]:
        """The environment that points papertui at this server."""
        return {
            "PAPERTUI_HF_URL": self.url,
            "PAPERTUI_ARXIV_RSS_URL": self.url,
            "PAPERTUI_ARXIV_API_URL": self.url,
            "PAPERTUI_PAPERCOPILOT_URL": self.url,
            "PAPERTUI_OPENREVIEW_URL": self.url,
        }

    def start(self) -> FixtureServer:
        self._thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

    def queue(self, path: str, *faults: Fault) -> None:
        """Answer the next requests to `path` with these, in order, then normally again."""
        with self._lock:
            self.faults.setdefault(path, deque()).extend(faults)

    def arm(self, path: str, fault: Fault, times: int | None) -> None:
        """Answer the next `times` requests to `path` with `fault` (None: every one)."""
        if times is None:
            with self._lock:
                self.standing[path] = fault
        else:
            self.queue(path, *[fault] * times)

    def next_fault(self, path: str) -> Fault | None:
        with self._lock:
            waiting = self.faults.get(path)
            return waiting.popleft() if waiting else self.standing.get(path)

    def requests_to(self, path: str) -> list[Seen]:
        return [s for s in self.seen if s.path == path]

    # -- the normal answers ----------------------------------------------------------------------

    def route(
        self, method: str, path: str, query: dict[str, str], handler: Handler
    ) -> tuple[int, dict[str, str], bytes]:
        s = self.sources
        if path == "/api/daily_papers":
            listed = self._listed(query)
            page, limit = int(query.get("p", 0)), int(query.get("limit", 50))
            body = shapes.hf_page(listed[page * limit : (page + 1) * limit])
            return self._tagged(body, handler, "application/json")
        if path.startswith("/rss/"):
            cats = path.removeprefix("/rss/")
            day = dt.date.fromisoformat(s.days[-1]).strftime("%a, %d %b %Y 00:00:00 -0400")
            body = shapes.arxiv_rss(s.feed(), cats, day)
            return self._tagged(body, handler, "application/rss+xml")
        if path == "/api/query":
            start, size = int(query.get("start", 0)), int(query.get("max_results", 10))
            found = s.query_papers
            body = shapes.arxiv_atom(found[start : start + size], len(found), start)
            return 200, {"Content-Type": "application/atom+xml"}, body
        if path == "/login" and method == "POST":
            return 200, {"Content-Type": "application/json"}, b'{"token": "%s"}' % s.token.encode()
        if path == "/notes":
            if handler.headers.get("Authorization") != f"Bearer {s.token}":
                return 403, {}, b'{"name": "ChallengeRequiredError", "message": "challenge"}'
            offset, limit = int(query.get("offset", 0)), int(query.get("limit", 1000))
            notes = s.venue_papers[offset : offset + limit]
            return 200, {}, shapes.openreview_notes(notes, query.get("content.venueid", ""))
        parts = path.strip("/").split("/")
        if len(parts) == 2 and parts[1] == f"{parts[0]}2025.json":
            return self._tagged(shapes.papercopilot(s.venue_papers), handler, "application/json")
        return 404, {}, b"not found"

    def _listed(self, query: dict[str, str]) -> list[tuple[shapes.FakePaper, str]]:
        """(paper, the day it was listed) for a date, an ISO week or a month."""
        days = self.sources.days
        if "date" in query:
            days = [d for d in days if d == query["date"]]
        elif "week" in query:
            days = [d for d in days if _iso_week(d) == query["week"]]
        else:
            days = [d for d in days if d.startswith(query.get("month", "?"))]
        return [(p, d) for d in days for p in self.sources.day(d)]

    def _tagged(
        self, body: bytes, handler: Handler, kind: str
    ) -> tuple[int, dict[str, str], bytes]:
        """The body with an ETag; 304 when the client already has it."""
        tag = f'"{hashlib.sha1(body + bytes([self.sources.version])).hexdigest()[:16]}"'
        if handler.headers.get("If-None-Match") == tag:
            return 304, {"ETag": tag}, b""
        return 200, {"ETag": tag, "Content-Type": kind}, body


def _iso_week(day: str) -> str:
    year, week, _ = dt.date.fromisoformat(day).isocalendar()
    return f"{year}-W{week:02d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=300, help="Daily Papers in all (7 days)")
    parser.add_argument("--port", type=int, default=8765, help="8765; 0: any free port")
    parser.add_argument("--latency", type=float, default=0.3, help="seconds before each answer")
    parser.add_argument(
        "--last-day", default="", metavar="DATE", help="the last day served (today)"
    )
    fault_arguments(parser)
    args = parser.parse_args()
    faults = faults_of(args, parser)
    server = FixtureServer(
        Sources(per_day=max(1, args.papers // 7), last_day=args.last_day), args.port
    )
    server.latency = args.latency
    server.verbose = True
    for path, fault, times in faults:
        server.arm(path, fault, times)
    for name, value in server.env().items():
        print(f"export {name}={value}")
    print("export PAPERTUI_ARXIV_DELAY=1", flush=True)
    print(f"# days served: {', '.join(server.sources.days)}", flush=True)
    for path, fault, times in faults:
        print(
            f"# {path}: {fault.describe()}, {f'{times} times' if times else 'always'}", flush=True
        )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


if __name__ == "__main__":
    main()
