"""Overview: counts, histograms only for fields the papers carry, distinctive terms of a view."""

from __future__ import annotations

import json
import random

from papertui.core.corpus import Paper, paper_id
from papertui.core.semantic import overview as ov
from papertui.core.semantic import topics as tp

VISION = [
    "semantic segmentation",
    "object detection",
    "image classification",
    "convolutional features",
    "bounding boxes",
]
SPEECH = [
    "speech recognition",
    "acoustic models",
    "spoken language",
    "phoneme recognition",
    "speaker identification",
]
SHARED = [
    "We propose a novel method for {a} and {b}.",
    "Our experiments show strong results on {a} with {b}.",
    "In this paper we study {a}, {b} and related problems.",
    "We evaluate {b} and {a} on three datasets.",
]


def make_papers(
    n_per: int = 20, *, years: bool = False, venues: bool = False, seed: int = 2
) -> list[Paper]:
    rng = random.Random(seed)
    papers = []
    for field, phrases in (("vision", VISION), ("speech", SPEECH)):
        for i in range(n_per):
            text = " ".join(t.format(a=rng.choice(phrases), b=rng.choice(phrases)) for t in SHARED)
            text += f" Case {i}."
            papers.append(
                Paper(
                    paper_id(text),
                    text,
                    [field if i % 4 else "misc"],
                    "dump.txt",
                    venue=("CVPR" if field == "vision" else "ICASSP") if venues else "",
                    year=(2020 + i % 3) if years else None,
                )
            )
    return papers


def test_counts_of_view_and_library() -> None:
    papers = make_papers()
    view = papers[:20]
    notes = ov.Annotations(
        read={p.id for p in papers[:5]} | {papers[30].id},
        bookmarked={papers[0].id, papers[25].id},
        noted={papers[1].id},
        tagged={papers[2].id, papers[3].id},
    )
    result = ov.compute_overview(view, papers, notes, terms=False)
    assert result.view == ov.Counts(20, 2, 15, 1, 1, 2)
    assert result.library == ov.Counts(40, 3, 34, 2, 1, 2)
    assert dict(result.collections) == {"vision": 15, "misc": 5}


def test_histograms_absent_when_the_field_is_absent() -> None:
    plain = ov.compute_overview(make_papers(), make_papers(), terms=False)
    assert plain.years is None and plain.venues is None
    data = ov.to_json(plain)
    assert data["years"] is None and data["venues"] is None
    assert sum(row["papers"] for row in data["abstract_words"]) == 40


def test_year_and_venue_histograms() -> None:
    papers = make_papers(years=True, venues=True)
    papers[0].year = 2024  # a gap year in between is drawn as 0
    result = ov.compute_overview(papers, papers, terms=False)
    assert result.years == [(2020, 13), (2021, 14), (2022, 12), (2023, 0), (2024, 1)]
    assert result.venues == [("CVPR", 20), ("ICASSP", 20)]


def test_many_venues_are_cut_with_other() -> None:
    papers = make_papers(n_per=15)
    for i, p in enumerate(papers):
        p.venue = f"V{i % 15:02d}"
    venues = ov.venue_histogram(papers, limit=5)
    assert venues is not None
    assert len(venues) == 5 and venues[-1][0] == "(other)"
    assert sum(n for _, n in venues) == 30


def test_length_histogram_bins_words() -> None:
    papers = [
        Paper("a", "word " * 10, ["c"], "s"),
        Paper("b", "word " * 120, ["c"], "s"),
        Paper("c", "word " * 900, ["c"], "s"),
    ]
    lengths = dict(ov.length_histogram(papers))
    assert lengths["0-49"] == 1 and lengths["100-149"] == 1 and lengths["400+"] == 1
    assert sum(lengths.values()) == 3


def test_distinctive_terms_of_a_subset() -> None:
    papers = make_papers()
    vision = papers[:20]
    terms = ov.distinctive_terms(vision, papers)
    texts = [t.text for t in terms]
    assert texts, texts
    assert set(texts[:3]) <= set(VISION), texts
    assert not any(w in t.split() for t in texts for w in ("propose", "paper", "results", "we"))
    for t in terms:
        assert t.share > t.library_share
    # the whole library has nothing that sets it apart
    assert ov.distinctive_terms(papers, papers) == []
    assert ov.distinctive_terms([], papers) == []


def test_distinctive_terms_are_sampled_the_same_way_in_any_order() -> None:
    papers = make_papers(n_per=30)
    view = papers[:30]
    shuffled = papers[:]
    random.Random(1).shuffle(shuffled)
    a = ov.distinctive_terms(view, papers, sample=20)
    b = ov.distinctive_terms(view[::-1], shuffled, sample=20)
    assert [t.text for t in a] == [t.text for t in b]


def test_topics_in_view_and_json_shape() -> None:
    papers = make_papers()
    model = tp.compute_topics([p.abstract for p in papers], [p.id for p in papers], n_topics=2)
    view = papers[:10] + papers[20:25]
    notes = ov.Annotations(read={papers[0].id})
    result = ov.compute_overview(view, papers, notes, model)
    assert [t.size for t in result.topics] == [10, 5]
    assert result.topics[0].unread == 9
    assert set(result.topics[0].ids) == {p.id for p in papers[:10]}
    data = json.loads(json.dumps(ov.to_json(result, ids_per_topic=3)))
    assert set(data) == {
        "counts",
        "years",
        "venues",
        "collections",
        "abstract_words",
        "terms",
        "topics",
    }
    assert data["counts"]["view"]["papers"] == 15
    assert data["topics"][0]["size"] == 10 and len(data["topics"][0]["ids"]) == 3
    assert {"number", "label", "size", "unread", "ids"} == set(data["topics"][0])


def test_empty_view() -> None:
    result = ov.compute_overview([], make_papers(), terms=True)
    assert result.view.papers == 0
    assert result.terms == [] and result.topics == []
    assert sum(n for _, n in result.lengths) == 0
