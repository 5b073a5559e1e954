"""A record's title and abstract in other languages (`title_zh`, `abstract_zh-TW`, a
`translations` object) are read, kept through the corpus cache, given in JSON records, and
searched by the index and the scan before it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from papertui.cli import main
from papertui.core.corpus import load_corpus
from papertui.core.corpus.formats.translations import has_translations, translations_of
from papertui.core.corpus.paper_meta import PaperMeta, Translation
from papertui.core.library import Library

ABSTRACT = "We study how the quality of language models scales with their size and data."
RECORD = {
    "title": "Scaling laws for language models",
    "abstract": ABSTRACT,
    "title_zh": "語言模型的縮放定律",
    "abstract_zh": "我們研究語言模型的品質如何隨規模與資料變化。",
    "title_id": "L-12345",  # an id, not Indonesian
    "translations": {
        "ja": {"title": "言語モデルのスケーリング則", "abstract": "モデルの規模と品質を調べる。"},
        "fr": "Nous étudions la qualité des modèles de langue.",
        "zh": {"title": "not this one: abstract_zh came first"},
    },
}
OTHER = {"title": "Graph kernels", "abstract": "A kernel method for graphs of molecules."}
EXPECTED = {
    "zh": {"title": RECORD["title_zh"], "abstract": RECORD["abstract_zh"]},
    "ja": RECORD["translations"]["ja"],  # type: ignore[index]
    "fr": {"abstract": "Nous étudions la qualité des modèles de langue."},
}


def _jsonl(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def test_translations_are_kept_through_the_cache_and_in_records(tmp_path):
    dump = _jsonl(tmp_path / "daily.jsonl", [RECORD, OTHER])
    for _ in range(2):  # parsed, then read back from the corpus cache
        library = Library.open([dump])
        paper, other = library.papers
        assert [t.lang for t in paper.meta.translations] == ["zh", "ja", "fr"]
        record = library.record(paper)
        assert record["translations"] == EXPECTED
        assert record["abstract"] == ABSTRACT and record["title"] == RECORD["title"]
        assert "translations" not in library.record(other)
        library.close()
    # papertui's own JSON records read back with the same translations
    again = _jsonl(tmp_path / "again.jsonl", [record])
    library = Library.open([again])
    assert library.record(library.papers[0])["translations"] == EXPECTED
    library.close()


def test_language_fields_of_csv_and_the_hugging_face_shape_are_read(tmp_path):
    csv = tmp_path / "zh.csv"
    csv.write_text(
        "title,abstract,title_zh-TW,abstract_zh_tw,abstract_no\n"
        f'Scaling,"{ABSTRACT}",縮放定律,我們研究模型。,7\n',
        "utf-8",
    )
    (paper,) = load_corpus([csv]).papers
    assert paper.meta.translations == (Translation("zh-TW", "縮放定律", "我們研究模型。"),)
    hf = _jsonl(
        tmp_path / "hf.jsonl",
        [{"paper": {"id": "2401.00001", "title": "T", "summary": ABSTRACT, "title_zh": "標題"}}],
    )
    (paper,) = load_corpus([hf]).papers
    assert paper.meta.translations == (Translation("zh", "標題", ""),)


def test_the_same_paper_from_two_files_keeps_both_languages(tmp_path):
    a = _jsonl(tmp_path / "a.jsonl", [{"abstract": ABSTRACT, "abstract_zh": "中文摘要在此。"}])
    b = _jsonl(tmp_path / "b.jsonl", [{"abstract": ABSTRACT, "title_ja": "日本語の題"}])
    (paper,) = load_corpus([a, b]).papers
    assert [t.lang for t in paper.meta.translations] == ["zh", "ja"]


def test_cli_search_finds_a_word_only_the_translation_holds(tmp_path, capsys):
    dump = _jsonl(tmp_path / "daily.jsonl", [RECORD, OTHER])
    # built and searched, then answered from the index alone (no corpus read)
    for _ in range(2):
        assert main(["search", "模型", str(dump), "--json"]) == 0
        (found,) = json.loads(capsys.readouterr().out)
        assert found["title"] == RECORD["title"] and found["abstract"] == ABSTRACT
        assert found["translations"] == EXPECTED
    for query in ("縮放定律", "スケーリング", "modèles", "title:定律"):
        assert main(["search", query, str(dump), "--json"]) == 0, query
        assert [r["title"] for r in json.loads(capsys.readouterr().out)] == [RECORD["title"]]


def test_translations_are_searched_and_lit_and_scanned_before_the_index(tmp_path):
    dump = _jsonl(tmp_path / "daily.jsonl", [OTHER, RECORD])
    library = Library.open([dump])
    try:
        assert library.index is None  # before it: the words as plain text, translations too
        assert library.run_query("模型").indices == [1]
        library.indexing.ensure()
        view = library.run_query("模型")
        assert view.indices == [1]
        lit = view.highlighter
        at = RECORD["abstract_zh"].index("模型")
        assert lit is not None and lit.spans(RECORD["abstract_zh"]) == [(at, at + 2)]
        index = library.index
        assert index is not None
        stored = index.stored(library.papers[1].id)
        assert stored is not None and stored["abstract"] == ABSTRACT  # the original alone
        assert stored["title"] == RECORD["title"]
    finally:
        library.close()


# any characters: the separators of the encoding (and its escape) among them
_TEXT = st.text(
    alphabet=st.sampled_from("\x1c\x1d\x1e\x1f0123 ab模") | st.characters(), max_size=30
)
_LANG = st.sampled_from(["zh", "zh-TW", "ja", "ko"]) | _TEXT


@given(
    st.lists(st.tuples(_LANG, _TEXT, _TEXT), max_size=4),
    st.lists(st.sampled_from(["abc", "def"]), max_size=2),
)
def test_translations_survive_encoding_beside_every_other_field(translations, aliases):
    meta = PaperMeta(
        arxiv="2401.00001",
        aliases=tuple(aliases),
        translations=tuple(Translation(*t) for t in translations),
    )
    encoded = meta.encode()
    assert PaperMeta.decode(encoded) == meta
    assert PaperMeta.aliases_of(encoded) == meta.aliases
    assert PaperMeta.translations_of(encoded) == meta.translations
    assert PaperMeta.arxiv_of(encoded) == "2401.00001"
    # a paper merged with a copy of itself keeps its translations, once
    assert PaperMeta.decode(meta.merged(meta).encode()).translations == meta.translations


_KEY = st.sampled_from(
    ["title_zh", "abstract_zh-TW", "summary_ja", "title_id", "abstract_no", "translations"]
    + ["title", "abstract", "title_zh_hant", "abstract_", "lang", "value"]
) | st.text(max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEY, inner, max_size=3),
    max_leaves=12,
)


@given(st.dictionaries(_KEY, _JSON, max_size=6))
def test_any_record_reads_without_raising_and_the_cheap_check_misses_none(fields):
    found = translations_of(fields)
    assert not found or has_translations(fields)  # a record it calls bare has none
    assert len({t.lang for t in found}) == len(found)  # one a language
    for one in found:
        assert one.title or one.abstract
        assert PaperMeta.decode(PaperMeta(translations=(one,)).encode()).translations == (one,)


def test_the_json_export_reads_back_with_translations_and_no_export_mixes_them_in(tmp_path, capsys):
    listed = dict(OTHER, translations=[{"lang": "ko", "abstract": "분자 그래프를 위한 커널 방법."}])
    dump = _jsonl(tmp_path / "daily.jsonl", [RECORD, listed])
    out = tmp_path / "out.json"
    assert main(["export", "--query", "模型 OR 커널", "-c", str(dump), "-o", str(out)]) == 0
    exported = json.loads(out.read_text("utf-8"))
    assert [e["translations"] for e in exported] == [
        EXPECTED,
        {"ko": {"abstract": "분자 그래프를 위한 커널 방법."}},
    ]
    assert [e["abstract"] for e in exported] == [ABSTRACT, OTHER["abstract"]]
    capsys.readouterr()
    assert main(["search", "模型", str(out), "--json"]) == 0  # the export, read back
    (found,) = json.loads(capsys.readouterr().out)
    assert found["translations"] == EXPECTED and found["abstract"] == ABSTRACT
    for form in ("bibtex", "markdown", "csv", "ris", "csl-json"):
        assert main(["export", "--format", form, "--query", "模型", "-c", str(dump)]) == 0
        text = capsys.readouterr().out
        assert RECORD["title"] in text and "縮放定律" not in text and "モデル" not in text, form
    assert main(["search", "模型", str(dump)]) == 0  # the result's line: the paper's own title
    assert "Scaling laws for language models" in capsys.readouterr().out
