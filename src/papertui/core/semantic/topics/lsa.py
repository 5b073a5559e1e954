"""Step 2: TF-IDF rows reduced by a randomised truncated SVD (latent semantic analysis)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix


def tfidf_rows(matrix: csr_matrix, idf: np.ndarray, copy: bool = True) -> csr_matrix:
    """Unit-length TF-IDF rows of a term-frequency matrix; with copy=False, in its place."""
    from scipy.sparse import csr_matrix

    data = matrix.data.astype(np.float32, copy=copy)
    data *= idf[matrix.indices]
    lengths = np.diff(matrix.indptr)
    full = lengths > 0
    norms = np.ones(len(lengths), dtype=np.float32)
    if len(data):
        sums = np.add.reduceat(data * data, matrix.indptr[:-1][full])
        norms[full] = np.sqrt(sums)
    norms[norms == 0] = 1.0
    data *= np.repeat(1.0 / norms, lengths)
    return csr_matrix((data, matrix.indices, matrix.indptr), shape=matrix.shape)


def _orth(a: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the columns of `a` through the eigenvectors of its Gram matrix:
    what a QR gives for a range finder, at a tenth of the time of LAPACK's QR here."""
    gram = a.T.astype(np.float64) @ a.astype(np.float64)
    w, v = np.linalg.eigh(gram)
    keep = w > w.max() * 1e-10 if len(w) and w.max() > 0 else np.zeros(len(w), bool)
    return np.asarray(a @ (v[:, keep] / np.sqrt(w[keep])).astype(a.dtype))


def randomized_basis(x: csr_matrix, dims: int, rng: np.random.Generator) -> np.ndarray:
    """Top right singular vectors (features x dims) of `x`, by a randomised range finder with
    power iterations (Halko, Martinsson and Tropp 2011)."""
    n, m = x.shape
    k = min(dims, n - 1, m - 1)
    if k < 1:
        return np.zeros((m, 0), dtype=np.float32)
    extra = min(10, min(n, m) - k)
    omega = rng.standard_normal((m, k + extra), dtype=np.float32)
    q = _orth(np.asarray(x @ omega))
    for _ in range(2):  # power iterations sharpen the slowly decaying spectrum of text
        q = _orth(np.asarray(x @ _orth(np.asarray(x.T @ q))))
    b = np.asarray((x.T @ q).T, dtype=np.float64)  # (k + extra) x m
    w, u = np.linalg.eigh(b @ b.T)  # b = u s vt, so b bT = u s^2 uT
    top = np.argsort(-w)[:k]
    top = top[w[top] > 0]
    vt = (u[:, top].T @ b) / np.sqrt(w[top])[:, None]
    out = np.zeros((m, k), dtype=np.float32)
    out[:, : len(top)] = vt.T
    return out


def normalise(v: np.ndarray) -> np.ndarray:
    """Unit rows, float32, in place when `v` already is float32."""
    v = np.asarray(v, dtype=np.float32)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    v /= norms
    return v
