"""Derived titles: short, distinct, and led by the method name when there is one."""

from __future__ import annotations

import pytest

from papertui.core.corpus import load_corpus
from papertui.core.paths import bundled_corpus_dir
from papertui.core.titles import derive_title

BUNDLED = bundled_corpus_dir()


@pytest.fixture(scope="module")
def titles() -> list[str]:
    return [p.title for p in load_corpus([BUNDLED]).papers]


def test_bundled_titles_are_distinct_and_short(titles):
    assert len(titles) == 139
    assert len(set(titles)) == 139
    assert all(0 < len(t) <= 80 for t in titles)


@pytest.mark.parametrize("name", ["CaliGCL", "CDFlow", "QHNet", "GRAPE", "NoProp", "HDFE", "JFR"])
def test_method_names_lead_the_title(titles, name):
    assert any(t.startswith(f"{name}: ") for t in titles), name


def test_method_title_says_what_it_is():
    abstract = (
        "Biases hurt. To address this, we propose CaliGCL, a GCL model for calibrating biases."
    )
    assert derive_title(abstract) == "CaliGCL: GCL model for calibrating biases"


def test_falls_back_to_first_sentence_cut_at_a_word():
    abstract = (
        "Optimal transport provides a powerful framework for comparing and transforming "
        "probability distributions with wide applications. Second sentence."
    )
    title = derive_title(abstract)
    assert len(title) <= 80 and title.endswith("…")
    assert abstract.startswith(title[:-1])
    assert title[:-1].split()[-1] in abstract.split()  # cut between words, not inside one


def test_short_first_sentence_is_the_title():
    assert derive_title("Neural networks are nonlinear. We study that.") == (
        "Neural networks are nonlinear"
    )
