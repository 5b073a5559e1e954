"""Every keyboard flow of the reader, driven through Textual's Pilot."""

from __future__ import annotations

import json

from textual.command import CommandPalette
from textual.widgets import Static, TextArea

from papertui.core.query.view import View
from papertui.core.store import drafts
from papertui.ui.keys import APP_KEYS
from papertui.ui.messages import ViewReady
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.help import HelpScreen
from papertui.ui.screens.note_editor import NoteEditor
from papertui.ui.state import Placement
from papertui.ui.widgets.detail import DetailPane, render_paper
from papertui.ui.widgets.paper_list import PaperList
from papertui.ui.widgets.status import StatusLine

from ui_support import SIZE, FakeClipboard, make_app, settle, toasts


def detail_text(app) -> str:
    return app.reader.detail.shown_text


def status(app) -> str:
    return str(app.query_one("#status", Static).render())


def row_text(app, y: int) -> str:
    return app.query_one(PaperList).render_line(y).text


async def type_query(pilot, text: str) -> None:
    await pilot.press("slash")
    for ch in text:
        await pilot.press("space" if ch == " " else ch)
    await settle(pilot)


async def _on_row_50(pilot, app) -> tuple[PaperList, int | None]:  # type: ignore[no-untyped-def]
    """The bundled corpus at row 50 (`50G`): the list and the paper there."""
    await settle(pilot)
    plist = app.query_one(PaperList)
    await pilot.press("5", "0", "G")
    await settle(pilot)
    assert plist.cursor == 49
    return plist, plist.position


async def test_a_query_typed_and_erased_before_it_ran_keeps_the_readers_place(monkeypatch):
    """A query erased within the typing pause never ran: the reader stays on their paper
    (it sent them to row 1, seen as a flaky test on a loaded machine)."""
    monkeypatch.setattr("papertui.ui.widgets.search_bar.TYPING_PAUSE", 1.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        plist, before = await _on_row_50(pilot, app)
        await pilot.press("slash", "g", "r", "backspace", "backspace")
        await pilot.pause(1.5)
        await settle(pilot)
        assert len(plist.rows) == 139 and plist.position == before and plist.cursor == 49


async def test_opens_on_bundled_corpus_with_first_paper_shown():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        plist = app.query_one(PaperList)
        assert len(plist.rows) == 139 and plist.has_focus
        assert status(app).startswith("row 1/139 · ")
        assert app.library.papers[0].title[:30] in detail_text(app)
        row = row_text(app, 0)
        # two collections listed: a short label each; the title keeps 60+ columns at 120x40
        assert row.rstrip().endswith("Daily")
        title = app.library.papers[0].title
        assert title in row or (title[:58] in row and "…  Daily" in row)  # cut with a mark


async def test_one_collection_listed_has_no_collection_column(write_corpus):
    path = write_corpus(
        "Only\n\n" + "\n\n".join(f"Abstract number {i} about graphs." for i in range(5))
    )
    app = make_app([path])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Only" not in row_text(app, 0)


async def test_vim_keys_move_the_cursor_and_the_detail_follows():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        plist = app.query_one(PaperList)
        await pilot.press("j", "j", "down")
        assert plist.cursor == 3
        await pilot.press("k", "up")
        assert plist.cursor == 1
        assert app.library.papers[1].abstract[:40] in detail_text(app)
        await pilot.press("G")
        assert plist.cursor == 138
        await pilot.press("g")
        assert plist.cursor == 0
        await pilot.press("pagedown")
        assert plist.cursor > 20
        await pilot.press("pageup")
        assert plist.cursor == 0


async def test_search_as_you_type_enter_keeps_query_esc_clears():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "caligcl")
        plist = app.query_one(PaperList)
        assert len(plist.rows) == 1 and "1 of 139" in status(app)
        assert "CaliGCL" in detail_text(app)
        await pilot.press("enter")
        assert plist.has_focus and app.reader.search_bar.value == "caligcl"
        assert len(plist.rows) == 1
        await pilot.press("escape")
        await settle(pilot)
        assert app.reader.search_bar.value == "" and len(plist.rows) == 139
        await type_query(pilot, "optmal transprt")
        assert "optmal→optimal" in status(app)
        await pilot.press("escape")  # Esc inside the search box clears it and leaves
        await settle(pilot)
        assert plist.has_focus and len(plist.rows) == 139


