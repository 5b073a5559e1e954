"""The list follows the cursor: after every way of moving, the rendered screen shows the cursor's
row highlighted, the detail pane shows its paper and the status line gives its row number.

Every assertion reads the painted cells (`invariants.problems`), at three terminal sizes."""

from __future__ import annotations

import pytest
from textual import events

from papertui.ui.widgets.paper_list import PaperList

from invariants import look, problems
from ui_support import make_app, settle


async def wheel(pilot, widget, down: bool) -> None:  # type: ignore[no-untyped-def]
    """A notch of the mouse wheel over `widget`, as the terminal driver posts it."""
    region = widget.region
    x, y = region.x + 5, region.y + region.height // 2
    kind = events.MouseScrollDown if down else events.MouseScrollUp
    event = kind(None, x, y, 0, 1 if down else -1, 0, False, False, False, screen_x=x, screen_y=y)
    pilot.app.post_message(event)
    await pilot.pause()


SIZES = [(80, 24), (120, 40), (200, 60)]
MOVES = [
    ("j x40", ["j"] * 40, 41),
    ("12j", ["1", "2", "j"], 13),
    ("pagedown x2", ["pagedown", "pagedown"], None),
    ("G", ["G"], 139),
    ("100G", ["1", "0", "0", "G"], 100),
    ("120G", ["1", "2", "0", "G"], 120),
    ("end", ["end"], 139),
    ("G then g", ["G", "g"], 1),
    ("G then home", ["G", "home"], 1),
    ("G then pageup", ["G", "pageup"], None),
    ("G then k x5", ["G", *["k"] * 5], 134),
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("name", "keys", "row"), MOVES, ids=[m[0] for m in MOVES])
async def test_the_cursor_row_is_on_screen_after_moving(size, name, keys, row):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)
        assert problems(app) == [], name
        seen = look(app)
        if row is not None:
            assert seen.status_row == row, seen.status
        assert seen.cursor_row is not None


async def test_the_cursor_keeps_rows_of_context_around_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        height = app.reader.query_one(PaperList).content_region.height
        await pilot.press(*["j"] * (height + 5))
        await settle(pilot)
        seen = look(app)
        assert seen.cursor_row is not None
        assert 3 <= seen.cursor_row <= height - 4, seen  # three rows below it stay in sight
        await pilot.press(*["k"] * 6)
        await settle(pilot)
        assert look(app).cursor_row >= 3


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_mouse_wheel_brings_the_cursor_along(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        plist = app.reader.query_one(PaperList)
        for _ in range(15):
            await wheel(pilot, plist, down=True)
        await settle(pilot)
        assert problems(app) == []
        assert look(app).status_row > 1  # the rows moved, and the cursor with them
        for _ in range(30):
            await wheel(pilot, plist, down=False)
        await settle(pilot)
        assert problems(app) == []
        seen = look(app)
        assert seen.cursor_row == seen.status_row - 1  # back at the top: row n on screen row n


async def test_a_click_puts_the_cursor_on_the_row_clicked():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plist = app.reader.query_one(PaperList)
        await pilot.press(*["j"] * 60)
        await settle(pilot)
        before = look(app)
        await pilot.click(plist, offset=(10, 5))
        await settle(pilot)
        assert problems(app) == []
        after = look(app)
        assert after.status_row != before.status_row
        assert after.cursor_row == 5


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_a_resize_keeps_the_cursor_on_screen(size):
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("1", "1", "0", "G")
        await settle(pilot)
        await pilot.resize_terminal(*size)
        await settle(pilot)
        assert problems(app) == []
        assert look(app).status_row == 110
        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        assert problems(app) == []
        assert look(app).status_row == 110


async def test_enter_from_a_search_lands_on_a_visible_row():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("G")
        await pilot.press("slash", *"graph", "enter")
        await settle(pilot)
        assert problems(app) == []
        await pilot.press(*["j"] * 30)
        await settle(pilot)
        assert problems(app) == []
        assert look(app).status_row == 31


async def test_a_change_of_order_keeps_the_cursor_on_screen():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("8", "0", "G")
        await settle(pilot)
        for _ in range(4):
            await pilot.press("s")
            await settle(pilot)
            assert problems(app) == []


LAYERS = [
    ("more like this", ["m"], ["escape"]),
    ("bookmarks only", ["b", "B"], ["escape"]),
    ("bookmarks only, off with B", ["b", "B"], ["B"]),
    ("a search", ["slash", *"graph", "enter", "j", "j"], ["escape"]),
    ("a search typed and cleared", ["slash", *"graph"], ["escape"]),
]


@pytest.mark.parametrize(("name", "into", "out"), LAYERS, ids=[x[0] for x in LAYERS])
async def test_leaving_a_layer_lands_on_the_paper_and_row_left(name, into, out):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("1", "0", "0", "G")
        await settle(pilot)
        before = look(app)
        assert before.status_row == 100
        for key in into:
            await pilot.press(key)
            await settle(pilot)
        await pilot.press(*out)
        await settle(pilot)
        after = look(app)
        assert problems(app) == []
        if name == "a search":  # a result was chosen there: clearing the query stays on it
            return
        assert (after.status_row, after.cursor_row) == (before.status_row, before.cursor_row)
