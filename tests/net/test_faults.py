"""When a source misbehaves: each failure is one line naming the source and what happened, what
arrived before it is kept, the other sources still run, and the exit status says so (3)."""

from __future__ import annotations

import json
import socket

import pytest

from papertui.cli import main
from papertui.core.system import paths

from conftest import LAST_DAY, LeftTheMachine
from server import Fault, Sources

DAY = f"hf:{LAST_DAY}"


def fetch(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["fetch", *args])
    out, err = capsys.readouterr()
    return code, out, err


def kept(key: str) -> int:
    path = paths.fetched_dir() / "hf" / f"{key}.jsonl"
    return len(path.read_text("utf-8").splitlines()) if path.exists() else 0


def test_429_with_retry_after_is_waited_for_then_fetched(server, capsys):
    server.queue("/api/daily_papers", Fault(429, {"Retry-After": "1"}, b"slow down"))
    code, out, err = fetch(capsys, DAY)
    assert code == 0, err
    first, second = server.requests_to("/api/daily_papers")[:2]
    assert second.started - first.ended >= 0.95  # the server's word, not our backoff
    assert kept(f"hf-{LAST_DAY}") == 20


def test_a_retry_after_too_long_ends_the_source_at_once(server, capsys):
    server.queue("/api/daily_papers", Fault(503, {"Retry-After": "3600"}))
    code, _, err = fetch(capsys, DAY)
    assert code == 3 and len(server.seen) == 1
    assert "asks to wait 3600 s: try again later" in err


def test_500_is_retried_three_times_then_one_line_and_the_others_still_run(server, capsys):
    server.queue("/api/daily_papers", *[Fault(500, body=b"oops")] * 4)
    code, out, err = fetch(capsys, DAY, "venue:nips2025")
    assert code == 3
    assert len(server.requests_to("/api/daily_papers")) == 4  # the first try and 3 retries
    assert err == (
        f"papertui fetch: {DAY}: 127.0.0.1:{server.server_address[1]} answered "
        "500 Internal Server Error (after 3 retries)\n"
    )
    assert "venue:nips2025: " in out and "papers" in out


def test_a_slow_answer_past_the_timeout_is_retried_then_fails(server, capsys, monkeypatch):
    monkeypatch.setenv("PAPERTUI_FETCH_TIMEOUT", "0.2")
    server.queue("/rss/cs.LG", *[Fault(delay=0.5, body=b"<rss/>")] * 4)
    code, _, err = fetch(capsys, "arxiv:cs.LG")
    assert code == 3
    assert "no answer from 127.0.0.1" in err and "within 0.2 s (after 3 retries)" in err


def test_one_slow_answer_then_a_good_one_is_fine(server, capsys, monkeypatch):
    monkeypatch.setenv("PAPERTUI_FETCH_TIMEOUT", "0.2")
    server.queue("/api/daily_papers", Fault(delay=0.5, body=b"[]"))
    code, _, err = fetch(capsys, DAY)
    assert code == 0, err
    assert kept(f"hf-{LAST_DAY}") == 20 and len(server.requests_to("/api/daily_papers")) == 2


def test_a_cut_short_body_is_retried_and_named(server, capsys):
    server.queue("/nips/nips2025.json", *[Fault(200, body=b'[{"title": "x"', truncate=True)] * 4)
    code, _, err = fetch(capsys, "venue:nips2025")
    assert code == 3 and "was cut short" in err and err.count("\n") == 1


def test_invalid_json_on_a_later_page_keeps_the_pages_before(server, capsys):
    server.sources = Sources(per_day=120, last_day=LAST_DAY)
    # page 0 is answered normally; page 1 gets a broken body
    real_route = server.route
    calls = {"n": 0}

    def route(method, path, query, handler):
        if path == "/api/daily_papers" and query.get("p") == "1":
            calls["n"] += 1
            return 200, {}, b'[{"title": "half'
        return real_route(method, path, query, handler)

    server.route = route  # type: ignore[method-assign]
    code, _, err = fetch(capsys, DAY)
    assert code == 3 and calls["n"] == 1  # invalid JSON is not retried: it would not change
    assert "sent invalid JSON for /api/daily_papers?date=" in err
    assert "(kept 50 papers that arrived before" in err
    assert kept(f"hf-{LAST_DAY}") == 50
    # the day is not complete: the next fetch asks again, in full, and gets all of it
    server.route = real_route  # type: ignore[method-assign]
    assert fetch(capsys, DAY)[0] == 0 and kept(f"hf-{LAST_DAY}") == 120


