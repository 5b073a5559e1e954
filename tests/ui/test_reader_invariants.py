"""The reader's promises about the paper under the cursor: a background result never moves it
from under the reader, an answer moves on to the next paper, and one rule says when a paper is
read (shown a moment with the list or the detail pane focused; never while typing a query)."""

from __future__ import annotations

from papertui.ui.messages import IndexReady, SemanticReady

from ui_support import SIZE, make_app, settle


async def type_query(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("slash", *text)
    await settle(pilot)


async def test_b_in_for_you_during_a_search_keeps_the_paper_on_its_row(monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 3600)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.reader.change(sort="foryou")
        await settle(pilot)
        await type_query(pilot, "graph")
        await pilot.press("enter")
        await settle(pilot)
        plist = app.reader.paper_list
        for row in (0, 3):
            await pilot.press(*["j"] * (row - plist.cursor))
            await settle(pilot)
            paper = plist.position
            second = plist.rows[row + 1]
            await pilot.press("b")  # "for you" learns from it at once: the rest reorders
            await settle(pilot)
            assert plist.cursor == row and plist.position == paper
            assert app.library.marks.is_bookmarked(app.library.papers[paper])
            await pilot.press("j")  # the next paper is one the reader sees now, on the next row
            await settle(pilot)
            assert plist.cursor == row + 1 and plist.position == plist.rows[row + 1]
            assert plist.position != paper and second in plist.rows


async def test_a_background_result_leaves_the_reader_on_their_paper(monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 3600)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.reader.change(sort="foryou")
        await settle(pilot)
        plist = app.reader.paper_list
        await pilot.press(*["j"] * 7)
        await settle(pilot)
        paper = plist.position
        for message in (IndexReady(), SemanticReady(), IndexReady()):
            app.reader.post_message(message)  # the order is computed again behind the reader
            await settle(pilot)
            assert plist.position == paper


async def test_an_answer_moves_on_to_the_next_paper(monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 3600)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        plist = app.reader.paper_list
        await pilot.press("j", "j")
        nxt = plist.rows[3]
        await pilot.press("plus")  # file order: the next row
        await settle(pilot)
        assert plist.cursor == 3 and plist.position == nxt
        app.reader.change(sort="foryou")
        await settle(pilot)
        await pilot.press("j", "j")
        await settle(pilot)
        answered, passed = plist.position, set(plist.rows[:2])
        await pilot.press("minus")  # "for you": the first paper of the new order not passed
        await settle(pilot)
        assert plist.position != answered and plist.position not in passed
        assert set(plist.rows[: plist.cursor]) <= passed  # only passed papers above it


async def test_the_first_paper_on_screen_becomes_read(monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 0.2)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(0.5)
        assert app.library.marks.is_read(app.library.papers[0])


async def test_the_top_hit_after_enter_in_the_search_box_becomes_read(monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 0.2)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "transport")
        top = app.reader.current_paper
        await pilot.pause(0.5)  # typed, the box focused: not read
        assert top is not None and not app.library.marks.is_read(top)
        await pilot.press("enter")
        await pilot.pause(0.5)
        assert app.reader.current_paper is top and app.library.marks.is_read(top)
