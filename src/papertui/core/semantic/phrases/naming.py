"""Choosing and spelling phrases that name a group of papers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from papertui.core.semantic.phrases.tokens import Tokens, ngram_keys
from papertui.core.semantic.phrases.words import GENERIC_WORDS


def label_ok(words: Sequence[str]) -> bool:
    """A phrase may name a topic: not only generic words, no numbers, no one- or two-letter word
    standing alone."""
    if all(w in GENERIC_WORDS for w in words):
        return False
    if len(words) == 1 and len(words[0]) < 3:
        return False
    return all(any(c.isalpha() for c in w) for w in words)


def head_rates(tokens: Tokens, min_uses: int = 5) -> np.ndarray:
    """Per term, the share of its uses that end a run of content words ("the policy is" but
    not "linear models"): low for words that modify ("linear", "local", "variational"), which
    name no field alone. NaN for a term used fewer than `min_uses` times."""
    n_terms = max(1, len(tokens.term_words))
    uses = np.zeros(n_terms, dtype=np.int64)
    ends = np.zeros(n_terms, dtype=np.int64)
    for chunk in tokens.chunks:
        terms = tokens.term_stream(chunk)
        here, nxt = terms[:-1], terms[1:]
        word = here >= 0
        uses += np.bincount(here[word], minlength=n_terms)
        ends += np.bincount(here[word & (nxt < 0)], minlength=n_terms)
    rates = ends / np.maximum(uses, 1)
    rates[uses < min_uses] = np.nan
    return rates


def overlaps(words: Sequence[str], used: set[str]) -> bool:
    """A phrase repeats a chosen one when a word, or a part of a hyphenated one, shares its
    first letters with a chosen word ("fair" and "fairness", "attention" and "self-attention")."""
    mine = {part for w in words for part in w.split("-") if part}
    theirs = {part for u in used for part in u.split("-") if part}
    for w in mine:
        for u in theirs:
            n = min(len(w), len(u), 6)
            if w[:n] == u[:n] and (n >= 4 or w == u):
                return True
    return False


def spellings(tokens: Tokens, phrases: set[tuple[int, ...]]) -> dict[tuple[int, ...], str]:
    """Each phrase (term ids) in its most frequent spelling; a capital kept only where the corpus
    writes the word that way mid-sentence too ("GANs", "LSTM", but not "Graph")."""
    n_terms = max(1, len(tokens.term_words))
    n_surf = max(1, len(tokens.surface_words))
    fold = tokens.fold()
    counts = np.zeros(n_surf, dtype=np.int64)
    for chunk in tokens.chunks:
        counts += np.bincount(chunk.surf[chunk.surf >= 0], minlength=n_surf)

    def word(sid: int) -> str:
        w = tokens.surface_words[sid]
        if w[:1].isupper() and w[1:].islower():
            lower = tokens.surface.get(w.lower(), -1)
            if lower >= 0 and counts[lower] * 3 >= counts[sid]:
                return w.lower()
        return w

    spelled = {p: " ".join(tokens.term_words[t] for t in p) for p in phrases}
    for order in (1, 2, 3):
        want = [p for p in phrases if len(p) == order]
        if not want:
            continue
        keys = np.array(sorted(phrase_key(p, n_terms) for p in want), dtype=np.int64)
        found: list[np.ndarray] = []
        for chunk in tokens.chunks:
            tk = ngram_keys(tokens.term_stream(chunk), n_terms, order)
            pos = np.flatnonzero(np.isin(tk, keys))
            sk = np.zeros(len(pos), dtype=np.int64)
            for j in range(order):
                sk = sk * n_surf + chunk.surf[pos + j]
            found.append(sk)
        if not found:
            continue
        combo, cnt = np.unique(np.concatenate(found), return_counts=True)
        best: dict[tuple[int, ...], tuple[int, list[int]]] = {}
        for value, c in zip(combo.tolist(), cnt.tolist(), strict=True):
            sids: list[int] = []
            for _ in range(order):
                value, r = divmod(value, n_surf)
                sids.append(r)
            sids.reverse()
            key = tuple(int(fold[x]) for x in sids)
            if key not in best or c > best[key][0]:
                best[key] = (c, sids)
        for key, (_, sids) in best.items():
            spelled[key] = " ".join(word(x) for x in sids)
    return spelled


def phrase_key(phrase: tuple[int, ...], n_terms: int) -> int:
    key = 0
    for t in phrase:
        key = key * n_terms + t
    return key
