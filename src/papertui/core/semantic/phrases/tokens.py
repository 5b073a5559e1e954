"""Abstracts as streams of term ids, a chunk of papers at a time, and the n-grams in them."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from papertui.core.semantic.phrases.words import LATEX_WORDS, STOP_WORDS, fold_word

# A word (letters, digits, inner hyphens) or a run of punctuation; a word with a dangling
# hyphen ("pre-" in "pre- and post-training") is a fragment and breaks the stream.
_TOKEN = re.compile(r"[^\W_][\w-]*|[^\w\s]+")
BOUNDARY = -1
# Markup some dumps carry in their abstracts (MathML, HTML tags, entities): not words.
_MARKUP = re.compile(r"<[^<>]{0,300}>|&#?\w{1,10};")

CHUNK_DOCS = 4000


@dataclass(slots=True)
class Chunk:
    """Consecutive papers' words as surface-word ids, -1 where a phrase breaks.

    Runs of breaks are kept as one, so stop words cost nothing; every paper ends with a break,
    so no n-gram spans two papers. `starts` has one entry per paper plus the end."""

    surf: np.ndarray  # int32
    starts: np.ndarray  # int64, local positions
    doc0: int  # index of the first paper

    def docs(self) -> np.ndarray:
        lengths = np.diff(self.starts)
        return np.repeat(np.arange(self.doc0, self.doc0 + len(lengths), dtype=np.int32), lengths)


class Tokens:
    """Words of every abstract. Surface words keep their spelling ("GANs"); `fold_of` maps each
    to its term ("gan"), the unit features and phrases are made of."""

    def __init__(self) -> None:
        self.surface: dict[str, int] = {}
        self.surface_words: list[str] = []
        self.fold_of: list[int] = []
        self.terms: dict[str, int] = {}
        self.term_words: list[str] = []
        self.chunks: list[Chunk] = []
        self.n_docs = 0
        self._pending: list[int] = []
        self._pending_lengths: list[int] = []
        self._fold_array: np.ndarray | None = None

    def _classify(self, token: str) -> int:
        lower = token.lower()
        if (
            len(lower) < 2
            or lower.endswith("-")
            or "--" in lower
            or not any(c.isalpha() for c in lower)
            or lower in STOP_WORDS
            or lower in LATEX_WORDS
            or lower.replace("-", "").isdigit()
        ):
            return BOUNDARY
        term = fold_word(lower)
        if term in STOP_WORDS:
            return BOUNDARY
        tid = self.terms.get(term)
        if tid is None:
            tid = self.terms[term] = len(self.term_words)
            self.term_words.append(term)
        sid = len(self.surface_words)
        self.surface_words.append(token)
        self.fold_of.append(tid)
        return sid

    def add(self, text: str) -> None:
        surface = self.surface
        if "<" in text or "&" in text:
            text = _MARKUP.sub(" ", text)
        tokens = _TOKEN.findall(text)
        ids = list(map(surface.get, tokens))
        if None in ids:
            for i, sid in enumerate(ids):
                if sid is None:
                    sid = surface.get(tokens[i])
                    if sid is None:
                        sid = surface[tokens[i]] = self._classify(tokens[i])
                    ids[i] = sid
        self._pending.extend(ids)  # type: ignore[arg-type]
        self._pending.append(BOUNDARY)
        self._pending_lengths.append(len(ids) + 1)
        if len(self._pending_lengths) >= CHUNK_DOCS:
            self.flush()

    def flush(self) -> None:
        if not self._pending_lengths:
            return
        raw = np.asarray(self._pending, dtype=np.int32)
        keep = raw >= 0
        keep[1:] |= raw[:-1] >= 0  # the first break after a word stays
        cum = np.zeros(len(raw) + 1, dtype=np.int64)
        np.cumsum(keep, out=cum[1:])
        old_starts = np.zeros(len(self._pending_lengths) + 1, dtype=np.int64)
        np.cumsum(self._pending_lengths, out=old_starts[1:])
        self.chunks.append(Chunk(raw[keep], cum[old_starts], self.n_docs))
        self.n_docs += len(self._pending_lengths)
        self._pending = []
        self._pending_lengths = []
        self._fold_array = None

    def fold(self) -> np.ndarray:
        """Term id of each surface id, with a trailing -1 so that fold[-1] is a break."""
        if self._fold_array is None or len(self._fold_array) != len(self.fold_of) + 1:
            self._fold_array = np.asarray(self.fold_of + [BOUNDARY], dtype=np.int32)
        return self._fold_array

    def term_stream(self, chunk: Chunk) -> np.ndarray:
        return self.fold()[chunk.surf]


def ngram_keys(terms: np.ndarray, n_terms: int, order: int) -> np.ndarray:
    """Key of the n-gram starting at each position (-1 where it crosses a break)."""
    size = len(terms)
    keys = np.full(size, -1, dtype=np.int64)
    if size < order:
        return keys
    span = size - order + 1
    valid = terms[:span] >= 0
    key = terms[:span].astype(np.int64)
    for j in range(1, order):
        nxt = terms[j : j + span]
        valid &= nxt >= 0
        key = key * n_terms + nxt
    keys[:span] = np.where(valid, key, -1)
    return keys


def doc_unique(doc: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (doc, key) pairs of valid keys with their counts, sorted by doc then key."""
    ok = keys >= 0
    doc, keys = doc[ok], keys[ok]
    if len(keys) == 0:
        return doc, keys, np.zeros(0, dtype=np.int64)
    first = int(doc.min())
    span = int(keys.max()) + 1
    if span * (int(doc.max()) - first + 1) < 2**62:
        # one int64 per pair sorts several times faster than a two-key lexsort
        pair, counts = np.unique((doc - first).astype(np.int64) * span + keys, return_counts=True)
        d, k = np.divmod(pair, span)
        return (d + first).astype(doc.dtype), k, counts
    order = np.lexsort((keys, doc))
    doc, keys = doc[order], keys[order]
    new = np.empty(len(keys), dtype=bool)
    new[0] = True
    new[1:] = (keys[1:] != keys[:-1]) | (doc[1:] != doc[:-1])
    idx = np.flatnonzero(new)
    return doc[idx], keys[idx], np.diff(np.append(idx, len(keys)))


def chunk_terms(tokens: Tokens, chunk: Chunk, n_terms: int) -> tuple[np.ndarray, np.ndarray]:
    """(doc, key) of every unigram and bigram in a chunk: unigram t -> t,
    bigram (a, b) -> n_terms + a * n_terms + b."""
    terms = tokens.term_stream(chunk)
    doc = chunk.docs()
    bi = ngram_keys(terms, n_terms, 2)
    bi[bi >= 0] += n_terms
    return np.concatenate([doc, doc]), np.concatenate([terms.astype(np.int64), bi])
