"""Every test runs with its own data, cache and config dirs and in its own working dir: the real
user directories and the checkout are never touched (an export's default name is relative)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from run_once import once_per_run


@pytest.fixture(scope="session")
def warm_bundled_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache a user has after one session on the bundled collections (their papers,
    titles, search index, vectors and topics), made once for the whole run by the console
    script."""

    def make(shared: Path) -> str:
        env = dict(os.environ, PAPERTUI_CACHE_DIR=str(shared / "cache"))
        env["PAPERTUI_DATA_DIR"] = str(shared / "data")
        env["PAPERTUI_CONFIG_DIR"] = str(shared / "config")
        for command in ("index", "semantic"):
            subprocess.run(
                [sys.executable, "-m", "papertui", command],
                env=env,
                cwd=shared,
                check=True,
                capture_output=True,
                timeout=300,
            )
        return str(shared / "cache")

    return Path(once_per_run(tmp_path_factory, "bundled-cache", make))


WARM_TIERS = {"ui", "screen", "browser", "net"}  # the unit and reliability tiers start cold


def _warm_tier(request: pytest.FixtureRequest) -> bool:
    return bool(WARM_TIERS & set(Path(request.node.path).relative_to(TESTS).parts[:1]))


TESTS = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def isolated_dirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Path:
    """The test's own dirs. Its cache starts as a returning user's on the bundled
    collections (a cold start of them costs each reader test a second of CPU), unless the
    test is marked `cold` or is a unit or reliability test: those see a first start."""
    monkeypatch.setenv("PAPERTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    if _warm_tier(request) and request.node.get_closest_marker("cold") is None:
        shutil.copytree(request.getfixturevalue("warm_bundled_cache"), tmp_path / "cache")
    return tmp_path


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text cursors do not blink in tests, as with `cursor_blink = false` in the settings: a
    blink is a timer that changes the screen between two looks at it."""
    from papertui.core.system import settings
    from papertui.ui import app

    load = settings.load_settings

    def steady(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = load(*args, **kwargs)
        found.cursor_blink = False
        return found

    monkeypatch.setattr(app, "load_settings", steady)


@pytest.fixture
def write_corpus(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write a corpus file from text or bytes and return its path."""

    def write(content: str | bytes, name: str = "dump.txt") -> Path:
        path = tmp_path / "corpora" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8", newline="")
        else:
            path.write_bytes(content)
        return path

    return write


@pytest.fixture(scope="module")
def bundled_library(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The bundled collections, indexed once per test module, on their own temp dirs."""
    from papertui.core.library import Library
    from papertui.core.system.paths import bundled_corpus_dir

    mp = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("bundled")
    mp.setenv("PAPERTUI_DATA_DIR", str(base / "data"))
    mp.setenv("PAPERTUI_CACHE_DIR", str(base / "cache"))
    library = Library.open([bundled_corpus_dir()])
    library.indexing.ensure()
    yield library
    library.close()
    mp.undo()


@pytest.fixture
def full_disk(monkeypatch) -> Callable[[], None]:  # type: ignore[no-untyped-def]
    """Call it to leave the store's database no room for one more page, as a full disk does
    (SQLite's own limit, set on the connection the store opened)."""
    opened: list[sqlite3.Connection] = []
    connect = sqlite3.connect

    def keep(*args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(sqlite3, "connect", keep)

    def fill() -> None:
        from papertui.core.system import paths

        store = str(paths.store_path())
        for conn in opened:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed since
                if conn.execute("PRAGMA database_list").fetchone()[2] == store:
                    pages = conn.execute("PRAGMA page_count").fetchone()[0]
                    conn.execute(f"PRAGMA max_page_count = {pages}")

    return fill


# the longest tests, with a rough cost in seconds, start first, spread over the workers:
# `--dist worksteal` gives each worker an equal run of the collected tests and lets an idle
# one take the back half of another's queue, so each run opens with its share of the longest
# (started last, one of them runs on alone while the other workers stand idle)
LONGEST = {
    "test_screen_monkey.py::test_the_screen_holds": 60,
    "test_keys_land.py::": 30,
    "test_crash.py::test_sigkill": 22,
    "test_scale.py::test_cancelling": 20,
    "test_usability.py::test_searching_marks": 17,
    "test_monkey.py::": 15,
    "test_hostile.py::": 12,
    "test_damage.py::test_index_build_killed": 15,
    "test_closed_terminal.py::test_topics": 10,
}


def _cost(item: pytest.Item) -> int:
    return next((cost for part, cost in LONGEST.items() if part in item.nodeid), 0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    if workers < 2:
        return
    sizes, left = [], len(items)  # each worker's first run, as worksteal cuts them
    for n in range(workers):
        sizes.append(left // (workers - n))
        left -= sizes[-1]
    runs: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for item in sorted((i for i in items if _cost(i)), key=_cost, reverse=True):
        least = min(range(workers), key=lambda n: loads[n])
        runs[least].append(item)
        loads[least] += _cost(item)
    rest = iter([item for item in items if not _cost(item)])
    for run, size in zip(runs, sizes, strict=True):
        run.extend(next(rest) for _ in range(size - len(run)))
    items[:] = [item for run in runs for item in run] + list(rest)
