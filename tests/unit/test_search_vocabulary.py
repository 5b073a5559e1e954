"""The words typo repair and prefix queries choose from."""

from __future__ import annotations

import json

from papertui.core.search.vocabulary import Vocabulary


def _vocabulary(tmp_path, counts: dict[str, int]) -> Vocabulary:  # type: ignore[no-untyped-def]
    path = tmp_path / "vocab.json"
    path.write_text(json.dumps(counts), "utf-8")
    return Vocabulary(path)


def test_words_starting_with_a_prefix_in_order_up_to_a_limit(tmp_path):
    words = _vocabulary(tmp_path, {"learn": 9, "lean": 1, "learning": 5, "leap": 2, "model": 7})
    assert words.starting_with("lea") == ["lean", "leap", "learn", "learning"]
    assert words.starting_with("lear", limit=1) == ["learn"]
    assert words.starting_with("x") == []


def test_nearest_words_the_frequent_first_among_equally_near(tmp_path):
    words = _vocabulary(tmp_path, {"model": 50, "mode": 3, "modal": 1, "graph": 9})
    assert words.nearest("modle") == ["model", "mode"]  # "modal" is two edits away
    assert words.count("model") == 50 and words.count("absent") == 0
    assert words.nearest("zz") == [] and words.nearest("2024") == []


def test_among_equally_near_words_a_slip_of_the_hand_wins_over_frequency(tmp_path):
    """A trial typed "ofline reinforcment" and searched "online": one edit from both, but a
    missed twin letter is a likely slip and "f" for "n" is not."""
    counts = {"online": 900, "offline": 40, "graph": 5, "grpahs": 500, "grapl": 900}
    counts |= {"network": 9, "netwolk": 900, "netwotks": 900}
    words = _vocabulary(tmp_path, counts)
    assert words.nearest("ofline")[0] == "offline"
    # each against a more used word as near: two letters swapped, a neighbouring key
    assert words.nearest("grpah")[0] == "graph"
    assert words.nearest("netwotk")[0] == "network"
    assert words.nearest("grapg")[0] == "graph"


def test_missing_or_damaged_vocabulary_has_no_words(tmp_path):
    assert Vocabulary(tmp_path / "absent.json").nearest("model") == []
    (tmp_path / "bad.json").write_text("[1, 2", "utf-8")
    assert Vocabulary(tmp_path / "bad.json").starting_with("a") == []
