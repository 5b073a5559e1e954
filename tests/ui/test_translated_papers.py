"""A paper with translations shows them in the detail pane under its abstract, each under its
language, and a word only a translation holds finds it from the search box."""

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
    },
]


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
        rows = _rows(app)
        at = rows.index("zh")
        below = " ".join(rows[at : at + 4])
        assert "語言模型的縮放定律" in below and "我們研究語言模型如何隨規模變化。" in below, rows
        abstract = next(i for i, row in enumerate(rows) if "We study how language" in row)
        assert abstract < at, rows  # under the paper's own abstract
