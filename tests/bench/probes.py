"""Small programs the benchmark runs in fresh processes, one measurement each.

    python tests/bench/probes.py COMMAND [ARGS...]

Each prints one JSON object on its last line of output.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import sys
import time

T0 = time.perf_counter()


def _exit_after_first_paint(app) -> float:  # type: ignore[no-untyped-def]
    """Run `app` headless, quit once its first screen is painted; returns seconds to paint."""
    painted: list[float] = []

    async def pilot_run(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        painted.append(time.perf_counter() - T0)
        pilot.app.exit()

    app.run(headless=True, size=(120, 40), auto_pilot=pilot_run)
    return painted[0]


def first_paint_minimal(rows: int) -> dict[str, float]:
    """The baseline: a minimal Textual app showing a static list of `rows` rows."""
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, ListItem, ListView, Static

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield ListView(*[ListItem(Static(f"Paper number {i}")) for i in range(rows)])
            yield Footer()

    return {"paint": _exit_after_first_paint(Minimal())}


def first_paint_papertui(*paths: str) -> dict[str, float]:
    from papertui.ui.app import make_app

    app = make_app(list(paths) or None, clipboard=lambda text: None)
    return {"paint": _exit_after_first_paint(app)}


def bare_search(index_dir: str, query: str) -> dict[str, float]:
    """The baseline for reopening: open a Whoosh index, run one query, print the ids."""
    from whoosh import index, qparser

    ix = index.open_dir(index_dir)
    with ix.searcher() as searcher:
        parser = qparser.MultifieldParser(["title", "abstract"], ix.schema)
        for hit in searcher.search(parser.parse(query), limit=20):
            print(hit["id"])
    return {"seconds": time.perf_counter() - T0}


def cold_tui(*paths: str) -> dict[str, object]:
    """The reader on a large corpus with no index: when is the list there and usable?"""
    from papertui.ui.app import make_app
    from papertui.ui.widgets.paper_list import PaperList

    result: dict[str, object] = {}

    async def run() -> None:
        app = make_app(list(paths), clipboard=lambda text: None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            plist = app.query_one(PaperList)
            deadline = time.perf_counter() + 600
            while not plist.rows and time.perf_counter() < deadline:
                await pilot.pause(0.05)  # the first papers come in while the rest is read
            result["list_visible"] = time.perf_counter() - T0
            result["rows"] = len(plist.rows)
            await pilot.press("j", "j", "pagedown")
            result["navigable"] = time.perf_counter() - T0
            result["cursor"] = plist.cursor
            await pilot.pause(1.5)
            result["status"] = str(app.query_one("#status").render())
            deadline = time.perf_counter() + 600
            while app.library.index is None and time.perf_counter() < deadline:
                await pilot.pause(0.5)
            result["search_ready"] = time.perf_counter() - T0
            await pilot.press("slash", *"graph")
            await app.workers.wait_for_complete()
            await pilot.pause()
            result["results"] = len(plist.rows)

    asyncio.run(run())
    return result


def deferred_cold(*paths: str) -> dict[str, object]:
    """The core of a cold start that leaves parsing to the indexing child: when do the first
    papers, and all of them, reach the reader's process? (The child is stopped then.)"""
    from papertui.core.library import Library
    from papertui.core.search import IndexCancelled

    library = Library.open_deferred(list(paths))
    result: dict[str, object] = {"opened": time.perf_counter() - T0, "first": None}
    if not library.loading:  # small enough to be read whole in-process: all papers are there
        result["first"], result["first_papers"] = result["opened"], len(library.papers)

    def tick() -> None:
        ready = library.load_ready()
        if ready is not None:
            library.replace_corpus(ready)
            if result["first"] is None:
                result["first"] = time.perf_counter() - T0
                result["first_papers"] = len(ready.papers)

    with contextlib.suppress(IndexCancelled):
        library.indexing.run_in_child(lambda d, t: None, lambda: not library.loading, tick=tick)
    result["all"] = time.perf_counter() - T0
    result["papers"] = len(library.papers)
    return result


