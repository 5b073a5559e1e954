"""What a usability trial found: each flow does what the screen promises."""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, Label, Static

import papertui
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.export import ExportScreen
from papertui.ui.screens.tags import TagScreen
from papertui.ui.widgets.status import StatusLine

from ui_support import SIZE, make_app, settle, toasts


def status(app) -> str:
    return str(app.query_one(StatusLine).render())


async def test_searching_marks_nothing_read_only_moving_does(monkeypatch):
    """The read rule: shown READ_AFTER with the list or the detail pane focused. The first
    paper on screen counts; top hits seen while typing in the search box never do."""
    import papertui.ui.widgets.detail as detail_module

    monkeypatch.setattr(detail_module, "READ_AFTER", 0.3)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(0.5)
        assert app.library.run_query("is:read").indices == [0]  # shown first, with the list
        await pilot.press("slash")
        for query in ("graph", "diffusion", "loss", "transport"):
            await pilot.press(*query)
            await settle(pilot)
            await pilot.pause(0.5)  # longer than READ_AFTER with a top hit in the detail pane
            await pilot.press(*["backspace"] * len(query))
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert app.library.run_query("is:read").indices == [0]  # no hit seen while typing
        await pilot.press("j")  # the user moves to a paper: that one becomes read
        await pilot.pause(0.6)
        assert app.library.run_query("is:read").indices == [0, 1]


async def test_tab_takes_the_tag_suggestion_and_the_error_goes_away():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.library.marks.set_tag([app.library.papers[5]], "to-read", True)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TagScreen)
        await pilot.press("t", "o", "tab")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "to-read"
        await pilot.press("a", "space", "b", "enter")  # "to-reada b": not a tag
        await pilot.pause()
        error = app.screen.query_one("#tag-error", Label)
        assert "one word" in str(error.render())
        await pilot.press(*["backspace"] * 10, *"t", "o", "enter")  # Enter takes the suggestion
        await pilot.pause()
        assert str(error.render()) == ""
        await pilot.press("escape")
        await settle(pilot)
        assert app.library.marks.tags_of(app.reader.current_paper) == ["to-read"]


async def test_similar_views_apply_the_filters_the_status_line_claims():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        papers = app.library.papers
        for i in range(0, 139, 2):  # half of them, so some are like the current one
            app.library.marks.set_bookmark(papers[i], True)
        await pilot.press("B")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        rows = app.reader.paper_list.rows
        assert "bookmarks only (B)" in status(app)
        assert rows and all(app.library.marks.is_bookmarked(papers[i]) for i in rows)


async def test_a_new_result_list_starts_at_its_top_hit_and_the_cursor_stays_visible():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("G")  # far down
        await pilot.press("slash", *"graph", "enter")
        await settle(pilot)
        plist = app.reader.paper_list
        assert plist.cursor == 0 and plist.position == app.reader.view.indices[0]
        await pilot.press("escape", "G", "b", "B")  # bookmarks only, then back
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        await pilot.pause()
        top = int(plist.scroll_offset.y)
        assert top <= plist.cursor < top + plist.size.height  # the cursor is on screen


async def test_export_asks_before_overwriting_and_says_the_full_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "papertui-export.bib").write_text("keep me", "utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b", "E")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        await pilot.press("ctrl+s")  # the default name exists
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)  # back to choose another name
        assert (tmp_path / "papertui-export.bib").read_text("utf-8") == "keep me"
        await pilot.press("ctrl+s", "y")
        await settle(pilot)
        assert "@" in (tmp_path / "papertui-export.bib").read_text("utf-8")
        where = str(tmp_path / "papertui-export.bib")
        assert any(where in t for t in toasts(app))


async def test_export_of_nothing_writes_nothing_and_a_bare_name_gets_the_extension(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("E")  # nothing bookmarked yet
        await pilot.pause()
        app.screen.query_one("#export-path", Input).value = "mine"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen) and not list(tmp_path.glob("mine*"))
        problem = str(app.screen.query_one("#export-error", Label).render())
        assert problem.startswith("Nothing to export there: bookmark")
        await pilot.press("escape", "b", "E")
        await pilot.pause()
        app.screen.query_one("#export-path", Input).value = "mine"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert (tmp_path / "mine.bib").read_text("utf-8").startswith("@")


async def test_palette_page_keys_before_it_has_rows_do_not_crash():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", "pagedown", "pageup", "pagedown")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette) and app.is_running
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running


