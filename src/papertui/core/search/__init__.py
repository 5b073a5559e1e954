"""The one package that speaks Whoosh: the schema and analyzers, queries and highlights, and
building, updating and opening the index. Nothing outside it imports whoosh. It may import
`corpus` and `system`; `query` and the library above it use it."""

from papertui.core.search.building import PARALLEL_FROM, fingerprint, needs_child_process
from papertui.core.search.generations import (
    IndexReport,
    IndexStore,
    corpus_digest,
    source_stats,
    sources_key,
)
from papertui.core.search.schema import FIELDS, INDEX_VERSION, IndexCancelled, schema
from papertui.core.search.searching import Highlighter, SearchFailed, SearchIndex, SearchResult
from papertui.core.search.stopping import SearchStopped, stop_when

__all__ = [
    "FIELDS",
    "INDEX_VERSION",
    "PARALLEL_FROM",
    "Highlighter",
    "IndexCancelled",
    "IndexReport",
    "IndexStore",
    "SearchFailed",
    "SearchIndex",
    "SearchResult",
    "SearchStopped",
    "corpus_digest",
    "fingerprint",
    "needs_child_process",
    "schema",
    "source_stats",
    "sources_key",
    "stop_when",
]
