"""Paper vectors: weighted terms plus a small LSA embedding, built once, memory-mapped after.

Each paper gets two parts, both L2-normalised:

* ``terms``: its `TOP_TERMS` heaviest stemmed unigrams and bigrams, weighted by sublinear term
  frequency times a damped IDF (``idf ** IDF_POWER``), as a fixed-width (ids, weights) pair of
  arrays, so that scoring every paper against a query is one gather and one sum;
* ``dense``: the paper's coordinates in the top singular directions of the whole weighted term
  matrix (latent semantic analysis, randomized SVD), which lets papers that say the same thing
  in different words meet.

The weights and the SVD basis are kept, so new papers are transformed with the existing
vocabulary (`PaperVectors.add`) without a rebuild. numpy only; scipy (sparse matrices) is
imported lazily by `build` and `add`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

Progress = Callable[[int, int], None]

FORMAT = 1
TOP_TERMS = 96  # terms kept per paper (most abstracts have fewer): 100k x 96 x 4 B = 38 MB
MAX_DIMS = 96  # LSA dimensions stored; fewer are used for small libraries (`dims_for`)
MAX_FEATURES = 65_535  # vocabulary cap (by document frequency), so term ids fit in uint16
PAD = 65_535  # the term id of an unused slot
MIN_DF = 2  # a term must appear in two papers: one-off words and typos say nothing shared
MAX_DF = 0.5  # terms in more than half the papers are noise for similarity
IDF_POWER = 0.75  # damped IDF: rare shared words matter, but one rare word must not decide
SEED = 1

_WORD = re.compile(r"[a-z][a-z0-9]*")

# Function words plus the boilerplate every abstract uses; they carry no topic.
STOP_WORDS = frozenset(
    """a about above after again against all almost along also although always am among an and
    another any are around as at be because been before being below between both but by can
    cannot could did do does doing done down due during each either et etc few for from further
    had has have having he her here hers him his how however i ie eg if in into is it its itself
    just least less may me might more most much must my neither no nor not now of off often on
    once one only onto or other others otherwise our ours out over own per rather same several
    shall she should since so some such than that the their theirs them themselves then there
    thereby therefore these they this those though three through thus to together too two under
    until up upon us use used uses using very via was we well were what when where whereas whether
    which while who whom whose why will with within without would yet you your
    paper propose proposed proposes present presents show shows shown approach approaches method
    methods novel new result results work based also achieve achieves demonstrate demonstrates
    experiments experimental moreover furthermore existing state art significantly""".split()  # noqa: SIM905
)


def stem(word: str) -> str:
    """A light English stemmer: plural and a few inflectional endings (models -> model)."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ous")):
        return word[:-1]
    return word


def dims_for(n: int) -> int:
    """LSA dimensions to compare papers in: about sqrt(n), between 16 and `MAX_DIMS`.

    A few hundred abstracts support only a handful of topics; 100,000 support many more.
    """
    return max(16, min(MAX_DIMS, int(math.sqrt(max(n, 1)))))


class _Tokenizer:
    """Maps text to unigram ids and bigram keys, caching each word's stem (shared by all docs)."""

    def __init__(self, words: dict[str, int] | None = None, frozen: bool = False) -> None:
        self.words: dict[str, int] = dict(words or {})  # stem -> unigram id
        self._cache: dict[str, int] = {}  # surface word -> unigram id, -1 for a stop word
        self.frozen = frozen  # frozen: unknown stems map to -2 (no id, but break no bigram)

    def ids(self, text: str) -> list[int]:
        cache = self._cache
        words = _WORD.findall(text.lower())
        out: list[int | None] = list(map(cache.get, words))
        if None in out:  # first sight of some words: stem and remember them
            for i, wid in enumerate(out):
                if wid is None:
                    word = words[i]
                    wid = cache.get(word)
                    if wid is None:
                        wid = cache[word] = self._lookup(word)
                    out[i] = wid
        return out  # type: ignore[return-value]

    def _lookup(self, word: str) -> int:
        if len(word) < 2 or word in STOP_WORDS or word.isdigit():
            return -1
        s = stem(word)
        if s in STOP_WORDS:
            return -1
        wid = self.words.get(s)
        if wid is None:
            if self.frozen:
                return -2
            wid = len(self.words)
            self.words[s] = wid
        return wid


