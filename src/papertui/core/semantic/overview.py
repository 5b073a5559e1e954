"""The overview of a dump: counts, histograms, distinctive terms (`overview_terms`) and topics
of the papers in view.

Pure functions over `Paper`s and plain sets of ids; the overview screen draws the result and
`papertui overview --json` prints `to_json` of it. A field the papers do not carry (years,
venues) is None, so nothing is drawn for it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from papertui.core.semantic.overview_terms import TERM_SAMPLE, Term, distinctive_terms

if TYPE_CHECKING:
    from papertui.core.corpus import Paper
    from papertui.core.semantic.topics import TopicModel

# Word-count bins of the abstract-length histogram: [lo, next lo), the last one open.
LENGTH_EDGES = (0, 50, 100, 150, 200, 250, 300, 400)

__all__ = [
    "LENGTH_EDGES",
    "TERM_SAMPLE",
    "Annotations",
    "Counts",
    "Overview",
    "Term",
    "TopicInView",
    "collection_histogram",
    "compute_overview",
    "count",
    "distinctive_terms",
    "length_histogram",
    "to_json",
    "topics_in_view",
    "venue_histogram",
    "year_histogram",
]


@dataclass(frozen=True, slots=True)
class Annotations:
    """What the user did to papers, as sets of paper ids (made from the store's snapshot)."""

    read: Collection[str] = frozenset()
    bookmarked: Collection[str] = frozenset()
    noted: Collection[str] = frozenset()
    tagged: Collection[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Counts:
    papers: int
    collections: int
    unread: int
    bookmarked: int
    noted: int
    tagged: int


@dataclass(frozen=True, slots=True)
class TopicInView:
    index: int  # the topic's index in the TopicModel
    label: str
    size: int  # papers of the topic in view
    unread: int
    ids: tuple[str, ...]  # in view, most typical first


@dataclass(slots=True)
class Overview:
    view: Counts
    library: Counts
    years: list[tuple[int, int]] | None  # (year, papers), every year from first to last
    venues: list[tuple[str, int]] | None  # most papers first; "(other)" last when cut
    collections: list[tuple[str, int]]  # most papers first
    lengths: list[tuple[str, int]]  # abstract length in words: ("100-149", papers)
    terms: list[Term] = field(default_factory=list)
    topics: list[TopicInView] = field(default_factory=list)


def count(papers: Sequence[Paper], annotations: Annotations) -> Counts:
    ids = [p.id for p in papers]
    return Counts(
        papers=len(papers),
        collections=len({c for p in papers for c in p.collections}),
        unread=sum(1 for i in ids if i not in annotations.read),
        bookmarked=sum(1 for i in ids if i in annotations.bookmarked),
        noted=sum(1 for i in ids if i in annotations.noted),
        tagged=sum(1 for i in ids if i in annotations.tagged),
    )


def year_histogram(papers: Sequence[Paper]) -> list[tuple[int, int]] | None:
    """Papers per year, gaps filled with 0; None when no paper has a year."""
    years = Counter(p.year for p in papers if p.year)
    if not years:
        return None
    lo, hi = min(years), max(years)
    if hi - lo > 200:  # a stray year would make a thousand empty bars: show only known years
        return sorted(years.items())
    return [(y, years.get(y, 0)) for y in range(lo, hi + 1)]


def venue_histogram(papers: Sequence[Paper], limit: int = 12) -> list[tuple[str, int]] | None:
    """Papers per venue, most first, those beyond `limit` as "(other)"; None when none has one."""
    venues = Counter(p.venue.strip() for p in papers if p.venue and p.venue.strip())
    if not venues:
        return None
    ranked = sorted(venues.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > limit:
        rest = sum(n for _, n in ranked[limit - 1 :])
        ranked = ranked[: limit - 1] + [("(other)", rest)]
    return ranked


def collection_histogram(papers: Sequence[Paper]) -> list[tuple[str, int]]:
    counts = Counter(c for p in papers for c in p.collections)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def length_histogram(
    papers: Sequence[Paper], word_counts: Sequence[int] | None = None
) -> list[tuple[str, int]]:
    """Abstract lengths in words, in the bins of LENGTH_EDGES. `word_counts` (one per paper,
    e.g. counted once by the library: splitting 100k abstracts costs ~1 s) saves counting."""
    edges = np.asarray(LENGTH_EDGES)
    if word_counts is not None:
        words = np.asarray(word_counts, dtype=np.int64)
    else:
        words = np.fromiter((len(p.abstract.split()) for p in papers), dtype=np.int64)
    bins = np.searchsorted(edges, words, side="right") - 1
    counts = np.bincount(bins, minlength=len(edges)) if len(words) else np.zeros(len(edges), int)
    names = [f"{lo}-{hi - 1}" for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
    names.append(f"{edges[-1]}+")
    return [(name, int(n)) for name, n in zip(names, counts, strict=True)]


def topics_in_view(
    model: TopicModel | None, view: Sequence[Paper], annotations: Annotations
) -> list[TopicInView]:
    """The topics the view's papers belong to, most papers in view first."""
    if model is None:
        return []
    in_view = {p.id for p in view}
    out: list[TopicInView] = []
    for topic in model.topics:
        ids = tuple(i for i in topic.ids if i in in_view)
        if ids:
            unread = sum(1 for i in ids if i not in annotations.read)
            out.append(TopicInView(topic.index, topic.label, len(ids), unread, ids))
    out.sort(key=lambda t: (-t.size, t.index))
    return out


def compute_overview(
    view: Sequence[Paper],
    library: Sequence[Paper],
    annotations: Annotations = Annotations(),
    topics: TopicModel | None = None,
    *,
    terms: bool = True,
    term_limit: int = 15,
    word_counts: Sequence[int] | None = None,
) -> Overview:
    """Everything the overview shows for `view` (a subset of `library`, or all of it).

    The histograms describe the view; a field no paper in the library carries is None. Terms
    are skipped (empty) with terms=False, e.g. for a first, instant draw.
    """
    years = year_histogram(view) if any(p.year for p in library) else None
    venues = venue_histogram(view) if any(p.venue for p in library) else None
    return Overview(
        view=count(view, annotations),
        library=count(library, annotations),
        years=years,
        venues=venues,
        collections=collection_histogram(view),
        lengths=length_histogram(view, word_counts),
        terms=distinctive_terms(view, library, term_limit) if terms else [],
        topics=topics_in_view(topics, view, annotations),
    )


def to_json(overview: Overview, ids_per_topic: int | None = None) -> dict[str, Any]:
    """The shape `papertui overview --json` prints. `ids_per_topic` caps each topic's id list
    (None: all of them)."""

    def counts(c: Counts) -> dict[str, int]:
        return {
            "papers": c.papers,
            "collections": c.collections,
            "unread": c.unread,
            "bookmarked": c.bookmarked,
            "noted": c.noted,
            "tagged": c.tagged,
        }

    def pairs(items: list[tuple[Any, int]] | None, key: str) -> list[dict[str, Any]] | None:
        return None if items is None else [{key: k, "papers": n} for k, n in items]

    return {
        "counts": {"view": counts(overview.view), "library": counts(overview.library)},
        "years": pairs(overview.years, "year"),
        "venues": pairs(overview.venues, "venue"),
        "collections": pairs(overview.collections, "collection"),
        "abstract_words": pairs(overview.lengths, "words"),
        "terms": [
            {
                "term": t.text,
                "papers": t.papers,
                "share": t.share,
                "library_share": t.library_share,
                "score": t.score if math.isfinite(t.score) else None,
            }
            for t in overview.terms
        ],
        "topics": [
            {
                "number": t.index + 1,  # as `topic:N` filters it
                "label": t.label,
                "size": t.size,
                "unread": t.unread,
                "ids": list(t.ids if ids_per_topic is None else t.ids[:ids_per_topic]),
            }
            for t in overview.topics
        ],
    }
