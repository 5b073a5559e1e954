"""Seed papers: a file's papers liked at once, as liked papers of the library where it holds
them and as seed texts where it does not."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core.corpus import Paper, finish_titles, load_corpus
from papertui.core.store import LIKED, Seed, Store

if TYPE_CHECKING:
    from papertui.core.semantic.vectors import PaperVectors

# term cosine from which a seed text is taken for a paper of the library: the same abstract
# with its title before it and a tenth of its words dropped scored 0.74 or more, two
# different papers at most 0.44 (300 ICML 2023 abstracts)
SAME_PAPER = 0.6
# skipped for a reason a warning already gives, with the count and line
WARNED = ("unreadable entry", "broken JSON line")


def seed_copies(
    vectors: PaperVectors,
    seeds: Sequence[Seed],
    by_id: dict[str, int],
    known: dict[str, str | None],
) -> dict[str, str | None]:
    """Seed id -> the id of the library's copy of it (None: not in the library), found by the
    closeness of their terms: a .bib's abstract often differs from the dump's in a word or its
    markup, so the ids differ. `known` holds the answers found before for these `vectors`, and
    gets the new ones."""
    from papertui.core.semantic.similar import query_vector

    for seed in seeds:
        if seed.id in known:
            continue
        copy = None
        if seed.id not in by_id and len(vectors):
            s = vectors.term_scores(query_vector(vectors, seed.abstract).terms)
            best = int(s.argmax())
            if float(s[best]) >= SAME_PAPER:
                copy = vectors.ids[best]
        known[seed.id] = copy
    return {s.id: known[s.id] for s in seeds}


def add_seeds(
    path: str | Path,
    store: Store,
    papers: Sequence[Paper],
    by_id: dict[str, int],
    problems: list[str] | None = None,
) -> int:
    """See `ForYou.add_seeds`: the papers of `path` found among `papers` are liked in `store`,
    the others added to it as seed texts; returns how many."""
    corpus = load_corpus([path])
    if not corpus.papers:
        problem = "; ".join(corpus.errors) or f"no papers could be read from {path}"
        raise ValueError(problem)
    if problems is not None:
        problems.extend(corpus.errors + corpus.warnings)
        for f in corpus.files:
            # unreadable BibTeX entries have a warning of their own (with the count and
            # line): counted again, they read as a second, unexplained problem
            left = {why: n for why, n in f.skipped.items() if why not in WARNED}
            if left:
                reasons = ", ".join(f"{why}: {n}" for why, n in left.items())
                problems.append(f"{f.path}: skipped {reasons}")
    here = [papers[by_id[p.id]] for p in corpus.papers if p.id in by_id]
    if here:
        store.set_feedback(here, LIKED)
    finish_titles(corpus.papers)
    seeds = [
        Seed(p.id, p.title if p.has_real_title else "", p.abstract, str(path))
        for p in corpus.papers
        if p.id not in by_id
    ]
    if seeds:
        store.add_seeds(seeds)
    return len(here) + len(seeds)
