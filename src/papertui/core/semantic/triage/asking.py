"""\"Ask me\": the papers whose answer would teach the interest model the most."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from papertui.core.semantic.similar import nearest, top, unit_rows
from papertui.core.semantic.triage import weights
from papertui.core.semantic.vectors import PAD, PaperVectors

if TYPE_CHECKING:
    from papertui.core.semantic.triage.model import InterestModel, Ranked


def ask_order(model: InterestModel, limit: int, exclude: Collection[str]) -> list[Ranked]:
    """See `InterestModel.ask_order`."""
    banned = model.banned(exclude)
    v = model.vectors
    if model.positives and model.negatives and v.dims and len(model.anchors):
        kept = model.nearest_anchor()[1]
        passed = nearest(v, unit_rows(v, model.negatives))[1]
        doubt = 2.0 * np.minimum(kept, passed) - np.maximum(kept, passed)
    else:
        s = model.scores()
        pos = s[model.positives].mean() if model.positives else float(np.quantile(s, 0.99))
        neg = s[model.negatives].mean() if model.negatives else float(np.median(s))
        doubt = -np.abs(s - (pos + neg) / 2.0)
    rows = distinct(v, top(doubt, weights.ASK_POOL * limit, banned), limit)
    return [model.ranked(int(r), True) for r in rows]


def distinct(v: PaperVectors, rows: np.ndarray, limit: int) -> list[int]:
    """The first `limit` of `rows` that are not near-copies (term cosine at least
    `weights.DUPLICATE_COSINE`) of one taken before them: one answer settles all the copies of
    a paper. The copies fill the list only when too few others are left."""
    if not len(rows):
        return []
    ids = np.asarray(v.term_ids[rows]).astype(np.int64)
    w = np.asarray(v.term_weights[rows], dtype=np.float64)
    w[ids >= len(v.vocab.keys)] = 0.0
    w /= np.maximum(np.linalg.norm(w, axis=1, keepdims=True), 1e-12)
    m = sparse.csr_matrix(
        (w.ravel(), (np.repeat(np.arange(len(rows)), ids.shape[1]), ids.ravel())),
        shape=(len(rows), PAD + 1),
    )
    close = (m @ m.T).toarray() >= weights.DUPLICATE_COSINE
    taken: list[int] = []
    copies: list[int] = []
    for i in range(len(rows)):
        if len(taken) == limit:
            break
        (copies if close[i, taken].any() else taken).append(i)
    return [int(rows[i]) for i in taken + copies[: limit - len(taken)]]
