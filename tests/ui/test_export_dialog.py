"""The export dialog: every format with its extension (RIS and CSL-JSON included), and a name
that has none of ours, dots or not, gets the format's extension."""

from __future__ import annotations

import json

import rispy
from textual.widgets import Input, Select
from textual.widgets._select import SelectOverlay

from papertui.core.export.names import swap_extension, with_extension

from ui_support import SIZE, make_app, settle


async def export(pilot, name: str, fmt: str | None = None) -> None:
    """E, the format chosen (else the one offered), the file named, ctrl+s."""
    await pilot.press("E")
    await pilot.pause()
    screen = pilot.app.screen
    if fmt is not None:
        screen.query_one("#export-format", Select).value = fmt
        await pilot.pause()
    screen.query_one("#export-path", Input).value = name
    await pilot.press("ctrl+s")
    await settle(pilot)


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
        await pilot.press("b")
        await export(pilot, "notes on OT v2", "csv")
        assert (tmp_path / "notes on OT v2.csv").read_text("utf-8").startswith("id,")
        await export(pilot, "week 49.2026")  # the format offered again: BibTeX
        assert (tmp_path / "week 49.2026.bib").read_text("utf-8").startswith("@")


async def test_export_dialog_writes_ris_and_csl_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await export(pilot, "mine", "ris")
        (record,) = rispy.loads((tmp_path / "mine.ris").read_text("utf-8"))
        assert record["title"] and record["abstract"]
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#export-format", Select).value = "csl-json"
        await pilot.pause()
        assert app.screen.query_one("#export-path", Input).value.endswith(".json")
        await pilot.press("escape")
        await pilot.pause()
        await export(pilot, "zotero", "csl-json")
        (item,) = json.loads((tmp_path / "zotero.json").read_text("utf-8"))
        assert item["title"] == record["title"]


async def test_page_keys_pressed_as_a_list_opens_do_not_crash(tmp_path, monkeypatch):
    # PageDown reaching a list that has not been laid out yet (it opens, the key is already
    # queued): Textual looked the highlight up among lines it had not built (KeyError) and the
    # reader died; a seeded random-key run in a terminal found it
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await pilot.pause()
        for select in app.screen.query(Select):
            overlay = select.query_one(SelectOverlay)  # closed: no lines built yet
            overlay.highlighted = 0
            overlay.action_page_down()
            overlay.action_page_up()
        await pilot.press("enter", "pagedown", "pageup", "enter")
        await settle(pilot)
        assert app.is_running
        assert app.screen.query_one("#export-what", Select).value is not None
