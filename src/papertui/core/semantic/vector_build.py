"""Building paper vectors in memory that does not grow with the library.

The texts are read once, a chunk of papers at a time: each paper's words become unigram ids,
written to a scratch file beside the cache, and only the counts of which papers hold which
term are kept (merged as they come). Then the vocabulary is chosen from those counts, and the
scratch file is read back a chunk at a time to make each paper's weighted term row: its top
terms are written out at once, and the rows of an evenly spread sample of at most
`SVD_SAMPLE` papers are kept for the SVD. Last, every chunk's rows are projected onto the SVD
basis. Up to `SVD_SAMPLE` papers the result is the one the whole matrix gives, bit for bit
(every step works row by row); above it, the basis is fitted on the sample.

The arrays go to `Outputs`: kept in memory for a small build, or written to the cache's
.npy files as they are made, so that at a million papers the 700 MB of vectors are never
all resident.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from papertui.core.semantic.vector_files import Outputs
from papertui.core.semantic.vector_lsa import MAX_DIMS, SEED, _randomized_svd, power_iterations
from papertui.core.semantic.vector_terms import (
    TOP_TERMS,
    Vocabulary,
    _doc_text,
    _keys,
    _Tokenizer,
    _top_terms,
    _weights,
    kept_terms,
)
from papertui.core.semantic.vectors import PaperVectors

Progress = Callable[[int, int], None]

# Papers whose rows the SVD basis is fitted on; the others are projected onto it. At 100,000
# papers the sample's rows take ~150 MB.
SVD_SAMPLE = 100_000
CHUNK = 4000  # papers read, counted or projected at a time
# Provisional unigram id space while reading (the final one, the vocabulary's size, is known
# only at the end): bigram (a, b) is (a + 1) * WIDE + b. Sorting provisional keys sorts the
# final ones the same way, so the vocabulary chosen is the same.
WIDE = 1 << 31


class Counts:
    """How many papers hold each term key, merged a few chunks at a time."""

    def __init__(self) -> None:
        self.keys = np.zeros(0, np.int64)
        self.df = np.zeros(0, np.int64)
        self._parts: list[np.ndarray] = []

    def add(self, keys: np.ndarray) -> None:
        """`keys`: each paper's distinct keys, papers concatenated."""
        self._parts.append(keys)
        if sum(len(p) for p in self._parts) > 8_000_000:
            self.merge()

    def merge(self) -> None:
        """Fold the chunks added since into the sorted keys: keys met before are counted in
        place, new ones inserted (at a million papers, 30 million keys: a union of both
        arrays, with its inverse and a bincount, was 1.4 GB more at the vectors' peak)."""
        if not self._parts:
            return
        fresh, counts = np.unique(np.concatenate(self._parts), return_counts=True)
        self._parts = []
        at = np.searchsorted(self.keys, fresh)
        known = at < len(self.keys)
        known[known] = self.keys[at[known]] == fresh[known]
        self.df[at[known]] += counts[known]  # `fresh` is unique: one addition a slot
        new = ~known
        if new.any():
            self.keys = np.insert(self.keys, at[new], fresh[new])
            self.df = np.insert(self.df, at[new], counts[new])


