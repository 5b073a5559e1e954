"""A seeded monkey on a 3,000-paper corpus, with the screen's invariants checked after every key:
the cursor row is on screen and highlighted, the detail pane shows its paper, the status line's
row is that row, and its count is the command line's count for the same query.

Four seeds of 500 keys each run side by side; a word typed into the search box is a key a
character, each checked. A failure prints the seed and the keys that led
to it: `PAPERTUI_SCREEN_SEED=N PAPERTUI_SCREEN_KEYS=K pytest -n0 tests/screen/test_screen_monkey.py`
replays it."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from run_once import once_per_run

from papertui.commands.common import open_library
from papertui.ui.widgets import search_bar

from invariants import problems
from pressing import press, quick_settle
from rendered import screen_of
from ui_support import make_app, settle

# four runs of 500 keys (2,000 in all), one per test worker; a seed given alone replays it
SEEDS = (
    [int(os.environ["PAPERTUI_SCREEN_SEED"])]
    if "PAPERTUI_SCREEN_SEED" in os.environ
    else [46, 47, 48, 49]
)
KEYS = int(os.environ.get("PAPERTUI_SCREEN_KEYS", "500"))
PAPERS = 3000
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


@pytest.fixture
def prepared(tmp_path_factory, tmp_path, monkeypatch) -> Path:  # type: ignore[no-untyped-def]
    """The corpus, with its titles and index, made once for the whole run (the first test
    worker makes them, under a lock, the others wait) and copied into this test's cache dir:
    the seeds differ in their keys, and each would otherwise spend a quarter of its time
    reading and indexing the same papers."""

    def make(shared: Path) -> str:
        monkeypatch.setenv("PAPERTUI_CACHE_DIR", str(shared / "cache"))
        path = _corpus(shared / "corpus")
        CliCount(path)  # reads, titles and indexes the papers into the shared cache
        return str(path)

    path = Path(once_per_run(tmp_path_factory, "screen-corpus", make))
    shared = path.parents[1]
    cache = tmp_path / "cache"
    monkeypatch.setenv("PAPERTUI_CACHE_DIR", str(cache))
    shutil.copytree(shared / "cache", cache, dirs_exist_ok=True)
    return path


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


def next_key(rng: random.Random, typing: bool) -> str | tuple[str, ...]:
    if typing:
        if rng.random() < 0.25:
            return rng.choice(["enter", "escape", "backspace"])
        return tuple(rng.choice(WORDS)) + ("space",)
    pool = rng.choices([MOVES, COUNTED, LAYERS, ["slash"], ["resize"]], [50, 12, 18, 8, 1])[0]
    return rng.choice(pool)


@pytest.mark.parametrize("seed", SEEDS)
async def test_the_screen_holds_its_invariants_after_every_key(seed, prepared, monkeypatch):
    # the search box still waits for a pause in typing, a short one: the pause's length is
    # not what is checked here, and a person's 60 ms after each word is a third of the run
    monkeypatch.setattr(search_bar, "TYPING_PAUSE", 0.005)
    path = prepared
    rng = random.Random(seed)
    count = CliCount(path)
    pressed: list[str] = []
    app = make_app([path])
    async with app.run_test(size=SIZES[seed % len(SIZES)]) as pilot:
        await settle(pilot)
        word: list[str] = []  # the rest of a word being typed, a key at a time
        while len(pressed) < KEYS:
            if app.screen is not app.reader:  # a dialog: close it, as a person would
                key: str | tuple[str, ...] = "escape"
            elif word:
                key = word.pop(0)
            else:
                key = next_key(rng, app.focused is app.reader.search_bar)
                if isinstance(key, tuple):
                    word = list(key[1:])
                    key = key[0]
            if key == "resize":
                size = rng.choice(SIZES)
                pressed.append(f"resize{size}")
                await pilot.resize_terminal(*size)
            else:
                assert isinstance(key, str)
                pressed.append(key)
                await press(pilot, key)
            await quick_settle(pilot)
            state = app.reader.state
            expected = None
            # the count is held to the command line's once a word is whole (the prefixes of
            # a word being typed are searched and checked too, but not counted apart)
            plain = not (state.layer_count() or state.query_sort) and app.focused is not None
            if plain and not word and state.query.strip() and app.library.index is not None:
                expected = count(state.query.strip())
            found = problems(app, expected)
            assert not found, (
                f"seed {seed}, after {len(pressed)} keys: {found}\n"
                f"keys: {' '.join(pressed[-40:])}\n"
                f"replay: PAPERTUI_SCREEN_SEED={seed} PAPERTUI_SCREEN_KEYS={len(pressed)}\n"
                f"the screen:\n{screen_of(app).dump()}"
            )


def test_the_console_script_counts_the_same(tmp_path):
    """The count the monkey trusts is the console script's: every match with a limit above the
    corpus, the first 20 without one."""
    path = _corpus(tmp_path / "corpus")
    counted = CliCount(path)
    for query in ["graph", '"neural network"', "kernel -graph", "graph space"]:
        every = counted(query)
        assert every > 20, query
        assert script_count(query, path) == every, query
    assert script_count("graph", path, limit=20) == 20
