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

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from papertui.core.semantic.phrases import (
    Tokens,
    chunk_terms,
    doc_unique,
    label_ok,
    ngram_keys,
    overlaps,
    spellings,
    terms_of,
)

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

Progress = Callable[[int, int], None]

MIN_TOPICS = 8
MAX_TOPICS = 40
DIMS = 128
MAX_FEATURES = 40_000
# The SVD basis is fitted on at most this many papers; the rest are projected onto it.
SVD_SAMPLE = 20_000
FORMAT_VERSION = 1
SEPARATOR = " · "


def topic_count(n: int) -> int:
    """How many topics for `n` papers: about 15 at 1,000, 8 to 40, never more than n // 3."""
    if n <= 0:
        return 0
    rule = int(round(min(max(15.0 * (n / 1000.0) ** 0.35, MIN_TOPICS), MAX_TOPICS)))
    return max(1, min(rule, n // 3))


def corpus_key(ids: Sequence[str]) -> str:
    """The cache key of a set of papers: independent of their order."""
    digest = hashlib.blake2b(digest_size=16)
    for pid in sorted(ids):
        digest.update(pid.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Topic:
    """One topic: its name, its phrases and its papers (most typical first)."""

    index: int
    label: str
    phrases: tuple[str, ...]
    ids: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ids)


@dataclass(slots=True)
class _Features:
    matrix: csr_matrix  # papers x features, sublinear tf (float32), canonical paper order
    words: list[str]  # feature strings ("graph neural"), folded, sorted
    df: np.ndarray
    idf: np.ndarray
    tokens: Tokens


def _min_df(n: int) -> int:
    return max(2, int(round(n / 5000)))


def _build_features(
    texts: Sequence[str], progress: Callable[[float], None] | None, max_features: int
) -> _Features:
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
    return _Features(matrix, words, df, idf, tokens)


# --- vectors ---------------------------------------------------------------------------------


def _tfidf_rows(matrix: csr_matrix, idf: np.ndarray, copy: bool = True) -> csr_matrix:
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


def _randomized_basis(x: csr_matrix, dims: int, rng: np.random.Generator) -> np.ndarray:
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


def _normalise(v: np.ndarray) -> np.ndarray:
    """Unit rows, float32, in place when `v` already is float32."""
    v = np.asarray(v, dtype=np.float32)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    v /= norms
    return v


# --- clustering ------------------------------------------------------------------------------


def _kmeans(
    x: np.ndarray,
    k: int,
    rng: np.random.Generator,
    restarts: int,
    iters: int,
    progress: Callable[[float], None] | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Spherical k-means on unit rows; the restart with the highest total cosine wins."""
    n = len(x)
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for r in range(restarts):
        centres = _kmeanspp(x, k, rng)
        labels = np.zeros(n, dtype=np.int32)
        for it in range(iters):
            sims = x @ centres.T
            new = np.argmax(sims, axis=1).astype(np.int32)
            if it and np.array_equal(new, labels):
                break
            labels = new
            centres = _centres(x, labels, k, sims)
        score = float(np.sum(np.max(x @ centres.T, axis=1)))
        if best is None or score > best[0]:
            best = (score, labels, centres)
        if progress is not None:
            progress((r + 1) / restarts)
    assert best is not None
    return best[1], best[2]


def _kmeanspp(x: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    n = len(x)
    first = int(rng.integers(n))
    centres = [x[first]]
    dist = np.maximum(1.0 - x @ x[first], 0.0).astype(np.float64)
    for _ in range(1, k):
        total = dist.sum()
        if total <= 0:
            pick = int(rng.integers(n))
        else:
            pick = int(np.searchsorted(np.cumsum(dist), rng.random() * total))
            pick = min(pick, n - 1)
        centres.append(x[pick])
        dist = np.minimum(dist, np.maximum(1.0 - x @ x[pick], 0.0))
    return np.array(centres, dtype=np.float32)


def _centres(x: np.ndarray, labels: np.ndarray, k: int, sims: np.ndarray) -> np.ndarray:
    from scipy.sparse import csr_matrix

    n = len(x)
    member = csr_matrix((np.ones(n, dtype=np.float32), (labels, np.arange(n))), shape=(k, n))
    centres = np.asarray(member @ x, dtype=np.float64)
    empty = np.flatnonzero(~centres.any(axis=1))
    if len(empty):
        # an empty topic takes the papers that fit their own topic worst
        fit = sims[np.arange(n), labels]
        for j, idx in zip(empty, np.argsort(fit)[: len(empty)], strict=False):
            centres[j] = x[idx]
    return _normalise(centres)


# --- labels ----------------------------------------------------------------------------------


class _Labeller:
    """Names topics: distinctive unigrams and bigrams, grown into the longer phrase they sit in,
    spelled as the corpus most often spells them."""

    def __init__(self, feats: _Features, labels: np.ndarray, k: int) -> None:
        self.feats = feats
        self.tokens = feats.tokens
        self.labels = labels  # per paper (canonical order), -1 for none
        self.k = k
        self.n_terms = max(1, len(self.tokens.term_words))

    def topic_phrases(self, max_phrases: int = 3) -> list[tuple[str, ...]]:
        from scipy.sparse import csr_matrix

        feats = self.feats
        n = feats.matrix.shape[0]
        rows = np.flatnonzero(self.labels >= 0)
        m = feats.matrix
        binary = csr_matrix((np.ones(len(m.data), np.float32), m.indices, m.indptr), shape=m.shape)
        member = csr_matrix(
            (np.ones(len(rows), dtype=np.float32), (self.labels[rows], rows)),
            shape=(self.k, n),
        )
        df_topic = np.asarray((member @ binary).todense())  # topics x features
        sizes = np.bincount(self.labels[rows], minlength=self.k).astype(np.float64)
        p_all = (feats.df + 0.5) / (n + 1.0)
        split = [tuple(w.split(" ")) for w in feats.words]
        ok = np.array([label_ok(w) for w in split], dtype=bool)
        bigram = np.array([len(w) == 2 for w in split], dtype=bool)
        containing: dict[str, list[int]] = {}
        for j, w in enumerate(split):
            if len(w) == 2 and ok[j]:
                for part in w:
                    containing.setdefault(part, []).append(j)
        chosen_all: list[list[tuple[str, ...]]] = []
        for c in range(self.k):
            size = max(sizes[c], 1.0)
            count = df_topic[c]
            p = count / size
            raw = p * np.log(np.maximum(p, 1e-12) / p_all)
            raw = np.where(bigram, raw * 1.5, raw)
            chosen: list[tuple[str, ...]] = []
            used: set[str] = set()
            # a small topic may have too few phrases above the floor: then the floor drops to 2
            for floor in (max(2.0, 0.04 * size), 2.0):
                if len(chosen) >= 2:
                    break
                score = np.where(ok & (count >= floor) & (raw > 0), raw, -np.inf)
                for j in np.argsort(-score, kind="stable")[:300]:
                    if not np.isfinite(score[j]) or len(chosen) >= max_phrases:
                        break
                    phrase = split[j]
                    if len(phrase) == 1:
                        # a word mostly seen inside one phrase is shown as that phrase
                        best = max(
                            containing.get(phrase[0], []), key=lambda b: count[b], default=None
                        )
                        if best is not None and count[best] >= 0.5 * count[j]:
                            phrase = split[best]
                    if phrase in chosen or overlaps(phrase, used):
                        continue
                    chosen.append(phrase)
                    used.update(phrase)
            chosen_all.append(chosen)
        grown = [self._drop_acronyms(ps) for ps in self._grow(chosen_all, df_topic, split)]
        return self._spell(grown)

    def _drop_acronyms(self, phrases: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """ "graph neural networks · GNNs" says one thing twice: the acronym goes."""
        words = self.tokens.term_words
        initials = {
            "".join(part[0] for t in p for part in words[t].split("-") if part)
            for p in phrases
            if len(p) > 1 or "-" in words[p[0]]
        }
        kept = [p for p in phrases if not (len(p) == 1 and words[p[0]] in initials)]
        return kept if len(kept) >= 2 else phrases

    def _ids(self, phrase: tuple[str, ...]) -> tuple[int, ...]:
        terms = self.tokens.terms
        return tuple(terms[w] for w in phrase)

    def _grow(
        self,
        chosen: list[list[tuple[str, ...]]],
        df_topic: np.ndarray,
        split: list[tuple[str, ...]],
    ) -> list[list[tuple[int, ...]]]:
        """Bigrams become the trigram that holds them in most of their topic's papers
        ("neural networks" -> "graph neural networks")."""
        out = [[self._ids(p) for p in ps] for ps in chosen]
        feature = {w: j for j, w in enumerate(split)}
        wanted: dict[tuple[int, int], set[int]] = {}
        for c, ps in enumerate(out):
            for p in ps:
                if len(p) == 2:
                    wanted.setdefault(p, set()).add(c)
        if not wanted:
            return out
        n_terms = self.n_terms
        keys = np.array(sorted(a * n_terms + b for a, b in wanted), dtype=np.int64)
        tables: list[np.ndarray] = []
        for chunk in self.tokens.chunks:
            terms = self.tokens.term_stream(chunk)
            docs = chunk.docs()
            pos = np.flatnonzero(np.isin(ngram_keys(terms, n_terms, 2), keys))
            size = len(terms)
            for shift in (-1, 0):  # the word before the bigram, or the one after it
                start = pos + shift
                s = start[(start >= 0) & (start + 2 < size)]
                tri = np.stack([terms[s], terms[s + 1], terms[s + 2]], axis=1)
                valid = (tri >= 0).all(axis=1)
                d = docs[s[valid]]
                tables.append(
                    np.concatenate(
                        [tri[valid].astype(np.int64), d[:, None], self.labels[d][:, None]], axis=1
                    )
                )
        table = np.concatenate(tables) if tables else np.zeros((0, 5), np.int64)
        if not len(table):
            return out
        table = np.unique(table, axis=0)  # one count per paper
        combos, counts = np.unique(table[:, [0, 1, 2, 4]], axis=0, return_counts=True)
        best: dict[tuple[int, tuple[int, int]], tuple[int, tuple[int, ...]]] = {}
        for row, cnt in zip(combos.tolist(), counts.tolist(), strict=True):
            a, b, c3, t = row
            for pair in ((a, b), (b, c3)):
                if t in wanted.get(pair, ()):
                    cur = best.get((t, pair))
                    if cur is None or cnt > cur[0]:
                        best[(t, pair)] = (cnt, (a, b, c3))
        words = self.tokens.term_words
        for c, ps in enumerate(out):
            for i, p in enumerate(ps):
                if len(p) != 2 or (c, p) not in best:
                    continue
                cnt, tri3 = best[(c, p)]
                j = feature.get((words[p[0]], words[p[1]]))
                base = df_topic[c, j] if j is not None else 0
                if base and cnt >= 0.6 * base and len(set(tri3)) == 3:
                    ps[i] = tri3
        return out

    def _spell(self, phrases: list[list[tuple[int, ...]]]) -> list[tuple[str, ...]]:
        spelled = spellings(self.tokens, {p for ps in phrases for p in ps})
        return [tuple(spelled[p] for p in ps) for ps in phrases]


# --- the model -------------------------------------------------------------------------------


@dataclass
class TopicModel:
    """Topics of one set of papers, with what is needed to place papers added later."""

    topics: list[Topic]
    ids: list[str]  # in the order they were given
    assignments: np.ndarray  # topic index per paper (same order as ids), -1 for none
    centroids: np.ndarray  # topics x dims, unit rows
    key: str  # corpus_key(ids)
    # own features, for assign(new_texts); empty when the vectors came from the caller
    vocabulary: list[str]
    idf: np.ndarray
    basis: np.ndarray  # features x dims
    _id_index: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)

    def topic_of(self, paper_id: str) -> int:
        index = self._index().get(paper_id)
        return -1 if index is None else int(self.assignments[index])

    def _index(self) -> dict[str, int]:
        if self._id_index is None:
            self._id_index = {pid: i for i, pid in enumerate(self.ids)}
        return self._id_index

    def assign(
        self, texts: Sequence[str] | None = None, vectors: np.ndarray | None = None
    ) -> np.ndarray:
        """Topic index for papers that were not there when the topics were made.

        Give `vectors` (unit rows in the space the topics were made from) or `texts` (only for
        a model that built its own vectors). Papers with no known term get -1.
        """
        if vectors is None:
            if texts is None:
                raise ValueError("assign needs texts or vectors")
            if not self.vocabulary:
                raise ValueError("these topics were made from given vectors: pass vectors")
            vectors = self._vectors(texts)
        if len(vectors) == 0:
            return np.zeros(0, dtype=np.int32)
        sims = np.asarray(vectors, dtype=np.float32) @ self.centroids.T
        out = np.argmax(sims, axis=1).astype(np.int32)
        out[~np.asarray(vectors).any(axis=1)] = -1
        return out

    def extend(
        self,
        ids: Sequence[str],
        texts: Sequence[str] | None = None,
        vectors: np.ndarray | None = None,
    ) -> TopicModel:
        """A model that also holds papers added since the topics were made, each in its nearest
        topic (at the end of its id list), without recomputing the topics. Ids already held
        keep their topic. Labels stay as they were: recompute when many papers were added."""
        known = self._index()
        fresh = [i for i, pid in enumerate(ids) if pid not in known]
        if not fresh:
            return self
        new_ids = [ids[i] for i in fresh]
        got = self.assign(
            None if texts is None else [texts[i] for i in fresh],
            None if vectors is None else np.asarray(vectors)[fresh],
        )
        added: dict[int, list[str]] = {}
        for pid, t in zip(new_ids, got.tolist(), strict=True):
            if t >= 0:
                added.setdefault(t, []).append(pid)
        topics = [
            Topic(t.index, t.label, t.phrases, t.ids + tuple(added.get(t.index, ())))
            for t in self.topics
        ]
        all_ids = self.ids + new_ids
        return TopicModel(
            topics,
            all_ids,
            np.concatenate([self.assignments, got]).astype(np.int32),
            self.centroids,
            corpus_key(all_ids),
            self.vocabulary,
            self.idf,
            self.basis,
        )

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        from scipy.sparse import csr_matrix

        column = {w: i for i, w in enumerate(self.vocabulary)}
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        for r, found in enumerate(terms_of(texts)):
            counts: dict[int, int] = {}
            for term in found:
                j = column.get(term)
                if j is not None:
                    counts[j] = counts.get(j, 0) + 1
            for j, c in counts.items():
                rows.append(r)
                cols.append(j)
                vals.append(1.0 + float(np.log(c)))
        m = csr_matrix(
            (np.asarray(vals, np.float32), (rows, cols)),
            shape=(len(texts), len(self.vocabulary)),
        )
        return _normalise(np.asarray(_tfidf_rows(m, self.idf) @ self.basis))

    # --- cache -------------------------------------------------------------------------------

    def save(self, directory: str | Path) -> None:
        """Write the model to `directory`, replacing what was there in one rename."""
        target = Path(directory)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".topics-", dir=target.parent))
        try:
            meta = {
                "version": FORMAT_VERSION,
                "key": self.key,
                "topics": [
                    {"label": t.label, "phrases": list(t.phrases), "size": t.size}
                    for t in self.topics
                ],
            }
            (tmp / "topics.json").write_text(json.dumps(meta), encoding="utf-8")
            (tmp / "ids.txt").write_text("\n".join(self.ids), encoding="utf-8")
            (tmp / "vocabulary.txt").write_text("\n".join(self.vocabulary), encoding="utf-8")
            # members in topic order (most typical first) let load() rebuild Topic.ids quickly
            order = np.concatenate(
                [np.asarray([self._index()[p] for p in t.ids], dtype=np.int64) for t in self.topics]
                or [np.zeros(0, np.int64)]
            )
            np.save(tmp / "members.npy", order)
            np.save(tmp / "assignments.npy", self.assignments.astype(np.int32))
            np.save(tmp / "centroids.npy", self.centroids.astype(np.float32))
            np.save(tmp / "idf.npy", self.idf.astype(np.float32))
            np.save(tmp / "basis.npy", self.basis.astype(np.float32))
            old = None
            if target.exists():
                old = target.with_name(target.name + f".old-{os.getpid()}")
                target.rename(old)
            tmp.rename(target)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    @classmethod
    def load(cls, directory: str | Path, ids: Sequence[str] | None = None) -> TopicModel | None:
        """The model saved in `directory`, or None when it is missing, damaged, of another
        format, or (given `ids`) made for another set of papers."""
        path = Path(directory)
        try:
            meta = json.loads((path / "topics.json").read_text(encoding="utf-8"))
            if meta.get("version") != FORMAT_VERSION:
                return None
            if ids is not None and meta["key"] != corpus_key(ids):
                return None
            text = (path / "ids.txt").read_text(encoding="utf-8")
            paper_ids = text.split("\n") if text else []
            vocab_text = (path / "vocabulary.txt").read_text(encoding="utf-8")
            vocabulary = vocab_text.split("\n") if vocab_text else []
            members = np.load(path / "members.npy")
            assignments = np.load(path / "assignments.npy")
            centroids = np.load(path / "centroids.npy")
            idf = np.load(path / "idf.npy")
            # only assign() reads the basis (about 20 MB at 100k): mapped, not read, until then
            basis = np.load(path / "basis.npy", mmap_mode="r")
            if len(assignments) != len(paper_ids):
                return None
            topics: list[Topic] = []
            start = 0
            for i, t in enumerate(meta["topics"]):
                chunk = members[start : start + int(t["size"])]
                start += int(t["size"])
                topics.append(
                    Topic(i, t["label"], tuple(t["phrases"]), tuple(paper_ids[j] for j in chunk))
                )
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return None
        return cls(topics, paper_ids, assignments, centroids, meta["key"], vocabulary, idf, basis)


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
    feats = _build_features(
        ctexts,
        (lambda f: report(budget["tokens"] * f)) if progress else None,
        MAX_FEATURES,
    )
    rng = np.random.default_rng(seed)
    vocabulary: list[str] = []
    if vectors is None:
        # the counts are not needed again (labels only ask which papers use a term)
        x = _tfidf_rows(feats.matrix, feats.idf, copy=False)
        if n > SVD_SAMPLE:
            sample = np.sort(rng.choice(n, SVD_SAMPLE, replace=False))
            basis = _randomized_basis(x[sample], DIMS, rng)
        else:
            basis = _randomized_basis(x, DIMS, rng)
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
    dense = _normalise(dense)
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
    labels_sub, centroids = _kmeans(
        dense if len(rows) == n else dense[rows],  # no copy when every paper has terms
        k,
        rng,
        restarts,
        60,
        (lambda f: report(budget["svd"] + span * f)) if progress else None,
    )
    labels = np.full(n, -1, dtype=np.int32)
    labels[rows] = labels_sub

    # topics in order of size (largest first), ties by the canonical first member
    sizes = np.bincount(labels_sub, minlength=k)
    order = sorted(range(k), key=lambda c: -sizes[c])
    order = [c for c in order if sizes[c] > 0]
    remap = np.full(k + 1, -1, dtype=np.int32)
    remap[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
    labels = np.where(labels >= 0, remap[labels], -1).astype(np.int32)
    centroids = centroids[order]
    k = len(order)

    phrase_sets = _Labeller(feats, labels, k).topic_phrases() if k else []
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
    return TopicModel(topics, ids, assignments, centroids, corpus_key(ids), vocabulary, idf, basis)
