"""Where a set of sources lives on disk, and a search that needs no corpus.

Kept apart from `library` so the CLI's fast path (`quick_search`) and the cache locations can be
used without building a `Library`: a current index answers plain queries on its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from rapidfuzz import utils

from papertui.core.export.records import paper_record
from papertui.core.query import Filter, parse_query
from papertui.core.query.fuzzy import MIN_QUERY, SCAN_ALL_UP_TO, closest
from papertui.core.query.planner import FUZZY_BELOW, OPERATORS, TITLE_MATCH_CUTOFF
from papertui.core.query.sets import FilterSets
from papertui.core.search import IndexStore, SearchFailed, SearchIndex, sources_key
from papertui.core.store import Annotations, Store
from papertui.core.system import paths

# filters the store answers on its own (collections, topics and "new" need the corpus)
_STORE_FILTERS = frozenset({"bookmarked", "note", "read", "unread", "liked", "skipped", "tag"})

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
    from papertui.core.system.settings import load_settings

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

    Words with filters the store answers (tags, bookmarks, notes, read, likes) run here too.
    None means: take the full path (corpus changed, no index, other filters, or a short answer
    that fuzzy title matches over the whole library would lengthen). The answer is then the same.
    """
    parsed = parse_query(query)
    if parsed.unknown or not parsed.text or parsed.tree is not None or parsed.semantic:
        return None
    if any(f.kind not in _STORE_FILTERS for f in parsed.filters):
        return None
    chosen = resolve_sources(sources)
    index = index_store_for(chosen).open_if_unchanged(chosen)
    if index is None:
        return None
    store = Store(paths.store_path())
    try:
        annotations = store.snapshot()
    finally:
        store.close()
    sets = FilterSets((), {})  # annotation filters need no papers
    try:
        try:
            result = index.search(
                parsed.text,
                limit=limit,
                only=sets.conditions(parsed.filters, annotations, negated=False),
                exclude=sets.conditions(parsed.filters, annotations, negated=True),
            )
        except SearchFailed:
            return None  # damaged: the full path rebuilds the index
        if result.fallback or result.corrections:
            return None
        hits = list(result.hits)
        if len(hits) < min(limit, FUZZY_BELOW) and not OPERATORS.search(parsed.text):
            # the full path adds fuzzy title matches: answerable here among a few papers only
            more = _titles_among(index, parsed.text, sets, parsed.filters, annotations)
            if more is None:
                return None
            found = {pid for pid, _ in hits}
            hits += [(pid, 0.0) for pid in more if pid not in found]
            hits = hits[:limit]
        stored = [index.stored(pid) for pid, _ in hits]
    finally:
        index.close()
    if any(s is None for s in stored):
        return None
    records = []
    for fields, (_pid, score) in zip(stored, hits, strict=True):
        assert fields is not None
        records.append(paper_record(fields, annotations, score=score))
    return records


def _titles_among(
    index: SearchIndex,
    text: str,
    sets: FilterSets,
    filters: Sequence[Filter],
    annotations: Annotations,
) -> list[str] | None:
    """The fuzzy title matches of `text` among the papers the filters admit, as the planner
    finds them; None when the filters admit too many papers to read their titles here."""
    positive = [f for f in filters if not f.negated and f.kind != "unread"]
    if not positive:
        return None
    admitted = set.intersection(*(set(sets.ids_for(f, annotations) or ()) for f in positive))
    for f in filters:
        if f.negated or f.kind == "unread":
            admitted -= set(sets.ids_for(f, annotations) or ())
    if len(admitted) > SCAN_ALL_UP_TO:
        return None
    titles = index.titles_in_file_order(admitted)  # unknown ids are not in the library
    needle = utils.default_process(text)
    if len(needle) < MIN_QUERY:
        return []
    processed = [utils.default_process(title) for _pid, title in titles]
    found = closest(needle, processed, None, 50, TITLE_MATCH_CUTOFF)
    return [titles[i][0] for i, _score in found]


def drop_old_cache(sources: Sequence[str], fmt: str | None) -> None:
    """The one-file corpus cache of earlier versions (as large as the corpus): replaced by the
    per-file caches in `corpus_cache_dir()`."""
    with contextlib.suppress(OSError):
        (index_store_for(sources).root / f"corpus-{fmt or 'auto'}.bin").unlink()
