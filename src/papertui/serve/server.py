"""The web server: textual-serve's, with papertui's page, a token on every request, a reader
process per tab that the server ends when it stops, and an address printed with its token."""

from __future__ import annotations

import asyncio
import errno
import logging
import signal
import socket
import sys
from pathlib import Path

import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.server import Server, to_int

from papertui.serve.access import secure_context, token_middleware
from papertui.serve.options import ServeError, ServeOptions, base_url, warning
from papertui.serve.sessions import ReaderSession, signal_group

STOP_GRACE = 1.0  # seconds a reader has to quit on its own when the server stops (3 s in all)
TEMPLATES = Path(__file__).parent / "templates"


class ReaderServer(Server):
    """Serves papertui's reader: `/` the page, `/ws` a reader per websocket, `/static` the
    terminal's script and fonts, `/download/KEY` what a reader hands to the browser."""

    def __init__(self, options: ServeOptions) -> None:
        super().__init__(" ".join(options.reader_command()), options.host, options.port)
        self.options = options
        self.title = "papertui"
        self.sessions: set[ReaderSession] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.page = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True
        ).get_template("page.html")

    def make_app(self, port: int) -> web.Application:
        secure = (self.options.public_url or "").startswith("https://")
        middleware = token_middleware(self.options.token, port, secure, self.options.public_url)
        app = web.Application(middlewares=[middleware])
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def handle_index(self, request: web.Request) -> web.Response:  # type: ignore[override]
        """The page: addresses from --public-url, else from the address the browser used."""
        base = self.options.public_url or f"{request.scheme}://{request.host}"
        scheme = "wss" if base.startswith("https:") else "ws"
        html = self.page.render(
            title=self.title,
            static_url=f"{base}/static/",
            websocket_url=f"{scheme}:{base.split(':', 1)[1]}/ws",
            font_size=min(max(to_int(request.query.get("fontsize", "16"), 16), 6), 48),
        )
        return web.Response(
            text=html, content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab connected: start its reader, pass keys and sizes in and the screen out until
        either side closes, then end the reader."""
        # timeout: how long a close waits for the browser's answer (stopping must take < 3 s)
        websocket = web.WebSocketResponse(heartbeat=15, timeout=0.5)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        await websocket.prepare(request)
        clipboard = "1" if secure_context(request) else "0"
        session = ReaderSession(
            self.options.reader_command(),
            {"PAPERTUI_BROWSER_CLIPBOARD": clipboard},
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        self.sessions.add(session)
        self.sockets.add(websocket)
        try:
            await session.start(width, height)
            assert session._task is not None
            # a reader that fails or quits closes its tab's socket: the page says it ended
            session._task.add_done_callback(lambda _: asyncio.ensure_future(websocket.close()))
            await self._process_messages(websocket, session)
        except (asyncio.CancelledError, ConnectionResetError):
            pass
        except Exception as error:  # noqa: BLE001 - one tab's failure must not stop the server
            logging.getLogger("papertui.serve").warning("a tab's reader failed: %s", error)
        finally:
            await session.close(grace=STOP_GRACE)
            self.sessions.discard(session)
            self.sockets.discard(websocket)
            await websocket.close()
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Stopping: every reader is asked to quit, and ended if it has not within
        STOP_GRACE seconds; meanwhile every tab is told the server went away."""
        # both at once: a browser slow to answer a close must not eat the readers' time
        readers = [s.close(grace=STOP_GRACE) for s in list(self.sessions)]
        tabs = [
            w.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped") for w in self.sockets
        ]
        await asyncio.gather(*readers, *tabs, return_exceptions=True)

    def kill_all(self) -> None:
        """A second Ctrl+C: no more waiting for readers to quit."""
        for session in list(self.sessions):
            if session.pid is not None:
                signal_group(session.pid, signal.SIGKILL)


def run(options: ServeOptions) -> int:
    """Serve until Ctrl+C (or SIGTERM, or the terminal closing); 0 once every reader ended."""
    logging.basicConfig(level=logging.WARNING, format="papertui serve: %(message)s")
    return asyncio.run(_serve(options))


async def _serve(options: ServeOptions) -> int:
    server = ReaderServer(options)
    # the app needs the port for its cookie's name before it listens: port 0 is decided by the
    # system, so bind first, then make the app around the socket's real port
    listener = await _listen(options)
    port = listener.getsockname()[1]
    runner = web.AppRunner(server.make_app(port), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.SockSite(runner, listener, shutdown_timeout=0.5)
    await site.start()
    address = f"{base_url(options, port)}/?token={options.token}"
    print(f"papertui serve: open {address}", flush=True)
    if problem := warning(options):
        print(problem, file=sys.stderr, flush=True)
    print("papertui serve: each tab runs its own reader; Ctrl+C stops them all", flush=True)

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    for signum in signals:
        loop.add_signal_handler(signum, stopping.set)
    await stopping.wait()
    for signum in signals:  # asked again while stopping: stop now
        loop.add_signal_handler(signum, server.kill_all)
    count = len(server.sessions)
    print(f"papertui serve: stopping ({count} reader{'s' * (count != 1)})", flush=True)
    import time

    print("DBG cleanup", time.monotonic(), flush=True)
    await runner.cleanup()
    print("DBG cleaned", time.monotonic(), flush=True)
    return 0


async def _listen(options: ServeOptions) -> socket.socket:
    try:
        infos = socket.getaddrinfo(
            options.host, options.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise ServeError(f"papertui serve: --host {options.host}: {exc.strerror}") from None
    # IPv4 first: "localhost" is then 127.0.0.1, which every browser reaches
    family, kind, proto, _, address = sorted(infos, key=lambda i: i[0] != socket.AF_INET)[0]
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as exc:
        listener.close()
        hint = (
            " (another program uses it: try another --port)"
            if exc.errno == errno.EADDRINUSE
            else ""
        )
        raise ServeError(
            f"papertui serve: cannot listen on {options.host} port {options.port}: "
            f"{exc.strerror}{hint}"
        ) from None
    listener.listen(128)
    listener.setblocking(False)
    return listener
