"""The fixture server run by hand (`python tests/net/server.py --fault PATH=STATUS[:times]`), as
docs/fetch.md tells a user to rehearse a failing source: the fault, then the recovery."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from papertui.cli import main

from conftest import LAST_DAY

SERVER = Path(__file__).with_name("server.py")
DAY_URL = f"/api/daily_papers?date={LAST_DAY}&p=0&limit=50"


class Started:
    def __init__(self, *faults: str) -> None:
        argv = [sys.executable, str(SERVER), "--port", "0", "--latency", "0", "--papers", "70"]
        argv += ["--last-day", LAST_DAY, "--slow", "1"]
        for fault in faults:
            argv += ["--fault", fault]
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()  # listening once it prints
        assert first.startswith("export PAPERTUI_HF_URL=http://127.0.0.1:"), self.stop()
        self.url = first.strip().split("=", 1)[1]
        self.env = {}
        for line in [first, *(self.proc.stdout.readline() for _ in range(5))]:
            name, value = line.removeprefix("export ").strip().split("=", 1)
            self.env[name] = value

    def get(self, path: str) -> int:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as answer:
                answer.read()
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return error.code

    def stop(self) -> str:
        """What it said on stderr: one line per fault served."""
        self.proc.terminate()
        _, err = self.proc.communicate(timeout=10)
        return err


@pytest.fixture
def started() -> Iterator[list[Started]]:
    running: list[Started] = []
    yield running
    for server in running:
        if server.proc.poll() is None:
            server.stop()


def test_a_fault_for_two_requests_then_the_normal_answer(started):
    server = Started("/api/daily_papers=503:2", "/rss/cs.LG=truncate")
    started.append(server)
    assert [server.get(DAY_URL) for _ in range(3)] == [503, 503, 200]
    for _ in range(2):  # no times: every request
        with pytest.raises(Exception, match="IncompleteRead"):
            server.get("/rss/cs.LG")
    said = server.stop().splitlines()
    assert said[:2] == [f"GET {DAY_URL}: 503"] * 2
    assert said[2:] == ["GET /rss/cs.LG: 200, the body cut short"] * 2


def test_papertui_rehearses_the_failure_against_it(started, capsys, monkeypatch):
    server = Started("/api/daily_papers=429:2", "/nips/nips2025.json=500", "/api/query=slow:1")
    started.append(server)
    for name, value in server.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PAPERTUI_ARXIV_DELAY", "0")
    monkeypatch.setenv("PAPERTUI_FETCH_TIMEOUT", "0.5")
    monkeypatch.setenv("PAPERTUI_FETCH_BACKOFF", "0.01")
    code = main(["fetch", f"hf:{LAST_DAY}", "venue:nips2025", "arxiv-query:all:x", "--max", "5"])
    out, err = capsys.readouterr()
    assert code == 3  # the venue failed, the others were retried and fetched
    assert f"hf:{LAST_DAY}: 10 papers, 10 new" in out and "arxiv-query:all:x: 5 papers" in out
    assert err.splitlines() == [
        f"papertui fetch: venue:nips2025: {server.url.removeprefix('http://')} answered "
        "500 Internal Server Error (after 3 retries)"
    ]
    said = server.stop()
    assert said.count(": 429") == 2 and said.count("nips2025.json: 500") == 4
    assert said.count("slow: the answer after 1 s") == 1
