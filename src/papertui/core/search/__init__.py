"""The one package that speaks Whoosh: the schema and analyzers, queries and highlights, and
building, updating and opening the index. Nothing outside it imports whoosh."""

from papertui.core.search.building import (
    IndexReport,
    IndexStore,
    corpus_digest,
    fingerprint,
    source_stats,
    sources_key,
)
from papertui.core.search.schema import FIELDS, INDEX_VERSION, IndexCancelled, schema
from papertui.core.search.searching import Highlighter, SearchIndex, SearchResult

__all__ = [
    "FIELDS",
    "INDEX_VERSION",
    "Highlighter",
    "IndexCancelled",
    "IndexReport",
    "IndexStore",
    "SearchIndex",
    "SearchResult",
    "corpus_digest",
    "fingerprint",
    "schema",
    "source_stats",
    "sources_key",
]
