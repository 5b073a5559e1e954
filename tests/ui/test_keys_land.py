"""Keys land where the user types: seeded trials type 60 characters as one burst into the note
editor, the tag dialog and the search box, right behind the key that opens it, while background
results arrive (a re-rank after b, + or -, a search's results, index and topics progress), and
the text saved is exactly what was typed, with no key reaching the reader."""

from __future__ import annotations

import random
import threading

import pytest
from textual import events
from textual.keys import _character_to_key

from papertui.ui.messages import IndexProgress, IndexReady
from papertui.ui.state import Placement

from ui_support import make_app, settle
from workers import workers_done

TRIALS = 34  # per target: 102 in all
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def burst(app, keys: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Queue every key at once, as a fast typist or a paste does: none waits for the last."""
    for key in keys:
        if len(key) == 1:
            app.post_message(events.Key(_character_to_key(key), key))
        else:
            app.post_message(events.Key(key, None))


def background(app, rng: random.Random, stop: threading.Event) -> threading.Thread | None:  # type: ignore[no-untyped-def]
    """Start one source of background results; a thread for the progress kinds."""
    reader = app.reader
    kind = rng.choice(["rerank", "answer", "search", "progress", "index"])
    if kind == "rerank":
        reader.relearn()
    elif kind == "answer":
        reader.search(Placement(row=reader.paper_list.cursor))
    elif kind == "search":
        reader.search(Placement(stay=True))
    elif kind == "index":
        reader.post_message(IndexReady())
    else:

        def progress() -> None:
            n = 0
            while not stop.is_set() and n < 200:
                text = f"indexing {n % 100}%" if n % 2 else f"topics: computing {n % 100}%"
                reader.post(IndexProgress(text))
                n += 1
                stop.wait(0.001)

        thread = threading.Thread(target=progress, daemon=True)
        thread.start()
        return thread
    return None


async def quiet(pilot) -> None:  # type: ignore[no-untyped-def]
    """Every key and result handled: the workers done and the queues empty."""
    await workers_done(pilot.app)
    await pilot.pause()
    await workers_done(pilot.app)
    await pilot.pause()


def typed_text(rng: random.Random, alphabet: str, spaces: bool) -> str:
    chars = [rng.choice(alphabet) for _ in range(60)]
    if spaces:
        for i in rng.sample(range(1, 59), 8):
            chars[i] = " "
    return "".join(chars)


def reader_snapshot(app) -> tuple:  # type: ignore[no-untyped-def]
    """What a stray key would change in the reader."""
    notes = app.library.annotations()
    reader = app.reader
    return (
        reader.state.bookmarks_only,
        reader.state.collections,
        reader.state.ask_me,
        reader.state.like_paper,
        frozenset(notes.bookmarks),
        frozenset(notes.feedback),
        frozenset(reader.paper_list.selected),
        reader.list_only,
        reader.list_width,
        reader.detail.raw,
    )


@pytest.mark.parametrize("target", ["note", "tag", "search"])
async def test_keys_typed_in_a_burst_land_in_the_box_opened_before_them(target, monkeypatch):
    monkeypatch.setattr("papertui.ui.widgets.detail.READ_AFTER", 3600)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # small: each key repaints it
        await settle(pilot)
        app.reader.change(sort="foryou")
        await settle(pilot)
        for trial in range(TRIALS):
            rng = random.Random(f"{target}-{trial}")
            before = reader_snapshot(app)
            stop = threading.Event()
            thread = background(app, rng, stop)
            if target == "note":
                text = typed_text(rng, LETTERS + ".,;'", spaces=True)
                burst(app, ["n", *text, "ctrl+s"])
            elif target == "tag":
                text = rng.choice(LETTERS) + typed_text(rng, LETTERS + "-_", spaces=False)[1:]
                burst(app, ["t", *text, "enter"])
            else:
                text = typed_text(rng, LETTERS, spaces=True)
                burst(app, ["slash", *text])
            await quiet(pilot)
            stop.set()
            if thread is not None:
                thread.join()
            if target == "tag":
                await pilot.press("escape")  # done with the dialog
            await quiet(pilot)
            where = f"trial {trial}: {text!r}"
            notes = app.library.annotations()
            if target == "note":  # on the paper under the cursor when n was read
                assert list(notes.notes.values()).count(text) == 1, where
                noted = next(p for p in app.library.papers if p.id in notes.notes)
                app.library.marks.set_note(noted, "")  # the next trial starts a new note
            elif target == "tag":
                assert sum(text in tags for tags in notes.tags.values()) == 1, where
            else:
                assert app.reader.search_bar.value == text, where
                assert app.reader.state.query == text, where
                await pilot.press("escape")
                await quiet(pilot)
            assert reader_snapshot(app) == before, where
            assert app.screen is app.reader, where