def _index_children() -> list[int]:
    """The index children this process started (`papertui index --progress-json`)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == os.getpid() and state != "Z" and b"index --progress-json" in command:
            found.append(int(entry.name))
    return found


def _threads_in_papertui() -> list[str]:
    """The other threads still running papertui's code (a worker's work not stopped)."""
    source = str(Path(papertui.__file__).parent)
    busy = []
    for ident, frame in sys._current_frames().items():
        if ident == threading.get_ident():
            continue
        stack = traceback.extract_stack(frame)
        if any(line.filename.startswith(source) for line in stack):
            busy.append(f"{stack[-1].filename}:{stack[-1].lineno}")
    return busy


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads processes in /proc")
@pytest.mark.parametrize("in_child", [False, True], ids=["in-a-thread", "in-a-child"])
async def test_quitting_while_indexing_stops_the_workers_and_the_index_child(
    write_corpus, monkeypatch, in_child
):
    """q while the index builds (in a worker thread, or in a child process as for a large
    corpus): within 2 s no worker is running, no thread runs papertui's code (it would
    keep the process from ending), no index child is left, and nothing is reported."""
    import papertui.core.library.indexing as core_indexing

    monkeypatch.setattr(core_indexing, "needs_child_process", lambda count: in_child)
    errors: list[object] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args))
    abstracts = [f"Study {i} of graphs, proteins and transport number {i}." for i in range(3000)]
    app = make_app([write_corpus("Big\n\n" + "\n\n".join(abstracts))])
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):  # the build is under way
            await pilot.pause(0.05)
            if _index_children() if in_child else _threads_in_papertui():
                break
        assert _index_children() if in_child else _threads_in_papertui()
        workers = [worker for worker in app.workers if worker.is_running]
        assert workers
        await pilot.press("q")
    assert not any(worker.is_running for worker in workers)
    deadline = time.monotonic() + 2.0
    while (_index_children() or _threads_in_papertui()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _index_children() == [] and _threads_in_papertui() == []
    assert errors == []


async def test_search_worker_reads_a_snapshot_while_the_ui_toggles():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        library, papers = app.library, app.library.papers
        failures: list[BaseException] = []
        stop = threading.Event()

        def search() -> None:
            while not stop.is_set():
                try:
                    library.run_query("is:bookmarked OR tag:x")
                    library.run_query("graph -tag:x")
                except BaseException as exc:  # noqa: BLE001 - any error fails the test
                    failures.append(exc)

        worker = threading.Thread(target=search)
        worker.start()
        for i in range(200):
            library.marks.set_bookmark(papers[i % 50], i % 2 == 0)
            library.marks.set_tag([papers[i % 30]], "x", i % 3 == 0)
        stop.set()
        worker.join()
        assert failures == []


async def test_export_offers_the_selection_first_and_selection_stays_in_view():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "space", "E")  # papers 0 and 1 selected
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        from textual.widgets import Select

        assert app.screen.query_one("#export-what", Select).value == "selection"
        await pilot.press("escape")
        await pilot.press("slash", *"caligcl", "enter")  # a result list without those papers
        await settle(pilot)
        plist = app.reader.paper_list
        assert plist.selected <= set(plist.rows)  # nothing selected out of view


async def test_the_note_editor_shows_the_abstract_and_ctrl_down_scrolls_it():
    from papertui.ui.screens.note_editor import NoteEditor

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        paper = app.reader.current_paper
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        shown = app.screen.query_one("#note-abstract")
        assert paper.abstract[:40] in str(shown.query_one(Static).render())
        await pilot.press("ctrl+down", "ctrl+down")
        await pilot.pause()
        assert shown.scroll_y > 0
        await pilot.press(*"ok")  # the keys still write the note
        assert app.screen.text.endswith("ok")


async def test_a_megabyte_abstract_is_shown_in_part_and_copied_whole(write_corpus):
    from ui_support import FakeClipboard

    huge = "We study long inputs. " + "word " * 200_000
    clipboard = FakeClipboard()
    app = make_app([write_corpus("Short abstract about graphs.\n\n" + huge + "\n")], clipboard)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await pilot.pause()
        shown = app.reader.detail.shown_text
        assert (
            len(shown) < 25_000 and "characters: the first 20,000 shown; y copies it whole" in shown
        )
        await pilot.press("y")
        await pilot.pause()
        assert len(clipboard.copied[-1]) > 1_000_000
