"""Every workflow feature from the keyboard, through Pilot."""

from __future__ import annotations

import bibtexparser
from textual.widgets import Input, OptionList, Select, Static

import papertui.ui.widgets.detail as detail_module
from papertui.ui.looks import row_look
from papertui.ui.screens.collections import CollectionsScreen
from papertui.ui.screens.export import ExportScreen
from papertui.ui.screens.help import HelpScreen
from papertui.ui.screens.tags import TagScreen
from papertui.ui.widgets.detail import DetailPane

from ui_support import SIZE, make_app, settle, toasts


def status(app) -> str:
    return str(app.query_one("#status", Static).render())


def detail(app) -> str:
    return app.reader.detail.shown_text


async def search(pilot, text: str) -> None:
    pilot.app.reader.search_bar.value = text
    await settle(pilot)


async def test_a_paper_shown_for_a_moment_becomes_read_and_u_toggles(monkeypatch):
    monkeypatch.setattr(detail_module, "READ_AFTER", 0.05)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert row_look(app.library, 1).unread  # not shown yet
        await pilot.press("j")
        await pilot.pause(0.2)
        second = app.reader.current_paper
        assert app.library.marks.is_read(second) and not row_look(app.library, 1).unread
        await pilot.press("u")
        assert not app.library.marks.is_read(second)
        await pilot.press("u")
        await search(pilot, "is:read")
        assert 1 in app.reader.paper_list.rows and 5 not in app.reader.paper_list.rows
        await search(pilot, "is:unread")
        assert 1 not in app.reader.paper_list.rows and 5 in app.reader.paper_list.rows


async def test_tags_with_completion_filter_and_batch(monkeypatch):
    monkeypatch.setattr(detail_module, "READ_AFTER", 60)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TagScreen)
        await pilot.press(*"reading-group", "enter", "escape")
        assert app.library.marks.tags_of(app.reader.current_paper) == ["reading-group"]
        assert "#reading-group" in detail(app) and "#reading-group" in row_look(app.library, 0).tags
        await pilot.press("j", "space", "space", "t")  # select two more papers, tag them
        await pilot.pause()
        assert isinstance(app.screen, TagScreen) and "2 selected papers" in app.screen.what
        suggester = app.screen.query_one(Input).suggester
        assert await suggester.get_suggestion("read") == "reading-group"  # completion
        await pilot.press(*"reading-group", "enter", "escape")
        await search(pilot, "tag:reading-group")
        assert app.reader.paper_list.rows == [0, 1, 2]


async def test_space_selects_and_b_bookmarks_the_selection_esc_clears_it():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "space", "space")
        assert app.reader.paper_list.selected == {0, 1, 2} and "3 selected" in status(app)
        assert app.reader.paper_list.render_line(0).text.startswith("●")
        await pilot.press("b")
        assert all(app.library.marks.is_bookmarked(app.library.papers[i]) for i in range(3))
        await pilot.press("escape")
        assert app.reader.paper_list.selected == set()


async def test_a_search_that_hides_selected_papers_says_it_unselected_them():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b", "space", "space")  # bookmark the first; select the first two
        await search(pilot, "is:bookmarked")
        assert app.reader.paper_list.rows == [0] and "1 selected" in status(app)
        said = toasts(app)
        assert "Unselected 1: the selected paper is not in this list." in said


async def test_sort_cycles():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # with no query nothing is ranked: the order that applies is the file's
        assert "order: file order (s)" in status(app) and "best match" not in status(app)
        await search(pilot, "graph")
        assert "order: best match (s)" in status(app)
        await search(pilot, "zzqqxxjj")  # nothing found: the order asked for is still said
        assert "order: best match (s)" in status(app)
        await search(pilot, "")
        assert "order: file order (s)" in status(app)
        await pilot.press("s")  # file order, chosen
        await settle(pilot)
        assert "order: file order (s)" in status(app)
        await pilot.press("s")  # title
        await settle(pilot)
        titles = [app.library.papers[i].title.casefold() for i in app.reader.paper_list.rows]
        assert titles == sorted(titles) and "order: title A-Z (s)" in status(app)
        papers = app.library.papers
        app.library.marks.set_bookmark(papers[5], True)
        app.library.marks.set_note(papers[9], "later")  # noted after the bookmark: first
        app.library.marks.set_note(papers[20], "gone")
        app.library.marks.set_note(papers[20], "")  # a deleted note does not count as recent
        await pilot.press("s")  # recent
        await settle(pilot)
        assert app.reader.paper_list.rows[:2] == [9, 5]
        assert app.reader.paper_list.rows[2:5] == [0, 1, 2]  # the rest in corpus order
        assert "order: recently bookmarked or noted (s)" in status(app)
        await pilot.press("s", "s")  # for you, then back to relevance
        await settle(pilot)
        assert app.reader.sort == "relevance"


