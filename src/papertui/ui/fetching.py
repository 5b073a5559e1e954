"""`R` in the reader: fetch the subscriptions, as a function over the library that a worker
runs. It touches no widget: it posts its progress and then `Fetched`, with the corpus read again
when the reader shows fetched papers. httpx loads only when `R` is pressed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from papertui.core.corpus.cache import load_corpus_cached
from papertui.core.library import Library
from papertui.core.library.sources import corpus_cache_dir
from papertui.core.system import paths
from papertui.core.text import counted
from papertui.ui import messages
from papertui.ui.background import Post


def fetch_subscriptions(
    library: Library, sources: Sequence[str], post: Post, cancelled: Callable[[], bool]
) -> None:
    """Fetch, then read the corpus again if it holds fetched papers."""
    from papertui.fetch.client import FetchCancelled
    from papertui.fetch.config import ConfigError
    from papertui.fetch.context import FetchOptions
    from papertui.fetch.run import fetch_sources
    from papertui.fetch.specs import SpecError, parse_spec

    def progress(source: str, papers: int, doing: str) -> None:
        got = f", {counted(papers, 'paper')}" if papers else ""
        post(messages.IndexProgress(f"fetching {source}: {doing}{got}"))

    try:
        specs = [parse_spec(text) for text in sources]
        outcomes = fetch_sources(specs, FetchOptions(), progress=progress, cancelled=cancelled)
    except (SpecError, ConfigError) as exc:
        post(messages.Fetched("", [str(exc)]))
        return
    except FetchCancelled:
        return
    except Exception as exc:  # noqa: BLE001 - the reader goes on; say what happened
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        post(messages.Fetched("", [reason]))
        return
    got = sum(len(o.records) for o in outcomes)
    new = sum(len(o.new) for o in outcomes)
    failures = [f"{o.spec.text}: {o.failure}" for o in outcomes if o.failure]
    corpus = None
    if shows_fetched(library.sources) and not cancelled():
        corpus, _cached = load_corpus_cached(library.sources, library.format, corpus_cache_dir())
    if got:
        summary = f"Fetched {counted(got, 'paper')}, {new} new."
    elif failures:
        summary = ""
    else:
        summary = "Nothing new: every subscription is unchanged or complete."
    if corpus is None and new:
        summary += " Open them with papertui --fetched (or papertui daily)."
    post(messages.Fetched(summary, failures, corpus))


def shows_fetched(sources: Sequence[str]) -> bool:
    root = paths.fetched_dir().resolve()
    return any(Path(s).resolve().is_relative_to(root) for s in sources)
