"""Files that are not all UTF-8: each paragraph (text dumps) or line (other formats) that is
not valid UTF-8 is read as cp1252, and the warning names the file and says how many."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papertui.core.corpus import load_corpus
from papertui.core.corpus.formats.base import decode

RESUME = "Résumé of naïve Bayes for café reviews"
UTF8 = "Grüße aus Zürich: a “quoted” 模型 for ünïcode"


def test_a_cp1252_paragraph_in_a_utf8_text_dump_reads_right(write_corpus):
    data = (
        b"Name\n\n"
        + UTF8.encode("utf-8")
        + b"\n\n"
        + RESUME.encode("cp1252")
        + b"\r\n   \r\n"
        + "A second “cp1252” one, 3 € a day.".encode("cp1252")
        + b"\n\nPlain ASCII at the end."
    )
    path = write_corpus(data)
    corpus = load_corpus([path])
    assert [p.abstract for p in corpus.papers] == [
        UTF8,
        RESUME,
        "A second “cp1252” one, 3 € a day.",
        "Plain ASCII at the end.",
    ]
    (warning,) = corpus.warnings
    assert str(path) in warning and "2 paragraphs read as cp1252" in warning


def test_a_wholly_cp1252_file_reads_right(write_corpus):
    text = f"Café papers\n\n{RESUME}\n\nDéjà vu, “smart quotes” and 5 € – read as written."
    path = write_corpus(text.encode("cp1252"))
    corpus = load_corpus([path])
    assert corpus.papers[0].collections == ("Café papers",)
    assert [p.abstract for p in corpus.papers] == [
        RESUME,
        "Déjà vu, “smart quotes” and 5 € – read as written.",
    ]
    assert "3 paragraphs read as cp1252" in corpus.warnings[0]


@pytest.mark.parametrize("name", ["dump.jsonl", "dump.csv"])
def test_a_cp1252_line_in_a_utf8_record_file_reads_right(write_corpus, name):
    rows = [{"title": "Ünïcode", "abstract": UTF8}, {"title": "Café", "abstract": RESUME}]
    if name.endswith(".jsonl"):
        lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    else:
        lines = ["title,abstract", *(f"{r['title']},{r['abstract']}" for r in rows)]
    data = b"\n".join(line.encode("cp1252" if RESUME in line else "utf-8") for line in lines)
    corpus = load_corpus([write_corpus(data, name=name)])
    assert [(p.title, p.abstract) for p in corpus.papers] == [
        ("Ünïcode", UTF8),
        ("Café", RESUME),
    ]
    assert "1 line read as cp1252" in corpus.warnings[0]


def test_bytes_cp1252_leaves_undefined_are_replaced_and_a_bom_is_dropped():
    warnings: list[str] = []
    text = decode("x.txt", b"\xef\xbb\xbfok\r\n\r\nbad \x81 \xe9", warnings, paragraphs=True)
    assert text == "ok\n\nbad \ufffd é"
    assert warnings == ["x.txt: invalid UTF-8 at byte 13 (1 paragraph read as cp1252)"]


_PARTS = st.lists(
    st.tuples(
        st.text(alphabet=st.characters(exclude_categories=("Cc", "Cs")), max_size=20), st.booleans()
    ),
    max_size=8,
)


@given(_PARTS)
def test_every_line_reads_as_it_was_written(parts):
    # each line written in UTF-8 or (when it can be) cp1252 reads back as written, unless it
    # happens to be valid UTF-8 too (a cp1252 "Ã©" is UTF-8's "é")
    lines, data = [], []
    for text, legacy in parts:
        try:
            raw = text.encode("cp1252") if legacy else text.encode("utf-8")
        except UnicodeEncodeError:
            raw = text.encode("utf-8")
        try:
            expected = raw.decode("utf-8")
        except UnicodeDecodeError:
            expected = raw.decode("cp1252")
        lines.append(expected)
        data.append(raw)
    warnings: list[str] = []
    text = decode("x", b"\n".join(data), warnings)
    if not text.startswith("\ufeff"):  # a BOM the first line began with is dropped
        assert text == "\n".join(lines)
