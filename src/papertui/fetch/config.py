"""Where each source lives and how politely to call it, from the environment: a mirror, a proxy
or a test server stands in for a public host by setting its base URL."""

from __future__ import annotations

import os
from dataclasses import dataclass

from papertui import __version__

# source -> (environment variable, the public host's base URL)
BASES = {
    "hf": ("PAPERTUI_HF_URL", "https://huggingface.co"),
    "arxiv": ("PAPERTUI_ARXIV_RSS_URL", "https://rss.arxiv.org"),
    "arxiv-query": ("PAPERTUI_ARXIV_API_URL", "https://export.arxiv.org"),
    "venue": (
        "PAPERTUI_PAPERCOPILOT_URL",
        "https://raw.githubusercontent.com/papercopilot/paperlists/main",
    ),
    "openreview": ("PAPERTUI_OPENREVIEW_URL", "https://api2.openreview.net"),
}
USER_AGENT = f"papertui/{__version__} (terminal reader of paper abstracts; python-httpx)"


class ConfigError(ValueError):
    """A bad value in the environment: one line, naming the variable."""


@dataclass(frozen=True, slots=True)
class FetchConfig:
    """How every request is made. `arxiv_delay`: seconds between two calls to arXiv (its terms
    ask for 3); `timeout`: seconds for each request to connect and for each read; `backoff`:
    the first wait before a retry when the server names none (doubled each time)."""

    arxiv_delay: float = 3.0
    timeout: float = 30.0
    backoff: float = 2.0
    max_retries: int = 3
    longest_wait: float = 120.0  # a Retry-After longer than this ends the source instead
    user_agent: str = USER_AGENT

    @classmethod
    def from_env(cls) -> FetchConfig:
        return cls(
            arxiv_delay=_seconds("PAPERTUI_ARXIV_DELAY", 3.0),
            timeout=_seconds("PAPERTUI_FETCH_TIMEOUT", 30.0, low=0.01),
            backoff=_seconds("PAPERTUI_FETCH_BACKOFF", 2.0),
        )


def base_url(source: str) -> str:
    """The base URL of a source ("hf", "arxiv", ...), without a trailing slash."""
    name, default = BASES[source]
    value = os.environ.get(name, "").strip() or default
    if not value.startswith(("http://", "https://")):
        raise ConfigError(f"{name}={value!r} is not an http(s) URL")
    return value.rstrip("/")


def _seconds(name: str, default: float, low: float = 0.0) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number of seconds") from None
    if not low <= value <= 3600:
        raise ConfigError(f"{name}={raw!r} must be from {low:g} to 3600 seconds")
    return value
