"""The network tier: every test talks to a real HTTP server on 127.0.0.1 (`server.py`), and a
guard makes any connection to another address fail loudly, so no test reaches the internet."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from server import FixtureServer, Sources

LOCAL = ("127.0.0.1", "::1", "localhost")
LAST_DAY = "2025-09-08"


class LeftTheMachine(AssertionError):
    """A test tried to connect somewhere other than this machine."""


@pytest.fixture(autouse=True)
def only_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def check(sock: socket.socket, address: object) -> None:
        if sock.family == socket.AF_UNIX:
            return
        host = address[0] if isinstance(address, tuple) else address
        if host not in LOCAL:
            raise LeftTheMachine(f"a test tried to connect to {address!r}")

    def connect(sock: socket.socket, address: object) -> None:
        check(sock, address)
        real_connect(sock, address)  # type: ignore[arg-type]

    def connect_ex(sock: socket.socket, address: object) -> int:
        check(sock, address)
        return real_connect_ex(sock, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FixtureServer]:
    """The fixture server (20 Daily Papers a day for the 7 days up to LAST_DAY), with papertui
    pointed at it, no arXiv spacing and short timeouts and backoffs."""
    srv = FixtureServer(Sources(per_day=20, last_day=LAST_DAY)).start()
    for name, value in srv.env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PAPERTUI_ARXIV_DELAY", "0")
    monkeypatch.setenv("PAPERTUI_FETCH_TIMEOUT", "0.5")
    monkeypatch.setenv("PAPERTUI_FETCH_BACKOFF", "0.01")
    for name in ("OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD", "OPENREVIEW_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    yield srv
    srv.stop()
