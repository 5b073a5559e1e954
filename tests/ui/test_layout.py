"""The room to read titles: the split between list and detail, list-only, the collection column,
and that the layout is remembered in the settings for the next start."""

from __future__ import annotations

import tomllib

from rich.cells import cell_len

from papertui.core.system.settings import settings_path
from papertui.ui.widgets.paper_list import PaperList, short_labels

from ui_support import make_app, settle


def list_width(app) -> int:  # type: ignore[no-untyped-def]
    return app.screen.query_one(PaperList).outer_size.width


def row_text(app, y: int = 0) -> str:  # type: ignore[no-untyped-def]
    return app.screen.query_one(PaperList).render_line(y).text


def saved() -> dict[str, object]:
    return tomllib.loads(settings_path().read_text("utf-8"))


def two_collections(write_corpus):  # type: ignore[no-untyped-def]
    body = "\n\n".join(
        f"We propose method number {i} for graph learning with {w} nodes and careful analysis."
        for i, w in enumerate(["many", "few", "weighted", "typed"])
    )
    return [
        write_corpus(body, "alpha.txt"),
        write_corpus(body.replace("graph", "text"), "beta.txt"),
    ]


async def test_narrow_and_widen_move_the_split_and_are_remembered(write_corpus) -> None:
    app = make_app(two_collections(write_corpus))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        start = list_width(app)
        await pilot.press("less_than_sign", "less_than_sign")
        await pilot.pause()
        narrower = list_width(app)
        assert narrower < start - 6  # two steps of 5% of 120 columns
        await pilot.press("greater_than_sign")
        await pilot.pause()
        widened = list_width(app)
        assert narrower < widened < start
    assert saved()["list_width"] == 61

    again = make_app(two_collections(write_corpus))
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert list_width(again) == widened


async def test_split_stops_at_its_limits(write_corpus) -> None:
    app = make_app(two_collections(write_corpus))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(20):
            await pilot.press("greater_than_sign")
        await pilot.pause()
        assert saved()["list_width"] == 90
        assert app.screen.detail.display  # the detail pane keeps a tenth of the width
        for _ in range(20):
            await pilot.press("less_than_sign")
        await pilot.pause()
        assert saved()["list_width"] == 20


async def test_z_gives_the_list_the_whole_width_and_back(write_corpus) -> None:
    app = make_app(two_collections(write_corpus))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        split = list_width(app)
        await pilot.press("z")
        await pilot.pause()
        assert list_width(app) == 120
        assert not app.screen.detail.display
        assert saved()["list_only"] is True
        await pilot.press("z")
        await pilot.pause()
        assert list_width(app) == split
        assert app.screen.detail.display
        await pilot.press("z")
    assert saved()["list_only"] is True

    again = make_app(two_collections(write_corpus))
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert list_width(again) == 120  # remembered for the next start
        await pilot.press("less_than_sign")  # changing the split brings the detail back
        await pilot.pause()
        assert again.screen.detail.display
        assert list_width(again) < 120


async def test_bundled_list_shows_sixty_columns_of_title_at_120_columns() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        papers = app.library.corpus.papers
        rows = app.screen.query_one(PaperList).rows
        visible = [(y, papers[pos].title) for y, pos in enumerate(rows[:20])]
        long = [(y, title) for y, title in visible if len(title) >= 60]
        assert long, "the bundled list has long titles on its first screen"
        for y, title in long:  # at least 60 characters before any "…" (59 before)
            assert title[:60] in row_text(app, y)


async def test_collection_column_only_when_collections_are_mixed(write_corpus) -> None:
    one = [write_corpus("We propose a graph method.\n\nWe study text models.\n", "only.txt")]
    app = make_app(one)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "only" not in row_text(app, 0)

    app = make_app(two_collections(write_corpus))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        rows = len(app.screen.query_one(PaperList).rows)
        assert rows == 8
        labels = {row_text(app, y).split()[-1] for y in range(rows)}
        assert labels == {"alpha", "beta"}


def test_collection_labels_tell_years_and_versions_apart() -> None:
    """A trial opened neurips2021.txt and neurips2023.txt and saw "neurips202" and
    "neurips203": the year is what tells them apart, so it always survives the cut."""

    def labels(*names: str) -> list[str]:
        got = short_labels(list(names))
        return [got[n].strip() for n in names]

    assert labels("neurips2021", "neurips2023") == ["neurips21", "neurips23"]
    assert labels("NeurIPS 2025 paper list", "Daily Papers") == ["NeurIPS25", "Daily"]
    assert labels("daily-2025-11-30", "daily-2025-12-01") == ["dail251130", "dail251201"]
    assert labels("iclr-main", "iclr-workshop") == ["iclrm", "iclrw"]
    assert labels("proceedings-vol1", "proceedings-vol2") == ["proceedin1", "proceedin2"]
    many = labels(*(f"conference-proceedings-{y}" for y in range(1990, 2030)))
    assert len(set(many)) == 40 and all(len(x) <= 10 for x in many)
    # a review: the count overwrote a date's last digit, and a category's initial was cut
    days = [f"daily-2025-12-0{d}-{c}" for d in range(1, 4) for c in ("cs", "math")]
    assert labels(*days) == [f"dai{c}25120{d}" for d in range(1, 4) for c in "cm"]
    assert labels("icml 1925", "icml 2025") == ["icml1925", "icml2025"]
    # cut and padded by cells: a wide character takes two
    wide = short_labels(["中文论文集合 2021", "abc 2022"])
    assert {cell_len(v) for v in wide.values()} == {10}