async def test_more_like_this_and_like_bookmarks_and_esc_back():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await search(pilot, "caligcl")
        await pilot.press("m")
        await settle(pilot)
        assert len(app.reader.paper_list.rows) > 5 and "papers like 'CaliGCL" in status(app)
        await pilot.press("escape")  # peels the similar view: back to the results
        await settle(pilot)
        assert app.reader.search_bar.value == "caligcl" and "papers like" not in status(app)
        assert len(app.reader.paper_list.rows) == len(app.library.run_query("caligcl").indices)
        await pilot.press("escape")  # then the query
        await settle(pilot)
        assert len(app.reader.paper_list.rows) == 139
        await pilot.press("b", "M")
        await settle(pilot)
        assert "papers like your bookmarks" in status(app) and app.reader.paper_list.rows


async def test_collections_view_counts_and_narrows(monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 3600)  # all stay unread
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b", "C")
        await pilot.pause()
        assert isinstance(app.screen, CollectionsScreen)
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any(
            "[ ] Daily Papers" in lab and "120 papers · 120 unread · 1 ★" in lab for lab in labels
        )
        neurips = next(i for i, lab in enumerate(labels) if "NeurIPS" in lab)
        options.highlighted = neurips
        await pilot.press("space")
        chosen = str(options.get_option_at_index(neurips).prompt)
        assert chosen.startswith("[x] NeurIPS")  # readable without colour
        await pilot.press("enter")
        await settle(pilot)
        assert len(app.reader.paper_list.rows) == 19 and "in NeurIPS" in status(app)
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.reader.paper_list.rows) == 139


async def test_readable_math_raw_toggle_and_hit_jumps(write_corpus):
    body = " ".join(f"filler sentence number {i} about nothing." for i in range(120))
    path = write_corpus(
        f"M\n\nWe bound it by $\\mathcal{{O}}(n^2)$ with 92\\% ***certainty***. {body} "
        f"The kernel appears here. {body} And the kernel once more."
    )
    app = make_app([path])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "𝒪(n²)" in detail(app) and "92%" in detail(app)
        await pilot.press("r")
        assert "$\\mathcal{O}(n^2)$" in detail(app) and "***certainty***" in detail(app)
        await pilot.press("r")
        await search(pilot, "kernel")
        await pilot.press("enter", "right_square_bracket")
        await settle(pilot)  # the jump scrolls on the next refresh: under load, later
        pane = app.query_one(DetailPane)
        first = pane.scroll_y
        assert first > 5
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert pane.scroll_y > first
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert pane.scroll_y == first


async def test_hit_jumps_go_on_after_the_paper_is_marked_read(write_corpus):
    # marking the paper read repaints it in place; the next ] goes on from where ] left off
    body = " ".join(f"filler sentence number {i} about nothing." for i in range(120))
    path = write_corpus(f"M\n\nOpening line. {body} The kernel here. {body} The kernel again.")
    app = make_app([path])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await search(pilot, "kernel")
        await pilot.press("enter", "right_square_bracket")
        await settle(pilot)
        pane = app.query_one(DetailPane)
        first = pane.scroll_y
        await pilot.press("u")  # read
        await settle(pilot)
        assert pane.scroll_y == first
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert pane.scroll_y > first


async def test_export_screen_writes_bibtex_of_the_selection(tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "space", "E")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        app.screen.query_one("#export-what", Select).value = "selection"
        target = tmp_path / "picked.bib"
        app.screen.query_one("#export-path", Input).value = str(target)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, ExportScreen)
        entries = bibtexparser.parse_string(target.read_text("utf-8")).entries
        unbraced = [e.fields_dict["title"].value.replace("{", "").replace("}", "") for e in entries]
        assert unbraced == [
            app.library.papers[0].title,
            app.library.papers[1].title,
        ]


async def _export_box(pilot, typed: str) -> Input:
    """The export dialog's file name box, opened on a bookmark, holding `typed`."""
    await settle(pilot)
    await pilot.press("b", "E")  # something to export
    await pilot.pause()
    box = pilot.app.screen.query_one("#export-path", Input)
    box.focus()
    box.value = typed
    return box


async def test_export_file_name_completes_with_tab(tmp_path):
    (tmp_path / "reading-lists").mkdir()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box = await _export_box(pilot, str(tmp_path / "read"))
        await pilot.press("tab")
        assert box.value == str(tmp_path / "reading-lists") + "/" and box.has_focus
        await pilot.press(*"mine.bib", "enter")
        await pilot.pause()
        assert (tmp_path / "reading-lists" / "mine.bib").is_file()


