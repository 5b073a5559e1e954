"""Computing topics: the four steps of the method (see the package docstring), in order."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from papertui.core.semantic.topics.clustering import floors, kmeans, leave_out
from papertui.core.semantic.topics.features import MAX_FEATURES, build_features
from papertui.core.semantic.topics.labels import Labeller
from papertui.core.semantic.topics.lsa import normalise, randomized_basis, tfidf_rows
from papertui.core.semantic.topics.model import Topic, TopicModel, corpus_key

Progress = Callable[[int, int], None]

MIN_TOPICS = 8
MAX_TOPICS = 40
DIMS = 128
# The SVD basis is fitted on at most this many papers; the rest are projected onto it.
SVD_SAMPLE = 20_000
SEPARATOR = " · "


def topic_count(n: int) -> int:
    """How many topics for `n` papers: about 15 at 1,000, 8 to 40, never more than n // 3."""
    if n <= 0:
        return 0
    rule = int(round(min(max(15.0 * (n / 1000.0) ** 0.35, MIN_TOPICS), MAX_TOPICS)))
    return max(1, min(rule, n // 3))


def _one_blas_thread() -> contextlib.AbstractContextManager[object]:
    """BLAS on one thread: on a busy 2-core machine threaded OpenBLAS ran the 490-paper
    benchmark 5-30x slower than one thread, and the reader's UI needs the other core anyway."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")


def compute_topics(
    texts: Sequence[str],
    ids: Sequence[str] | None = None,
    *,
    vectors: np.ndarray | None = None,
    n_topics: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> TopicModel:
    """Group papers into topics and name them.

    texts: the abstracts. ids: their paper ids (default: a hash of each text), which also fix
    the canonical order, so shuffling the input does not change the topics. vectors: optional
    n x d unit document vectors to cluster instead of building our own (labels still come from
    the texts). progress(done, total) is called now and then from the calling thread; raising
    from it cancels the work.
    """
    with _one_blas_thread():
        return _compute(texts, ids, vectors, n_topics, seed, progress)


def _compute(
    texts: Sequence[str],
    ids: Sequence[str] | None,
    vectors: np.ndarray | None,
    n_topics: int | None,
    seed: int,
    progress: Progress | None,
) -> TopicModel:
    n = len(texts)
    if ids is None:
        ids = [
            hashlib.blake2b(t.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
            for t in texts
        ]
    if len(ids) != n or (vectors is not None and len(vectors) != n):
        raise ValueError("texts, ids and vectors must have one entry per paper")
    ids = list(ids)
    total = 1000
    # where each stage ends, in thousandths of the work (measured at 100,000 abstracts)
    budget = {"tokens": 550, "svd": 650, "kmeans": 900}

    def report(done: float) -> None:
        if progress is not None:
            progress(min(total, int(done)), total)

    report(0)
    k = n_topics if n_topics is not None else topic_count(n)
    k = max(0, min(k, n))
    empty = TopicModel(
        [],
        ids,
        np.full(n, -1, np.int32),
        np.zeros((0, 0), np.float32),
        corpus_key(ids),
        [],
        np.zeros(0, np.float32),
        np.zeros((0, 0), np.float32),
    )
    if n == 0 or k == 0:
        report(total)
        return empty

    canon = sorted(range(n), key=lambda i: (ids[i], texts[i]))
    ctexts = [texts[i] for i in canon]
    feats = build_features(
        ctexts,
        (lambda f: report(budget["tokens"] * f)) if progress else None,
        MAX_FEATURES,
    )
    rng = np.random.default_rng(seed)
    vocabulary: list[str] = []
    if vectors is None:
        # the counts are not needed again (labels only ask which papers use a term)
        x = tfidf_rows(feats.matrix, feats.idf, copy=False)
        if n > SVD_SAMPLE:
            sample = np.sort(rng.choice(n, SVD_SAMPLE, replace=False))
            basis = randomized_basis(x[sample], DIMS, rng)
        else:
            basis = randomized_basis(x, DIMS, rng)
        dense = np.asarray(x @ basis)
        has_terms = np.diff(x.indptr) > 0
        vocabulary, idf = feats.words, feats.idf
        del x
    else:
        dense = np.asarray(vectors, dtype=np.float32)[canon]
        basis = np.zeros((0, 0), np.float32)
        idf = np.zeros(0, np.float32)
        has_terms = dense.any(axis=1)
    report(budget["svd"])
    dense = normalise(dense)
    rows = np.flatnonzero(has_terms)
    k = min(k, len(rows))
    if k == 0:
        report(total)
        return empty
    if basis.shape[1] == 0 and vectors is None:
        # one usable dimension or fewer: every paper with terms is one topic
        k = 1
    # restarts are cheap for small corpora, where one unlucky start shows most
    restarts = 10 if len(rows) <= 5_000 else 3 if len(rows) <= 50_000 else 2
    span = budget["kmeans"] - budget["svd"]
    labels_sub, centroids = kmeans(
        dense if len(rows) == n else dense[rows],  # no copy when every paper has terms
        k,
        rng,
        restarts,
        60,
        (lambda f: report(budget["svd"] + span * f)) if progress else None,
    )
    sub = dense if len(rows) == n else dense[rows]
    floor = floors(sub, labels_sub, centroids)
    leave_out(sub, labels_sub, centroids, floor)
    labels = np.full(n, -1, dtype=np.int32)
    labels[rows] = labels_sub

    # topics in order of size (largest first), ties by the canonical first member
    sizes = np.bincount(labels_sub[labels_sub >= 0], minlength=k)
    order = sorted(range(k), key=lambda c: -sizes[c])
    order = [c for c in order if sizes[c] > 0]
    remap = np.full(k + 1, -1, dtype=np.int32)
    remap[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
    labels = np.where(labels >= 0, remap[labels], -1).astype(np.int32)
    centroids = centroids[order]
    floor = floor[order]
    k = len(order)

    phrase_sets = Labeller(feats, labels, k).topic_phrases() if k else []
    fit = np.einsum("ij,ij->i", dense, centroids[np.maximum(labels, 0)])
    topics: list[Topic] = []
    for c in range(k):
        members = np.flatnonzero(labels == c)
        members = members[np.argsort(-fit[members], kind="stable")]
        phrases = phrase_sets[c]
        topics.append(
            Topic(c, SEPARATOR.join(phrases), phrases, tuple(ids[canon[int(m)]] for m in members))
        )
    # back to the caller's order
    assignments = np.full(n, -1, dtype=np.int32)
    assignments[np.asarray(canon, dtype=np.int64)] = labels
    report(total)
    return TopicModel(
        topics, ids, assignments, centroids, corpus_key(ids), vocabulary, idf, basis, floor
    )
