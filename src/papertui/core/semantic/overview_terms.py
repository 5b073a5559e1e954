"""The overview's distinctive terms: words and phrases that set the papers in view apart from
the rest of the library."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from papertui.core.corpus import Paper

# Distinctive terms are estimated from at most this many papers of the view and of the rest.
TERM_SAMPLE = 3000


@dataclass(frozen=True, slots=True)
class Term:
    """A word or phrase far more common in the view than in the rest of the library."""

    text: str
    papers: int  # papers in view that use it (in the sample when the view was sampled)
    share: float  # of the view's papers
    library_share: float  # of the rest of the library's papers
    score: float  # z-score of the log-odds ratio (informative Dirichlet prior)


def distinctive_terms(
    view: Sequence[Paper],
    library: Sequence[Paper],
    limit: int = 15,
    sample: int = TERM_SAMPLE,
    seed: int = 0,
) -> list[Term]:
    """Words and phrases that set the view apart from the rest of the library, most first.

    A term is a word or two adjacent words. Each term's share of the view's papers is compared
    with its share of the other papers by the log-odds ratio with an informative Dirichlet
    prior (Monroe, Colaresi and Quinn 2008), as a z-score, so rare terms need more evidence; a
    term must be in at least 3 papers and 2% of the view. Large views and libraries are sampled
    (`sample` papers each, seeded), which keeps this around a second at 100,000 papers. An
    empty list when the view is the whole library or empty.
    """
    from papertui.core.semantic.phrases import PhraseTable, label_ok, overlaps

    in_view = {p.id for p in view}
    rest = [p for p in library if p.id not in in_view]
    if not view or not rest:
        return []
    view_s = _sample(list(view), sample, seed)
    rest_s = _sample(rest, sample, seed + 1)
    table = PhraseTable([p.abstract for p in view_s] + [p.abstract for p in rest_s])
    n_v, n_r = len(view_s), len(rest_s)
    n_cols = len(table.phrases)
    is_view = table.docs < n_v
    y_v = np.bincount(table.cols[is_view], minlength=n_cols).astype(np.float64)
    y_r = np.bincount(table.cols[~is_view], minlength=n_cols).astype(np.float64)
    # per term, a Beta prior at the pooled share worth `a0` papers: log-odds of "a paper uses
    # it" in the view minus in the rest, over its standard error
    a0 = 50.0
    pooled = (y_v + y_r) / (n_v + n_r)
    a_in, a_out = a0 * pooled + 1e-3, a0 * (1.0 - pooled) + 1e-3
    odds_v = np.log(y_v + a_in) - np.log(n_v - y_v + a_out)
    odds_r = np.log(y_r + a_in) - np.log(n_r - y_r + a_out)
    var = (
        1.0 / (y_v + a_in)
        + 1.0 / (n_v - y_v + a_out)
        + 1.0 / (y_r + a_in)
        + 1.0 / (n_r - y_r + a_out)
    )
    z = (odds_v - odds_r) / np.sqrt(var)
    floor = max(3.0, 0.02 * n_v)
    ok = (y_v >= floor) & (z > 0)
    candidates = np.flatnonzero(ok)
    # phrases outrank the words they are made of when they are nearly as distinctive
    bonus = np.array([1.15 if len(table.phrases[c]) > 1 else 1.0 for c in candidates])
    order = candidates[np.argsort(-(z[candidates] * bonus), kind="stable")]
    chosen: list[int] = []
    covered: set[str] = set()
    for c in order:
        words = table.phrases[int(c)]
        if not label_ok(words) or (covered and overlaps(words, covered) and len(words) == 1):
            continue
        if len(words) > 1 and all(w in covered for w in words):
            continue
        chosen.append(int(c))
        covered.update(words)
        if len(chosen) >= limit:
            break
    spelled = table.spell(chosen)
    return [
        Term(
            text=spelled[i],
            papers=int(y_v[c]),
            share=round(float(y_v[c] / n_v), 4),
            library_share=round(float(y_r[c] / n_r), 4),
            score=round(float(z[c]), 2),
        )
        for i, c in enumerate(chosen)
    ]


def _sample(papers: list[Paper], size: int, seed: int) -> list[Paper]:
    """Up to `size` papers, the same ones whatever order they come in."""
    if len(papers) <= size:
        return papers
    ordered = sorted(papers, key=lambda p: p.id)
    return random.Random(seed).sample(ordered, size)