def _distinct_per_doc(
    doc: np.ndarray, keys: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (doc, key) pairs with counts, sorted by doc then key (keys ranked first, so the
    pair fits one int64 whatever the keys' size)."""
    if not len(keys):
        return doc, keys, np.zeros(0, np.int64)
    uniq, rank = np.unique(keys, return_inverse=True)
    pair, counts = np.unique(doc * len(uniq) + rank.reshape(-1), return_counts=True)
    d, r = np.divmod(pair, len(uniq))
    return d, uniq[r], counts


def _chunk_keys(streams: list[np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray]:
    """(local doc, key) of every unigram and bigram of a chunk's id streams."""
    keys = [_keys(s, width) for s in streams]  # type: ignore[arg-type]
    lengths = np.fromiter((len(k) for k in keys), np.int64, len(keys))
    doc = np.repeat(np.arange(len(keys), dtype=np.int64), lengths)
    return doc, (np.concatenate(keys) if keys else np.zeros(0, np.int64))


class Scratch:
    """Each paper's unigram id stream, int32, in a temporary file (read back by chunk)."""

    def __init__(self, where: Path | None) -> None:
        if where is not None:
            where.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".streams-", dir=where)
        self.path = Path(name)
        self._file = os.fdopen(fd, "w+b")
        self.lengths: list[int] = []

    def write(self, streams: list[np.ndarray]) -> None:
        for s in streams:
            self._file.write(s.tobytes())
            self.lengths.append(len(s))

    def chunks(self) -> Iterator[tuple[int, list[np.ndarray]]]:
        """(first paper, streams) a chunk at a time, in order."""
        self._file.flush()
        self._file.seek(0)
        for start in range(0, len(self.lengths), CHUNK):
            lengths = self.lengths[start : start + CHUNK]
            flat = np.fromfile(self._file, dtype=np.int32, count=sum(lengths))
            ends = np.cumsum(lengths)
            yield start, np.split(flat, ends[:-1]) if lengths else []

    def close(self) -> None:
        self._file.close()
        self.path.unlink(missing_ok=True)


def read_streams(
    texts: Iterable[tuple[str, str]],
    count: int,
    scratch: Scratch,
    progress: Progress | None,
) -> tuple[_Tokenizer, Counts]:
    """Pass 1: every text's unigram ids to `scratch`, and how many papers hold each key."""
    tok = _Tokenizer()
    counts = Counts()
    streams: list[np.ndarray] = []
    step = max(1, min(2000, count // 50 or 1))

    def flush() -> None:
        doc, keys = _chunk_keys(streams, WIDE)
        counts.add(_distinct_per_doc(doc, keys)[1])
        scratch.write(streams)
        streams.clear()

    for done, (title, abstract) in enumerate(texts, start=1):
        streams.append(np.asarray(tok.ids(_doc_text(title, abstract)), dtype=np.int32))
        if len(streams) == CHUNK:
            flush()
        if progress is not None and done % step == 0:
            progress(done, count)
    flush()
    counts.merge()
    return tok, counts


def choose_vocabulary(tok: _Tokenizer, counts: Counts, n: int) -> Vocabulary:
    """The terms kept (by `vector_terms.kept_terms`) and their IDF."""
    terms, _df, idf = kept_terms(counts.keys, counts.df, n)
    width = len(tok.words) + 1
    a, b = np.divmod(terms, WIDE)
    final = np.where(terms >= WIDE, a * width + b, terms)  # (a' + 1) * width + b for a pair
    return Vocabulary(tok.words, width, final.astype(np.int64), idf)


def chunk_rows(vocab: Vocabulary, streams: list[np.ndarray]) -> Any:
    """A chunk's weighted term rows: scipy CSR, unit rows, sorted indices (as the whole
    matrix's rows are)."""
    import scipy.sparse as sp

    doc, keys = _chunk_keys(streams, vocab.width)
    pdoc, pkey, counts = _distinct_per_doc(doc, keys)
    terms = vocab.keys
    col = np.searchsorted(terms, pkey)
    col = np.minimum(col, max(len(terms) - 1, 0))
    known = terms[col] == pkey if len(terms) else np.zeros(len(pkey), bool)
    pdoc, col, counts = pdoc[known], col[known], counts[known]
    w = _weights(vocab, col, counts)
    x = sp.csr_matrix((w, (pdoc, col)), shape=(len(streams), len(terms)), dtype=np.float32)
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    x = sp.csr_matrix(sp.diags(1.0 / norms) @ x)
    x.sort_indices()
    return x


def row_pairs(x: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        (
            x.indices[x.indptr[r] : x.indptr[r + 1]].astype(np.int64),
            x.data[x.indptr[r] : x.indptr[r + 1]],
        )
        for r in range(x.shape[0])
    ]


def sample_rows(n: int) -> np.ndarray:
    """The papers the SVD is fitted on: all of them, or `SVD_SAMPLE` spread evenly."""
    size = SVD_SAMPLE
    if n <= size:
        return np.arange(n, dtype=np.int64)
    return np.unique(np.linspace(0, n - 1, size).astype(np.int64))


def build(
    ids: Sequence[str],
    texts: Iterable[tuple[str, str]],
    progress: Progress | None = None,
    seed: int = SEED,
    dims: int = MAX_DIMS,
    directory: Path | None = None,
) -> PaperVectors:
    """Vectors for papers given as ids and (title_or_empty, abstract) pairs in the same order
    (`texts` may be a generator: it is read once; see this module's docstring).

    Deterministic for a given input and seed. `progress(done, total)` is called as papers are
    read (total = number of papers) and once more at the end. Duplicate ids keep the first.
    With `directory`, the vectors are written there as they are made (what `save` writes) and
    come back memory-mapped; its parent holds the scratch file meanwhile.
    """
    order: list[str] = []
    seen: set[str] = set()

    def unique() -> Iterator[tuple[str, str]]:
        for pid, pair in zip(ids, texts, strict=True):
            if pid not in seen:
                seen.add(pid)
                order.append(pid)
                yield pair

    scratch = Scratch(directory.parent if directory is not None else None)
    try:
        tok, counts = read_streams(unique(), len(ids), scratch, progress)
        n = len(order)
        seen.clear()
        vocab = choose_vocabulary(tok, counts, n)
        del counts
        k = max(0, min(dims, len(vocab.keys) - 1, n - 1))
        out = Outputs(directory, n)
        chosen = sample_rows(n)
        sample = []
        for start, streams in scratch.chunks():
            x = chunk_rows(vocab, streams)
            tid, tw = _top_terms(row_pairs(x))
            out.add("term_ids", tid)
            out.add("term_weights", tw)
            lo, hi = np.searchsorted(chosen, [start, start + len(streams)])
            if hi > lo:
                sample.append(x[chosen[lo:hi] - start] if hi - lo < len(streams) else x)
        basis = np.zeros((len(vocab.keys), 0), np.float32)
        if k > 0:
            import scipy.sparse as sp

            fitted = sp.vstack(sample, format="csr")
            del sample
            basis, _ = _randomized_svd(fitted, k, seed, power_iterations(n))
            if len(chosen) == n:  # every row is in memory: project them at once
                out.add("dense", np.asarray(fitted @ basis, dtype=np.float32).astype(np.float16))
            else:
                del fitted
                for _, streams in scratch.chunks():
                    dense = np.asarray(chunk_rows(vocab, streams) @ basis, dtype=np.float32)
                    out.add("dense", dense.astype(np.float16))
        else:
            out.add("dense", np.zeros((n, 0), np.float16))
        out.finish()
    finally:
        scratch.close()
    if progress is not None:
        progress(n, n)
    if directory is not None:
        vectors = PaperVectors(order, vocab, *(np.zeros((0, 0)),) * 3, basis.astype(np.float16))
        vectors.save(directory, per_paper=False)
        return PaperVectors.load(directory)
    return PaperVectors(
        order,
        vocab,
        out.joined("term_ids", TOP_TERMS, np.uint16),
        out.joined("term_weights", TOP_TERMS, np.float16),
        out.joined("dense", k, np.float16),
        basis.astype(np.float16),
    )
