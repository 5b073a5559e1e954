"""A seeded monkey on a 3,000-paper corpus, with the screen's invariants checked after every key:
the cursor row is on screen and highlighted, the detail pane shows its paper, the status line's
row is that row, and its count is the command line's count for the same query.

Four seeds of 500 keys each run side by side. A failure prints the seed and the keys that led
to it: `PAPERTUI_SCREEN_SEED=N PAPERTUI_SCREEN_KEYS=K pytest -n0 tests/screen/test_screen_monkey.py`
replays it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from textual import events

from papertui.commands.common import open_library
from papertui.ui.widgets.search_bar import TYPING_PAUSE

from invariants import problems
from rendered import screen_of
from ui_support import make_app, settle
from workers import workers_done

# four runs of 500 keys (2,000 in all), one per test worker; a seed given alone replays it
SEEDS = (
    [int(os.environ["PAPERTUI_SCREEN_SEED"])]
    if "PAPERTUI_SCREEN_SEED" in os.environ
    else [46, 47, 48, 49]
)
KEYS = int(os.environ.get("PAPERTUI_SCREEN_KEYS", "500"))
PAPERS = 3000
REFRESH = 1 / 30  # two frames at Textual's 60 a second
EVERY = 1_000_000  # a limit above any corpus here: every match
# mostly small screens: a 120x40 screen costs two and a half times the cells to paint and read
SIZES = [(80, 24), (100, 30), (80, 24), (120, 40)]
WORDS = ["graph", "diffusion", "kernel", "learning", "model", "transport", "neural", "zzqx"]
MOVES = ["j", "k", "down", "up", "pagedown", "pageup", "g", "G", "home", "end"]
COUNTED = ["1", "2", "5", "9", "0"]
LAYERS = ["m", "B", "b", "s", "escape", "escape", "enter", "tab", "O", "C"]


def _corpus(folder: Path, seed: int = 46) -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from gen_corpus import write_corpus

    return write_corpus(folder, PAPERS, files=1, seed=seed)[0]


class CliCount:
    """How many papers the command line's search finds for a query, every match (no limit):
    `papertui search`'s own path (`open_library`, `run_query`), opened once for the run.
    `test_the_console_script_counts_the_same` holds it to the console script."""

    def __init__(self, path: Path) -> None:
        self.library = open_library([str(path)], None)
        self.library.indexing.ensure()
        self.known: dict[str, int] = {}

    def __call__(self, query: str) -> int:
        if query not in self.known:
            view = self.library.run_query(query, limit=EVERY, depth=EVERY)
            self.known[query] = len(view.indices)
        return self.known[query]


def script_count(query: str, path: Path, limit: int = EVERY) -> int:
    """The console script's answer, as a user runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "papertui", "search", "--json", "--limit", str(limit)]
        + ["--", query, str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return len(json.loads(done.stdout)) if done.stdout.strip() else 0


_CHARACTERS = {"slash": "/", "space": " ", "enter": "\r", "tab": "\t", "escape": "\x1b"}
_CHARACTERS["backspace"] = "\x7f"


async def press(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Keys as the terminal driver posts them. `pilot.press` also waits for the process to
    go idle after each key (two 20 ms looks at the CPU at least): 2,000 keys would take
    minutes of that alone, and `quick_settle` waits for what the key started instead."""
    for key in keys:
        pilot.app.post_message(
            events.Key(key, _CHARACTERS.get(key, key if len(key) == 1 else None))
        )
        await pilot.pause(0)


async def quick_settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """The key handled and its work done: the search box's pause in typing, every worker,
    and a screen refresh (the list scrolls to its cursor after one)."""
    await pilot.pause(0)
    if pilot.app.focused is pilot.app.reader.search_bar:
        await pilot.pause(TYPING_PAUSE + 0.02)
    await workers_done(pilot.app)
    await pilot.pause(REFRESH)


def next_key(rng: random.Random, typing: bool) -> str | tuple[str, ...]:
    if typing:
        if rng.random() < 0.25:
            return rng.choice(["enter", "escape", "backspace"])
        return tuple(rng.choice(WORDS)) + ("space",)
    pool = rng.choices([MOVES, COUNTED, LAYERS, ["slash"], ["resize"]], [50, 12, 18, 8, 1])[0]
    return rng.choice(pool)


@pytest.mark.parametrize("seed", SEEDS)
async def test_the_screen_holds_its_invariants_after_every_key(seed, tmp_path):
    path = _corpus(tmp_path / "corpus", seed)
    rng = random.Random(seed)
    count = CliCount(path)
    pressed: list[str] = []
    app = make_app([path])
    async with app.run_test(size=SIZES[seed % len(SIZES)]) as pilot:
        await settle(pilot)
        sent = 0
        while sent < KEYS:
            if app.screen is not app.reader:  # a dialog: close it, as a person would
                await press(pilot, "escape")
                pressed.append("escape")
                sent += 1
                await quick_settle(pilot)
                continue
            key = next_key(rng, app.focused is app.reader.search_bar)
            if key == "resize":
                size = rng.choice(SIZES)
                pressed.append(f"resize{size}")
                await pilot.resize_terminal(*size)
            else:
                keys = key if isinstance(key, tuple) else (key,)
                pressed.extend(keys)
                await press(pilot, *keys)
            sent += 1
            await quick_settle(pilot)
            state = app.reader.state
            expected = None
            plain = not (state.layer_count() or state.query_sort) and app.focused is not None
            if plain and state.query.strip() and app.library.index is not None:
                expected = count(state.query.strip())
            found = problems(app, expected)
            assert not found, (
                f"seed {seed}, after {len(pressed)} keys: {found}\n"
                f"keys: {' '.join(pressed[-40:])}\n"
                f"replay: PAPERTUI_SCREEN_SEED={seed} PAPERTUI_SCREEN_KEYS={sent}\n"
                f"the screen:\n{screen_of(app).dump()}"
            )


@pytest.mark.parametrize("query", ["graph", '"neural network"', "kernel -graph", "graph space"])
def test_the_console_script_counts_the_same(query, tmp_path):
    """The count the monkey trusts is the console script's: every match with a limit above the
    corpus, the first 20 without one."""
    path = _corpus(tmp_path / "corpus")
    every = CliCount(path)(query)
    assert every > 20
    assert script_count(query, path) == every
    assert script_count(query, path, limit=20) == 20
