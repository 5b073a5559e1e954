"""Which sentence a title is made from, and the classes of bad endings it must not have."""

from __future__ import annotations

import re

import pytest

from papertui.core.corpus import load_corpus
from papertui.core.system.paths import bundled_corpus_dir
from papertui.core.titles import derive_title
from papertui.core.titles.acronyms import _spelled_out

ACRONYM = re.compile(r"\b[A-Z][A-Za-z]*[A-Z]s?\b")


@pytest.fixture(scope="module")
def titles() -> list[str]:
    return [p.title for p in load_corpus([bundled_corpus_dir()]).papers]


# --- the bundled corpus, by class ------------------------------------------------------------


def test_no_bundled_title_says_a_field_twice(titles: list[str]) -> None:
    # not "Graph neural networks for GNNs", "expressivity of GNNs for ... Graph Neural Networks"
    bodies = [t.split(": ", 1)[-1] for t in titles]  # a name may be spelled out after it
    repeated = [b for b in bodies for a in set(ACRONYM.findall(b)) if _spelled_out(b, a)]
    assert not repeated


def test_no_bundled_title_holds_mathematics(titles: list[str]) -> None:
    # not "faithful 2-functor _n", "rewiring framework that satisfies all of--(iii)"
    assert not [t for t in titles if re.search(r"[\^_=\\]|--", t)]


def test_no_bundled_title_ends_on_half_a_pair_or_a_cut_participle(titles: list[str]) -> None:
    # not "... in both unsupervised", "..., taking the form"
    ends = [t.split()[-3:] for t in titles]
    assert not [e for e in ends if "both" in e or "either" in e]
    assert not [t for t in titles if re.search(r", \w+ing(?: \w+){0,2}$", t)]


def test_no_two_bundled_titles_are_the_same_field(titles: list[str]) -> None:
    # several abstracts open with "Graph neural networks (GNNs) have ...": none is titled so
    assert len(set(titles)) == len(titles)
    assert not [t for t in titles if t.lower() in ("graph neural networks", "gnns")]


# --- choosing the sentence -------------------------------------------------------------------


def test_a_specific_contribution_beats_a_vague_one_stated_first() -> None:
    title = derive_title(
        "Sparse attention kernels speed up long sequences. This paper studies some issues. "
        "We propose a cache-aware sparse attention kernel for long sequences. The sparse "
        "attention kernel runs on long sequences of any length, and the cache-aware layout "
        "halves memory traffic."
    )
    assert title.lower().startswith("cache-aware sparse attention kernel")


def test_a_later_sentence_with_a_weaker_cue_can_win_on_content() -> None:
    # "gives" states a contribution, and what it gives is what the abstract is about
    title = derive_title(
        "The reverse derivative is a fundamental operation in machine learning. This paper "
        "gives a direct axiomatization of a category with a reverse derivative operation. In "
        "fact, we show explicitly what a forward derivative is missing. We show that these "
        "linear maps form an additively enriched category."
    )
    assert title.startswith("Direct axiomatization of a category with a reverse derivative")


def test_the_fields_own_subject_is_not_the_title() -> None:
    title = derive_title(
        "Graph neural networks (GNNs) have gained attention for learning on graphs. GNNs are "
        "limited by the isomorphism test. Only a few works study GNNs with uncountable features. "
        "As a consequence, a soft-isomorphic relational graph convolution network (SIR-GCN) is "
        "proposed. SIR-GCN outperforms comparable GNNs."
    )
    assert title.startswith("SIR-GCN: soft-isomorphic relational graph convolution network")
    assert "GNNs" not in title.split(": ", 1)[1].split(" for ")[0]


def test_a_topic_suffix_does_not_repeat_an_acronym_the_phrase_holds() -> None:
    title = derive_title(
        "The expressivity of Graph Neural Networks (GNNs) is limited. GNNs cannot tell apart "
        "many graphs. In this paper, we propose maximizing the expressivity of GNNs by graph "
        "canonization. GNNs with canonization are provably more expressive than GNNs without."
    )
    # the field once, spelled out as the first sentence says it, not "... GNNs for Graph Neural
    # Networks"
    assert title.startswith("Maximizing the expressivity of Graph Neural Networks by graph")
    assert "GNN" not in title and title.count("Graph Neural Networks") == 1


def test_a_phrase_that_spells_the_topic_out_takes_its_acronym() -> None:
    title = derive_title(
        "Stochastic gradient descent (SGD) trains most models. SGD shows heavy tails. SGD "
        "again. We study heavy-tail phenomena in stochastic gradient descent and their effect "
        "on the generalization of large deep networks trained with small batches in practice."
    )
    assert "for SGD" not in title
    assert title.count("SGD") + title.lower().count("stochastic gradient descent") == 1


# --- names -----------------------------------------------------------------------------------


def test_the_papers_newer_version_is_the_name_not_its_predecessor() -> None:
    title = derive_title(
        "In this paper, we propose a scene-level inverse rendering framework that uses "
        "multi-view images. A novel framework called Multi-view Attention Inverse Rendering "
        "(MAIR) was recently introduced. MAIR performs scene-level inverse rendering. Although "
        "MAIR showed impressive results, MAIR cannot be used for editing. In this paper, we "
        "propose its extended version, called MAIR++. MAIR++ addresses these limitations."
    )
    assert title.startswith("MAIR++: ")


# --- compression and endings -----------------------------------------------------------------


def test_a_relative_clause_that_holds_the_content_stays() -> None:
    title = derive_title(
        "Some gradients are costly. We consider minimizing functions for which it is expensive "
        "to compute the gradient. We propose a surrogate and show it works."
    )
    assert title.startswith("Minimizing functions for which")


def test_another_name_given_as_an_aside_drops_out() -> None:
    title = derive_title(
        "Matching is hard. We consider the problem of graph matching, or learning vertex "
        "correspondence, between two correlated stochastic block models. Graph matching "
        "between models is studied."
    )
    assert title == "Graph matching between two correlated stochastic block models"


def test_mathematics_is_cut_off_the_end() -> None:
    title = derive_title(
        r"Graphs are everywhere. We prove that graph convolutional networks form a faithful "
        r"bicategory of layers $GCNN_n \to Para(CoKl(R^{n \times n}))$ and more."
    )
    assert not re.search(r"[\^_=\\]|--", title)
    assert title.startswith("Graph convolutional networks")


def test_half_a_pair_is_not_an_ending() -> None:
    title = derive_title(
        "Latent spaces matter. We propose a unified method capable of learning disentangled "
        "latent spaces of arbitrary shape in both unsupervised and supervised settings with "
        "provable identifiability guarantees for every causal graph."
    )
    assert not re.search(r"\bboth \w+$", title)
    assert title.startswith("Unified method capable of learning disentangled latent spaces")


def test_an_infinitive_cut_short_is_not_an_ending() -> None:
    title = derive_title(
        "Cross-modal retrieval is hard. We propose a Generalized Structural Sparse Function "
        "(GSSF) to dynamically capture thorough and powerful relationships across modalities "
        "for cross-modal metric learning. GSSF is simple."
    )
    assert title.startswith("GSSF: ")
    assert not re.search(r"\bto \w+ly \w+(?: \w+)?$", title)
