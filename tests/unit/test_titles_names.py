"""Method names in the shapes abstracts introduce them, and the qualifiers a title keeps."""

from __future__ import annotations

import pytest

from papertui.core.titles import derive_title

SUP = '<sup xmlns:mml="http://www.w3.org/1998/Math/MathML">{}</sup>'


@pytest.mark.parametrize(
    "abstract,name",
    [
        (  # apposition after a head noun: "a novel framework, X, that"
            "Depth from panoramas is hard. In this paper, we propose a novel framework, HRDFuse, "
            "that combines convolutional networks and transformers for depth estimation.",
            "HRDFuse",
        ),
        (  # "Expanded Name (X for short)"
            "Assortment optimization needs data. We propose a novel algorithm called Pessimistic "
            "ASsortment opTimizAtion (PASTA for short), which identifies the optimal assortment.",
            "PASTA",
        ),
        (  # "we refer to our method as X"
            "Medical images are scarce. We use counterfactual attention to guide a classifier. "
            "We refer to our method as Adversarial Counterfactual Attention (ACAT). ACAT "
            "improves the baseline classification accuracy on two data sets.",
            "ACAT",
        ),
        (  # "which we coin X"
            "We present a framework for training a diffusion model on a single image. Our method, "
            "which we coin SinDDM, learns the internal statistics of the training image.",
            "SinDDM",
        ),
        (  # the letters of the acronym come from inside the words
            "Graph diffusion is slow. We present a novel method based on time derivative graph "
            "diffusion (TIDE) to overcome the structural limitations of message passing.",
            "TIDE",
        ),
        (  # "X - a novel approach"
            "Explanations should say where and what. We fill this gap with CRAFT - a novel "
            "approach to identify both what and where a model looks.",
            "CRAFT",
        ),
        (  # a lower-case first name introduced by its verb
            "Projective factorization needs initialization. To address this we propose expOSE "
            "which has an exponential regularization in bundle adjustment.",
            "expOSE",
        ),
        (  # the name only in the project link at the end
            "We present the first method for neural radiance fields from a single colour event "
            "camera, with dense and photorealistic view synthesis. See "
            "https://4dqv.mpi-inf.mpg.de/EventNeRF/",
            "EventNeRF",
        ),
        (  # "(or X)"
            "Zero-shot classification struggles with coarse labels. We propose Classification "
            "with Hierarchical Label Sets (or CHiLS), an alternative strategy for zero-shot "
            "classification.",
            "CHiLS",
        ),
    ],
)
def test_the_papers_own_name_leads_the_title(abstract, name):
    assert derive_title(abstract).startswith(f"{name}: ")


def test_a_task_termed_in_passing_is_not_the_methods_name():
    title = derive_title(
        "Microscopy is slow and harmful to cells. We model it as a deep learning task termed "
        "subcellular structure prediction (SSP). To overcome these challenges, we propose "
        "Re-parameterizing Mixture-of-Diverse-Experts (RepMode), a network that dynamically "
        "organizes its parameters."
    )
    assert title.startswith("RepMode: ")


def test_an_inlined_footnote_is_an_aside_and_its_link_may_name_the_method():
    title = derive_title(
        "Depth from two views is ambiguous. We propose a self-supervised multi-frame depth "
        f"estimation model that couples depth and pose. {SUP.format(1)} {SUP.format(1)} "
        "https://github.com/someone/DualRefine."
    )
    assert title.startswith("DualRefine: ")
    title = derive_title(
        "Surfaces with open boundaries are hard. In this work, we introduce a new neural "
        f"rendering framework, coded NeUDF {SUP.format(1)} {SUP.format(1)} Visit our project "
        "page at http://example.org/neudf/, that can reconstruct surfaces with arbitrary "
        "topologies."
    )
    assert title.startswith("NeUDF: ")
    assert "Visit" not in title and "http" not in title and "<" not in title


def test_a_superscript_inside_a_name_joins_it():
    title = derive_title(
        f"Detection from cameras lacks depth. This paper introduces X {SUP.format(3)} KD, a "
        "comprehensive knowledge distillation framework across modalities, tasks and stages."
    )
    assert title.startswith("X3KD: ")


def test_the_papers_3d_setting_is_kept():
    title = derive_title(
        "Detecting anomalies in 3D point clouds matters for industry. We propose a shape-guided "
        "expert-learning framework to tackle the problem of unsupervised 3D anomaly detection."
    )
    assert "3D anomaly detection" in title
    assert "problem" not in title


def test_a_name_that_is_the_object_stays_in_place_without_a_prefix():
    title = derive_title(
        "Boosting is a classic method. We study the sample complexity of AdaBoost and other "
        "classic variations thereof. AdaBoost is shown to be suboptimal."
    )
    assert title.startswith("Sample complexity of AdaBoost")
    assert title.count("AdaBoost") == 1


def test_a_passive_contribution_gives_the_phrase():
    title = derive_title(
        "Combustion problems need distinct methods. A promising approach is the integration of "
        "machine learning with governing equations. In this work, the FlamePINN-1D framework is "
        "proposed to solve the forward and inverse problems of 1D laminar flames."
    )
    assert title == "FlamePINN-1D: solving the forward and inverse problems of 1D laminar flames"


def test_a_conditional_opening_is_no_subject():
    title = derive_title(
        "If h is a ring-valued function on a simplicial complex G we can define two matrices L "
        "and g. We prove here that the quadratic energy expression summing over all pairs is "
        "the sum of the matrix entries."
    )
    assert not title.startswith("If")
    assert title.startswith("Quadratic energy expression")