async def test_panes_stack_at_80_columns(write_corpus) -> None:
    app = make_app(two_collections(write_corpus))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert list_width(app) == 80
        assert app.screen.detail.display
        assert app.screen.detail.region.y > app.screen.query_one(PaperList).region.y


async def test_enter_reads_the_paper_and_esc_comes_back_even_in_list_only_mode():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        reader = app.reader
        await pilot.press("z")  # list only
        await pilot.pause()
        assert not reader.detail.display
        await pilot.press("j", "enter")
        await pilot.pause()
        assert reader.detail.display and reader.detail.has_focus  # the paper, to read
        assert reader.paper_list.cursor == 1
        await pilot.press("escape")
        await pilot.pause()
        assert not reader.detail.display and reader.paper_list.has_focus  # list only again
        await pilot.press("z", "enter", "escape")  # split: Enter reads, Esc only comes back
        await pilot.pause()
        assert reader.detail.display and reader.paper_list.has_focus


async def test_the_order_is_remembered_across_a_restart():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("s", "s")  # best match -> file order -> title A-Z
        await settle(pilot)
        assert app.reader.sort == "title"
    again = make_app()
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        reader = again.reader
        assert reader.sort == "title"
        assert "order: title A-Z" in str(reader.query_one("#status").render())
        titles = [again.library.papers[i].title.casefold() for i in reader.paper_list.rows[:20]]
        assert titles == sorted(titles)


async def test_a_long_status_line_drops_whole_parts_at_80_columns() -> None:
    from papertui.ui.widgets.status import ListState, StatusLine

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = app.screen.query_one(StatusLine)
        line.state = ListState(
            total=23478,
            shown=50,
            filtered=True,
            layers=("bookmarks only",),
            sort="for you",
            notes=("learned from 40 kept, 16 passed over",),
            position=12,
        )
        line.index_state = "topics: computing 40%"
        await pilot.pause()
        shown = str(line.render())
        assert len(shown) <= 80
        # where the cursor is stays, with the count (a trial missed it at 80 columns)
        assert shown.startswith("row 12/50 of 23478 · bookmarks only · ")
        # the order in force is always named: its label goes only when the line is too short
        assert {"order: for you", "for you"} & set(shown.split(" · ")), shown
        assert all(part in shown for part in shown.split(" · "))
        assert not shown.endswith(("·", "(s"))


async def test_the_cursor_blinks_unless_the_settings_say_not(monkeypatch) -> None:
    from textual.widgets import Input

    from papertui.core.system import settings
    from papertui.ui import app as app_module

    monkeypatch.setattr(app_module, "load_settings", settings.load_settings)  # as users have it
    for text, blinks in [("", True), ("cursor_blink = false\n", False)]:
        settings_path().parent.mkdir(parents=True, exist_ok=True)
        settings_path().write_text(text, encoding="utf-8")
        app = make_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("slash")
            await pilot.pause()
            box = app.focused
            assert isinstance(box, Input) and box.cursor_blink is blinks


async def test_results_scanned_while_indexing_say_they_are_partial() -> None:
    from papertui.core.query.planner import SCANNED
    from papertui.ui.widgets.status import ListState, StatusLine

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        line = app.screen.query_one(StatusLine)
        line.state = ListState(total=3000, shown=40, filtered=True, notes=(SCANNED,), position=1)
        line.index_state = "indexing 64%"
        await pilot.pause()
        shown = str(line.render())
        assert "partial: indexing 64%" in shown and SCANNED not in shown
        line.index_state = ""  # built: the list is asked for again, with no scan note
        line.state = ListState(total=3000, shown=40, filtered=True, position=1)
        await pilot.pause()
        assert "partial" not in str(line.render())


async def test_the_keys_at_the_foot_follow_the_focus_and_a_click_presses_one():
    from papertui.ui.widgets.key_hints import KeyHints

    from ui_support import screen_lines

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        foot = screen_lines(app)[-1]
        assert " / Search  b Bookmark " in foot and foot.rstrip().endswith("^p palette")
        await pilot.press("slash")  # typed keys go to the box: no reader key is offered
        await settle(pilot)
        assert "Bookmark" not in screen_lines(app)[-1]
        await pilot.press("escape")
        await settle(pilot)
        foot = screen_lines(app)[-1]
        assert "b Bookmark" in foot
        await pilot.click(KeyHints, offset=(foot.index("b Bookmark"), 0))
        await settle(pilot)
        assert app.library.marks.is_bookmarked(app.reader.current_paper)