async def test_clearing_the_query_keeps_the_readers_place():
    """Esc (or erasing the query) goes back to the paper the reader was on before searching,
    or stays on the result they chose (Enter, or moving in the results): a trial at row 500
    searched, pressed Esc and was sent back to row 1."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        plist, before = await _on_row_50(pilot, app)
        await type_query(pilot, "graph")
        assert plist.position != before
        await pilot.press("escape")  # from the box, nothing chosen: back where it was
        await settle(pilot)
        assert len(plist.rows) == 139 and plist.position == before and plist.cursor == 49
        await type_query(pilot, "gr")
        await pilot.press("backspace", "backspace")
        await settle(pilot)
        assert plist.position == before
        await type_query(pilot, "caligcl")
        await pilot.press("enter", "escape")  # Enter chose the hit: Esc keeps it
        await settle(pilot)
        assert len(plist.rows) == 139 and "CaliGCL" in detail_text(app)
        found = plist.position
        await type_query(pilot, "graph")
        await pilot.press("enter", "j")  # the second hit, chosen by moving to it
        await settle(pilot)
        second = plist.position
        assert second not in (found, plist.rows[0])
        await pilot.press("escape")
        await settle(pilot)
        assert len(plist.rows) == 139 and plist.position == second


async def test_query_words_are_highlighted_in_the_abstract():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "caligcl")
        paper = app.reader.current_paper
        text = render_paper(
            paper, bookmarked=False, note="", highlighter=app.reader.view.highlighter
        ).text
        lit = [text.plain[s.start : s.end] for s in text.spans if "reverse" in str(s.style)]
        assert lit == ["CaliGCL", "CaliGCL"]


async def test_no_results_says_so():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "qqqqzzzzxxxx")
        assert app.query_one(PaperList).rows == []
        assert "No papers match" in row_text(app, 0)
        assert "No paper selected" in detail_text(app)


async def test_stale_results_are_dropped():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "graph")
        rows = list(app.query_one(PaperList).rows)
        reader = app.reader
        older = reader.request - 1  # an answer to an older query
        stale = View(query="gra", indices=[0])
        reader.post_message(ViewReady(older, reader.state, stale, Placement()))
        await pilot.pause()
        assert app.query_one(PaperList).rows == rows


async def test_bookmark_toggle_filter_and_persistence_across_restart():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "b")
        paper = app.reader.current_paper
        assert app.library.marks.is_bookmarked(paper)
        assert row_text(app, 1).startswith(" ★")
        assert "bookmarked" in detail_text(app)
        await pilot.press("B")
        await settle(pilot)
        assert app.query_one(PaperList).rows == [1] and "bookmarks only" in status(app)
        await pilot.press("B")
        await settle(pilot)
        assert len(app.query_one(PaperList).rows) == 139
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.library.marks.is_bookmarked(again.library.papers[1])
        await pilot.press("j", "b")
        assert not again.library.marks.is_bookmarked(again.library.papers[1])


async def test_note_editor_saves_and_note_survives_restart():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        assert isinstance(app.screen, NoteEditor)
        for ch in "hi":
            await pilot.press(ch)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, NoteEditor)
        assert app.library.marks.note(app.library.papers[0]) == "hi"
        assert "✎" in row_text(app, 0) and "Note" in detail_text(app)
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.library.marks.note(again.library.papers[0]) == "hi"
        await type_query(pilot, "has:note")
        assert again.query_one(PaperList).rows == [0]


async def test_unsaved_note_is_never_dropped_silently():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "x", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == "x"
        await pilot.press("escape", "y")  # now discard, on purpose
        await pilot.pause()
        assert not isinstance(app.screen, (NoteEditor, ConfirmScreen))
        assert app.library.marks.note(app.library.papers[0]) == ""
        await pilot.press("n", "escape")  # no changes: leaves without asking
        await pilot.pause()
        assert not isinstance(app.screen, (NoteEditor, ConfirmScreen))


async def test_quitting_from_the_note_editor_asks_to_save_the_note():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "x", "ctrl+q")  # ctrl+q reaches the app from inside the editor
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("n")  # back to the note, text intact
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor) and app.screen.query_one(TextArea).text == "x"
        await app.action_quit()  # the palette's Quit runs the same action
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert not app.is_running
    assert app.library.marks.note(app.library.papers[0]) == "x"


async def test_note_that_cannot_be_saved_stays_in_the_editor():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.library.store.unavailable = "the data folder is read-only"
        await pilot.press("n", "k", "e", "e", "p", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == "keep"
        assert "read-only" in str(app.screen.query_one("#note-error", Static).render())
        await pilot.press("b")  # typing goes on in the editor; nothing else happens
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)


async def test_bookmark_that_cannot_be_saved_says_why():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.library.store.unavailable = "the disk is full"
        await pilot.press("b")
        await pilot.pause()
        messages = toasts(app)
        assert any("disk is full" in m for m in messages)
        assert not app.library.marks.is_bookmarked(app.reader.current_paper)


async def test_copy_abstract_and_markdown_with_system_clipboard():
    clip = FakeClipboard()
    app = make_app(clipboard=clip)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert clip.copied == [app.reader.current_paper.abstract]
        await pilot.press("Y")
        await settle(pilot)
        markdown = clip.copied[-1]
        assert markdown.startswith(f"## {app.reader.current_paper.title}")
        assert app.reader.current_paper.abstract in markdown
        assert any("Copied" in t for t in toasts(app))


async def test_copy_falls_back_to_terminal_clipboard():
    app = make_app(clipboard=FakeClipboard(problem="no clipboard program found"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert app.clipboard == app.reader.current_paper.abstract  # sent through OSC 52
        assert any("OSC 52" in t for t in toasts(app))


async def test_open_url_only_opens_http_links(write_corpus, monkeypatch):
    path = write_corpus(
        "L\n\nCode at https://example.org/code. Done.\n\nSee file:///etc/passwd only.\n\nNo links."
    )
    app = make_app([path])
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **kw: opened.append(url) or True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o", "j", "o", "j", "o")
        await settle(pilot)
        assert opened == ["https://example.org/code"]
        assert any("no http(s) link" in t for t in toasts(app))
        assert any("Opened https://example.org/code" in t for t in toasts(app))


async def test_open_url_without_a_browser_offers_to_copy_the_link(write_corpus, monkeypatch):
    path = write_corpus("L\n\nCode at https://example.org/code. Done.")
    clipboard = FakeClipboard()
    app = make_app([path], clipboard=clipboard)
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **kw: False)  # no browser here
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "No browser could open https://example.org/code" in app.screen.question
        assert not any("Opened" in t for t in toasts(app))
        await pilot.press("y")
        await settle(pilot)
        assert clipboard.copied == ["https://example.org/code"]


async def test_open_url_with_no_browser_on_the_machine_says_so_at_once(write_corpus, monkeypatch):
    path = write_corpus("L\n\nCode at https://example.org/code. Done.")
    monkeypatch.delenv("BROWSER", raising=False)
    monkeypatch.setattr("papertui.ui.background.system_browser_found", lambda: False)
    tried: list[str] = []
    monkeypatch.setattr("papertui.ui.background.open_url", lambda url, *a: tried.append(url))
    app = make_app([path])  # the reader's own way to open links, none given
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()  # no worker to wait for: the answer is there on the next frame
        assert isinstance(app.screen, ConfirmScreen)
        assert "No browser could open" in app.screen.question
        assert tried == []  # no browser was tried, so nothing to wait for


def test_a_text_mode_browser_is_no_browser_for_the_reader(monkeypatch):
    import webbrowser

    from papertui.ui import background

    monkeypatch.delenv("BROWSER", raising=False)
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("lynx"))
    assert not background.system_browser_found()  # it would draw over the reader
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("firefox"))
    assert background.system_browser_found()
    monkeypatch.setenv("BROWSER", "lynx")  # chosen on purpose: used
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("lynx"))
    assert background.system_browser_found()


async def test_help_lists_every_binding_and_closes():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = str(app.screen.query_one("#help-body", Static).render())
        for key in APP_KEYS:
            assert key.description in body
        for syntax in ("OR", "is:bookmarked", "has:note", "collection:", '"exact phrase"'):
            assert syntax in body
        for syntax in ("~a sentence", "topic:N", "year:2024", "author:"):
            assert syntax in body
        box = app.screen.query_one("#help-box")
        await pilot.press("G")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y > 0  # G: the end of the help
        await pilot.press("g")
        await pilot.pause()
        assert box.scroll_y == 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_command_palette_offers_every_action():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for key in APP_KEYS:
            assert key.description in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_tab_switches_panes_and_detail_scrolls(write_corpus):
    long = " ".join(f"Sentence {i} of a long abstract about graphs." for i in range(200))
    app = make_app([write_corpus(f"Long\n\n{long}\n\nA short one.")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        detail = app.query_one(DetailPane)
        assert detail.has_focus and detail.scroll_y == 0
        await pilot.press("j", "j", "j")  # in the detail pane, j scrolls the abstract
        await pilot.pause()
        assert detail.scroll_y == 3 and app.query_one(PaperList).cursor == 0
        for _ in range(3):  # keys that come together (a held key) each count, before a refresh
            detail.action_scroll_lines(1)
        await pilot.pause()
        assert detail.scroll_y == 6
        await pilot.press("k", "k", "k")
        await pilot.pause()
        assert detail.scroll_y == 3
        detail.shown = detail.shown  # repainted in place, as when it is marked read...
        detail.action_scroll_lines(1)
        detail.action_scroll_lines(1)
        await pilot.pause()
        assert detail.scroll_y == 5  # ...the keys pressed meanwhile still count
        detail.shown = detail.shown
        await pilot.pause()
        assert detail.scroll_y == 5  # and with no key, it stays where it was
        await pilot.press("k", "k")
        await pilot.pause()
        await pilot.press("space")  # a page, less the line kept for context
        await pilot.pause()
        assert detail.scroll_y == 3 + detail.scrollable_content_region.height - 1
        await pilot.press("G")
        await pilot.pause()
        assert detail.scroll_y == detail.max_scroll_y > 0
        await pilot.press("k", "g")
        await pilot.pause()
        assert detail.scroll_y == 0
        await pilot.press("tab")
        assert app.query_one(PaperList).has_focus


async def test_mouse_click_selects_a_row():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.click(PaperList, offset=(5, 4))
        await pilot.pause()
        assert app.query_one(PaperList).cursor == 4


async def test_quit_key_exits():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running  # q quit the reader (not just closed the test)
    assert app.return_code == 0


async def test_markup_in_corpus_text_shows_literally(write_corpus):
    hostile = "[bold red]x[/] [link=file:///etc/passwd]y[/link] [@click=app.quit]z $x[i]$ [/]"
    path = write_corpus(f"[b]Name[/b]\n\n{hostile} \x1b[2J\x07 end.")
    app = make_app([path])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")  # the raw text: $...$ stays as typed
        await pilot.pause()
        shown = detail_text(app)
        assert hostile in shown
        assert "\x1b" not in shown and "␛[2J␇" in shown
        assert "[b]Name[/b]" in shown  # the collection's name, in the detail pane
        assert app.is_running  # no [@click=app.quit] ran


async def test_narrow_terminal_stacks_panes():
    app = make_app()
    async with app.run_test(size=(60, 24)) as pilot:
        await settle(pilot)
        assert app.reader.has_class("-narrow")
        plist, detail = app.query_one(PaperList), app.query_one(DetailPane)
        assert detail.region.y > plist.region.y


async def test_scrolling_to_the_end_ranks_more_hits(write_corpus, monkeypatch):
    import papertui.ui.screens.reader as reader_module

    monkeypatch.setattr(reader_module, "DEPTH", 50)
    path = write_corpus("M\n\n" + "\n\n".join(f"learning paper number {i}." for i in range(300)))
    app = make_app([path])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "learning")
        plist = app.query_one(PaperList)
        assert len(plist.rows) == 50
        assert "best 50 of 300 matches (more as you scroll)" in status(app)
        await pilot.press("enter", "G")
        await settle(pilot)
        assert len(plist.rows) == 200 and plist.cursor == 49  # the cursor stays on its paper
        await pilot.press("G")
        await settle(pilot)
        assert len(plist.rows) == 300 and "300 of 300" in status(app)


async def test_large_corpus_is_indexed_by_a_child_with_progress(write_corpus, monkeypatch):
    import papertui.core.library.indexing as indexing_module

    monkeypatch.setattr(indexing_module, "needs_child_process", lambda count: count >= 10)
    path = write_corpus("L\n\n" + "\n\n".join(f"graph study number {i}." for i in range(40)))
    states: list[str] = []
    shown = StatusLine.watch_index_state

    def seen(line: StatusLine) -> None:  # from the first: "indexing 0%" can come at once
        states.append(line.index_state)
        shown(line)

    monkeypatch.setattr(StatusLine, "watch_index_state", seen)
    app = make_app([path])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.library.index is not None, states
        await type_query(pilot, "graph")
        assert len(app.query_one(PaperList).rows) == 40
    assert any(s.startswith("indexing") for s in states)


async def test_keys_typed_right_after_slash_land_in_the_box():
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key, char in [
            ("slash", "/"),
            ("g", "g"),
            ("r", "r"),
            ("p", "p"),
            ("h", "h"),
            ("slash", "/"),
            ("x", "x"),
        ]:
            event = events.Key(key, char)  # a burst, as a fast typist or a paste sends it
            app.post_message(event)
        await settle(pilot)
        assert (
            app.reader.search_bar.value == "grph/x" and not app.reader.detail.raw
        )  # "r" did not toggle raw
        await pilot.press("enter", "n", "a", "slash", "b")
        assert app.screen.query_one(TextArea).text == "a/b"  # "/" in a note is text


async def test_cold_start_shows_papers_while_the_rest_is_read(write_corpus, monkeypatch):
    import papertui.core.library as library_module
    from papertui.core.library import Library
    from papertui.ui.app import make_app as factory

    monkeypatch.setattr(library_module, "DEFER_BYTES", 1_000)  # any real dump is "large"
    first = write_corpus("One\n\n" + "\n\n".join(f"Graph study {i}." for i in range(60)), "a.txt")
    write_corpus("Two\n\n" + "\n\n".join(f"Protein study {i}." for i in range(60)), "b.txt")
    library = Library.open_deferred([first.parent])
    assert library.loading and len(library.papers) < 120  # nothing parsed up front
    app = factory(library=library, clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert not app.library.loading and len(app.reader.paper_list.rows) == 120
        assert app.library.index is not None
        await type_query(pilot, "protein")
        assert len(app.reader.paper_list.rows) == 60


async def test_a_cold_start_of_one_large_file_shows_its_head_then_all_of_it(
    write_corpus, monkeypatch
):
    import papertui.core.library as library_module
    from papertui.core.library import Library
    from papertui.ui.app import make_app as factory

    monkeypatch.setattr(library_module, "DEFER_BYTES", 1_000)  # any real dump is "large"
    monkeypatch.setattr("papertui.core.corpus.preview.PREVIEW_BYTES", 6_000)
    lines = [
        json.dumps({"title": f"Paper {i}", "abstract": f"We study graph {i} in depth."})
        for i in range(400)
    ]
    path = write_corpus("\n".join(lines) + "\n", "big.jsonl")
    library = Library.open_deferred([path])
    head = [p.title for p in library.papers]
    assert library.loading and head[:2] == ["Paper 0", "Paper 1"] and 50 < len(head) < 400
    app = factory(library=library, clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", "j", "j")  # on the head's fourth paper, whatever has come in
        await settle(pilot)
        await settle(pilot)
        assert not app.library.loading and len(app.reader.paper_list.rows) == 400
        assert app.reader.current_paper is not None
        assert app.reader.current_paper.title == "Paper 3"
    # warm now: a library too large to read before the first screen starts the same way
    monkeypatch.setattr(library_module, "WARM_BYTES", 1_000)
    library = Library.open_deferred([path])
    assert library.loading and [p.title for p in library.papers] == head
    app = factory(library=library, clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert not app.library.loading and app.library.index is not None
        await type_query(pilot, "graph 399")
        assert app.reader.current_paper is not None
        assert app.reader.current_paper.title == "Paper 399"


async def test_a_note_typed_when_the_reader_stops_comes_back_next_time(monkeypatch):
    monkeypatch.setattr("papertui.ui.screens.note_editor.KEEP_EVERY", 0.05)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j", "n", *"half a thought")
        await pilot.pause(0.3)  # the draft reaches the disk while typing
        # the reader stops here without a save (a killed terminal, a crash)
        paper = app.library.papers[app.reader.paper_list.rows[3]]
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.library.marks.note(paper) == ""
        # said at startup, with the paper, and the cursor is on it
        said = toasts(again)
        assert any("not saved" in m and paper.title[:20] in m for m in said), said
        assert again.reader.current_paper is not None
        assert again.reader.current_paper.id == paper.id
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(again.screen, NoteEditor)
        assert again.screen.query_one(TextArea).text == "half a thought"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert again.library.marks.note(paper) == "half a thought"
        await pilot.press("n", "escape")  # saved: no draft is offered again
        await pilot.pause()
        assert not isinstance(again.screen, NoteEditor)


async def test_a_closed_terminal_keeps_every_word_of_the_note_being_typed():
    """A trial typed a word and closed the terminal 0.15 s later: the word was lost."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", *"first words")
        await pilot.pause(0.6)
        await pilot.press(*" LASTWORDS")  # and at once the terminal closes
        app.ended_from_outside()  # what the event loop runs on SIGHUP or SIGTERM
        await pilot.pause()
        paper = app.reader.current_paper
        assert paper is not None and drafts.load(paper.id) == "first words LASTWORDS"
    assert not app.is_running


async def test_quitting_while_the_discard_question_is_open_changes_nothing():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "x", "escape")  # "Discard the changes to this note?"
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("ctrl+q")  # neither quits nor answers for the reader
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # back to the note, text intact
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor) and app.screen.query_one(TextArea).text == "x"
        await pilot.press("escape", "y")  # discard on purpose: no second answer to a closed editor
        await pilot.pause()
        assert not isinstance(app.screen, (NoteEditor, ConfirmScreen)) and app.is_running


async def test_a_second_enter_in_the_palette_never_closes_the_reader():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *"help")
        await pilot.pause(0.5)
        palette = app.screen
        palette.dismiss()
        palette.dismiss()  # a second Enter before the first one closed it
        await pilot.pause()
        assert app.is_running and app.screen is app.reader


async def test_the_detail_marks_stay_apart_when_the_line_wraps(monkeypatch):
    """A trial read "bookmarkedunread": the marks were parted by spaces, which a wrap ate."""
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 60.0)  # stays unread
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        body = app.reader.detail
        lines = [body.render_line(y).text.strip() for y in range(8)]
        shown = " ".join(" ".join(lines).split())
        assert "★ bookmarked · unread" in shown, lines
