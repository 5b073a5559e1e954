"""The list follows the cursor: after every way of moving, the rendered screen shows the cursor's
row highlighted, the detail pane shows its paper and the status line gives its row number.

Every assertion reads the painted cells (`invariants.problems`), at three terminal sizes. One
reader a size goes through every move, back at the top (`g`) before each."""

from __future__ import annotations

import pytest
from textual import events

from papertui.ui.widgets.paper_list import PaperList

from invariants import look, problems
from pressing import keys_then_settle
from rendered import screen_of, svg_screen_of
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
async def test_the_cursor_row_is_on_screen_after_every_move(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for name, keys, row in MOVES:
            await keys_then_settle(pilot, "g")
            await keys_then_settle(pilot, *keys)
            assert problems(app) == [], (name, screen_of(app).dump())
            seen = look(app)
            if row is not None:
                assert seen.status_row == row, (name, seen.status)
            assert seen.cursor_row is not None, name
        await keys_then_settle(pilot, "g")
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


async def test_the_screen_read_is_the_screenshot_read():
    """`screen_of` reads the compositor's cells; Textual's SVG screenshot says the same."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await keys_then_settle(pilot, *"45G")
        fast, svg = screen_of(app), svg_screen_of(app)
        assert fast.rows == svg.rows
        plist = app.reader.query_one(PaperList)
        region = plist.content_region
        lit = [
            y
            for y in range(region.y, region.bottom)
            if fast.bg[y][region.x + 1] != fast.bg[region.bottom - 1][region.x + 1]
        ]
        assert lit and all(
            svg.bg[y][region.x + 1] != svg.bg[region.bottom - 1][region.x + 1] for y in lit
        )


async def test_the_cursor_keeps_rows_of_context_around_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        height = app.reader.query_one(PaperList).content_region.height
        await keys_then_settle(pilot, *["j"] * (height + 5))
        seen = look(app)
        assert seen.cursor_row is not None
        assert 3 <= seen.cursor_row <= height - 4, seen  # three rows below it stay in sight
        await keys_then_settle(pilot, *["k"] * 6)
        assert look(app).cursor_row >= 3
        # a click puts the cursor on the row clicked
        await keys_then_settle(pilot, *["j"] * 60)
        before = look(app)
        await pilot.click(app.reader.query_one(PaperList), offset=(10, 5))
        await settle(pilot)
        assert problems(app) == []
        after = look(app)
        assert after.status_row != before.status_row
        assert after.cursor_row == 5


async def test_a_resize_keeps_the_cursor_on_screen():
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await keys_then_settle(pilot, "1", "1", "0", "G")
        for size in [(120, 40), (200, 60), (80, 24), (200, 60)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert problems(app) == [], size
            assert look(app).status_row == 110, size


async def test_enter_from_a_search_and_a_change_of_order_keep_the_cursor_on_screen():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await keys_then_settle(pilot, "G", "slash", *"graph", "enter")
        assert problems(app) == []
        await keys_then_settle(pilot, *["j"] * 30)
        assert problems(app) == []
        assert look(app).status_row == 31
        await keys_then_settle(pilot, "escape", "8", "0", "G")
        for _ in range(4):
            await keys_then_settle(pilot, "s")
            assert problems(app) == []


LAYERS = [  # a search last: it leaves a query chosen
    ("more like this", ["m"], ["escape"]),
    ("bookmarks only", ["b", "B"], ["escape"]),
    ("bookmarks only, off with B", ["b", "B"], ["B"]),
    ("a search typed and cleared", ["slash", *"graph"], ["escape"]),
    ("a search", ["slash", *"graph", "enter", "j", "j"], ["escape"]),
]


async def test_leaving_a_layer_lands_on_the_paper_and_row_left():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for name, into, out in LAYERS:
            await keys_then_settle(pilot, "1", "0", "0", "G")
            before = look(app)
            assert before.status_row == 100, name
            await keys_then_settle(pilot, *into)
            await keys_then_settle(pilot, *out)
            after = look(app)
            assert problems(app) == [], name
            if name == "a search":  # a result was chosen there: clearing the query stays on it
                continue
            assert (after.status_row, after.cursor_row) == (before.status_row, before.cursor_row), (
                name
            )
