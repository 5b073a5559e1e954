"""SVG snapshots of every screen: main, a search, help and the note editor."""

from __future__ import annotations

from textual.widgets import Input, TextArea

from ui_support import SIZE, make_app, settle


async def _steady(pilot) -> None:
    for widget in pilot.app.query(Input):
        widget.cursor_blink = False
    await settle(pilot)


def _before(*keys: str):
    async def run_before(pilot) -> None:
        await _steady(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        for area in pilot.app.screen.query(TextArea):
            area.cursor_blink = False
        await pilot.pause()

    return run_before


def test_main_screen(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before())


def test_search_results(snap_compare):
    keys = ["slash", *"grph", "space", *"contrastive", "enter"]
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before(*keys))


def test_help_screen(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before("question_mark"))


def test_note_editor(snap_compare):
    keys = ["j", "n", *"Compare", "space", *"with", "space", *"SEGA"]
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before(*keys))


def test_narrow_terminal(snap_compare):
    assert snap_compare(make_app(), terminal_size=(60, 24), run_before=_before("j"))
