"""The list follows the cursor in a real terminal: the installed `papertui` in a pseudo-terminal,
its output read by a terminal emulator (`terminal.Terminal`, pyte), at three sizes.

After each way of moving, the screen's status line gives the cursor's row, exactly one row of
the list is highlighted, and that row shows the title the command line (`papertui list`) gives
the paper of that row in file order. Nothing but the emulated screen is read: its text and each
cell's background. One reader per size walks every step, `g` between them."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from terminal import Terminal, papertui_command

SIZES = [(80, 24), (120, 40), (200, 60)]
PAPERS = 139  # the bundled collections
KEY = 16  # characters of a title that a list row must show
STARTUP = 30.0  # the first paint, the corpus read and indexed in fresh dirs, under load
STEP = 10.0
_STATUS = re.compile(r"\brow (\d+)/(\d+)\b")

Check = Callable[[Terminal], "str | None"]


def data_env(base: Path) -> dict[str, str]:
    return {
        "PAPERTUI_DATA_DIR": str(base / "data"),
        "PAPERTUI_CACHE_DIR": str(base / "cache"),
        "PAPERTUI_CONFIG_DIR": str(base / "config"),
    }


@pytest.fixture(scope="module")
def titles(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The bundled papers' titles in file order, as `papertui list --json` prints them."""
    env = {**os.environ, **data_env(tmp_path_factory.mktemp("titles"))}
    done = subprocess.run(
        [*papertui_command(), "list", "--json"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    found = [" ".join(r["title"].split()) for r in json.loads(done.stdout)]
    assert len(found) == PAPERS
    return found


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[Callable[[tuple[int, int]], Terminal]]:
    """Starts the reader on the bundled collections (`reader(size)`); every reader started
    is ended afterwards, whatever the test did."""
    started: list[Terminal] = []

    def start(size: tuple[int, int]) -> Terminal:
        started.append(Terminal.start(size, [], data_env(tmp_path)))
        return started[-1]

    yield start
    for term in started:
        term.close()


def status_row(rows: list[str]) -> tuple[int, int, int] | None:
    """The status line's screen row, and the row number and count it gives."""
    for y in range(len(rows) - 1, -1, -1):
        if m := _STATUS.search(rows[y]):
            return y, int(m.group(1)), int(m.group(2))
    return None


def list_rows(rows: list[str], status: int) -> tuple[int, int]:
    """The screen rows of the list: below the search box, above the detail pane's border
    (a row of ▁ across the screen, when the panes are stacked) or else the status line."""
    top = next((y + 1 for y, r in enumerate(rows) if r.startswith("▊▁")), 0)
    border = (y for y in range(top, status) if rows[y].strip() and not rows[y].strip("▁"))
    return top, next(border, status)


def cursor(titles: list[str], row: int | None = None, at: int | None = None) -> Check:
    """A check: the status line gives `row` (any, if None) of all the papers, exactly one list
    row is highlighted (at screen row `at`, if given) and it shows that row's title."""

    def check(term: Terminal) -> str | None:
        rows = term.rows()
        found = status_row(rows)
        if found is None:
            return "no 'row N/M' in the status line"
        y, shown, count = found
        if count != PAPERS or (row is not None and shown != row):
            return f"the status line says {rows[y].strip()!r}, not row {row}/{PAPERS}"
        top, bottom = list_rows(rows, y)
        lit = term.highlighted(top, bottom)
        if len(lit) != 1:
            return f"{len(lit)} highlighted rows {lit} in the list (screen rows {top}-{bottom - 1})"
        title = titles[shown - 1][:KEY]
        if title not in " ".join(rows[lit[0]].split()):
            return f"row {shown} is {titles[shown - 1]!r}, the highlighted row {lit[0]} is not"
        if at is not None and lit[0] != at:
            return f"row {shown} is highlighted on screen row {lit[0]}, not {at}"
        return None

    return check


def highlighted_at(term: Terminal, status: bool = False) -> int:
    """The screen row of the highlighted list row (with `status`: of the status line)."""
    rows = term.rows()
    found = status_row(rows)
    assert found is not None, term.dump()
    return found[0] if status else term.highlighted(*list_rows(rows, found[0]))[0]


def left_the_list(term: Terminal) -> str | None:
    """A check: the status line no longer lists the whole collection (`m` shows a view of
    related papers)."""
    found = status_row(term.rows())
    if found is not None and found[1:] == (100, PAPERS):
        return "the status line still says row 100 of the collection"
    return None


@pytest.mark.parametrize("size", SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
def test_the_terminal_shows_the_cursor_row_after_every_move(size, reader, titles) -> None:
    term = reader(size)
    term.wait_for(cursor(titles, 1), STARTUP, "the first paint")

    def step(keys: list[str], check: Check, what: str) -> None:
        term.send("g")
        term.wait_for(cursor(titles, 1), STEP, f"{what}: g, back to the top")
        term.send(*keys)
        term.wait_for(check, STEP, what)

    term.send("j" * 40)
    term.wait_for(cursor(titles, 41), STEP, "j x40")
    step(["100G"], cursor(titles, 100), "100G")
    step(["G"], cursor(titles, PAPERS), "G")
    top, bottom = list_rows(term.rows(), highlighted_at(term, status=True))
    page = bottom - top - 1  # PgDn moves the cursor a page of the list less one row
    step(["pagedown", "pagedown"], cursor(titles, min(PAPERS, 1 + 2 * page)), "PgDn x2")
    step(["100G"], cursor(titles, 100), "100G before m")
    at = highlighted_at(term)
    term.send("m")
    term.wait_for(left_the_list, STEP, "m (more like this)")
    term.send("escape")
    term.wait_for(cursor(titles, 100, at), STEP, "100G, m, Esc")
