"""What `papertui serve` was asked to do, checked before anything listens: the address, the
token and the reader's own arguments. Pure Python (no aiohttp), so the checks are cheap to test.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

MIN_TOKEN = 16  # characters; a random one is 32 (secrets.token_urlsafe(24))
INSECURE = (
    "the connection is not encrypted: anyone on the network path can read the token and the "
    "papers; put papertui behind a TLS proxy and pass --public-url https://... (see docs/serve.md)"
)


class ServeError(Exception):
    """A bad serve option or an address that cannot be used: one line, exit code 2."""


@dataclass(frozen=True)
class ServeOptions:
    """Checked options; `reader_args` are passed to every tab's reader as typed on the CLI."""

    host: str
    port: int
    token: str
    token_given: bool  # False: made up here, so the address printed must carry it
    public_url: str | None
    reader_args: list[str] = field(default_factory=list)

    def reader_command(self) -> list[str]:
        """The reader a tab runs: this Python, this papertui, the same corpus arguments."""
        return [sys.executable, "-m", "papertui", *self.reader_args]

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_unspecified(host: str) -> bool:
    """True for 0.0.0.0 and ::, which listen on every interface of the machine."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def read_token_file(path: str) -> str:
    """The token in `path` (surrounding whitespace and a final newline dropped)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ServeError(f"papertui serve: --token-file {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise ServeError(f"papertui serve: --token-file {path}: {why}") from None
    token = text.strip()
    if not token:
        raise ServeError(f"papertui serve: --token-file {path} is empty")
    if len(token.split()) != 1:
        raise ServeError(f"papertui serve: --token-file {path}: the token is one word")
    return token


def check_options(
    host: str,
    port: int,
    token: str | None,
    token_file: str | None,
    public_url: str | None,
    reader_args: list[str],
) -> ServeOptions:
    """Options checked in the order a user fixes them; raises ServeError with one line."""
    if not 0 <= port <= 65535:
        raise ServeError(f"papertui serve: --port {port}: a port is 0-65535 (0: any free one)")
    if token is not None and token_file is not None:
        raise ServeError("papertui serve: give --token or --token-file, not both")
    if token_file is not None:
        token = read_token_file(token_file)
    if token is not None and len(token) < MIN_TOKEN:
        raise ServeError(
            f"papertui serve: the token is {len(token)} characters; use at least {MIN_TOKEN} "
            "(a short one can be guessed), or leave it out to get a random one"
        )
    if token is None and not is_loopback(host):
        raise ServeError(
            f"papertui serve: --host {host} lets other machines connect, so it needs "
            f"--token or --token-file; and {INSECURE}"
        )
    if public_url is not None:
        public_url = _checked_url(public_url)
    return ServeOptions(
        host=host,
        port=port,
        token=token if token is not None else secrets.token_urlsafe(24),
        token_given=token is not None,
        public_url=public_url,
        reader_args=reader_args,
    )


def _checked_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ServeError(
            f"papertui serve: --public-url {url}: give the address browsers use, "
            "starting with https:// (or http://)"
        )
    if parts.query or parts.fragment:
        raise ServeError(f"papertui serve: --public-url {url}: no ?query or #fragment")
    return url.rstrip("/")


def base_url(options: ServeOptions, port: int) -> str:
    """The address to print: --public-url, else this host and the port it listens on (the
    machine's name when it listens on every interface, as 0.0.0.0 is no address to open)."""
    if options.public_url:
        return options.public_url
    host = socket.gethostname() if is_unspecified(options.host) else options.host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 literal in a URL
    return f"http://{host}:{port}"


def warning(options: ServeOptions) -> str | None:
    """The warning printed at start for a server other machines can reach over plain HTTP."""
    if options.loopback or (options.public_url or "").startswith("https://"):
        return None
    return f"papertui serve: {INSECURE}"
