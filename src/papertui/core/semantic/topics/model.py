"""A computed set of topics: where each paper went, placing papers added later, and the cache
files it is saved to and loaded from."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from papertui.core.semantic.phrases import Tokens, chunk_terms, doc_unique
from papertui.core.semantic.topics.lsa import normalise, tfidf_rows

# 2: papers that fit no topic are in none, and each topic keeps its floor; 3: labels name no
# modifier alone (saved topics are relabelled by computing them again)
FORMAT_VERSION = 3


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
    # per topic, the least cosine to its centroid a paper placed later needs (0: any)
    floors: np.ndarray | None = None
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
        if self.floors is not None and len(self.floors) == len(self.centroids):
            best = sims[np.arange(len(out)), out]
            out[best < self.floors[out]] = -1  # fits no topic, as at compute time
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
            self.floors,
        )

    def _vectors(self, texts: Sequence[str], tokens: Tokens | None = None) -> np.ndarray:
        """Unit rows of `texts` in the topics' space: their terms counted as `build_features`
        counts them, with this model's vocabulary, IDF and basis (no Python per term).
        `tokens`: reused from an earlier call, so that words seen there are not looked at
        again (its chunks are dropped after use)."""
        from scipy.sparse import csr_matrix

        tokens = Tokens() if tokens is None else tokens
        tokens.chunks.clear()
        tokens.n_docs = 0
        for text in texts:
            tokens.add(text)
        tokens.flush()
        n_terms = max(1, len(tokens.term_words))
        keys, columns = self._local_columns(tokens.terms, n_terms)
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        tf: list[np.ndarray] = []
        for chunk in tokens.chunks:
            d_u, k_u, c_u = doc_unique(*chunk_terms(tokens, chunk, n_terms))
            if not len(keys):
                continue
            pos = np.minimum(np.searchsorted(keys, k_u), len(keys) - 1)
            hit = keys[pos] == k_u
            rows.append(d_u[hit].astype(np.int64))
            cols.append(columns[pos[hit]])
            tf.append((1.0 + np.log(c_u[hit])).astype(np.float32))
        m = csr_matrix(
            (
                np.concatenate(tf) if tf else np.zeros(0, np.float32),
                (
                    np.concatenate(rows) if rows else np.zeros(0, np.int64),
                    np.concatenate(cols) if cols else np.zeros(0, np.int64),
                ),
            ),
            shape=(len(texts), len(self.vocabulary)),
        )
        m.sum_duplicates()
        tokens.chunks.clear()
        return normalise(np.asarray(tfidf_rows(m, self.idf) @ self.basis))

    def _local_columns(self, terms: dict[str, int], n_terms: int) -> tuple[np.ndarray, np.ndarray]:
        """The keys `chunk_terms` gives this model's features in a `Tokens` whose term ids are
        `terms` (sorted), and each one's column."""
        keys: list[int] = []
        columns: list[int] = []
        for column, feature in enumerate(self.vocabulary):
            parts = [terms.get(w) for w in feature.split(" ")]
            if None in parts or len(parts) > 2:
                continue  # a word these texts do not use
            if len(parts) == 1:
                keys.append(parts[0])  # type: ignore[arg-type]
            else:
                keys.append(n_terms + parts[0] * n_terms + parts[1])  # type: ignore[operator]
            columns.append(column)
        order = np.argsort(np.asarray(keys, np.int64), kind="stable")
        return np.asarray(keys, np.int64)[order], np.asarray(columns, np.int64)[order]

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
            if self.floors is not None:
                np.save(tmp / "floors.npy", self.floors.astype(np.float32))
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
    def load(
        cls,
        directory: str | Path,
        ids: Sequence[str] | None = None,
        known_ids: list[str] | None = None,
    ) -> TopicModel | None:
        """The model saved in `directory`, or None when it is missing, damaged, of another
        format, or (given `ids`) made for another set of papers. When its papers are
        `known_ids`, in order, that list and its strings are kept instead of a copy."""
        path = Path(directory)
        try:
            meta = json.loads((path / "topics.json").read_text(encoding="utf-8"))
            if meta.get("version") != FORMAT_VERSION:
                return None
            if ids is not None and meta["key"] != corpus_key(ids):
                return None
            text = (path / "ids.txt").read_text(encoding="utf-8")
            paper_ids = text.split("\n") if text else []
            if known_ids is not None and paper_ids == known_ids:
                paper_ids = known_ids
            vocab_text = (path / "vocabulary.txt").read_text(encoding="utf-8")
            vocabulary = vocab_text.split("\n") if vocab_text else []
            members = np.load(path / "members.npy")
            assignments = np.load(path / "assignments.npy")
            centroids = np.load(path / "centroids.npy")
            idf = np.load(path / "idf.npy")
            # only assign() reads the basis (about 20 MB at 100k): mapped, not read, until then
            basis = np.load(path / "basis.npy", mmap_mode="r")
            floors = np.load(path / "floors.npy") if (path / "floors.npy").exists() else None
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
        return cls(
            topics, paper_ids, assignments, centroids, meta["key"], vocabulary, idf, basis, floors
        )
