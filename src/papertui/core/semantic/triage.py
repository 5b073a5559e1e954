"""The "for you" ranking: learn a reader's interest from what they kept and what they passed over.

The model is Rocchio's profile in both parts of `PaperVectors`: the centroid of the positives
(bookmarked, noted, tagged, liked papers and seed texts; a liked paper's terms weighted by the
share of the liked papers holding them: see `triage_profile`) minus `NEGATIVE_WEIGHT` times the
centroid of the negatives (read and not kept, or skipped), its term part cut to its
`PROFILE_TERMS` heaviest terms (the long tail is what one liked paper says and the others do not),
scored as term cosine plus a weight times LSA cosine (the weight chosen per reader by leaving
each liked paper out, `triage_profile.dense_weight`; `DENSE_WEIGHT` below 3 liked papers). Then
one round of pseudo-relevance feedback: the centroid of the `FEEDBACK_PAPERS` best unjudged
papers joins the profile with weight `FEEDBACK_WEIGHT`,
and every paper is scored again, so the papers that sit between the liked ones pull in their
own neighbours. Each paper gets a `why`: the terms that contributed most to its score and the
liked paper it is closest to. Negative phrases push matching papers down, per match, by the
spread from the median score to the top plus `PHRASE_PENALTY` deviations, without hiding them
(and keep them out of the feedback); `ask_order` lists the papers the model is least sure about
(about as close to a kept paper as to a passed-over one).

Measured on simulated readers (tests/bench/semantic.py foryou): the feedback raised
precision@20, and the cut added a little on top of it (alone it did not); a nearest-liked-paper
term, feedback from each liked paper's own neighbours, logistic regression toward the Rocchio
direction, a boost for the liked papers' topics, label propagation on a neighbour graph and a
Fisher discriminant in LSA space did not. On tests/bench/triage_eval.py (readers of specific
title phrases, ICLR 2021 and NeurIPS 2021, and ICLR 2017's author keywords over 30 seeds) the
shared-term weighting and the per-reader LSA weight together moved precision@20 from 0.265 to
0.297, 0.369 to 0.421 and 0.349 to 0.352; figures in `triage_profile`.

Last, the score is standardised (over the unjudged papers) and the standardised contrast score
of `triage_contrast` joins it with weight `CONTRAST_WEIGHT`: the terms that set the liked
papers (and, at `FEEDBACK_WEIGHT`, the feedback papers) apart from the whole library, each
weighted by a t statistic. Measured on the same readers, paired against the model without it:
+0.010 ± 0.002 (ICLR 2021 phrases), +0.015 ± 0.001 (NeurIPS 2021 phrases), +0.001 ± 0.002
(ICLR 2017 keywords); weight 0.2: +0.007, +0.012, +0.002; the scoring script's 12 readers
0.371 -> 0.367 (one paper in 240 places). Choosing the feedback papers by the fused score
(measured before the feedback papers' part) gained more on the phrases and narrowed broad
interests (weight 1: +0.017, +0.019, -0.016 ± 0.005; 0.5: +0.014, +0.019, -0.005 ± 0.004).
Learners trained on the whole library (the liked papers against every other paper, as
arxiv-sanity's SVM) lost: see `triage_contrast`. Generative models measured the same way (paired
against the model before the contrast score; ICLR 2021 phrases, NeurIPS 2021 phrases, ICLR 2017
keywords): multinomial naive Bayes with EM over the unjudged papers (Nigam et al.) -0.19,
-0.27, -0.12 (the wanted class drifts into a large cluster); S-EM with spies, alone -0.08,
-0.15, -0.03 and added at 0.3 -0.009, -0.010, +0.002; a relevance model (query likelihood with
Dirichlet smoothing and RM3 feedback) added with a leave-one-out weight +0.011, +0.018, +0.001
but the scoring script's 12 readers 0.358 and twice the time at 100,000 papers, so the cheaper
contrast score was kept; a two-component mixture over the scores to choose how many feedback
papers to take -0.008, -0.008, -0.002.

Two more representations, measured the same way (paired against today's model; ICLR 2021
phrases, NeurIPS 2021 phrases, ICLR 2017 keywords) and dropped. Word vectors from local
co-occurrence (PPMI over a +-5 window of the stemmed content words, randomized SVD to 128 or 200
dimensions), each paper the SIF-weighted mean (a = 1e-3) of its words less the first principal
component, the profile the liked papers' mean less half the skips' plus the feedback papers'
at 0.3, standardised and added: alone 0.24..0.26, 0.32..0.36, 0.34 (today 0.306, 0.436,
0.354); added at 0.2 (128 dimensions) -0.000 ± 0.001, -0.001 ± 0.001, +0.003 ± 0.001, at 0.3
-0.002, -0.002, +0.004 ± 0.002, at 0.5 -0.005, -0.004, +0.005 (200 dimensions unweighted by
the singular values at 0.3 -0.001, -0.001, +0.005; 64, a window of 8 weighted 1/d, no
component removed or a = 1e-4 no better); with 200, a leave-one-out weight per reader -0.001,
-0.002, +0.004, and even the best of 0, 0.3 and 1 per reader with hindsight only +0.006,
+0.009, +0.020; word vectors learnt from all 23,480 abstracts of 2021-2024 did worse (at 0.3 -0.004,
-0.003, +0.002); the scoring script's 12 readers 0.362 (0.2), 0.350 (0.5); and 17-20 s to
build at 100,000 papers. A local LSA (an SVD of the stored terms of the 300 best-ranked papers
and the liked ones, 20 dimensions, the profile as above, fused within those 300): at 0.2
+0.000 ± 0.001, +0.000 ± 0.001, +0.002 ± 0.001, at 0.5 -0.000, -0.004, +0.004 ± 0.002 (10 or
40 dimensions, 150 or 600 papers, local IDF or centring no better); the 12 readers 0.367 (0.2),
0.371 (0.5).

What a bag-of-words learner can reach on ICLR 2017's keyword readers at all
(tests/bench/triage_eval.py --ceiling): logistic regression over the scoring script's TF-IDF
trained on the true labels of 4/5 of the library (about 390 papers, 5-fold) gets 0.415 on the
script's 12 readers and 0.398 over 390 (a quarter of those labels, about 100 papers: 0.336 and
0.324); this model, from 25 answers, 0.367 and 0.354. On the title-phrase readers it beats
that reference (0.306 against 0.279, 0.436 against 0.422).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from papertui.core.semantic.similar import (
    DENSE_WEIGHT,
    Query,
    nearest,
    papers_query,
    query_vector,
    top,
    unit_rows,
)
from papertui.core.semantic.triage_contrast import contrast_query, library_spread, standardised
from papertui.core.semantic.triage_profile import dense_weight, heaviest, liked_query
from papertui.core.semantic.vectors import PAD, PaperVectors, stem

NEGATIVE_WEIGHT = 0.5  # Rocchio's gamma: how far the passed-over papers push the profile away
NEAREST_WEIGHT = 0.0  # weight of the best LSA cosine to any one liked paper (0: why only;
# measured: every weight > 0 lowered precision@20 for single-interest readers)
PHRASE_PENALTY = 2.0  # standard deviations of the scores a negative phrase costs per match
PROFILE_TERMS = 50  # heaviest positive terms kept in the profile (and in the feedback centroid)
FEEDBACK_PAPERS = 10  # best unjudged papers folded back into the profile (0: no feedback)
FEEDBACK_WEIGHT = 0.3  # their centroid's weight against the (unit) profile's
LEAVE_ONE_OUT_MIN = 3  # liked papers needed to choose the LSA part's weight per reader
# liked papers left out in turn at most (evenly spread over them): each costs a profile of all
# the others, so leaving out every one of 1,000 liked papers took 14 s at 3,000 papers
LEAVE_ONE_OUT_MAX = 20
# weight of the contrast score (terms setting the liked papers apart from the library, see
# `triage_contrast`) against the profile's score, both standardised (0: the profile alone)
CONTRAST_WEIGHT = 0.3
# "ask me" skips a paper whose terms are this close (cosine) to one it already asks about:
# near-copies (a version with a word changed) would stack up, and one answer settles them all
DUPLICATE_COSINE = 0.9
ASK_POOL = 3  # candidates looked at per paper asked (copies skipped from them)


@dataclass
class Ranked:
    """One ranked paper: its score, the terms behind it and the liked paper it is closest to."""

    id: str
    score: float
    terms: list[str] = field(default_factory=list)
    closest: str | None = None  # id of the nearest positive (None for seed texts or no positives)
    penalised: list[str] = field(default_factory=list)  # negative phrases it matched

    @property
    def why(self) -> str:
        parts = []
        if self.terms:
            parts.append("about " + ", ".join(self.terms))
        if self.penalised:
            parts.append("lowered for " + ", ".join(f'"{p}"' for p in self.penalised))
        return "; ".join(parts)


TextOf = Callable[[str], str] | Mapping[str, str]


class InterestModel:
    """A reader's interest over one `PaperVectors`; build with `train`."""

    def __init__(
        self,
        vectors: PaperVectors,
        positives: list[int],
        negatives: list[int],
        profile: Query,
        anchors: np.ndarray,
        phrases: list[str],
        text_of: TextOf | None,
    ) -> None:
        self.vectors = vectors
        self.positives = positives
        self.negatives = negatives
        self.profile = profile
        self._anchors = anchors  # unit LSA vectors of the positives (rows), seed texts after
        self.phrases = phrases
        self._text_of = text_of
        self._scores: np.ndarray | None = None
        self._nearest: np.ndarray | None = None
        self._hits: dict[int, list[str]] = {}
        self._penalties: np.ndarray | None = None  # negative phrases matched, per paper
        # leave-one-out profiles (one per liked paper) that choose `dense_weight`; None: the
        # fixed DENSE_WEIGHT (fewer than LEAVE_ONE_OUT_MIN liked papers)
        self.held_out: Callable[[], list[Query]] | None = None
        self.held_rows: list[int] = []  # the liked papers those profiles leave out, in order
        self.dense_weight: float | None = None
        # the liked papers' (and seed texts') summed term vectors and their count, for the
        # contrast score; its standardised scores once computed
        self.contrast: tuple[np.ndarray, int] | None = None
        self._contrast: np.ndarray | None = None

    @property
    def empty(self) -> bool:
        """True when there is nothing to learn from (every score is 0 then)."""
        return not self.profile and not len(self._anchors)

    def scores(self) -> np.ndarray:
        """Every paper's interest score (higher first), negative phrases applied."""
        if self._scores is None:
            raw = self._raw_scores()
            feedback = self._feedback_rows(self._penalise(raw))
            if len(feedback):
                fb = papers_query(self.vectors, list(feedback)).normalised()
                fb = Query(heaviest(fb.terms, PROFILE_TERMS), fb.dense).normalised()
                self.profile = (self.profile + fb * FEEDBACK_WEIGHT).normalised()
                raw = self._raw_scores()
            # the contrast joins last: choosing the feedback papers by it narrowed broad
            # interests (ICLR 2017 keyword readers -0.016 ± 0.005 with weight 1)
            self._scores = self._penalise(self._with_contrast(raw, feedback))
        return self._scores

    def _with_contrast(self, s: np.ndarray, feedback: np.ndarray) -> np.ndarray:
        """`s` standardised plus `CONTRAST_WEIGHT` times the standardised contrast score (the
        feedback papers' contrast joining the liked papers' as in the profile)."""
        if not CONTRAST_WEIGHT or self.contrast is None:
            return s
        v = self.vectors
        judged = self.positives + self.negatives
        if self._contrast is None:
            spread = library_spread(v)
            liked, count = self.contrast
            q = contrast_query(v, liked, count, spread)
            q /= float(np.linalg.norm(q)) or 1.0
            if len(feedback):
                fb = contrast_query(v, v.term_vector(list(feedback)), len(feedback), spread)
                q += FEEDBACK_WEIGHT / (float(np.linalg.norm(fb)) or 1.0) * fb
            self._contrast = standardised(v.term_scores(q), judged)
        return standardised(s, judged) + CONTRAST_WEIGHT * self._contrast

    def _raw_scores(self) -> np.ndarray:
        v = self.vectors
        s = v.term_scores(self.profile.terms)
        k = v.dims
        if k and np.any(self.profile.dense):
            d = v.dense_scores(self.profile.dense[:k])
            if self.dense_weight is None:  # set on the first scoring, kept through feedback
                self.dense_weight = DENSE_WEIGHT
                if self.held_out is not None:
                    held = self.held_out()
                    self.dense_weight = dense_weight(v, self.held_rows, held, s, d, DENSE_WEIGHT)
            s += self.dense_weight * d
        if k and len(self._anchors) and NEAREST_WEIGHT:
            s += NEAREST_WEIGHT * self._nearest_anchor()[1]
        return s

    def _feedback_rows(self, s: np.ndarray) -> np.ndarray:
        """The best unjudged papers by `s`: `FEEDBACK_PAPERS`, at most a tenth of the unjudged."""
        n = min(FEEDBACK_PAPERS, (len(s) - len(self.positives) - len(self.negatives)) // 10)
        if n <= 0 or not self.profile:
            return np.zeros(0, dtype=np.int64)
        return top(s, n, self._banned(()))

    def _nearest_anchor(self) -> tuple[np.ndarray, np.ndarray]:
        """(index of the nearest anchor, its cosine) for every paper, in one pass."""
        arg, best = nearest(self.vectors, self._anchors)
        self._nearest = arg
        return arg, best

    def _penalise(self, s: np.ndarray) -> np.ndarray:
        if not self.phrases or len(s) == 0:
            return s
        if self._penalties is None:
            self._penalties = np.zeros(len(s), dtype=np.float32)
            for phrase in self.phrases:
                for r in self._matching(phrase):
                    self._penalties[r] += 1.0
                    self._hits.setdefault(int(r), []).append(phrase)
        # per match: the spread from the median to the top, plus PHRASE_PENALTY deviations, so
        # even a paper at the top of a profile about the phrase sinks below most papers
        spread = float(s.max() - np.median(s))
        return s - (spread + PHRASE_PENALTY * (float(s.std()) or 1.0)) * self._penalties

    def _matching(self, phrase: str) -> list[int]:
        """Positions of papers containing `phrase` (in their text if known, else their terms)."""
        v = self.vectors
        if self._text_of is not None:
            get = self._text_of.get if isinstance(self._text_of, Mapping) else self._text_of
            forms = [_word_forms(w) for w in phrase.split()]
            words = ("(?:" + "|".join(map(re.escape, f)) + ")" for f in forms)
            rx = re.compile(r"(?<!\w)" + r"\W+".join(words) + r"(?!\w)", re.I)
            # each word's forms share a beginning: a paper without it in its lower-cased text
            # cannot match (a substring test is five times faster than the regex)
            starts = [os.path.commonprefix(f) for f in forms]
            found = []
            for r, pid in enumerate(v.ids):
                text = get(pid) or ""
                low = text.lower()
                if all(b in low for b in starts) and rx.search(text):
                    found.append(r)
            return found
        ((cols, _),) = v.vocab.columns([phrase])
        if not len(cols):
            return []
        # a multi-word phrase is matched by its bigrams when it has any, else by all its words
        bigrams = [c for c in cols if int(v.vocab.keys[c]) >= v.vocab.width]
        need = np.asarray(bigrams or list(cols), dtype=np.int64)
        out: list[int] = []
        step = 16384
        for s in range(0, len(v), step):
            ids = np.asarray(v.term_ids[s : s + step]).astype(np.int64)
            has = np.ones(len(ids), dtype=bool)
            for c in need:
                has &= (ids == c).any(axis=1)
            out.extend(int(x) + s for x in np.flatnonzero(has))
        return out

    def rank(
        self, limit: int = 50, exclude: Collection[str] = (), why: bool = True
    ) -> list[Ranked]:
        """The best `limit` papers not in `exclude` and not already judged, best first."""
        s = self.scores()
        banned = self._banned(exclude)
        return [self._ranked(int(r), why) for r in top(s, limit, banned)]

    def ask_order(self, limit: int = 20, exclude: Collection[str] = ()) -> list[Ranked]:
        """Papers the model is least sure about; answering them (like or skip) teaches it the
        most (uncertainty sampling).

        With papers on both sides: those about as close to a paper you kept as to one you
        passed over, and close to both (2 min - max of the two nearest cosines). The scores'
        own midpoint would not do: kept papers score themselves, so it sits above every
        unread paper and "ask me" became the top of "for you". Else: the scores nearest
        the midpoint of the kept (or the top) and the passed over (or the median). A
        near-copy of a paper already in the list is left out (see `_distinct`)."""
        banned = self._banned(exclude)
        v = self.vectors
        if self.positives and self.negatives and v.dims and len(self._anchors):
            kept = self._nearest_anchor()[1]
            passed = nearest(v, unit_rows(v, self.negatives))[1]
            doubt = 2.0 * np.minimum(kept, passed) - np.maximum(kept, passed)
        else:
            s = self.scores()
            pos = s[self.positives].mean() if self.positives else float(np.quantile(s, 0.99))
            neg = s[self.negatives].mean() if self.negatives else float(np.median(s))
            doubt = -np.abs(s - (pos + neg) / 2.0)
        rows = _distinct(v, top(doubt, ASK_POOL * limit, banned), limit)
        return [self._ranked(int(r), True) for r in rows]

    def _banned(self, exclude: Collection[str]) -> np.ndarray:
        v = self.vectors
        rows = set(self.positives) | set(self.negatives)
        rows |= {r for r in (v.position(p) for p in exclude) if r is not None}
        return np.array(sorted(rows), dtype=np.int64)

    def _ranked(self, r: int, why: bool) -> Ranked:
        s = self.scores()
        item = Ranked(self.vectors.ids[r], float(s[r]), penalised=list(self._hits.get(r, [])))
        if why:
            item.terms = self.top_terms(r)
            if self.positives and self.vectors.dims:
                if self._nearest is None:
                    self._nearest_anchor()
                assert self._nearest is not None
                a = int(self._nearest[r])
                if a < len(self.positives):
                    item.closest = self.vectors.ids[self.positives[a]]
        return item

    def explain(self, row: int) -> Ranked:
        """The paper at position `row` of the vectors with its score and why."""
        return self._ranked(row, True)

    def top_terms(self, row: int, n: int = 3) -> list[str]:
        """The terms that contributed most to a paper's term score."""
        v = self.vectors
        ids = np.asarray(v.term_ids[row]).astype(np.int64)
        real = ids < len(v.vocab.keys)
        ids = ids[real]
        contrib = self.profile.terms[ids] * np.asarray(v.term_weights[row], np.float32)[real]
        order = np.argsort(-contrib, kind="stable")[: 3 * n]
        chosen: list[str] = []
        for i in order:
            if contrib[i] <= 0 or len(chosen) == n:
                break
            term = v.vocab.term(int(ids[i]))
            words = set(term.split())
            overlap = [k for k, c in enumerate(chosen) if words & set(c.split())]
            if not overlap:
                chosen.append(term)
            elif all(set(chosen[k].split()) < words for k in overlap):
                # "diffusion model" after "diffusion": the phrase, in the word's place
                chosen[overlap[0]] = term
                chosen = [c for k, c in enumerate(chosen) if k not in overlap[1:]]
            # else it repeats a word already shown ("deep reinforcement" after
            # "reinforcement learning", "diffusion" after "diffusion model")
        return chosen


def _distinct(v: PaperVectors, rows: np.ndarray, limit: int) -> list[int]:
    """The first `limit` of `rows` that are not near-copies (term cosine >= `DUPLICATE_COSINE`)
    of one taken before them: one answer settles all the copies of a paper. The copies fill
    the list only when too few others are left."""
    if not len(rows):
        return []
    ids = np.asarray(v.term_ids[rows]).astype(np.int64)
    w = np.asarray(v.term_weights[rows], dtype=np.float64)
    w[ids >= len(v.vocab.keys)] = 0.0
    w /= np.maximum(np.linalg.norm(w, axis=1, keepdims=True), 1e-12)
    m = sparse.csr_matrix(
        (w.ravel(), (np.repeat(np.arange(len(rows)), ids.shape[1]), ids.ravel())),
        shape=(len(rows), PAD + 1),
    )
    close = (m @ m.T).toarray() >= DUPLICATE_COSINE
    taken: list[int] = []
    copies: list[int] = []
    for i in range(len(rows)):
        if len(taken) == limit:
            break
        (copies if close[i, taken].any() else taken).append(i)
    return [int(rows[i]) for i in taken + copies[: limit - len(taken)]]


def _word_forms(word: str) -> list[str]:
    """`word` in the singular and plural, as the vectors' stemmer takes them ("molecules"
    also finds "molecule", "policy" "policies"), lower-case, longest first."""
    base = stem(word.lower())
    forms = {word.lower(), base, base + "s", base + "es"}
    if base.endswith("y"):
        forms.add(base[:-1] + "ies")
    return sorted(forms, key=lambda f: (-len(f), f))


def train(
    vectors: PaperVectors,
    positives: Sequence[str],
    negatives: Sequence[str] = (),
    seed_texts: Sequence[str] = (),
    negative_phrases: Sequence[str] = (),
    text_of: TextOf | None = None,
) -> InterestModel:
    """Learn a reader's interest.

    positives: ids of papers kept (bookmarked, noted, tagged, liked); negatives: ids read and
    not kept, or skipped (an id in both counts as positive). seed_texts: free text describing
    an interest (e.g. an abstract not in the library). negative_phrases: phrases whose papers
    are pushed down; matched in `text_of(id)` (a callable or mapping) when given, else in the
    papers' stored terms (approximate: only a paper's heaviest terms are stored).
    """
    pos = [r for r in (vectors.position(p) for p in dict.fromkeys(positives)) if r is not None]
    posset = set(pos)
    neg = [
        r
        for r in (vectors.position(p) for p in dict.fromkeys(negatives))
        if r is not None and r not in posset
    ]
    k = vectors.dims
    anchors = []
    if pos:
        block = np.asarray(vectors.dense[np.asarray(pos), :k], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        anchors.append(block / norms)
    seed_part = None
    seeds = [q for q in (query_vector(vectors, t) for t in seed_texts) if q]
    if seeds:
        seed_part = Query(np.zeros_like(seeds[0].terms), np.zeros(k, np.float32))
        for q in seeds:
            seed_part = seed_part + q
        seed_part = seed_part * (1.0 / len(seeds))
        anchors.append(np.stack([q.dense[:k] for q in seeds]))
    anchor_arr = np.concatenate(anchors) if anchors else np.zeros((0, k), np.float32)
    model = InterestModel(
        vectors,
        pos,
        neg,
        _profile(vectors, pos, neg, seed_part, len(seeds)),
        anchor_arr,
        [p.strip() for p in negative_phrases if p.strip()],
        text_of,
    )
    if pos or seeds:
        liked = vectors.term_vector(pos) if pos else np.zeros(len(vectors.vocab.keys), np.float32)
        for q in seeds:
            liked = liked + q.terms
        model.contrast = (liked, len(pos) + len(seeds))
    if len(pos) >= LEAVE_ONE_OUT_MIN and k:
        step = max(1, len(pos) // LEAVE_ONE_OUT_MAX)
        left_out = list(range(0, len(pos), step))[:LEAVE_ONE_OUT_MAX]
        model.held_rows = [pos[i] for i in left_out]
        model.held_out = lambda: [
            _profile(vectors, pos[:i] + pos[i + 1 :], neg, seed_part, len(seeds)) for i in left_out
        ]
    return model


def _profile(
    vectors: PaperVectors,
    pos: list[int],
    neg: list[int],
    seed_part: Query | None,
    seeds: int = 0,
) -> Query:
    """The unit profile of liked papers `pos`, the mean of `seeds` seed texts (`seed_part`) and
    passed-over papers `neg`. A seed text counts as much as one liked paper."""
    if pos:
        profile = liked_query(vectors, pos)
        if seed_part:
            profile = profile + _as_liked(seed_part, profile, seeds / len(pos))
    elif seed_part:
        profile = seed_part
    else:
        return Query(
            np.zeros(len(vectors.vocab.keys), np.float32), np.zeros(vectors.dims, np.float32)
        )
    if neg:
        profile = profile + papers_query(vectors, neg) * (-NEGATIVE_WEIGHT / len(neg))
    profile = profile.normalised()
    return Query(heaviest(profile.terms, PROFILE_TERMS), profile.dense).normalised()


def _as_liked(seed_part: Query, liked: Query, ratio: float) -> Query:
    """The seed texts' mean, scaled (in each space) to the liked papers' centroid times `ratio`
    (seeds per liked paper): one seed then weighs as one liked paper, not as all of them (a
    seed is a unit vector, a centroid of several papers a shorter one)."""
    unit = seed_part.normalised()
    terms = unit.terms * float(np.linalg.norm(liked.terms)) * ratio
    dense = unit.dense * float(np.linalg.norm(liked.dense)) * ratio
    return Query(terms, dense)
