"""Paper vectors: weighted terms plus a small LSA embedding, built once, memory-mapped after.

Each paper gets two parts, both L2-normalised:

* ``terms``: its `TOP_TERMS` heaviest stemmed unigrams and bigrams, weighted by sublinear term
  frequency times a damped IDF (``idf ** IDF_POWER``), as a fixed-width (ids, weights) pair of
  arrays, so that scoring every paper against a query is one gather and one sum;
* ``dense``: the paper's coordinates in the top singular directions of the whole weighted term
  matrix (latent semantic analysis, randomized SVD), which lets papers that say the same thing
  in different words meet.

The weights and the SVD basis are kept, so new papers are transformed with the existing
vocabulary (`PaperVectors.add`) without a rebuild. The text-to-terms side lives in
`vector_terms` (tokeniser, vocabulary, weights) and the SVD in `vector_lsa`; their public names
are importable from here too. numpy only; scipy (sparse matrices) is imported lazily by `build`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from papertui.core.corpus.mapped_pages import release_pages
from papertui.core.semantic.vector_files import PREFILTER_SCALE, extend_files, write_prefilter
from papertui.core.semantic.vector_lsa import (
    MAX_DIMS,
    SEED,
    _orthonormal,
    _transform,
    dims_for,
)
from papertui.core.semantic.vector_terms import (
    IDF_POWER,
    MAX_DF,
    MAX_FEATURES,
    MIN_DF,
    PAD,
    STOP_WORDS,
    TOP_TERMS,
    Vocabulary,
    _doc_text,
    _weights,
    stem,
)

__all__ = [
    "FORMAT",
    "IDF_POWER",
    "MAX_DF",
    "MAX_DIMS",
    "MAX_FEATURES",
    "MIN_DF",
    "PAD",
    "SEED",
    "STOP_WORDS",
    "TOP_TERMS",
    "PaperVectors",
    "Progress",
    "Vocabulary",
    "_orthonormal",
    "_weights",
    "dims_for",
    "stem",
]

Progress = Callable[[int, int], None]

# A pass over every paper lets go of the mapped pages it has read every this many blocks of
# 16,384 papers (a few tens of MB), not only at its end (at a million papers, 520 MB at once).
RELEASE_EVERY = 8
# 2: sentence ends break pairs, a title-less paper's lead sentence counts twice, 128 terms kept
FORMAT = 4  # 3: LaTeX command names are not terms; 4: a stem keeps 3 letters (axes)


class PaperVectors:
    """Vectors for a list of papers, keyed by id, in the order given to `build`/`add`.

    ``term_ids``/``term_weights`` (n x TOP_TERMS, uint16 ids, `PAD` in unused slots) and
    ``dense`` (n x dims, float16) may be read-only memory maps after `load`.
    """

    def __init__(
        self,
        ids: list[str],
        vocab: Vocabulary,
        term_ids: np.ndarray,
        term_weights: np.ndarray,
        dense: np.ndarray,
        basis: np.ndarray,
    ) -> None:
        self.ids = ids
        self.vocab = vocab
        self.term_ids = term_ids
        self.term_weights = term_weights
        self.dense = dense
        self.basis = basis  # vocabulary x dims (float16): a weighted term vector -> LSA coords
        self._pos: dict[str, int] | None = None
        # the LSA rows' lengths (for which prefix, count and array), once computed
        self._norms: tuple[tuple[int, int, int], np.ndarray] | None = None
        self.directory: Path | None = None  # where `load` found the arrays
        # n x stored dims, int8: the LSA rows at unit length (`write_prefilter`), when loaded
        self.prefilter: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def use_positions(self, positions: dict[str, int]) -> None:
        """Take `positions` as each id's row: the library's own, when its papers are these ids in
        this order (a million-entry dictionary less)."""
        self._pos = positions

    def position(self, pid: str) -> int | None:
        if self._pos is None or len(self._pos) != len(self.ids):
            self._pos = {p: i for i, p in enumerate(self.ids)}
        return self._pos.get(pid)

    @property
    def dims(self) -> int:
        """LSA dimensions compared (a prefix of the stored ones; see `dims_for`)."""
        return min(self.dense.shape[1], dims_for(len(self.ids)))

    # -- adding papers -------------------------------------------------------------------------

    def transform(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(term ids, term weights, dense) for texts, with this vocabulary and basis."""
        return _transform(self.vocab, self.basis, texts)

    def add(self, papers: Sequence[tuple[str, str, str]]) -> int:
        """Append papers given as (id, title, abstract), skipping ids already present.

        New papers get the existing vocabulary, IDF and SVD basis, so their vectors equal what
        a rebuild would give them if the vocabulary did not change; words the vocabulary lacks
        are ignored until the next rebuild. Returns how many were added.
        """
        new = self._new(papers)
        if not new:
            return 0
        tid, tw, dense = self.transform([_doc_text(t, a) for _, t, a in new])
        self.ids = self.ids + [p for p, _, _ in new]
        self.term_ids = np.concatenate([np.asarray(self.term_ids), tid])
        self.term_weights = np.concatenate([np.asarray(self.term_weights), tw])
        self.dense = np.concatenate([np.asarray(self.dense), dense])
        return len(new)

    def _new(self, papers: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        new = [(p, t, a) for p, t, a in papers if self.position(p) is None]
        seen: set[str] = set()
        return [x for x in new if not (x[0] in seen or seen.add(x[0]))]  # type: ignore[func-returns-value]

    def add_into(self, directory: Path, papers: Sequence[tuple[str, str, str]]) -> PaperVectors:
        """What `add` gives, written to `directory` and returned memory-mapped: for vectors
        `load`ed from files, whose rows are copied file to file, not read into memory."""
        new = self._new(papers)
        if self.directory is None:
            self.add(new)
            self.save(directory)
            return PaperVectors.load(directory)
        tid, tw, dense = self.transform([_doc_text(t, a) for _, t, a in new])
        extend_files(
            self.directory, directory, {"term_ids": tid, "term_weights": tw, "dense": dense}
        )
        ids = self.ids + [p for p, _, _ in new]
        empty = np.zeros((0, 0))
        PaperVectors(ids, self.vocab, empty, empty, empty, self.basis).save(directory, False)
        return PaperVectors.load(directory)

    # -- storage ---------------------------------------------------------------------------------

    def save(self, directory: str | Path, per_paper: bool = True) -> None:
        """Write to `directory` (created): .npy arrays that `load` memory-maps, and JSON.
        Without `per_paper`, the per-paper arrays are taken to be there already (`build`
        wrote them as it made them)."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        if per_paper:
            np.save(d / "term_ids.npy", np.ascontiguousarray(self.term_ids, dtype=np.uint16))
            weights = np.ascontiguousarray(self.term_weights, dtype=np.float16)
            np.save(d / "term_weights.npy", weights)
            np.save(d / "dense.npy", np.ascontiguousarray(self.dense, dtype=np.float16))
        if per_paper or not (d / "prefilter.npy").exists():  # else extended with the rest
            write_prefilter(d)
        np.save(d / "basis.npy", np.ascontiguousarray(self.basis, dtype=np.float16))
        np.save(d / "keys.npy", self.vocab.keys.astype(np.int64))
        np.save(d / "idf.npy", self.vocab.idf.astype(np.float32))
        words = sorted(self.vocab.words, key=self.vocab.words.__getitem__)
        meta = {"format": FORMAT, "width": self.vocab.width, "count": len(self.ids)}
        (d / "words.json").write_text(json.dumps(words), encoding="utf-8")
        (d / "ids.json").write_text(json.dumps(self.ids), encoding="utf-8")
        # meta.json last: a directory without it is incomplete and `load` refuses it
        (d / "meta.json").write_text(json.dumps(meta), encoding="utf-8")

    @classmethod
    def load(
        cls, directory: str | Path, mmap: bool = True, known_ids: list[str] | None = None
    ) -> PaperVectors:
        """Read what `save` wrote; arrays are read-only memory maps unless ``mmap=False``.
        When the ids read are `known_ids`, that list is kept instead (at a million papers,
        their strings are 60 MB a copy).

        Raises ValueError for a directory that is incomplete, of another format or inconsistent.
        """
        d = Path(directory)
        mode: Any = "r" if mmap else None
        try:
            meta = json.loads((d / "meta.json").read_text("utf-8"))
            if meta.get("format") != FORMAT:
                raise ValueError(f"vectors format {meta.get('format')!r}, expected {FORMAT}")
            ids = json.loads((d / "ids.json").read_text("utf-8"))
            if known_ids is not None and ids == known_ids:
                ids = known_ids
            words = json.loads((d / "words.json").read_text("utf-8"))
            arrays = {
                name: np.load(d / f"{name}.npy", mmap_mode=mode)
                for name in ("term_ids", "term_weights", "dense", "basis")
            }
            prefilter = _prefilter(d, mode)
            keys = np.load(d / "keys.npy")
            idf = np.load(d / "idf.npy")
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read vectors in {d}: {exc}") from exc
        n = len(ids)
        if not (
            len(arrays["term_ids"]) == len(arrays["term_weights"]) == len(arrays["dense"]) == n
            and meta.get("count") == n
            and (prefilter is None or prefilter.shape == arrays["dense"].shape)
            and len(keys) == len(idf) == len(arrays["basis"])
        ):
            raise ValueError(f"vectors in {d} are inconsistent")
        vocab = Vocabulary({w: i for i, w in enumerate(words)}, int(meta["width"]), keys, idf)
        loaded = cls(
            ids,
            vocab,
            arrays["term_ids"],
            arrays["term_weights"],
            arrays["dense"],
            arrays["basis"],
        )
        loaded.directory = d if mmap else None
        loaded.prefilter = prefilter
        return loaded

    # -- scoring helpers (used by similar and triage) -------------------------------------------

    def term_scores(self, query: np.ndarray) -> np.ndarray:
        """Every paper's dot product with a dense vocabulary-length query (float32)."""
        out = np.empty(len(self.ids), dtype=np.float32)
        ext = _padded(query)
        step = 16384
        for s in range(0, len(self.ids), step):
            ids = np.asarray(self.term_ids[s : s + step])
            w = np.asarray(self.term_weights[s : s + step], dtype=np.float32)
            out[s : s + step] = (ext[ids] * w).sum(axis=1)
            if s // step % RELEASE_EVERY == RELEASE_EVERY - 1:
                self.release()
        self.release()
        return out

    def term_scores_of(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """`term_scores` of the papers at `rows` (ascending) only, read a thousand at a time
        and let go after each: the rows are spread over the whole file, and the pages read
        around each (at a million papers the 20,000 rows of "more like this" mapped 520 MB)
        stayed in the reader's resident memory."""
        ext = _padded(query)
        out = np.empty(len(rows), dtype=np.float32)
        step = 1024
        for s in range(0, len(rows), step):
            part = rows[s : s + step]
            ids = np.asarray(self.term_ids[part])
            w = np.asarray(self.term_weights[part], dtype=np.float32)
            out[s : s + step] = (ext[ids] * w).sum(axis=1)
            self.release()
        return out

    def release(self) -> None:
        """Let go of the mapped pages a pass over every paper has read: at a million papers
        they are 1.4 GB of the reader's resident memory (they stay in the page cache)."""
        for array in (self.term_ids, self.term_weights, self.dense, self.prefilter):
            mapped = getattr(array, "_mmap", None)  # a numpy memmap's own map
            if mapped is not None:
                release_pages(mapped)

    def rough_dense_scores(self, query: np.ndarray) -> np.ndarray | None:
        """Every paper's LSA cosine with a unit query (`dims` floats) to within about 0.01,
        from the int8 rows of `prefilter`: a sixth of `dense_scores`' time at a million.
        None when there are no such rows or they hold other than `dims` columns."""
        rows = self.prefilter
        k = len(query)
        if rows is None or rows.shape[1] != k or len(rows) != len(self.ids):
            return None
        q = query.astype(np.float32) / PREFILTER_SCALE
        out = np.empty(len(rows), dtype=np.float32)
        step = 65_536
        for s in range(0, len(rows), step):
            out[s : s + step] = np.asarray(rows[s : s + step], dtype=np.float32) @ q
        self.release()
        return out

    def dense_scores_of(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """`dense_scores` of the papers at `rows` (ascending) only."""
        block = np.asarray(self.dense[rows, : len(query)], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1)
        norms[norms == 0] = 1.0
        return (block @ query.astype(np.float32)) / norms

    def dense_scores(self, query: np.ndarray) -> np.ndarray:
        """Every paper's cosine with a query in LSA space (query: `dims` floats, unit norm)."""
        k = len(query)
        out = np.empty(len(self.ids), dtype=np.float32)
        q = query.astype(np.float32)
        key = (k, len(self.ids), id(self.dense))
        known = self._norms if self._norms is not None and self._norms[0] == key else None
        norms = np.empty(len(self.ids), dtype=np.float32) if known is None else known[1]
        step = 16384

        def part(first: int, last: int) -> None:
            for s in range(first, last, step):
                block = np.asarray(self.dense[s : min(s + step, last), :k], dtype=np.float32)
                end = s + len(block)
                if known is None:  # the rows' lengths, kept for the next query (4 MB a million)
                    found = np.linalg.norm(block, axis=1)
                    found[found == 0] = 1.0
                    norms[s:end] = found
                out[s:end] = (block @ q) / norms[s:end]
                if (s - first) // step % RELEASE_EVERY == RELEASE_EVERY - 1:
                    self.release()

        n = len(self.ids)
        if n < 4 * step:
            part(0, n)
        else:  # converting the stored halves to floats is most of it: two threads (numpy lets go
            # of the GIL), each over half the papers (at a million, 0.35 -> 0.30 s)
            middle = n // 2 // step * step
            with ThreadPoolExecutor(2, thread_name_prefix="papertui-lsa") as pool:
                for done in [pool.submit(part, 0, middle), pool.submit(part, middle, n)]:
                    done.result()
        self._norms = (key, norms)
        self.release()
        return out

    def term_vector(
        self, rows: Sequence[int], weights: Sequence[float] | None = None
    ) -> np.ndarray:
        """Weighted sum of papers' term vectors, as a dense vocabulary-length array."""
        acc = np.zeros(PAD + 1, dtype=np.float32)
        for n, r in enumerate(rows):
            wt = 1.0 if weights is None else float(weights[n])
            np.add.at(
                acc, np.asarray(self.term_ids[r]), wt * np.asarray(self.term_weights[r], np.float32)
            )
        return acc[: len(self.vocab.keys)]

    def dense_vector(
        self, rows: Sequence[int], weights: Sequence[float] | None = None
    ) -> np.ndarray:
        """Weighted sum of papers' unit LSA vectors (first `dims` coordinates)."""
        k = self.dims
        if not len(rows):
            return np.zeros(k, dtype=np.float32)
        block = np.asarray(self.dense[np.asarray(rows), :k], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        w = np.ones(len(rows), np.float32) if weights is None else np.asarray(weights, np.float32)
        return (w[:, None] * block / norms).sum(axis=0)


def _padded(query: np.ndarray) -> np.ndarray:
    """A vocabulary-length query as a table every stored term id indexes (PAD and unknown
    ids score 0)."""
    ext = np.zeros(PAD + 1, dtype=np.float32)
    ext[: len(query)] = query
    return ext


def _prefilter(directory: Path, mode: Any) -> np.ndarray | None:
    """The prefilter's rows saved beside the vectors, written now for vectors saved before
    there were any; None when they cannot be written (a full disk): "more like this" then
    ranks by the half-float rows, slower but the same."""
    path = directory / "prefilter.npy"
    if not path.exists():
        try:
            write_prefilter(directory)
        except OSError:
            return None
    return np.load(path, mmap_mode=mode)
