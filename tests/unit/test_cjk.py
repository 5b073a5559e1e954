"""Chinese, Japanese and Korean text: runs indexed and searched as character pairs, in the
analyzer, the fast writer, the highlighter, typo repair and the scan before the index."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from papertui.core.library import Library
from papertui.core.search import cjk
from papertui.core.search.highlight import Highlighter
from papertui.core.search.parsing import stems
from papertui.core.search.schema import FastStemAnalyzer

ANALYZER = FastStemAnalyzer()

ABSTRACTS = [
    "我们提出一种新的深度学习模型，用于图像识别。",
    "A diffusion model for images, with a model of noise and a model of light.",
    "大規模言語モデルの評価について述べる。",
    "딥러닝 모델을 이용한 연구 입니다. 模",
    "We model graphs as kernels; GPT-4模型 is a baseline, 建模 its method.",
]

# letters of every kind the tokenizer meets: Latin with accents, Han, kana, Hangul, digits,
# the dots and hyphens words hold, spaces and punctuation of both worlds
_TEXT = st.text(
    alphabet=st.sampled_from("aéZ9._- 。，、模型深度学习の言語モデル딥러닝々ー〇\u3000\U00020000"),
    max_size=40,
) | st.text(max_size=40)


def _runs(text: str) -> list[str]:
    """The CJK runs of `text` as a Latin tokenizer would leave them, inside its words."""
    return [run for word in re.findall(r"\w+", text) for run in cjk.RUN.findall(word.lower())]


@given(_TEXT)
def test_any_text_tokenizes_and_every_cjk_run_is_covered_by_its_pairs(text):
    tokens = [
        (t.text, t.pos, t.startchar, t.endchar) for t in ANALYZER(text, positions=True, chars=True)
    ]
    assert [pos for _, pos, _, _ in tokens] == list(range(len(tokens)))
    terms = [t for t, _, _, _ in tokens]
    for run in _runs(text):
        expected = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
        assert all(term in terms for term in expected), (run, terms)
    for term, _, start, end in tokens:
        if cjk.is_piece(term):  # a pair or a lone character, where it stands, never stemmed
            assert text[start:end].lower() == term and 1 <= len(term) <= 2


@given(_TEXT)
def test_query_and_index_split_a_text_alike(text):
    # the query side (`stems`) is the index side's analyzer: one pair is one pair everywhere
    assert stems(text) == [t.text for t in ANALYZER(text)]
    pieces = [p for word in re.findall(r"\w+(?:\.?\w+)*", text.lower()) for p in cjk.pieces(word)]
    assert all(word[:1] != "." and word[-1:] != "." for word, _, _, _ in pieces)


def test_a_run_is_its_pairs_and_a_lone_character_itself():
    assert stems("深度学习") == ["深度", "度学", "学习"]
    assert stems("模") == ["模"]
    assert stems("GPT-4模型s") == ["gpt", "模型"]
    assert stems("Café 모델을") == ["cafe", "모델", "델을"]


def test_the_highlighter_lights_matched_runs_whole():
    text = "我们的深度学习模型 model 模型很好 GPT模型"
    lit = Highlighter({"深度", "度学", "学习", "模型", "model"})
    assert [text[a:b] for a, b in lit.spans(text)] == ["深度学习", "模型", "model", "模型", "模型"]
    lone = Highlighter({"模"})  # a character searched alone is lit wherever it stands
    other = "建模与模型 模"
    assert [other[a:b] for a, b in lone.spans(other)] == ["模", "模", "模"]


def _library(write_corpus) -> Library:
    lib = Library.open([write_corpus("CJK\n\n" + "\n\n".join(ABSTRACTS))])
    lib.indexing.ensure()
    return lib


def _found(lib: Library, query: str) -> list[int]:
    return sorted(lib.run_query(query, depth=None).indices)


def test_cjk_words_are_found_by_their_pairs(write_corpus):
    lib = _library(write_corpus)
    try:
        assert _found(lib, "模型") == [0, 4]
        assert _found(lib, "深度学习") == [0]
        assert _found(lib, "学习模型") == [0]  # the pairs next to each other, as typed
        assert _found(lib, "习深") == []
        assert _found(lib, "モデル") == [2] and _found(lib, "딥러닝") == [3]
        assert _found(lib, "模型 -图像") == [4]
        # a lone character: alone, and in every pair that holds it, first or second
        assert _found(lib, "模") == [0, 2, 3, 4]
        view = lib.run_query("模型")
        lit = view.highlighter
        assert lit is not None and lit.spans(ABSTRACTS[0]) == [(12, 14)]
    finally:
        lib.close()


def test_typo_repair_leaves_cjk_alone_and_never_gives_cjk_for_a_latin_word(write_corpus):
    lib = _library(write_corpus)
    try:
        view = lib.run_query("模形")  # an unknown pair: no Latin word near it
        assert view.corrections == {} and not view.indices
        view = lib.run_query("modle")
        assert view.corrections == {"modle": "model"}
        index = lib.index
        assert index is not None
        assert index.correct("模形") == [] and index.correct("模型x") == []
        assert all(not cjk.has_cjk(w) for w in index.correct("mdel"))
    finally:
        lib.close()


def test_before_the_index_is_ready_cjk_words_are_matched_as_text(write_corpus):
    lib = Library.open([write_corpus("CJK\n\n" + "\n\n".join(ABSTRACTS))])
    try:
        assert lib.index is None
        assert _found(lib, "模型") == [0, 4]
        assert _found(lib, "深度学习 -图像") == []
    finally:
        lib.close()
