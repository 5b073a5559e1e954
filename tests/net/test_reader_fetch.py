"""R in the reader: the subscriptions are fetched in the background, what arrives joins the list
and is marked new; the order "new first" puts it on top."""

from __future__ import annotations

from papertui.cli import main
from papertui.core.library import Library
from papertui.core.system import paths
from papertui.core.system.settings import remember_fetch_sources
from papertui.ui.app import make_app

from conftest import LAST_DAY
from notices import notifications, toasts
from workers import workers_done

SIZE = (120, 40)


async def settle(pilot) -> None:
    await pilot.pause(0.1)
    await workers_done(pilot.app)
    await pilot.pause(0.1)
    await workers_done(pilot.app)
    await pilot.pause()


async def test_r_fetches_the_subscriptions_and_marks_what_arrived_new(server, capsys):
    assert main(["fetch", "hf:2025-09-07"]) == 0
    capsys.readouterr()
    folder = str(paths.fetched_dir() / "hf")
    seen = Library.open([folder])
    seen.marks.mark_seen()  # an earlier session showed these, and they were read
    seen.marks.set_read(seen.papers, True)
    seen.close()
    remember_fetch_sources([f"hf:{LAST_DAY}"])
    app = make_app([folder], clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        library = app.library
        assert len(library.papers) == 20
        before = len(server.seen)
        await pilot.press("R")
        await settle(pilot)
        assert [r.query["date"] for r in server.seen[before:]] == [LAST_DAY]
        assert len(library.papers) == 40
        arrived = {p.arxiv for p in server.sources.day(LAST_DAY)}
        new = [p for p in library.papers if library.marks.is_new(p)]
        assert {p.meta.arxiv for p in new} == arrived
        messages = toasts(app)
        assert any(m == "Fetched 20 papers, 20 new." for m in messages), messages
        order = library.run_query("", sort="new").indices
        assert {library.papers[i].meta.arxiv for i in order[:20]} == arrived
        # the same again: nothing more is asked for (the day is complete), nothing is new
        before = len(server.seen)
        await pilot.press("R")
        await settle(pilot)
        assert len(server.seen) == before and len(library.papers) == 40


async def test_r_without_subscriptions_says_how_to_add_them(server):
    app = make_app(clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        messages = toasts(app)
        assert any("papertui fetch --subscribe hf" in m for m in messages) and not server.seen


async def test_a_failed_source_is_said_in_the_reader(server, capsys):
    from server import Fault

    remember_fetch_sources([f"hf:{LAST_DAY}"])
    server.queue("/api/daily_papers", Fault(403, body=b"no"))
    app = make_app(clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        failed = [n for n in notifications(app) if n.title == "Fetch failed"]
        assert failed and "403 Forbidden" in failed[0].message


async def test_s_reaches_most_upvoted_where_papers_have_upvotes(server, capsys):
    assert main(["fetch", f"hf:{LAST_DAY}"]) == 0
    capsys.readouterr()
    app = make_app([str(paths.fetched_dir() / "hf")], clipboard=lambda text: None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = []
        for _ in range(7):
            await pilot.press("s")
            await settle(pilot)
            seen.append(app.reader.sort)
        assert "upvotes" in seen and "new" in seen  # the first look: everything fetched is new
        while app.reader.sort != "upvotes":
            await pilot.press("s")
            await settle(pilot)
        papers = app.library.papers
        votes = [papers[i].meta.upvotes for i in app.reader.paper_list.rows]
        assert votes == sorted(votes, reverse=True)