def _keys(ids: list[int], width: int) -> np.ndarray:
    """A document's term keys: unigram ids, and a*width+b+width for each adjacent pair (a, b)."""
    arr = np.asarray(ids, dtype=np.int64)
    uni = arr[arr >= 0]
    if len(arr) > 1:
        a, b = arr[:-1], arr[1:]
        ok = (a >= 0) & (b >= 0)
        bi = (a[ok] + 1) * width + b[ok]
        return np.concatenate([uni, bi])
    return uni


def _doc_text(title: str, abstract: str) -> str:
    return f"{title}. {title}. {abstract}" if title else abstract


@dataclass
class Vocabulary:
    """What `build` learnt: term keys (sorted) with their IDF, and the stems behind the keys."""

    words: dict[str, int]  # stem -> unigram id (bigram keys are made from these ids)
    width: int  # unigram id space at build time (bigram key = (a + 1) * width + b)
    keys: np.ndarray  # int64, sorted: the kept term keys; column j of the matrix is keys[j]
    idf: np.ndarray  # float32 per column: log((n + 1) / (df + 0.5)) ** IDF_POWER

    def columns(self, texts: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per text: (columns, counts) of its known terms."""
        tok = _Tokenizer(self.words, frozen=True)
        out = []
        for text in texts:
            keys = _keys([i if i < self.width else -2 for i in tok.ids(text)], self.width)
            uniq, counts = np.unique(keys, return_counts=True)
            col = np.searchsorted(self.keys, uniq)
            col = np.minimum(col, len(self.keys) - 1) if len(self.keys) else col
            known = (self.keys[col] == uniq) if len(self.keys) else np.zeros(len(uniq), bool)
            out.append((col[known].astype(np.int64), counts[known]))
        return out

    def term(self, column: int) -> str:
        """The readable term behind a column ("graph neural" for a bigram of stems)."""
        names = self._names()
        key = int(self.keys[column])
        if key < self.width:
            return names[key]
        a, b = divmod(key, self.width)
        return f"{names[a - 1]} {names[b]}"

    def _names(self) -> list[str]:
        cached = getattr(self, "_names_cache", None)
        if cached is None:
            cached = [""] * self.width
            for word, wid in self.words.items():
                if wid < self.width:
                    cached[wid] = word
            self._names_cache = cached
        return cached


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

    def __len__(self) -> int:
        return len(self.ids)

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
        new = [(p, t, a) for p, t, a in papers if self.position(p) is None]
        seen: set[str] = set()
        new = [x for x in new if not (x[0] in seen or seen.add(x[0]))]  # type: ignore[func-returns-value]
        if not new:
            return 0
        tid, tw, dense = self.transform([_doc_text(t, a) for _, t, a in new])
        self.ids = self.ids + [p for p, _, _ in new]
        self.term_ids = np.concatenate([np.asarray(self.term_ids), tid])
        self.term_weights = np.concatenate([np.asarray(self.term_weights), tw])
        self.dense = np.concatenate([np.asarray(self.dense), dense])
        return len(new)

    # -- storage ---------------------------------------------------------------------------------

    def save(self, directory: str | Path) -> None:
        """Write to `directory` (created): .npy arrays that `load` memory-maps, and JSON."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        np.save(d / "term_ids.npy", np.ascontiguousarray(self.term_ids, dtype=np.uint16))
        np.save(d / "term_weights.npy", np.ascontiguousarray(self.term_weights, dtype=np.float16))
        np.save(d / "dense.npy", np.ascontiguousarray(self.dense, dtype=np.float16))
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
    def load(cls, directory: str | Path, mmap: bool = True) -> PaperVectors:
        """Read what `save` wrote; arrays are read-only memory maps unless ``mmap=False``.

        Raises ValueError for a directory that is incomplete, of another format or inconsistent.
        """
        d = Path(directory)
        mode: Any = "r" if mmap else None
        try:
            meta = json.loads((d / "meta.json").read_text("utf-8"))
            if meta.get("format") != FORMAT:
                raise ValueError(f"vectors format {meta.get('format')!r}, expected {FORMAT}")
            ids = json.loads((d / "ids.json").read_text("utf-8"))
            words = json.loads((d / "words.json").read_text("utf-8"))
            arrays = {
                name: np.load(d / f"{name}.npy", mmap_mode=mode)
                for name in ("term_ids", "term_weights", "dense", "basis")
            }
            keys = np.load(d / "keys.npy")
            idf = np.load(d / "idf.npy")
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read vectors in {d}: {exc}") from exc
        n = len(ids)
        if not (
            len(arrays["term_ids"]) == len(arrays["term_weights"]) == len(arrays["dense"]) == n
            and meta.get("count") == n
            and len(keys) == len(idf) == len(arrays["basis"])
        ):
            raise ValueError(f"vectors in {d} are inconsistent")
        vocab = Vocabulary({w: i for i, w in enumerate(words)}, int(meta["width"]), keys, idf)
        return cls(
            ids,
            vocab,
            arrays["term_ids"],
            arrays["term_weights"],
            arrays["dense"],
            arrays["basis"],
        )

    # -- scoring helpers (used by similar and triage) -------------------------------------------

    def term_scores(self, query: np.ndarray) -> np.ndarray:
        """Every paper's dot product with a dense vocabulary-length query (float32)."""
        out = np.empty(len(self.ids), dtype=np.float32)
        ext = np.zeros(PAD + 1, dtype=np.float32)  # PAD and unknown ids score 0
        ext[: len(query)] = query
        step = 16384
        for s in range(0, len(self.ids), step):
            ids = np.asarray(self.term_ids[s : s + step])
            w = np.asarray(self.term_weights[s : s + step], dtype=np.float32)
            out[s : s + step] = (ext[ids] * w).sum(axis=1)
        return out

    def dense_scores(self, query: np.ndarray) -> np.ndarray:
        """Every paper's cosine with a query in LSA space (query: `dims` floats, unit norm)."""
        k = len(query)
        out = np.empty(len(self.ids), dtype=np.float32)
        q = query.astype(np.float32)
        step = 16384
        for s in range(0, len(self.ids), step):
            block = np.asarray(self.dense[s : s + step, :k], dtype=np.float32)
            norms = np.linalg.norm(block, axis=1)
            norms[norms == 0] = 1.0
            out[s : s + step] = (block @ q) / norms
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


def _weights(vocab: Vocabulary, cols: np.ndarray, counts: np.ndarray) -> np.ndarray:
    return (1.0 + np.log(counts.astype(np.float32))) * vocab.idf[cols]


def _top_terms(
    rows: list[tuple[np.ndarray, np.ndarray]], top: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Fixed-width (ids, weights) of each row's `top` heaviest terms, unit norm, PAD-padded."""
    top = TOP_TERMS if top is None else top
    ids = np.full((len(rows), top), PAD, dtype=np.uint16)
    wts = np.zeros((len(rows), top), dtype=np.float32)
    for r, (cols, w) in enumerate(rows):
        if len(cols) > top:
            keep = np.argsort(-w, kind="stable")[:top]
            cols, w = cols[keep], w[keep]
        norm = float(np.sqrt((w * w).sum()))
        if norm > 0:
            ids[r, : len(cols)] = cols
            wts[r, : len(cols)] = w / norm
    return ids, wts.astype(np.float16)


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


def _randomized_svd(x: Any, k: int, seed: int, power: int = 3) -> tuple[np.ndarray, np.ndarray]:
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


def build(
    ids: Sequence[str],
    texts: Sequence[tuple[str, str]],
    progress: Progress | None = None,
    seed: int = SEED,
    dims: int = MAX_DIMS,
) -> PaperVectors:
    """Vectors for papers given as ids and (title_or_empty, abstract) pairs in the same order.

    Deterministic for a given input and seed. `progress(done, total)` is called as papers are
    read (total = number of papers) and once more at the end. Duplicate ids keep the first.
    """
    import scipy.sparse as sp  # lazily: only building needs sparse matrices

    pairs: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for pid, (title, abstract) in zip(ids, texts, strict=True):
        if pid not in seen:
            seen.add(pid)
            pairs.append((pid, title, abstract))
    n = len(pairs)
    tok = _Tokenizer()
    streams: list[list[int]] = []
    step = max(1, min(2000, n // 50 or 1))
    for i, (_, title, abstract) in enumerate(pairs):
        streams.append(tok.ids(_doc_text(title, abstract)))
        if progress is not None and (i + 1) % step == 0:
            progress(i + 1, n)
    width = len(tok.words) + 1
    doc_keys = [_keys(s, width) for s in streams]
    del streams
    lengths = np.fromiter((len(k) for k in doc_keys), dtype=np.int64, count=n)
    allkeys = np.concatenate(doc_keys) if n else np.zeros(0, np.int64)
    del doc_keys
    docs = np.repeat(np.arange(n, dtype=np.int64), lengths)
    # distinct (doc, term) pairs with counts, then document frequencies per term
    span = int(allkeys.max()) + 1 if len(allkeys) else 1
    pair, counts = np.unique(docs * span + allkeys, return_counts=True)
    del allkeys, docs
    pdoc, pkey = np.divmod(pair, span)
    terms, df = np.unique(pkey, return_counts=True)
    keep = (df >= MIN_DF) & (df <= max(MIN_DF, MAX_DF * n))
    terms, df = terms[keep], df[keep]
    if len(terms) > MAX_FEATURES:
        order = np.lexsort((terms, -df))[:MAX_FEATURES]
        order.sort()
        terms, df = terms[order], df[order]
    idf = (np.log((n + 1) / (df + 0.5)) ** IDF_POWER).astype(np.float32)
    vocab = Vocabulary(tok.words, width, terms.astype(np.int64), idf)
    col = np.searchsorted(terms, pkey)
    col = np.minimum(col, max(len(terms) - 1, 0))
    known = terms[col] == pkey if len(terms) else np.zeros(len(pkey), bool)
    pdoc, col, counts = pdoc[known], col[known], counts[known]
    w = _weights(vocab, col, counts)
    x = sp.csr_matrix((w, (pdoc, col)), shape=(n, len(terms)), dtype=np.float32)
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    x = sp.csr_matrix(sp.diags(1.0 / norms) @ x)
    x.sort_indices()
    rows = [
        (
            x.indices[x.indptr[r] : x.indptr[r + 1]].astype(np.int64),
            x.data[x.indptr[r] : x.indptr[r + 1]],
        )
        for r in range(n)
    ]
    tid, tw = _top_terms(rows)
    k = max(0, min(dims, len(terms) - 1, n - 1))
    if k > 0:
        basis, _ = _randomized_svd(x, k, seed)
        dense = np.asarray(x @ basis, dtype=np.float32)
    else:
        basis = np.zeros((len(terms), 0), np.float32)
        dense = np.zeros((n, 0), np.float32)
    if progress is not None:
        progress(n, n)
    return PaperVectors(
        [p for p, _, _ in pairs],
        vocab,
        tid,
        tw,
        dense.astype(np.float16),
        basis.astype(np.float16),
    )
