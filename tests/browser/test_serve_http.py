"""`papertui serve` over plain HTTP and websockets (no browser needed): the token guards every
request and starts nothing without it, the page loads nothing from other sites, and the server
leaves no reader behind when it stops or dies."""

from __future__ import annotations

import asyncio
import http.client
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit

import aiohttp
import pytest

from serve_support import Served, data_env, until_gone, write_corpus


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("served-http")
    server = Served(data_env(base), str(write_corpus(base)))
    yield server
    if server.process.poll() is None:
        server.stop()


def get(served: Served, path: str, headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response, body


def cookie(served: Served) -> str:
    return f"papertui-token-{served.port}={served.token}"


async def open_tab(served: Served, headers: dict[str, str], seconds: float = 30) -> str:
    """Open the websocket a tab opens; what the reader drew until its status line showed."""
    url = served.base.replace("http://", "ws://") + "/ws?width=100&height=30"
    drawn = b""
    async with aiohttp.ClientSession() as client, client.ws_connect(url, headers=headers) as ws:
        while b"row 1/12" not in drawn:
            message = await asyncio.wait_for(ws.receive(), seconds)
            assert message.type == aiohttp.WSMsgType.BINARY, message
            drawn += message.data
    return drawn.decode("utf-8", "replace")


@pytest.mark.parametrize("path", ["/", "/static/js/textual.js", "/ws", "/download/x"])
def test_every_request_without_the_right_token_is_refused_and_starts_nothing(served, path):
    for headers in ({}, {"Cookie": f"papertui-token-{served.port}=wrong-token-0123456789"}):
        response, body = get(served, path, headers)
        assert response.status == 403 and "needs its token" in body
    response, _ = get(served, f"{path}?token={served.token[:-1]}")
    assert response.status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        asyncio.run(open_tab(served, {}))
    assert refused.value.status == 403
    assert served.descendants() == set()  # no reader was started


def test_the_token_in_the_address_becomes_a_cookie_and_leaves_the_address(served):
    response, _ = get(served, f"/?token={served.token}&fontsize=20")
    assert response.status == 303
    assert response.getheader("Location") == "./?fontsize=20"
    set_cookie = response.getheader("Set-Cookie")
    assert cookie(served) in set_cookie and "HttpOnly" in set_cookie
    page, html = get(served, "/?fontsize=20", {"Cookie": cookie(served)})
    assert page.status == 200 and "textual.js" in html
    # nothing from another site: the page opens offline and tells nobody what is read
    hosts = {urlsplit(u).hostname for u in _urls(html)}
    assert hosts == {"127.0.0.1"}
    script, _ = get(served, "/static/js/textual.js", {"Cookie": cookie(served)})
    assert script.status == 200


def _urls(html: str) -> list[str]:
    import re

    return re.findall(r"""(?:href|src|url)=?\(?["']((?:https?|wss?)://[^"']+)""", html)


def test_a_page_of_another_site_cannot_open_a_reader(served):
    headers = {"Cookie": cookie(served), "Origin": "http://evil.example"}
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        asyncio.run(open_tab(served, headers))
    assert refused.value.status == 403
    assert served.descendants() == set()


def test_a_script_with_the_token_in_a_header_gets_a_reader(served):
    drawn = asyncio.run(open_tab(served, {"Authorization": f"token {served.token}"}))
    assert "Graph neural networks for molecule property prediction" in drawn


def test_a_killed_server_takes_its_readers_with_it(tmp_path):
    server = Served(data_env(tmp_path), str(write_corpus(tmp_path)))

    async def hold_a_tab_open() -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        headers = {"Authorization": f"token {server.token}"}
        async with aiohttp.ClientSession() as client, client.ws_connect(url, headers=headers):
            readers = await asyncio.to_thread(server.wait_for_readers, 1)
            server.process.kill()  # SIGKILL: the server cleans nothing up itself
            server.process.wait(5)
            left = await asyncio.to_thread(until_gone, readers, readers, 3)
            assert left == set()

    asyncio.run(hold_a_tab_open())


def test_ctrl_c_ends_every_reader_within_3_seconds(tmp_path):
    server = Served(data_env(tmp_path), str(write_corpus(tmp_path)))
    headers = {"Authorization": f"token {server.token}"}

    async def two_tabs_then_ctrl_c() -> float:
        url = server.base.replace("http://", "ws://") + "/ws"
        async with (
            aiohttp.ClientSession() as client,
            client.ws_connect(url, headers=headers),
            client.ws_connect(url, headers=headers),
        ):
            readers = await asyncio.to_thread(server.wait_for_readers, 2)
            seconds = await asyncio.to_thread(server.stop, signal.SIGINT)
            left = await asyncio.to_thread(until_gone, readers, readers, 3 - seconds)
            assert left == set(), f"{left} still running {seconds:.1f} s after Ctrl+C"
            return seconds

    assert asyncio.run(two_tabs_then_ctrl_c()) < 3
    assert "stopping (2 readers)" in "".join(server.output)


def test_a_port_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "papertui", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            env=data_env(tmp_path),
            timeout=30,
        )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and f"port {port}" in done.stderr
