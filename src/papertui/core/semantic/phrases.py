"""Words and phrases of abstracts, shared by topics and the overview's distinctive terms.

An abstract becomes a stream of content words: markup removed, lowercased, plurals folded
("networks" and "network" are one term); stop words, words that say how a paper talks
("propose", "results"), numbers, LaTeX commands and punctuation break the stream, so that
adjacent words in it make phrases ("graph neural networks"). Streams are kept as numpy arrays a
chunk of papers at a time: at 100,000 abstracts they take about 50 MB.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def _words(text: str) -> list[str]:
    return text.split()


# Function words: never terms, and they break phrases ("learning of representations" has no bigram).
STOP_WORDS = frozenset(
    _words(
        """
a about above across after afterwards again against all almost alone along already also although
always am among amongst an and another any anyhow anyone anything anyway anywhere are around as at
be became because become becomes becoming been before beforehand behind being below beside besides
between beyond both but by can cannot could did do does doing done down due during each either else
elsewhere enough especially etc even ever every everyone everything everywhere except few for
former formerly from further furthermore had has have having he hence her here hereby herein hers
herself him himself his how however i ie eg if in indeed into is it its itself just last latter
latterly least less let like likely made mainly make makes making many may me meanwhile might mine
more moreover most mostly much must my myself namely neither never nevertheless next no nobody none
nor not nothing now nowhere of off often on once one only onto or other others otherwise our ours
ourselves out over own per perhaps please put quite rather re really same seem seemed seeming seems
several she should since so some somehow someone something sometime sometimes somewhere still such
than that the their theirs them themselves then thence there thereafter thereby therefore therein
thereof thereupon these they this those though through throughout thru thus to together too toward
towards under unless until up upon us use used uses using very via was we well were what whatever
when whence whenever where whereas whereby wherein whether which while whither who whoever whole
whom whose why will with within without would yet you your yours yourself yourselves s t d ll ve
able across can't cannot won't isn't aren't doesn't don't didn't it's we're let's two three four
five six seven eight nine ten first second third fourth fifth single multiple i.e e.g vs versus et
al
"""
        # Words that say how a paper talks, not what it is about.
        """
paper papers work works propose proposes proposed proposing present presents presented presenting
introduce introduces introduced introducing show shows showed shown showing demonstrate
demonstrates demonstrated demonstrating result results resulting achieve achieves achieved
achieving outperform outperforms outperformed outperforming state-of-the-art sota art novel new
existing prior previous previously recent recently current currently extensive extensively
significant significantly substantially substantial various different important effective
effectively efficient efficiently simple simply better best good high higher highly large larger
small smaller key main major furthermore additionally experimental experiment experiments empirical
empirically evaluate evaluated evaluation evaluations benchmark benchmarks demonstrates superior
competitive compared comparison compare comparable improve improved improves improving improvement
improvements leverage leverages leveraging leveraged enable enables enabled enabling allow allows
allowed approach approaches method methods technique techniques framework frameworks strategy
strategies study studies studied investigate investigates investigated address addresses addressed
addressing problem problems issue issues challenge challenges challenging task tasks consider
considers considered provide provides provided providing obtain obtains obtained based well-known
widely wide way ways aim aims goal goals focus focuses paradigm performance performs perform
performed tackle tackles lead leads leading conduct conducted conducts despite although moreover
specifically particular particularly typically usually generally general commonly common often
already thereby able unlike furthermore respectively real-world real world however finally overall
crucial critical remains remain requires require required requiring effectiveness efficiency
superiority robust robustly range variety number numbers set sets code available publicly release
released github https http www com org html pdf firstly secondly thirdly lastly named called
termed dubbed project page enhance enhances enhanced enhancing utilize utilizes utilized utilizing
exploit exploits exploiting employ employs employed adopt adopts adopted incorporate incorporates
incorporated incorporating integrate integrates integrated integrating explore explores explored
exploring develop develops developed developing generate generates generated generating prove
proves proved proving certain reduce reduces reduced reducing
"""
    )
)

# Words that may sit inside a phrase ("language models") but name no field on their own.
GENERIC_WORDS = frozenset(
    _words(
        """
model models learning learn learns learned network networks neural deep data datasets dataset
training train trained algorithm algorithms system systems representation representations feature
features function functions information analysis process processes structure structures output
outputs input inputs level levels space spaces type types form forms term terms case cases order
application applications setting settings time times step steps parameter parameters value values
example examples sample samples instance instances scale loss accuracy error errors quality theory
theoretical practice practical domain domains context contexts design scheme module modules
component components mechanism mechanisms architecture architectures layer layers object objects
task tasks image images text source target unit units user users experiment tool tools metric
metrics solution solutions stage stages class classes label labels pattern patterns property
properties cost costs rate rates size sizes amount amounts area areas field fields aspect aspects
point points part parts group groups state states variable variables distribution distributions
existing novel proposed new generative efficient adaptive robust scalable effective unified simple
end-to-end end lower upper upon guarantee guarantees bound bounds old notion notions
"""
    )
)

# LaTeX commands and Greek letters come from formulas, not prose.
_LATEX = frozenset(
    _words(
        """
frac mathcal mathbb mathbf mathrm mathit mathsf boldsymbol textbf textit emph cite citep citet ref
left right cdot cdots ldots dots log exp min max sum prod int sqrt tilde hat bar top sim approx leq
geq neq infty mid lvert rvert langle rangle operatorname text mbox quad qquad big bigg alpha beta
gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho sigma tau
upsilon phi varphi chi psi omega
"""
    )
)

# A word (letters, digits, inner hyphens) or a run of punctuation; a word with a dangling
# hyphen ("pre-" in "pre- and post-training") is a fragment and breaks the stream.
_TOKEN = re.compile(r"[^\W_][\w-]*|[^\w\s]+")
BOUNDARY = -1
# Markup some dumps carry in their abstracts (MathML, HTML tags, entities): not words.
_MARKUP = re.compile(r"<[^<>]{0,300}>|&#?\w{1,10};")


def fold_word(word: str) -> str:
    """Plurals to singular, so "networks" and "network" are one term (not a full stemmer)."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4 and word not in ("series", "species"):
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("ches", "shes", "xes", "zzes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ics", "ous")):
        return word[:-1]
    return word


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
            or lower in _LATEX
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


def label_ok(words: Sequence[str]) -> bool:
    """A phrase may name a topic: not only generic words, no numbers, no one- or two-letter word
    standing alone."""
    if all(w in GENERIC_WORDS for w in words):
        return False
    if len(words) == 1 and len(words[0]) < 3:
        return False
    return all(any(c.isalpha() for c in w) for w in words)


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


def phrase_key(phrase: tuple[int, ...], n_terms: int) -> int:
    key = 0
    for t in phrase:
        key = key * n_terms + t
    return key


def terms_of(texts: Sequence[str]) -> list[list[str]]:
    """Unigram and bigram terms of each text, named as `_build_features` names features."""
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
