"""Paper text to weighted terms: the tokeniser, the vocabulary and the per-paper term weights.

Terms are stemmed content words and the pairs of adjacent ones (stop words, boilerplate and
sentence ends break a pair). A term's weight in a paper is sublinear term frequency times a
damped IDF (``idf ** IDF_POWER``); each paper keeps its `TOP_TERMS` heaviest terms as a
fixed-width (ids, weights) pair of arrays. numpy only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Terms kept per paper: 128 covers 9 in 10 abstracts whole (96 cut 44% of ICML/CVPR 2023's);
# 100k x 128 x 4 B = 51 MB.
TOP_TERMS = 128
MAX_FEATURES = 65_535  # vocabulary cap (by document frequency), so term ids fit in uint16
PAD = 65_535  # the term id of an unused slot
MIN_DF = 2  # a term must appear in two papers: one-off words and typos say nothing shared
MAX_DF = 0.5  # terms in more than half the papers are noise for similarity
IDF_POWER = 0.75  # damped IDF: rare shared words matter, but one rare word must not decide

# A word, or the end of a sentence (a token that maps to no term, so no pair spans it).
# A LaTeX command (\sqrt, \widetilde) is matched whole, so that its name is never a term.
_WORD = re.compile(r"\\[a-z]+|[a-z][a-z0-9]*|[.!?](?=\s|$)")
# Where an abstract's first sentence ends: a full stop before a capital letter.
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z])")
LEAD_WORDS = 50  # the lead sentence counted twice is at most this many words

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
    if word.endswith(("sses", "xes", "ches", "shes")) and len(word) > 4:  # axes -> axe, not ax
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ous")):
        return word[:-1]
    return word


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
        if len(word) < 2 or word in STOP_WORDS or word.isdigit() or word[0] == "\\":
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


def lead_sentence(abstract: str) -> str:
    """The abstract's first sentence (at most `LEAD_WORDS` words)."""
    end = _SENTENCE_END.search(abstract)
    lead = abstract[: end.start()] if end else abstract
    words = lead.split()
    return " ".join(words[:LEAD_WORDS]) if len(words) > LEAD_WORDS else lead


def _doc_text(title: str, abstract: str) -> str:
    """The text a paper's terms are counted in: the title weighs three times, and without a
    title the first sentence, which usually names the field and the problem, weighs twice."""
    if title:
        return f"{title}. {title}. {abstract}"
    return f"{lead_sentence(abstract)}. {abstract}" if abstract else abstract


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


def kept_terms(
    terms: np.ndarray, df: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The terms neither too rare nor too common among `n` papers, the `MAX_FEATURES` most
    frequent at most (in term order), with their document frequencies and IDF weights."""
    keep = (df >= MIN_DF) & (df <= max(MIN_DF, MAX_DF * n))
    terms, df = terms[keep], df[keep]
    if len(terms) > MAX_FEATURES:
        order = np.lexsort((terms, -df))[:MAX_FEATURES]
        order.sort()
        terms, df = terms[order], df[order]
    return terms, df, (np.log((n + 1) / (df + 0.5)) ** IDF_POWER).astype(np.float32)
