"""SVG snapshots of every screen: main, a search, help and the note editor."""

from __future__ import annotations

import pytest

import papertui.ui.widgets.detail as detail_module

from ui_support import SIZE, make_app, settle, steady


@pytest.fixture(autouse=True)
def no_read_timer(monkeypatch):
    # a paper becomes read after a moment on screen: keep timing out of the pictures
    monkeypatch.setattr(detail_module, "READ_AFTER", 3600)


def _before(*keys: str):
    async def run_before(pilot) -> None:
        await steady(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        pilot.app.clear_notifications()  # toasts expire on a timer: keep them out
        for _ in range(100):  # a cleared toast leaves the screen with a refresh, not at once
            await pilot.pause(0.05)
            if not any(screen.query("Toast") for screen in pilot.app.screen_stack):
                break
        await settle(pilot)  # a screen pushed from a worker (the overview) lays out its plots
        await pilot.wait_for_scheduled_animations()
        # the overview's plots take their width from the laid-out screen, and a second layout
        # can follow: one more round, so no scroll corner from the first layout is captured
        await settle(pilot)
        await pilot.wait_for_scheduled_animations()
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


def test_tag_screen(snap_compare):
    keys = ["t", *"reading-group", "enter", *"gr"]
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before(*keys))


def test_collections_screen(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before("b", "C"))


def test_export_screen(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before("space", "E"))


def test_more_like_this_with_readable_math(snap_compare):
    keys = ["slash", *"caligcl", "enter", "m"]
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before(*keys))


def test_overview_screen(snap_compare):
    # on the second paper: the first one's text fills the detail pane to exactly its height,
    # and whether its scrollbar showed at the dialog's edge depended on timing
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before("j", "O"))


def test_topic_filter_from_the_overview(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before("O", "j", "enter"))


def test_for_you_order_after_likes(snap_compare):
    keys = ["plus", "plus", "minus", "s", "s", "s", "s"]
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_before(*keys))
