"""A paper with translations shows them in the detail pane under its abstract, each under its
language's name, as plain text; a word only a translation holds finds it from the search box,
and the list shows the paper's own title. A paragraph of a UTF-8 dump written in cp1252 reads
right on screen."""

from __future__ import annotations

import json

from ui_support import make_app, screen_lines, steady

PAPERS = [
    {"title": "Graph kernels", "abstract": "A kernel method for graphs of molecules."},
    {
        "title": "Scaling laws for language models",
        "abstract": "We study how language models scale with size.",
        "title_zh": "語言模型的縮放定律",
        "abstract_zh": "我們研究語言模型如何隨規模變化。",
        "translations": [{"lang": "ko", "abstract": "언어 모델 [bold]규모[/bold] 연구."}],
    },
]
RESUME = "Résumé of naïve Bayes for café reviews"


def _rows(app) -> list[str]:
    """The screen's rows, the pane's border and the spaces around them left out."""
    return [" ".join(line.split()).strip("▕▏▎▊ ") for line in screen_lines(app)]


async def test_the_detail_pane_shows_the_translation_and_the_search_box_finds_it(tmp_path):
    dump = tmp_path / "daily.jsonl"
    dump.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PAPERS), "utf-8")
    app = make_app([dump])
    async with app.run_test(size=(120, 40)) as pilot:
        await steady(pilot)
        await pilot.press("slash", *"模型", "enter")
        await steady(pilot)
        assert app.reader.view.indices == [1]
        screen = "\n".join(screen_lines(app))
        rows = _rows(app)
        at = next(i for i, row in enumerate(rows) if row.endswith("Chinese (zh)"))
        below = " ".join(rows[at : at + 4])
        assert "語言模型的縮放定律" in below and "我們研究語言模型如何隨規模變化。" in below, screen
        abstract = next(i for i, row in enumerate(rows) if "We study how language" in row)
        assert abstract < at, screen  # under the paper's own abstract
        korean = next(i for i, row in enumerate(rows) if row.endswith("Korean (ko)"))
        assert "언어 모델 [bold]규모[/bold] 연구." in rows[korean + 1], screen  # never markup
        # the list row is the paper's own title, the translation's nowhere but in the pane
        listed = [row for row in rows if "Scaling laws for language models" in row]
        assert listed and not any("縮放定律" in row for row in listed), screen
        assert sum("縮放定律" in row for row in rows) == 1, screen


async def test_a_cp1252_paragraph_reads_right_in_the_reader(tmp_path):
    dump = tmp_path / "mixed.txt"
    dump.write_bytes(
        "Mixed\n\nGrüße aus Zürich: a UTF-8 paragraph about kernels.\n\n".encode()
        + f"{RESUME}, a paragraph in cp1252.".encode("cp1252")
    )
    app = make_app([dump])
    async with app.run_test(size=(120, 40)) as pilot:
        await steady(pilot)
        await pilot.press("slash", *"naive", "enter")
        await steady(pilot)
        screen = "\n".join(screen_lines(app))
        assert RESUME in screen and "R?sum?" not in screen and "\ufffd" not in screen, screen
