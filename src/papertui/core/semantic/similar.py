"""Related papers and free-text queries over `PaperVectors`.

A paper's relatedness to a query is the cosine of their weighted-term vectors plus
`DENSE_WEIGHT` times the cosine of their LSA vectors; the query papers never appear in their
own list. The query paper's terms weigh by a little more IDF than the papers' own
(`QUERY_IDF_POWER`): a rare word the paper uses counts a little more when looking for its
neighbours than when it is one. Optionally (``feedback=True``) the query is first expanded
with its best `FEEDBACK` neighbours (pseudo-relevance feedback); it is off by default: it
raised precision@5 by shared keyword but lowered it by shared author.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from papertui.core.semantic.vectors import IDF_POWER, PaperVectors, _weights

DENSE_WEIGHT = 0.4  # how much the LSA (topic) cosine adds to the term cosine
# Extra IDF power on a related-papers query's terms (the papers keep `IDF_POWER`): measured to
# raise precision@5 both by shared keyword and by shared author (docs/lab-notes).
QUERY_IDF_POWER = 0.25
FEEDBACK = 8  # neighbours folded back into the query
FEEDBACK_WEIGHT = 0.5  # their centroid's weight relative to the query's
# `~sentence` lists papers scoring at least this share of the best one: below it (a fifth of the
# way down "~protein folding" on 3,000 NeurIPS papers) the papers share only common words
MEANING_FLOOR = 0.25
# From this many papers, related papers are looked for among the 1/CANDIDATE_SHARE nearest in
# LSA space (`near_scores`); below it, among all (the figures measured on the dev sets).
PREFILTER_FROM = 200_000
CANDIDATE_SHARE = 50


class Query:
    """A query in both spaces: a vocabulary-length term vector and a unit LSA vector."""

    def __init__(self, terms: np.ndarray, dense: np.ndarray) -> None:
        self.terms = terms.astype(np.float32)
        self.dense = dense.astype(np.float32)

    def normalised(self) -> Query:
        tn = float(np.linalg.norm(self.terms)) or 1.0
        dn = float(np.linalg.norm(self.dense)) or 1.0
        return Query(self.terms / tn, self.dense / dn)

    def __add__(self, other: Query) -> Query:
        return Query(self.terms + other.terms, self.dense + other.dense)

    def __mul__(self, factor: float) -> Query:
        return Query(self.terms * factor, self.dense * factor)

    def __bool__(self) -> bool:
        return bool(np.any(self.terms) or np.any(self.dense))


def papers_query(
    vectors: PaperVectors, rows: Sequence[int], weights: Sequence[float] | None = None
) -> Query:
    """The (weighted) centroid of papers at positions `rows`, each paper counting once."""
    return Query(vectors.term_vector(rows, weights), vectors.dense_vector(rows, weights))


def sharpened(vectors: PaperVectors, query: Query) -> Query:
    """The query with its terms weighted by `QUERY_IDF_POWER` more IDF (unit parts)."""
    idf = np.asarray(vectors.vocab.idf, dtype=np.float32)
    extra = np.power(np.maximum(idf, 0.0), QUERY_IDF_POWER / IDF_POWER)
    return Query(query.terms * extra, query.dense).normalised()


def query_vector(vectors: PaperVectors, text: str) -> Query:
    """A free-text query ("papers about this sentence") in the papers' space (unit parts)."""
    ((cols, counts),) = vectors.vocab.columns([text])
    terms = np.zeros(len(vectors.vocab.keys), dtype=np.float32)
    if len(cols):
        terms[cols] = _weights(vectors.vocab, cols, counts)
    dense = terms[cols] @ np.asarray(vectors.basis[cols], dtype=np.float32) if len(cols) else None
    k = vectors.dims
    d = np.zeros(k, np.float32) if dense is None else np.asarray(dense[:k], np.float32)
    return Query(terms, d).normalised()


def scores(vectors: PaperVectors, query: Query) -> np.ndarray:
    """Every paper's relatedness to a query (unit parts expected)."""
    s = vectors.term_scores(query.terms)
    if vectors.dims and np.any(query.dense):
        s += DENSE_WEIGHT * vectors.dense_scores(query.dense[: vectors.dims])
    return s


