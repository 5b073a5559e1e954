"""Where a set of sources lives on disk, and a search that needs no corpus.

Kept apart from `library` so the CLI's fast path (`quick_search`) and the cache locations can be
used without building a `Library`: a current index answers plain queries on its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from papertui.core import paths
from papertui.core.query import parse_query
from papertui.core.records import paper_record
from papertui.core.search import IndexStore, SearchFailed, sources_key
from papertui.core.store import Store

__all__ = [
    "corpus_cache_dir",
    "drop_old_cache",
    "index_store_for",
    "quick_search",
    "resolve_sources",
]


def resolve_sources(sources: Sequence[str | Path] | None) -> list[str]:
    """The paths given; else the settings' default paths; else the bundled collections."""
    if sources:
        return [str(s) for s in sources]
    from papertui.core.settings import load_settings

    defaults = load_settings().default_paths
    return defaults or [str(paths.bundled_corpus_dir())]


def corpus_cache_dir() -> Path:
    """Where each corpus file's parsed papers are cached (shared by every set of sources: a
    file opened alone and within its folder is parsed once)."""
    return paths.cache_dir() / "corpus"


def index_store_for(sources: Sequence[str]) -> IndexStore:
    return IndexStore(paths.cache_dir() / "index" / sources_key(sources))


def quick_search(
    sources: Sequence[str | Path] | None, query: str, limit: int
) -> list[dict[str, object]] | None:
    """Search without reading the corpus, when the index is current and answers on its own.

    None means: take the full path (corpus changed, no index, filters, or fewer full-text hits
    than `limit`, where fuzzy title matches would be added). The answer is then the same.
    """
    parsed = parse_query(query)
    if parsed.filters or parsed.unknown or not parsed.text:
        return None
    chosen = resolve_sources(sources)
    index = index_store_for(chosen).open_if_unchanged(chosen)
    if index is None:
        return None
    try:
        try:
            result = index.search(parsed.text, limit=limit)
        except SearchFailed:
            return None  # damaged: the full path rebuilds the index
        if len(result.hits) < limit or result.fallback or result.corrections:
            return None
        stored = [index.stored(pid) for pid, _ in result.hits]
    finally:
        index.close()
    if any(s is None for s in stored):
        return None
    store = Store(paths.store_path())
    try:
        annotations = store.snapshot()
    finally:
        store.close()
    records = []
    for fields, (_pid, score) in zip(stored, result.hits, strict=True):
        assert fields is not None
        records.append(paper_record(fields, annotations, score=score))
    return records


def drop_old_cache(sources: Sequence[str], fmt: str | None) -> None:
    """The one-file corpus cache of earlier versions (as large as the corpus): replaced by the
    per-file caches in `corpus_cache_dir()`."""
    with contextlib.suppress(OSError):
        (index_store_for(sources).root / f"corpus-{fmt or 'auto'}.bin").unlink()