def tui_keys(*paths: str) -> dict[str, object]:
    """Keystroke echo while searching, and page down / G, measured through Pilot."""
    from textual import events

    from papertui.ui.app import make_app

    out: dict[str, object] = {}

    async def run() -> None:
        app = make_app(list(paths) or None, clipboard=lambda text: None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            while app.library.index is None:
                await pilot.pause(0.2)
            await app.workers.wait_for_complete()
            moves = []
            # moves that move in a list of 139 too: down and back up, end and back home
            for key in ["pagedown", "pageup"] * 10 + ["G", "g"] * 5:
                t = time.perf_counter()
                await pilot.press(key)
                moves.append(time.perf_counter() - t)
            out["moves"] = moves
            echo = []
            await pilot.press("slash")
            bar = app.reader.search_bar
            changed: list[float] = []
            app.watch(bar, "value", lambda _value: changed.append(time.perf_counter()), init=False)
            for ch in "graph neural network":
                # send the key as the terminal would; time until the box holds it (searching goes
                # on in a worker), then let the screen settle before the next key
                event = events.Key("space" if ch == " " else ch, ch)
                event.set_sender(app)
                sent = time.perf_counter()
                app._driver.send_message(event)
                while len(changed) <= len(echo):
                    await asyncio.sleep(0.0005)
                echo.append(changed[len(echo)] - sent)
                await asyncio.sleep(0.03)  # about a fast typist's pace
            await app.workers.wait_for_complete()
            out["echo"] = echo

    asyncio.run(run())
    return out


def loaded_rss(queries_file: str, *paths: str) -> dict[str, float]:
    """Peak resident memory with the corpus loaded, indexed and searched."""
    from papertui.core.library import Library

    library = Library.open(list(paths))
    library.indexing.ensure()
    with open(queries_file, encoding="utf-8") as handle:
        queries = json.load(handle)
    for query in queries[:50]:
        library.run_query(query)
    return {"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _status() -> dict[str, float]:
    """This process' memory now, in MiB: resident, anonymous (heap), file-backed, peak."""
    wanted = {"VmRSS": "rss", "RssAnon": "anon", "RssFile": "file", "VmHWM": "peak"}
    out: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in wanted:
                out[wanted[key]] = int(value.split()[0]) / 1024
    return out


def memory_breakdown(queries_file: str, *paths: str) -> dict[str, object]:
    """What each structure of the reader costs: memory after each step of a warm start (the
    UI toolkit, the corpus, the index, the fuzzy title index, searches), and the peak."""
    steps: list[tuple[str, dict[str, float], float]] = []

    def step(name: str, started: float) -> None:
        steps.append((name, _status(), time.perf_counter() - started))

    t = time.perf_counter()
    step("interpreter", t)
    import textual.app  # noqa: F401 - what the reader imports anyway

    step("textual imported", t)
    t = time.perf_counter()
    from papertui.core.library import Library

    library = Library.open(list(paths))
    step("corpus loaded", t)
    t = time.perf_counter()
    from papertui.core.search import SearchIndex

    directory = library.index_store.current_dir()
    assert directory is not None
    library.indexing.use(SearchIndex(directory))
    step("index opened", t)
    t = time.perf_counter()
    library.indexing.complete_titles()
    step("titles + fuzzy title index", t)
    with open(queries_file, encoding="utf-8") as handle:
        queries = json.load(handle)
    t = time.perf_counter()
    for query in queries[:50]:
        library.run_query(query)
    for pos in range(0, len(library.papers), max(1, len(library.papers) // 200)):
        library.papers[pos].abstract  # noqa: B018 - papers shown in the detail pane
    step("50 searches, 200 papers shown", t)
    return {
        "steps": [{"step": n, "seconds": s, **m} for n, m, s in steps],
        "peak_mb": _status()["peak"],
    }


def plain_whoosh_build(out_dir: str, *paths: str) -> dict[str, float]:
    """The baseline for building: Whoosh with its default settings on the same documents."""
    import os

    from whoosh import index
    from whoosh.fields import ID, TEXT, Schema

    from papertui.core.corpus import finish_titles, load_corpus

    papers = load_corpus(list(paths)).papers
    finish_titles(papers)
    os.makedirs(out_dir, exist_ok=True)
    start = time.perf_counter()
    ix = index.create_in(
        out_dir, Schema(id=ID(stored=True), title=TEXT(stored=True), abstract=TEXT)
    )
    writer = ix.writer()
    for paper in papers:
        writer.add_document(id=paper.id, title=paper.title, abstract=paper.abstract)
    writer.commit()
    return {"seconds": time.perf_counter() - start}


COMMANDS = {
    "plain-whoosh-build": lambda args: plain_whoosh_build(args[0], *args[1:]),
    "first-paint-minimal": lambda args: first_paint_minimal(int(args[0])),
    "first-paint-papertui": lambda args: first_paint_papertui(*args),
    "bare-search": lambda args: bare_search(args[0], args[1]),
    "cold-tui": lambda args: cold_tui(*args),
    "deferred-cold": lambda args: deferred_cold(*args),
    "tui-keys": lambda args: tui_keys(*args),
    "loaded-rss": lambda args: loaded_rss(args[0], *args[1:]),
    "memory-breakdown": lambda args: memory_breakdown(args[0], *args[1:]),
}

if __name__ == "__main__":
    print(json.dumps(COMMANDS[sys.argv[1]](sys.argv[2:])))