async def test_a_second_tab_on_an_ambiguous_path_lists_it_and_keeps_the_box(tmp_path):
    (tmp_path / "sub-dir").mkdir()
    (tmp_path / "subway").mkdir()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box = await _export_box(pilot, str(tmp_path / "s"))
        await pilot.press("tab")
        assert box.value == str(tmp_path / "sub") and box.has_focus
        await pilot.press("tab")
        assert box.has_focus and box.value == str(tmp_path / "sub")
        assert "sub-dir/   subway/" in toasts(app)
        await pilot.press(*"way/x.bib", "enter")
        await pilot.pause()
        assert (tmp_path / "subway" / "x.bib").is_file()


async def test_help_and_palette_list_the_workflow_keys():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        body = str(app.screen.query_one("#help-body", Static).render())
        assert isinstance(app.screen, HelpScreen)
        for words in (
            "Mark read",
            "Add or remove a tag",
            "More like this",
            "Collections",
            "Raw text",
            "Export",
            "tag:",
            "is:new",
        ):
            assert words in body, words
        await pilot.press("escape")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "More like this paper" in titles and "Mark read / unread" in titles


async def test_settings_theme_keys_and_bad_values(monkeypatch):
    from papertui.core.system.settings import load_settings, settings_path

    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text('theme = "nord"\n[keys]\ntoggle_bookmark = "x"\nfoo = "y"\n')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "nord"
        assert any("unknown action 'foo'" in t for t in toasts(app))
        await pilot.press("x")
        assert app.library.marks.is_bookmarked(app.reader.current_paper)
        app.theme = "gruvbox"
        await pilot.pause()
    assert load_settings().theme == "gruvbox"
    settings_path().write_text('theme = "no-such-theme"\n')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme != "no-such-theme"
        assert any("unknown theme" in t for t in toasts(app))


async def test_vim_counts_move_the_cursor_and_the_status_shows_the_row():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        plist = app.reader.paper_list
        assert f"row 1/{len(plist.rows)}" in status(app)
        await pilot.press("5", "j")
        assert plist.cursor == 5 and f"row 6/{len(plist.rows)}" in status(app)
        await pilot.press("2", "k")
        assert plist.cursor == 3
        await pilot.press("1", "2")
        assert status(app).endswith(" · 12…")  # the count waits for its move, as in vim
        await pilot.press("G")
        assert plist.cursor == 11 and "…" not in status(app)
        await pilot.press("G")
        assert plist.cursor == len(plist.rows) - 1
        await pilot.press("3", "g")
        assert plist.cursor == 2
        await pilot.press("0", "j")  # a lone 0 is no count
        assert plist.cursor == 3
        await pilot.press("7", "b", "j")  # a count is used by the next key or dropped
        assert plist.cursor == 4
        assert app.library.marks.is_bookmarked(app.library.papers[plist.rows[3]])
        await pilot.press("9", "9", "9", "9", "j")  # past the end: the last row
        assert plist.cursor == len(plist.rows) - 1
        await pilot.press("slash", "4", "2")
        assert app.reader.search_bar.value == "42"  # digits typed in the box stay text
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("3", "slash")  # a count left behind by "/" is dropped, and said so
        await settle(pilot)
        assert "…" not in status(app)
        await pilot.press("escape")
        await settle(pilot)
        before = plist.cursor  # back on the last row, where the search began
        assert before == len(plist.rows) - 1
        await pilot.press("k")  # one row: the 3 was dropped
        assert plist.cursor == before - 1


async def test_v_selects_every_paper_in_the_list_and_again_unselects_them():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await search(pilot, "graph")
        shown = list(app.reader.paper_list.rows)
        assert 1 < len(shown) < len(app.library.papers)
        await pilot.press("v")
        assert app.reader.paper_list.selected == set(shown)
        assert f"{len(shown)} selected" in status(app)
        await pilot.press("v")
        assert app.reader.paper_list.selected == set()


async def test_v_selects_every_hit_when_the_list_holds_only_the_best(write_corpus):
    """A trial: `/reinforcement`, v, b bookmarked 100 papers of 349 hits, the best 100 the
    list held. v ranks every hit and selects them all."""
    words = "graph spectral kernel learning method data model results"
    text = "\n\n".join(f"Paper {i} on graph theory: {words} {i}." for i in range(150))
    app = make_app([write_corpus("Graphs\n\n" + text + "\n", "graphs.txt")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await search(pilot, "graph")
        plist = app.reader.paper_list
        assert len(plist.rows) == 100 and app.reader.view.truncated
        assert "row 1 of the best 100 of 150 matches (more as you scroll)" in status(app)
        await pilot.press("v")
        await settle(pilot)
        assert len(plist.rows) == 150 and plist.selected == set(plist.rows)
        assert "150 selected" in status(app)
        await pilot.press("v")
        assert plist.selected == set()
