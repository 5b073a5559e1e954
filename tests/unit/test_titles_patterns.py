"""Classes of derived titles that do not read as titles on venues the rules were not fitted on:
a title that opens like a sentence's middle, a background sentence taken for the title, a cut on
a phrase that asks for more, and the wrong name in front. Each case is a pattern, not a paper."""

from __future__ import annotations

import pytest

from papertui.core.titles import derive_title

# --- openers that are not titles ---------------------------------------------------------------


@pytest.mark.parametrize(
    "abstract,start",
    [
        (  # "a simple but effective X": the whole lead-in goes, not half of it
            "Dense retrievers need labels. We present a simple but effective pretraining task for "
            "dense retrievers that needs no labels.",
            "Pretraining task for dense retrievers",
        ),
        (  # a list of verbs after the cue: the object is the title, not the second verb
            "Sparse recovery has a long history. This paper proposes, analyzes, and characterizes "
            "bounds on iterative hard thresholding under heavy-tailed noise.",
            "Bounds on iterative hard thresholding",
        ),
        (
            "Compression and robustness are studied apart. We propose and analyze a pruning rule "
            "that keeps the certified robustness of small networks.",
            "Pruning rule",
        ),
        (  # "bridge this gap through X": the means is the title
            "Theory and practice of contrastive learning disagree. We bridge this gap through a "
            "systematic study of augmentation strength in contrastive pretraining.",
            "Systematic study of augmentation strength",
        ),
        (  # "bridge the gap between X and Y": what is bridged
            "Fairness and explainability are studied apart. We bridge the gap between fairness "
            "and explainability by presenting a view on fair explanations.",
            "Bridging the gap between fairness and explainability",
        ),
        (  # "the following kind of X: Y": what follows the colon
            "Scheduling with deadlines is hard. We study the following type of problems: "
            "computing diverse shortest paths efficiently in a weighted graph.",
            "Computing diverse shortest paths",
        ),
        (  # a sequence word and "the paper" before the contribution
            "Partitioning hypergraphs matters in chip design. First, the paper defines a notion "
            "of balanced cuts for hypergraphs with weighted pins. Then it gives a fast algorithm "
            "for balanced cuts.",
            "Balanced cuts for hypergraphs",
        ),
    ],
)
def test_a_title_never_opens_with_the_middle_of_a_sentence(abstract: str, start: str) -> None:
    assert derive_title(abstract).startswith(start)
