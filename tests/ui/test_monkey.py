"""A monkey at the keyboard: seeded random keys in every screen must never crash the reader.

Runs cycle through three corpora: the hostile one (markup, escape codes, broken UTF-8), the
bundled one, and a generated one of `PAPERTUI_MONKEY_PAPERS` abstracts. The suite runs a few
short runs; `python tests/bench/monkey.py` runs 20 of 500 keys with 10,000 papers.
"""

from __future__ import annotations

import os
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from papertui.core.system import paths
from papertui.ui.keys import APP_KEYS
from papertui.ui.screens.help import HelpScreen

from ui_support import SIZE, make_app, settle

RUNS = int(os.environ.get("PAPERTUI_MONKEY_RUNS", "3"))
KEYS = int(os.environ.get("PAPERTUI_MONKEY_KEYS", "120"))
PAPERS = int(os.environ.get("PAPERTUI_MONKEY_PAPERS", "300"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reliability"))
from hostile import write_hostile  # noqa: E402  (a helper module beside the reliability tests)

# every binding but quitting, list and dialog keys, and plain typing
BOUND = [k for key in APP_KEYS for k in key.keys.split(",") if key.action != "quit"]
EXTRA = [
    "j",
    "k",
    "g",
    "G",
    "pagedown",
    "pageup",
    "home",
    "end",
    "enter",
    "escape",
    "tab",
    "backspace",
    "space",
    "ctrl+p",
    "ctrl+s",
    "down",
    "up",
    "y",
    "n",
]
PRINTABLE = list('abcdefghijklmnoprstuvwxyz0123456789-:"()*')


@pytest.mark.parametrize("seed", range(RUNS))
async def test_random_keys_never_crash_the_reader(seed, write_corpus, monkeypatch, tmp_path):
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **kw: False)
    rng = random.Random(seed)
    if seed % 3 == 0:
        sources = [write_hostile(tmp_path / "hostile")]
    elif seed % 3 == 1:
        sources = None  # the bundled corpus
    else:
        topics = ["graph", "diffusion", "kernel", "transport", "protein"]
        abstracts = [
            f"Paper {i} on {rng.choice(topics)} methods [b]x[/b] $\\alpha$ with {rng.random():.3f}."
            for i in range(PAPERS)
        ]
        sources = [write_corpus("Monkey\n\n" + "\n\n".join(abstracts))]
    app = make_app(sources)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(KEYS):
            pool = rng.choice([BOUND, EXTRA, PRINTABLE])
            await pilot.press(rng.choice(pool))
        await settle(pilot)
        while len(app.screen_stack) > 1:  # leave whatever dialog the monkey left open
            await pilot.press("escape")
            await pilot.pause()
            if app.screen.__class__.__name__ == "ConfirmScreen":
                await pilot.press("y")
        await pilot.press("escape", "escape", "escape")
        app.reader.paper_list.focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)  # the reader still answers
        await pilot.press("escape", "q")
        await pilot.pause()
        assert not app.is_running
    with sqlite3.connect(paths.store_path()) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
