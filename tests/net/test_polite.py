"""arXiv's terms: one connection at a time, spaced by the delay (PAPERTUI_ARXIV_DELAY)."""

from __future__ import annotations

import threading
import time

from papertui.cli import main
from papertui.fetch.context import FetchOptions
from papertui.fetch.run import fetch_sources
from papertui.fetch.specs import parse_spec


def test_arxiv_calls_are_spaced_by_the_delay(server, capsys, monkeypatch):
    monkeypatch.setenv("PAPERTUI_ARXIV_DELAY", "0.4")
    code = main(["fetch", "arxiv:cs.LG", "arxiv-query:all:x", "--max", "250"])
    capsys.readouterr()
    assert code == 0
    calls = [s for s in server.seen if s.path.startswith(("/rss/", "/api/query"))]
    assert len(calls) == 4
    # From one call's start to the next: the client waits the delay after it has the answer,
    # which is after the server started on it. (The server's own note of an answer's end can
    # come after the client has it on a loaded machine, so end-to-start gaps flaked.)
    gaps = [b.started - a.started for a, b in zip(calls, calls[1:], strict=False)]
    assert min(gaps) >= 0.4, gaps


def test_two_fetches_at_once_never_overlap_on_arxiv(server, monkeypatch):
    monkeypatch.setenv("PAPERTUI_ARXIV_DELAY", "0")
    route = server.route

    def slow(*args):  # each answer takes a while: two connections at once would overlap
        time.sleep(0.15)
        return route(*args)

    server.route = slow
    specs = [parse_spec("arxiv-query:all:x")]
    threads = [
        threading.Thread(target=fetch_sources, args=(specs, FetchOptions(max=300)))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    calls = sorted(server.requests_to("/api/query"), key=lambda s: s.started)
    assert len(calls) >= 4
    # a call starts only once the one before is answered (its end as the server notes it can
    # come after the client has the answer, on a busy machine)
    assert all(b.started >= a.answering for a, b in zip(calls, calls[1:], strict=False))


def test_other_hosts_are_not_held_back_by_the_delay(server, capsys, monkeypatch):
    monkeypatch.setenv("PAPERTUI_ARXIV_DELAY", "5")
    start = time.monotonic()
    assert main(["fetch", "hf:2025-09-07", "hf:2025-09-08", "venue:nips2025"]) == 0
    capsys.readouterr()
    assert time.monotonic() - start < 4
