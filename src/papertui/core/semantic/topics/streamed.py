"""Topics of a library too large to hold every abstract at once.

Up to `TOPIC_SAMPLE` papers the topics are computed from all of them (`compute_topics`).
Above it, they are computed from an evenly spread sample, chosen in id order so that the same
library in any order gives the same sample, with the count of topics the whole library calls
for; then every paper is read a batch at a time and placed in its nearest topic, as papers
added later are. A topic's papers are listed most typical first, whichever way they came in.
The texts are asked for by position (`text_of`), so only a sample's worth or a batch is in
memory at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from papertui.core.semantic.phrases import Tokens
from papertui.core.semantic.topics.compute import Progress, compute_topics, topic_count
from papertui.core.semantic.topics.model import Topic, TopicModel, corpus_key

# Papers the topics are computed from; more are placed in them. At 50,000 abstracts k-means
# sees well over a thousand papers a topic, and the computation holds ~300 MB.
TOPIC_SAMPLE = 50_000
BATCH = 4000  # papers placed at a time
FRESH_TOKENS = 300_000  # spellings remembered between batches before starting afresh


def topics_of_library(
    ids: Sequence[str],
    text_of: Callable[[int], str],
    progress: Progress | None = None,
    seed: int = 0,
) -> TopicModel:
    """Topics of the papers `ids` (text of the i-th: `text_of(i)`), see the module docstring."""
    n = len(ids)
    if n <= TOPIC_SAMPLE:
        return compute_topics([text_of(i) for i in range(n)], ids, seed=seed, progress=progress)

    def report(share: float) -> None:
        if progress is not None:
            progress(int(1000 * share), 1000)

    order = sorted(range(n), key=ids.__getitem__)
    picks = np.unique(np.linspace(0, n - 1, TOPIC_SAMPLE).astype(np.int64))
    sample = [order[int(p)] for p in picks]
    del order
    sample_model = compute_topics(
        [text_of(i) for i in sample],
        [ids[i] for i in sample],
        n_topics=topic_count(n),
        seed=seed,
        progress=(lambda done, total: report(0.5 * done / max(total, 1))) if progress else None,
    )
    centroids = sample_model.centroids
    labels = np.full(n, -1, np.int32)
    fit = np.zeros(n, np.float32)
    tokens = Tokens()
    for start in range(0, n, BATCH):
        if len(tokens.surface) > FRESH_TOKENS:
            tokens = Tokens()
        stop = min(n, start + BATCH)
        vectors = sample_model._vectors([text_of(i) for i in range(start, stop)], tokens)
        sims = vectors @ centroids.T if len(centroids) else np.zeros((stop - start, 0))
        if sims.shape[1]:
            labels[start:stop] = np.argmax(sims, axis=1)
            fit[start:stop] = np.max(sims, axis=1)
        labels[start:stop][~vectors.any(axis=1)] = -1
        report(0.5 + 0.5 * stop / n)
    # the sample keeps the topics k-means gave it
    labels[np.asarray(sample, np.int64)] = sample_model.assignments
    return _model(ids, labels, fit, sample_model)


def _model(
    ids: Sequence[str], labels: np.ndarray, fit: np.ndarray, sample: TopicModel
) -> TopicModel:
    """The whole library's model: topics largest first, each one's papers best fit first."""
    k = len(sample.topics)
    sizes = np.bincount(labels[labels >= 0], minlength=k)
    order = [c for c in sorted(range(k), key=lambda c: -sizes[c]) if sizes[c] > 0]
    remap = np.full(k + 1, -1, np.int32)
    remap[np.asarray(order, np.int64)] = np.arange(len(order), dtype=np.int32)
    labels = np.where(labels >= 0, remap[labels], -1).astype(np.int32)
    by_topic = np.lexsort((-fit, labels))  # by topic, then best fit first
    bounds = np.searchsorted(labels[by_topic], np.arange(len(order) + 1))
    topics = []
    for new, old in enumerate(order):
        members = by_topic[bounds[new] : bounds[new + 1]]
        was = sample.topics[old]
        topics.append(Topic(new, was.label, was.phrases, tuple(ids[int(m)] for m in members)))
    return TopicModel(
        topics,
        list(ids),
        labels,
        sample.centroids[np.asarray(order, np.int64)] if order else sample.centroids[:0],
        corpus_key(ids),
        sample.vocabulary,
        sample.idf,
        sample.basis,
    )
