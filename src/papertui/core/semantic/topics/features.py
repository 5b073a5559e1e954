"""Step 1 of making topics: the terms of every abstract, counted into a papers x terms matrix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from papertui.core.semantic.phrases import Tokens, chunk_terms, doc_unique

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

MAX_FEATURES = 40_000


@dataclass(slots=True)
class Features:
    matrix: csr_matrix  # papers x features, sublinear tf (float32), canonical paper order
    words: list[str]  # feature strings ("graph neural"), folded, sorted
    df: np.ndarray
    idf: np.ndarray
    tokens: Tokens


def _min_df(n: int) -> int:
    return max(2, int(round(n / 5000)))


def build_features(
    texts: Sequence[str], progress: Callable[[float], None] | None, max_features: int
) -> Features:
    from scipy.sparse import csr_matrix

    tokens = Tokens()
    n = len(texts)
    for i, text in enumerate(texts):
        tokens.add(text)
        if progress is not None and i % 1000 == 999:
            progress(0.8 * (i + 1) / n)  # reading the words is most of the work
    tokens.flush()
    n_terms = max(1, len(tokens.term_words))

    # document frequency of every unigram and bigram, a chunk of papers at a time; partial
    # counts are merged every few chunks so that they never all sit in memory at once
    keys = np.zeros(0, np.int64)
    df = np.zeros(0, np.int64)
    parts_k: list[np.ndarray] = []
    parts_c: list[np.ndarray] = []
    n_chunks = len(tokens.chunks)
    for i, chunk in enumerate(tokens.chunks):
        if progress is not None:
            progress(0.8 + 0.1 * i / n_chunks)
        _, k_u, _ = doc_unique(*chunk_terms(tokens, chunk, n_terms))
        chunk_keys, counts = np.unique(k_u, return_counts=True)
        parts_k.append(chunk_keys)
        parts_c.append(counts)
        if len(parts_k) == 6 or i == len(tokens.chunks) - 1:
            keys, inverse = np.unique(np.concatenate([keys, *parts_k]), return_inverse=True)
            weights = np.concatenate([df, *parts_c])
            df = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(keys))
            df = df.astype(np.int64)
            parts_k, parts_c = [], []
            del inverse, weights
    keep = (df >= _min_df(n)) & (df <= max(2, n // 2))
    keys, df = keys[keep], df[keep]
    if len(keys) > max_features:
        top = np.argsort(-df, kind="stable")[:max_features]
        top.sort()
        keys, df = keys[top], df[top]

    def word_of(key: int) -> str:
        if key < n_terms:
            return tokens.term_words[key]
        a, b = divmod(key - n_terms, n_terms)
        return tokens.term_words[a] + " " + tokens.term_words[b]

    words = [word_of(int(k)) for k in keys]
    # canonical feature order (by string): ids given in reading order do not matter
    order = np.array(sorted(range(len(words)), key=words.__getitem__), dtype=np.int64)
    keys, df = keys[order], df[order]
    words = [words[i] for i in order]
    rank = np.argsort(keys)
    sorted_keys = keys[rank]

    row_lengths = np.zeros(n, dtype=np.int64)
    cols_p: list[np.ndarray] = []
    tf_p: list[np.ndarray] = []
    for i, chunk in enumerate(tokens.chunks):
        if progress is not None:
            progress(0.9 + 0.1 * i / n_chunks)
        d_u, k_u, c_u = doc_unique(*chunk_terms(tokens, chunk, n_terms))
        if len(sorted_keys) == 0:
            continue
        pos = np.minimum(np.searchsorted(sorted_keys, k_u), len(sorted_keys) - 1)
        hit = sorted_keys[pos] == k_u
        row_lengths += np.bincount(d_u[hit], minlength=n)
        cols_p.append(rank[pos[hit]].astype(np.int32))
        tf_p.append((1.0 + np.log(c_u[hit])).astype(np.float32))
    cols = np.concatenate(cols_p) if cols_p else np.zeros(0, np.int32)
    tf = np.concatenate(tf_p) if tf_p else np.zeros(0, np.float32)
    del cols_p, tf_p
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(row_lengths, out=indptr[1:])
    # papers arrive in order, and by key within a paper; columns still need sorting per row
    matrix = csr_matrix((tf, cols, indptr), shape=(n, len(words)))
    matrix.sort_indices()
    idf = (np.log((1.0 + n) / (1.0 + df)) + 1.0).astype(np.float32)
    return Features(matrix, words, df, idf, tokens)
