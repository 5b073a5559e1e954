"""Which papers use which terms: the counts behind the overview's distinctive terms, and the
terms of texts added after topics were made."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from papertui.core.semantic.phrases.naming import spellings
from papertui.core.semantic.phrases.tokens import Tokens, chunk_terms, doc_unique


class PhraseTable:
    """Which papers use which words and two-word phrases: the counts behind "distinctive terms".

    `docs` and `cols` list each (paper, phrase) pair once; `phrases[col]` is the folded phrase
    ("graph neural"); `spell` gives the corpus' own spelling of a few of them."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._tokens = Tokens()
        for text in texts:
            self._tokens.add(text)
        self._tokens.flush()
        self.n = len(texts)
        n_terms = max(1, len(self._tokens.term_words))
        docs: list[np.ndarray] = []
        keys: list[np.ndarray] = []
        for chunk in self._tokens.chunks:
            d, k, _ = doc_unique(*chunk_terms(self._tokens, chunk, n_terms))
            docs.append(d)
            keys.append(k)
        all_keys = np.concatenate(keys) if keys else np.zeros(0, np.int64)
        uniq, cols = np.unique(all_keys, return_inverse=True)
        self.docs = np.concatenate(docs) if docs else np.zeros(0, np.int32)
        self.cols = cols.astype(np.int32).reshape(-1)
        self._ids: list[tuple[int, ...]] = [
            (int(k),) if k < n_terms else tuple(divmod(int(k) - n_terms, n_terms)) for k in uniq
        ]
        words = self._tokens.term_words
        self.phrases: list[tuple[str, ...]] = [tuple(words[t] for t in p) for p in self._ids]

    def spell(self, cols: Sequence[int]) -> list[str]:
        spelled = spellings(self._tokens, {self._ids[c] for c in cols})
        return [spelled[self._ids[c]] for c in cols]


def terms_of(texts: Sequence[str]) -> list[list[str]]:
    """Unigram and bigram terms of each text, as topic features name them."""
    tokens = Tokens()
    for text in texts:
        tokens.add(text)
    tokens.flush()
    out: list[list[str]] = []
    words = tokens.term_words
    fold = tokens.fold()
    for chunk in tokens.chunks:
        terms = fold[chunk.surf].tolist()
        for lo, hi in zip(chunk.starts[:-1].tolist(), chunk.starts[1:].tolist(), strict=True):
            found: list[str] = []
            prev = -1
            for t in terms[lo:hi]:
                if t >= 0:
                    found.append(words[t])
                    if prev >= 0:
                        found.append(words[prev] + " " + words[t])
                prev = t
            out.append(found)
    return out
