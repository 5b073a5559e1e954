"""The export dialog offers RIS and CSL-JSON, with their extensions."""

from __future__ import annotations

import json

import rispy
from textual.widgets import Input, Select

from ui_support import SIZE, make_app, settle


async def test_export_dialog_writes_ris_and_csl_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b", "E")
        await pilot.pause()
        app.screen.query_one("#export-format", Select).value = "ris"
        await pilot.pause()
        app.screen.query_one("#export-path", Input).value = "mine"
        await pilot.press("ctrl+s")
        await settle(pilot)
        (record,) = rispy.loads((tmp_path / "mine.ris").read_text("utf-8"))
        assert record["title"] and record["abstract"]
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#export-format", Select).value = "csl-json"
        await pilot.pause()
        assert app.screen.query_one("#export-path", Input).value.endswith(".json")
        app.screen.query_one("#export-path", Input).value = "zotero"
        await pilot.press("ctrl+s")
        await settle(pilot)
        (item,) = json.loads((tmp_path / "zotero.json").read_text("utf-8"))
        assert item["title"] == record["title"]
