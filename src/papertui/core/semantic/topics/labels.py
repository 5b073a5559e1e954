"""Step 4: naming each topic by the phrases that set it apart from the corpus."""

from __future__ import annotations

import numpy as np

from papertui.core.semantic.phrases import head_rates, label_ok, ngram_keys, overlaps, spellings
from papertui.core.semantic.topics.features import Features

# A word that ends a run of content words in fewer than this share of its uses modifies the
# next one ("linear", "visual", "variational"): it names no field alone. It is shown as the
# phrase it most often starts in its topic when that phrase holds `MODIFIED_SHARE` of its
# papers ("variational" -> "variational inference"), else left out.
MODIFIER_RATE = 0.3
MODIFIED_SHARE = 0.25
PAIR_BOOST = 2.5  # a pair of words names a field more often than one word


def _drop_contained(phrases: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """ "clustering · incomplete multi-view clustering": a phrase another one grew to hold goes."""
    return [
        p
        for p in phrases
        if not any(len(q) > len(p) and set(p) <= set(q) for q in phrases if q is not p)
    ]


class Labeller:
    """Names topics: distinctive unigrams and bigrams, grown into the longer phrase they sit in,
    spelled as the corpus most often spells them."""

    def __init__(self, feats: Features, labels: np.ndarray, k: int) -> None:
        self.feats = feats
        self.tokens = feats.tokens
        self.labels = labels  # per paper (canonical order), -1 for none
        self.k = k
        self.n_terms = max(1, len(self.tokens.term_words))

    def topic_phrases(self, max_phrases: int = 3) -> list[tuple[str, ...]]:
        from scipy.sparse import csr_matrix

        feats = self.feats
        n = feats.matrix.shape[0]
        rows = np.flatnonzero(self.labels >= 0)
        m = feats.matrix
        binary = csr_matrix((np.ones(len(m.data), np.float32), m.indices, m.indptr), shape=m.shape)
        member = csr_matrix(
            (np.ones(len(rows), dtype=np.float32), (self.labels[rows], rows)),
            shape=(self.k, n),
        )
        df_topic = np.asarray((member @ binary).todense())  # topics x features
        sizes = np.bincount(self.labels[rows], minlength=self.k).astype(np.float64)
        p_all = (feats.df + 0.5) / (n + 1.0)
        split = [tuple(w.split(" ")) for w in feats.words]
        ok = np.array([label_ok(w) for w in split], dtype=bool)
        bigram = np.array([len(w) == 2 for w in split], dtype=bool)
        containing: dict[str, list[int]] = {}
        heading: dict[str, list[int]] = {}
        for j, w in enumerate(split):
            if len(w) == 2 and ok[j]:
                for part in w:
                    containing.setdefault(part, []).append(j)
                heading.setdefault(w[0], []).append(j)
        rates = head_rates(self.tokens)
        term_ids = self.tokens.terms
        modifier = {w[0] for w in split if len(w) == 1 and rates[term_ids[w[0]]] < MODIFIER_RATE}

        def as_label(
            j: int, count: np.ndarray, floor: float, strict: bool
        ) -> tuple[str, ...] | None:
            phrase = split[j]
            if len(phrase) > 1:
                return phrase
            # a word mostly seen inside one phrase is shown as that phrase
            best = max(containing.get(phrase[0], []), key=lambda b: count[b], default=None)
            if best is not None and count[best] >= 0.5 * count[j]:
                return split[best]
            if not strict or phrase[0] not in modifier:
                return phrase
            # "local" names nothing alone: the phrase it most often starts may
            best = max(heading.get(phrase[0], []), key=lambda b: count[b], default=None)
            if best is None or count[best] < max(floor, MODIFIED_SHARE * count[j]):
                return None
            return split[best]

        chosen_all: list[list[tuple[str, ...]]] = []
        for c in range(self.k):
            size = max(sizes[c], 1.0)
            count = df_topic[c]
            p = count / size
            raw = p * np.log(np.maximum(p, 1e-12) / p_all)
            raw = np.where(bigram, raw * PAIR_BOOST, raw)
            chosen: list[tuple[str, ...]] = []
            used: set[str] = set()

            # a small topic may have too few phrases above the floor: then the floor drops to 2,
            # and a topic left with no label at all may be named by a modifier alone
            for floor, strict in ((max(2.0, 0.04 * size), True), (2.0, True), (2.0, False)):
                if len(chosen) >= (2 if strict else 1):
                    break
                score = np.where(ok & (count >= floor) & (raw > 0), raw, -np.inf)
                for j in np.argsort(-score, kind="stable")[:300]:
                    if not np.isfinite(score[j]) or len(chosen) >= max_phrases:
                        break
                    phrase = as_label(int(j), count, floor, strict)
                    if phrase is None or phrase in chosen or overlaps(phrase, used):
                        continue
                    chosen.append(phrase)
                    used.update(phrase)
            chosen_all.append(chosen)
        grown = [
            self._drop_acronyms(_drop_contained(ps))
            for ps in self._grow(chosen_all, df_topic, split)
        ]
        return self._spell(grown)

    def _drop_acronyms(self, phrases: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """ "graph neural networks · GNNs" says one thing twice: the acronym goes."""
        words = self.tokens.term_words
        initials = {
            "".join(part[0] for t in p for part in words[t].split("-") if part)
            for p in phrases
            if len(p) > 1 or "-" in words[p[0]]
        }
        kept = [p for p in phrases if not (len(p) == 1 and words[p[0]] in initials)]
        return kept if len(kept) >= 2 else phrases

    def _ids(self, phrase: tuple[str, ...]) -> tuple[int, ...]:
        terms = self.tokens.terms
        return tuple(terms[w] for w in phrase)

    def _grow(
        self,
        chosen: list[list[tuple[str, ...]]],
        df_topic: np.ndarray,
        split: list[tuple[str, ...]],
    ) -> list[list[tuple[int, ...]]]:
        """Bigrams become the trigram that holds them in most of their topic's papers
        ("neural networks" -> "graph neural networks")."""
        out = [[self._ids(p) for p in ps] for ps in chosen]
        feature = {w: j for j, w in enumerate(split)}
        wanted: dict[tuple[int, int], set[int]] = {}
        for c, ps in enumerate(out):
            for p in ps:
                if len(p) == 2:
                    wanted.setdefault(p, set()).add(c)
        if not wanted:
            return out
        n_terms = self.n_terms
        keys = np.array(sorted(a * n_terms + b for a, b in wanted), dtype=np.int64)
        tables: list[np.ndarray] = []
        for chunk in self.tokens.chunks:
            terms = self.tokens.term_stream(chunk)
            docs = chunk.docs()
            pos = np.flatnonzero(np.isin(ngram_keys(terms, n_terms, 2), keys))
            size = len(terms)
            for shift in (-1, 0):  # the word before the bigram, or the one after it
                start = pos + shift
                s = start[(start >= 0) & (start + 2 < size)]
                tri = np.stack([terms[s], terms[s + 1], terms[s + 2]], axis=1)
                valid = (tri >= 0).all(axis=1)
                d = docs[s[valid]]
                tables.append(
                    np.concatenate(
                        [tri[valid].astype(np.int64), d[:, None], self.labels[d][:, None]], axis=1
                    )
                )
        table = np.concatenate(tables) if tables else np.zeros((0, 5), np.int64)
        if not len(table):
            return out
        table = np.unique(table, axis=0)  # one count per paper
        combos, counts = np.unique(table[:, [0, 1, 2, 4]], axis=0, return_counts=True)
        best: dict[tuple[int, tuple[int, int]], tuple[int, tuple[int, ...]]] = {}
        for row, cnt in zip(combos.tolist(), counts.tolist(), strict=True):
            a, b, c3, t = row
            for pair in ((a, b), (b, c3)):
                if t in wanted.get(pair, ()):
                    cur = best.get((t, pair))
                    if cur is None or cnt > cur[0]:
                        best[(t, pair)] = (cnt, (a, b, c3))
        words = self.tokens.term_words
        for c, ps in enumerate(out):
            for i, p in enumerate(ps):
                if len(p) != 2 or (c, p) not in best:
                    continue
                cnt, tri3 = best[(c, p)]
                j = feature.get((words[p[0]], words[p[1]]))
                base = df_topic[c, j] if j is not None else 0
                if base and cnt >= 0.6 * base and len(set(tri3)) == 3:
                    ps[i] = tri3
        return out

    def _spell(self, phrases: list[list[tuple[int, ...]]]) -> list[tuple[str, ...]]:
        spelled = spellings(self.tokens, {p for ps in phrases for p in ps})
        return [tuple(spelled[p] for p in ps) for ps in phrases]
