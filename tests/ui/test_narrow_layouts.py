"""At 80x24, the smallest terminal people keep, every dialog says all its keys and the
overview shows its topics."""

from __future__ import annotations

import re

import pytest

from ui_support import make_app, screen_lines, settle, steady

NARROW = (80, 24)


def said(app) -> list[str]:
    """The screen's rows with runs of spaces made one (the screenshot drops some)."""
    return [" ".join(line.split()) for line in screen_lines(app)]


@pytest.mark.parametrize(
    ("key", "action", "close"), [("E", "export", "Esc close"), ("n", "save", "Esc cancel")]
)
async def test_the_export_and_note_dialogs_show_their_whole_footer(key, action, close):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await steady(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert any(action in row and close in row for row in said(app)), said(app)


async def test_the_typo_notice_stays_on_the_status_line():
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await steady(pilot)
        await pilot.press("slash", *"optmal transprt", "enter")
        await steady(pilot)
        assert any("searched optmal→optimal" in row for row in said(app)), said(app)


async def test_the_overview_shows_most_of_its_topics():
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await steady(pilot)
        await pilot.press("O")
        for _ in range(600):  # the topics are computed in the background on first use
            await settle(pilot)
            if any(row.startswith("Topics") for row in (r.strip("█▊▎ ") for r in said(app))):
                break
            await pilot.pause(0.05)
        numbers = {n for row in said(app) for n in re.findall(r"(?<![\d.])(\d+)\. [a-zA-Z]", row)}
        assert len(numbers) >= 7, said(app)  # of the bundled corpus' 8
