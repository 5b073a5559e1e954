"""The interest model: every paper's score for one reader, and why each scored as it did."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np

from papertui.core.semantic.similar import DENSE_WEIGHT, Query, nearest, papers_query, top
from papertui.core.semantic.triage import weights
from papertui.core.semantic.triage.asking import ask_order
from papertui.core.semantic.triage.contrast import contrast_query, library_spread, standardised
from papertui.core.semantic.triage.phrases import TextOf, matching_rows
from papertui.core.semantic.triage.profile import dense_weight, profile_terms
from papertui.core.semantic.vectors import PaperVectors


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
        self.anchors = anchors  # unit LSA vectors of the positives (rows), seed texts after
        self.phrases = phrases
        self._text_of = text_of
        self._scores: np.ndarray | None = None
        self._nearest: np.ndarray | None = None
        self._hits: dict[int, list[str]] = {}
        self._penalties: np.ndarray | None = None  # negative phrases matched, per paper
        # leave-one-out profiles (one per liked paper) that choose `dense_weight`; None: the
        # fixed DENSE_WEIGHT (fewer than weights.LEAVE_ONE_OUT_MIN liked papers)
        self.held_out: Callable[[], list[Query]] | None = None
        self.held_rows: list[int] = []  # the liked papers those profiles leave out, in order
        self.dense_weight: float | None = None
        # neither part found the liked papers left out (`profile.dense_weight`): the LSA part
        # keeps `weights.WEAK_DENSE_WEIGHT` and the feedback takes `weights.WEAK_FEEDBACK_PAPERS`
        self.weak = False
        # the liked papers' (and seed texts') summed term vectors and their count, for the
        # contrast score; its standardised scores once computed
        self.contrast: tuple[np.ndarray, int] | None = None
        self._contrast: np.ndarray | None = None

    @property
    def empty(self) -> bool:
        """True when there is nothing to learn from (every score is 0 then)."""
        return not self.profile and not len(self.anchors)

    def scores(self) -> np.ndarray:
        """Every paper's interest score (higher first), negative phrases applied."""
        if self._scores is None:
            raw = self._raw_scores()
            feedback = self._feedback_rows(self._penalise(raw))
            if len(feedback):
                fb = papers_query(self.vectors, list(feedback)).normalised()
                fb = Query(profile_terms(self.vectors, fb.terms), fb.dense).normalised()
                # the LSA direction the reader's papers did not confirm comes more from these
                light = self.dense_weight is not None and self.dense_weight < DENSE_WEIGHT
                dense_part = weights.FEEDBACK_DENSE_WEIGHT if light else weights.FEEDBACK_WEIGHT
                self.profile = Query(
                    self.profile.terms + weights.FEEDBACK_WEIGHT * fb.terms,
                    self.profile.dense + dense_part * fb.dense,
                ).normalised()
                raw = self._raw_scores()
            # the contrast joins last: choosing the feedback papers by it narrowed broad
            # interests (ICLR 2017 keyword readers -0.016 ± 0.005 with weight 1)
            self._scores = self._penalise(self._with_contrast(raw, feedback))
        return self._scores

    def _with_contrast(self, s: np.ndarray, feedback: np.ndarray) -> np.ndarray:
        """`s` standardised plus `weights.CONTRAST_WEIGHT` times the standardised contrast
        score (the feedback papers' contrast joining the liked papers' as in the profile)."""
        if not weights.CONTRAST_WEIGHT or self.contrast is None:
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
                q += weights.FEEDBACK_WEIGHT / (float(np.linalg.norm(fb)) or 1.0) * fb
            self._contrast = standardised(v.term_scores(q), judged)
        return standardised(s, judged) + weights.CONTRAST_WEIGHT * self._contrast

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
                    chosen = dense_weight(v, self.held_rows, held, s, d, DENSE_WEIGHT)
                    self.dense_weight, self.weak = chosen
            w = self.dense_weight
            s += (max(w, weights.WEAK_DENSE_WEIGHT) if self.weak else w) * d
        if k and len(self.anchors) and weights.NEAREST_WEIGHT:
            s += weights.NEAREST_WEIGHT * self.nearest_anchor()[1]
        return s

    def _feedback_rows(self, s: np.ndarray) -> np.ndarray:
        """The best unjudged papers by `s`: `weights.FEEDBACK_PAPERS` (`WEAK_FEEDBACK_PAPERS` for a
        weak reader), at most a tenth of the unjudged."""
        wanted = weights.WEAK_FEEDBACK_PAPERS if self.weak else weights.FEEDBACK_PAPERS
        n = min(wanted, (len(s) - len(self.positives) - len(self.negatives)) // 10)
        if n <= 0 or not self.profile:
            return np.zeros(0, dtype=np.int64)
        return top(s, n, self.banned(()))

    def nearest_anchor(self) -> tuple[np.ndarray, np.ndarray]:
        """(index of the nearest anchor, its cosine) for every paper, in one pass."""
        arg, best = nearest(self.vectors, self.anchors)
        self._nearest = arg
        return arg, best

    def _penalise(self, s: np.ndarray) -> np.ndarray:
        if not self.phrases or len(s) == 0:
            return s
        if self._penalties is None:
            self._penalties = np.zeros(len(s), dtype=np.float32)
            for phrase in self.phrases:
                for r in matching_rows(self.vectors, phrase, self._text_of):
                    self._penalties[r] += 1.0
                    self._hits.setdefault(int(r), []).append(phrase)
        # per match: the spread from the median to the top, plus `PHRASE_PENALTY` deviations,
        # so even a paper at the top of a profile about the phrase sinks below most papers
        spread = float(s.max() - np.median(s))
        return s - (spread + weights.PHRASE_PENALTY * (float(s.std()) or 1.0)) * self._penalties

    def rank(
        self, limit: int = 50, exclude: Collection[str] = (), why: bool = True
    ) -> list[Ranked]:
        """The best `limit` papers not in `exclude` and not already judged, best first."""
        s = self.scores()
        banned = self.banned(exclude)
        return [self.ranked(int(r), why) for r in top(s, limit, banned)]

    def ask_order(self, limit: int = 20, exclude: Collection[str] = ()) -> list[Ranked]:
        """Papers the model is least sure about; answering them (like or skip) teaches it the
        most (uncertainty sampling).

        With papers on both sides: those about as close to a paper you kept as to one you
        passed over, and close to both (2 min - max of the two nearest cosines). The scores'
        own midpoint would not do: kept papers score themselves, so it sits above every
        unread paper and "ask me" became the top of "for you". Else: the scores nearest
        the midpoint of the kept (or the top) and the passed over (or the median). A
        near-copy of a paper already in the list is left out (see `asking.distinct`)."""
        return ask_order(self, limit, exclude)

    def banned(self, exclude: Collection[str]) -> np.ndarray:
        v = self.vectors
        rows = set(self.positives) | set(self.negatives)
        rows |= {r for r in (v.position(p) for p in exclude) if r is not None}
        return np.array(sorted(rows), dtype=np.int64)

    def ranked(self, r: int, why: bool) -> Ranked:
        s = self.scores()
        item = Ranked(self.vectors.ids[r], float(s[r]), penalised=list(self._hits.get(r, [])))
        if why:
            item.terms = self.top_terms(r)
            if self.positives and self.vectors.dims:
                if self._nearest is None:
                    self.nearest_anchor()
                assert self._nearest is not None
                a = int(self._nearest[r])
                if a < len(self.positives):
                    item.closest = self.vectors.ids[self.positives[a]]
        return item

    def explain(self, row: int) -> Ranked:
        """The paper at position `row` of the vectors with its score and why."""
        return self.ranked(row, True)

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
