"""Latent semantic analysis for paper vectors: a seeded randomized SVD and the projection of
weighted term rows onto its basis. numpy only (the matrices given may be scipy sparse)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from papertui.core.semantic.vector_terms import Vocabulary, _top_terms, _weights

MAX_DIMS = 96  # LSA dimensions stored; fewer are used for small libraries (`dims_for`)
SEED = 1
# Power iterations of the randomized SVD. With 3, the directions compared at a few hundred
# papers still moved with the seed (related-paper precision@5 0.371..0.389 over seeds 1-4 on
# 489 ICLR abstracts); with 6 it is 0.382..0.383 whatever the seed. Above `EXACT_UP_TO` papers
# 3 are kept: 3 more cost ~10 s CPU at 100,000 papers, where sqrt(n) > 96 directions all count.
POWER_ITERATIONS = 6
LARGE_POWER_ITERATIONS = 3
EXACT_UP_TO = 20_000


def power_iterations(n: int) -> int:
    """Power iterations for the SVD of `n` papers (see `POWER_ITERATIONS`)."""
    return POWER_ITERATIONS if n <= EXACT_UP_TO else LARGE_POWER_ITERATIONS


def dims_for(n: int) -> int:
    """LSA dimensions to compare papers in: about sqrt(n), between 16 and `MAX_DIMS`.

    A few hundred abstracts support only a handful of topics; 100,000 support many more.
    """
    return max(16, min(MAX_DIMS, int(math.sqrt(max(n, 1)))))


def _transform(
    vocab: Vocabulary, basis: np.ndarray, texts: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [(c, _weights(vocab, c, n)) for c, n in vocab.columns(texts)]
    full = []
    for c, w in rows:
        norm = float(np.sqrt((w * w).sum())) or 1.0
        full.append((c, w / norm))
    tid, tw = _top_terms(rows)
    dense = np.zeros((len(texts), basis.shape[1]), dtype=np.float32)
    for r, (c, w) in enumerate(full):
        if len(c):
            dense[r] = w @ np.asarray(basis[c], dtype=np.float32)
    return tid, tw, dense.astype(np.float16)


def _orthonormal(y: np.ndarray) -> np.ndarray:
    """An orthonormal basis of y's columns via the small Gram matrix (cheaper than a tall QR)."""
    y = np.asarray(y, dtype=np.float64)
    w, u = np.linalg.eigh(y.T @ y)
    keep = w > w.max() * 1e-10 if len(w) else w > 0
    return (y @ (u[:, keep] / np.sqrt(w[keep]))).astype(np.float32)


def _randomized_svd(
    x: Any, k: int, seed: int, power: int = POWER_ITERATIONS
) -> tuple[np.ndarray, np.ndarray]:
    """Top-k right singular vectors and values of sparse `x` (Halko et al. 2011).

    Orthonormalisation goes through l x l Gram matrices rather than tall QR factorisations:
    the same subspace, at matrix-multiply speed.
    """
    rng = np.random.default_rng(seed)
    n, v = x.shape
    over = min(v, n, k + 10)
    q = _orthonormal(x @ rng.standard_normal((v, over)).astype(np.float32))
    for _ in range(power):
        z = _orthonormal(np.asarray(x.T @ q))
        q = _orthonormal(np.asarray(x @ z))
    b = np.asarray((x.T @ q).T, dtype=np.float64)  # l x v
    w, u = np.linalg.eigh(b @ b.T)
    order = np.argsort(-w)[:k]
    w, u = np.clip(w[order], 0, None), u[:, order]
    s = np.sqrt(w)
    safe = np.where(s > 0, s, 1.0)
    vt = (u.T @ b) / safe[:, None]
    # fix the sign of each direction so builds are reproducible to the bit
    signs = np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(axis=1)])
    signs[signs == 0] = 1
    return (vt * signs[:, None]).T.astype(np.float32), s.astype(np.float32)
