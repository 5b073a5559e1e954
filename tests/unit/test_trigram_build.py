"""The numpy trigram build gives the fuzzy matcher the same index as the pure-Python one."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rapidfuzz import utils

from papertui.core.query import fuzzy, trigram_build
from papertui.core.query.fuzzy import TitleMatcher


def _python_index(titles: list[str]) -> dict[str, list[int]]:
    matcher = TitleMatcher(titles)
    matcher._processed = titles
    slots = matcher._index()
    return {
        g: list(matcher._postings[matcher._offsets[n] : matcher._offsets[n + 1]])
        for g, n in slots.items()
    }


def _numpy_index(titles: list[str]) -> dict[str, list[int]]:
    slots, offsets, postings = trigram_build.build(titles)
    return {g: list(postings[offsets[n] : offsets[n + 1]]) for g, n in slots.items()}


# processed titles: lower case, digits, spaces, letters of other scripts, short and empty ones
TITLE = st.text(alphabet="ab c1é中ß𝓁", max_size=12).map(utils.default_process)


@settings(max_examples=200, deadline=None)
@given(st.lists(TITLE, max_size=40), st.integers(1, 7), st.booleans())
@example(["aaaa aaaa", "", "ab", "abc", "abcabc"], 2, True)  # a trigram twice in one title
def test_numpy_build_is_the_python_build(titles, chunk, dense):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(trigram_build, "CHUNK", chunk)  # titles split across chunks
        mp.setattr(trigram_build, "DENSE_UP_TO", 1 << 21 if dense else 0)
        assert _numpy_index(titles) == _python_index(titles)


def test_a_large_list_is_indexed_by_numpy_and_matches_as_before(monkeypatch):
    titles = [f"graph kernel {i} for optimal transport" for i in range(300)]
    titles[123] = "CaliGCL: calibrating the biases of Gödel"
    python = TitleMatcher(titles)
    python.prepare()
    monkeypatch.setattr(fuzzy, "NUMPY_FROM", 10)
    monkeypatch.setattr(fuzzy, "SCAN_ALL_UP_TO", 10)
    monkeypatch.setattr(trigram_build, "CHUNK", 64)
    built = TitleMatcher(titles)
    built.prepare()
    assert isinstance(built._postings, memoryview)  # numpy's array, not the Python build's
    assert [i for i, _ in built.match("caligcl calibratng")][:1] == [123]
    for typed in ("graph kernel 12", "optmal transprt", "godel"):
        assert built.match(typed) == python.match(typed), typed


def test_a_title_with_a_nul_falls_back_to_the_python_build():
    with pytest.raises(ValueError):
        trigram_build.build(["a title\0with a nul", "another"])
