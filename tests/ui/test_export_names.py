"""The export dialog adds the format's extension to a name that has none of ours, dots or not."""

from __future__ import annotations

from textual.widgets import Input, Select

from papertui.core.export.names import swap_extension, with_extension

from ui_support import SIZE, make_app, settle


def test_a_dot_in_a_name_is_no_extension_unless_it_is_an_export_format():
    assert with_extension("notes on OT v2.1", "bibtex") == "notes on OT v2.1.bib"
    assert with_extension("reading.list", "markdown") == "reading.list.md"
    assert with_extension("mine.json", "bibtex") == "mine.json"  # the user's choice stands
    assert with_extension("dir.v2/papers", "csv") == "dir.v2/papers.csv"
    assert swap_extension("notes v2.1.bib", "csv") == "notes v2.1.csv"
    assert swap_extension("notes v2.1", "csv") == "notes v2.1.csv"


async def test_export_dialog_writes_a_dotted_name_with_the_format_extension(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b", "E")
        await pilot.pause()
        app.screen.query_one("#export-format", Select).value = "csv"
        await pilot.pause()
        app.screen.query_one("#export-path", Input).value = "notes on OT v2"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert (tmp_path / "notes on OT v2.csv").read_text("utf-8").startswith("id,")
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#export-path", Input).value = "week 49.2026"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert (tmp_path / "week 49.2026.bib").read_text("utf-8").startswith("@")