def test_an_empty_day_is_said_and_not_complete(server, capsys):
    server.queue("/api/daily_papers", Fault(200, body=b"[]"))
    code, out, _ = fetch(capsys, DAY)
    assert code == 0 and f"{LAST_DAY}: no papers listed (yet)" in out
    assert fetch(capsys, DAY)[0] == 0 and kept(f"hf-{LAST_DAY}") == 20  # asked again


def test_an_empty_search_page_is_retried(server, capsys):
    from shapes import arxiv_atom

    server.queue("/api/query", Fault(200, body=arxiv_atom([], 250, 0)))
    code, _, err = fetch(capsys, "arxiv-query:all:x", "--max", "20")
    assert code == 0, err
    assert len(server.requests_to("/api/query")) == 2


def test_empty_search_pages_every_time_fail_in_one_line(server, capsys):
    from shapes import arxiv_atom

    server.queue("/api/query", *[Fault(200, body=arxiv_atom([], 250, 0))] * 4)
    code, _, err = fetch(capsys, "arxiv-query:all:x", "--max", "20")
    assert code == 3 and "empty pages at 0 of 250 (after 3 retries)" in err


def test_an_empty_body_and_broken_xml_are_named(server, capsys):
    server.queue("/rss/cs.LG", Fault(200, body=b""), Fault(200, body=b"<rss><channel>"))
    code, _, err = fetch(capsys, "arxiv:cs.LG")
    assert code == 3 and "sent an empty answer to /rss/cs.LG" in err
    code, _, err = fetch(capsys, "arxiv:cs.LG")
    assert code == 3 and "sent broken XML for /rss/cs.LG (line 1" in err


def test_403_is_not_retried_and_says_which_url(server, capsys):
    server.queue("/api/daily_papers", Fault(403, body=b"forbidden"))
    code, _, err = fetch(capsys, DAY)
    assert code == 3 and len(server.seen) == 1
    assert f"answered 403 Forbidden for /api/daily_papers?date={LAST_DAY}&p=0&limit=50" in err


def test_offline_is_cannot_reach_the_host(server, capsys, monkeypatch):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    monkeypatch.setenv("PAPERTUI_HF_URL", f"http://127.0.0.1:{port}")
    code, out, err = fetch(capsys, DAY, "venue:nips2025")
    assert code == 3
    assert err.startswith(f"papertui fetch: {DAY}: cannot reach 127.0.0.1:{port}: ")
    assert "refused" in err.lower() and "venue:nips2025" in out


def test_a_bad_base_url_in_the_environment_is_bad_input(server, capsys, monkeypatch):
    monkeypatch.setenv("PAPERTUI_HF_URL", "huggingface.co")
    code, _, err = fetch(capsys, DAY)
    assert code == 2 and "PAPERTUI_HF_URL='huggingface.co' is not an http(s) URL" in err


def test_json_output_is_list_records_with_source_and_new(server, capsys):
    code, out, _ = fetch(capsys, DAY, "--json")
    records = json.loads(out)
    assert code == 0 and len(records) == 20
    assert {r["source"] for r in records} == {DAY} and all(r["new"] for r in records)
    assert {"id", "title", "abstract", "bookmarked", "tags", "upvotes", "arxiv_id"} <= set(
        records[0]
    )
    # the week holding that day: its papers are not new now, the other days' are
    code, out, _ = fetch(capsys, "hf:2025-W36", "hf:2025-W37", "--json")
    records = json.loads(out)
    assert code == 0 and len(records) == 140
    assert {r["listed"] for r in records if not r["new"]} == {LAST_DAY}
    assert sum(r["new"] for r in records) == 120


def test_nothing_is_drawn_on_a_pipe(server, capsys):
    code, _, err = fetch(capsys, DAY)
    assert code == 0 and "\r" not in err and "\x1b" not in err and err == ""


def test_the_guard_refuses_any_other_address():
    with pytest.raises(LeftTheMachine), socket.create_connection(("192.0.2.1", 80), timeout=1):
        pass


def test_a_data_dir_that_cannot_be_written_is_one_line(server, capsys):
    fetched = paths.fetched_dir()
    fetched.mkdir(parents=True)
    (fetched / "hf").write_text("a file where a folder should be")
    code, out, err = fetch(capsys, DAY, "venue:nips2025")
    assert code == 3 and err.count("\n") == 1
    assert f"papertui fetch: {DAY}: cannot write " in err and "venue:nips2025" in out
    assert "kept" not in err  # nothing was
