"""Words and phrases of abstracts, shared by topics and the overview's distinctive terms.

An abstract becomes a stream of content words: markup removed, lowercased, plurals folded
("networks" and "network" are one term); stop words, words that say how a paper talks
("propose", "results"), numbers, LaTeX commands and punctuation break the stream, so that
adjacent words in it make phrases ("graph neural networks"). Streams are kept as numpy arrays a
chunk of papers at a time: at 100,000 abstracts they take about 50 MB.
"""

from __future__ import annotations

from papertui.core.semantic.phrases.naming import (
    head_rates,
    label_ok,
    overlaps,
    phrase_key,
    spellings,
)
from papertui.core.semantic.phrases.table import PhraseTable, terms_of
from papertui.core.semantic.phrases.tokens import (
    BOUNDARY,
    CHUNK_DOCS,
    Chunk,
    Tokens,
    chunk_terms,
    doc_unique,
    ngram_keys,
)
from papertui.core.semantic.phrases.words import GENERIC_WORDS, STOP_WORDS, fold_word

__all__ = [
    "BOUNDARY",
    "CHUNK_DOCS",
    "GENERIC_WORDS",
    "STOP_WORDS",
    "Chunk",
    "PhraseTable",
    "Tokens",
    "chunk_terms",
    "doc_unique",
    "fold_word",
    "head_rates",
    "label_ok",
    "ngram_keys",
    "overlaps",
    "phrase_key",
    "spellings",
    "terms_of",
]