def near_scores(vectors: PaperVectors, query: Query) -> np.ndarray:
    """`scores`, but in a library of `PREFILTER_FROM` papers or more only for the share
    `1 / CANDIDATE_SHARE` of papers nearest in LSA space (the others -inf): the term part
    reads 128 terms a paper, 1 GB at a million papers, for "more like this" in half a second.
    The nearest are found by the rough int8 cosines when the vectors have them, and their
    scores then use the exact ones."""
    n = len(vectors)
    if n < PREFILTER_FROM or not vectors.dims or not np.any(query.dense):
        return scores(vectors, query)
    q = query.dense[: vectors.dims]
    rough = vectors.rough_dense_scores(q)
    dense = vectors.dense_scores(q) if rough is None else rough
    keep = np.sort(np.argpartition(-dense, n // CANDIDATE_SHARE)[: n // CANDIDATE_SHARE])
    exact = dense[keep] if rough is None else vectors.dense_scores_of(q, keep)
    s = np.full(n, -np.inf, dtype=np.float32)
    s[keep] = vectors.term_scores_of(query.terms, keep) + DENSE_WEIGHT * exact
    return s


def top(scores_: np.ndarray, limit: int, banned: np.ndarray | None = None) -> np.ndarray:
    """Positions of the `limit` best scores (ties by position), skipping `banned` positions."""
    s = scores_.astype(np.float64, copy=True)
    if banned is not None and len(banned):
        s[banned] = -np.inf
    limit = min(limit, int(np.isfinite(s).sum()))
    if limit <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-s, limit - 1)[:limit] if limit < len(s) else np.arange(len(s))
    return part[np.lexsort((part, -s[part]))]


def expand(vectors: PaperVectors, query: Query, banned: np.ndarray, n: int = FEEDBACK) -> Query:
    """Pseudo-relevance feedback: add the centroid of the query's `n` best papers."""
    first = top(near_scores(vectors, query), n, banned)
    if len(first) == 0:
        return query
    fb = papers_query(vectors, list(first)).normalised()
    return (query + fb * FEEDBACK_WEIGHT).normalised()


def similar(
    vectors: PaperVectors,
    ids: Sequence[str],
    limit: int = 20,
    exclude: Collection[str] = (),
    feedback: bool = False,
) -> list[tuple[str, float]]:
    """Papers most like the paper(s) `ids` (their centroid), best first, as (id, score).

    The query papers and `exclude` are never returned. Unknown ids are ignored; no known id
    gives an empty list. Scores are comparable within one call only.
    """
    rows = [r for r in (vectors.position(p) for p in dict.fromkeys(ids)) if r is not None]
    if not rows or limit <= 0:
        return []
    banned = np.array(
        sorted(set(rows) | {r for r in (vectors.position(p) for p in exclude) if r is not None}),
        dtype=np.int64,
    )
    query = sharpened(vectors, papers_query(vectors, rows))
    if not query:
        return []
    if feedback:
        query = expand(vectors, query, banned)
    s = near_scores(vectors, query)
    return [(vectors.ids[r], float(s[r])) for r in top(s, limit, banned)]


def search(
    vectors: PaperVectors, text: str, limit: int = 20, exclude: Collection[str] = ()
) -> list[tuple[str, float]]:
    """Papers about a free-text sentence, best first (the reader's `~` search)."""
    query = query_vector(vectors, text)
    if not query or limit <= 0:
        return []
    banned = np.array(
        sorted(r for r in (vectors.position(p) for p in exclude) if r is not None), dtype=np.int64
    )
    s = scores(vectors, query)
    rows = top(s, limit, banned)
    if not len(rows):
        return []
    floor = max(float(s[rows[0]]) * MEANING_FLOOR, 1e-9)
    return [(vectors.ids[r], float(s[r])) for r in rows if s[r] >= floor]


def unit_rows(v: PaperVectors, rows: Sequence[int]) -> np.ndarray:
    """The papers' LSA vectors, unit length (rows)."""
    k = v.dims
    a = np.asarray(v.dense[np.asarray(rows, dtype=np.int64), :k], dtype=np.float32)
    norms = np.linalg.norm(a, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return a / norms


def nearest(v: PaperVectors, anchors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index of the nearest anchor, its cosine) for every paper, in one pass over the rows."""
    k = v.dims
    arg = np.zeros(len(v), dtype=np.int64)
    best = np.zeros(len(v), dtype=np.float32)
    a = anchors[:, :k].T.astype(np.float32)
    step = max(256, min(16384, (1 << 22) // max(1, len(anchors))))  # a block: 16 MiB at most
    for s in range(0, len(v), step):
        block = np.asarray(v.dense[s : s + step, :k], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        sims = (block / norms) @ a
        arg[s : s + step] = sims.argmax(axis=1)
        best[s : s + step] = sims.max(axis=1)
    return arg, best
