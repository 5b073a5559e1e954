"""Topics of a corpus: groups of papers about one field, each named by a few distinctive phrases.

The method (numpy and scipy only; scipy is imported when first needed):

1. Every abstract becomes a stream of content words: markup removed, lowercased, plurals folded
   ("networks" and "network" are one term); stop words, words that say how a paper talks
   ("propose", "results"), numbers, LaTeX commands and punctuation break the stream.
   Terms are these words and the pairs of adjacent ones (bigrams), so "graph neural" and
   "neural networks" are features of their own. Terms in fewer than a few papers or in more than
   half of them are dropped, and at most `MAX_FEATURES` of the rest are kept.
2. Sublinear TF-IDF rows, reduced by a randomised truncated SVD (latent semantic analysis) to
   `DIMS` dimensions and L2-normalised: papers that use related words end up close.
3. Spherical k-means (cosine) with k-means++ seeding and a few seeded restarts; the count of
   topics grows slowly with the corpus (`topic_count`).
4. Each topic is named by the phrases whose share of its papers most exceeds their share of the
   corpus (p_topic * log(p_topic / p_corpus)), bigrams preferred, generic academic words refused;
   a bigram grows into the trigram it nearly always sits in ("graph neural networks"), an
   acronym of a phrase already there is dropped, and each phrase is shown in its most frequent
   spelling.

Papers are put in a canonical order (by id) before any seeded step, so the same corpus in any
order gives the same topics.
"""

from __future__ import annotations

from papertui.core.semantic.topics.compute import (
    DIMS,
    MAX_TOPICS,
    MIN_TOPICS,
    SEPARATOR,
    SVD_SAMPLE,
    Progress,
    compute_topics,
    topic_count,
)
from papertui.core.semantic.topics.features import MAX_FEATURES
from papertui.core.semantic.topics.model import FORMAT_VERSION, Topic, TopicModel, corpus_key

__all__ = [
    "DIMS",
    "FORMAT_VERSION",
    "MAX_FEATURES",
    "MAX_TOPICS",
    "MIN_TOPICS",
    "SEPARATOR",
    "SVD_SAMPLE",
    "Progress",
    "Topic",
    "TopicModel",
    "compute_topics",
    "corpus_key",
    "topic_count",
]
