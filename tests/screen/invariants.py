"""What must be true of the reader's screen after any key, read from the rendered cells.

Each check reads the screen (`rendered.screen_of`) and compares it with what the list holds:
the widgets give only where the panes are and which papers the list holds, never whether
something is shown."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from papertui.core.text import safe_display
from papertui.ui.screens.reader import ReaderScreen
from papertui.ui.widgets.detail import DetailPane
from papertui.ui.widgets.paper_list import PaperList
from papertui.ui.widgets.status import StatusLine

from rendered import Rendered, screen_of

_ROW = re.compile(r"\brow (\d+)(?:/(\d+)(?: of (\d+))?| of the best (\d+) of (\d+) (matches|\())")
_COUNT = re.compile(r"^ ?(?:(\d+) of (\d+) papers?|best (\d+) of (\d+)|(\d+) papers?)\b")
_WORDS = re.compile(r"[A-Za-z]+(?: [A-Za-z]+){2,}")  # three words or more
KEY = 16  # characters of a title that must match between the list, the detail and the paper


@dataclass
class Seen:
    """What the screen says: the cursor's screen row in the list (None: no highlighted row),
    the status line's row number and its count of matching papers."""

    cursor_row: int | None
    status_row: int | None
    count: int | None
    status: str


def _key(title: str) -> str:
    return " ".join(safe_display(title).split())[:KEY]


def highlighted_rows(screen: Rendered, plist: PaperList) -> list[int]:
    """The list's rows (from its top edge) painted in another background than most of it."""
    region = plist.content_region
    x = region.x + 1  # a marker cell: the cursor's background covers the whole row
    colours = [screen.bg[y][x] for y in range(region.y, region.y + region.height)]
    if not colours:
        return []
    usual = Counter(colours).most_common(1)[0][0]
    return [i for i, c in enumerate(colours) if c != usual]


def read_status(text: str) -> tuple[int | None, int | None]:
    """The row number and the count of matches the status line gives."""
    m = _ROW.search(text)
    if m:
        row = int(m.group(1))
        if m.group(2):  # "row 3/57" or "row 3/57 of 139": 57 listed, all of them
            return row, int(m.group(2))
        return row, int(m.group(5))  # "row 3 of the best 100 of 1593 matches"
    m = _COUNT.search(text)
    if m:
        shown = m.group(1) or m.group(5)
        if m.group(3):
            return None, int(m.group(4))
        return None, int(shown) if shown else None
    return None, None


def look(app) -> Seen:  # type: ignore[no-untyped-def]
    reader: ReaderScreen = app.reader
    screen = screen_of(app)
    plist = reader.query_one(PaperList)
    status = reader.query_one(StatusLine).region
    status_text = screen.text(status.y, status.x, status.x + status.width)
    rows = highlighted_rows(screen, plist) if plist.display else []
    row, count = read_status(status_text)
    return Seen(rows[0] if len(rows) == 1 else None, row, count, status_text.strip())


def problems(app, expected_count: int | None = None) -> list[str]:  # type: ignore[no-untyped-def]
    """Every invariant the reader's screen breaks now (empty: none). `expected_count`: the
    number of papers the command line finds for the query shown, when it is a plain one."""
    reader: ReaderScreen = app.reader
    if app.screen is not reader:
        return []  # a dialog covers the list
    screen = screen_of(app)
    plist, detail = reader.query_one(PaperList), reader.query_one(DetailPane)
    status = reader.query_one(StatusLine).region
    status_text = screen.text(status.y, status.x, status.x + status.width).strip()
    found: list[str] = []
    row, count = read_status(status_text)
    if expected_count is not None and count != expected_count:
        found.append(f"the status line counts {count}, the command line {expected_count}")
    if not plist.rows:
        return found
    region = plist.content_region
    lit = highlighted_rows(screen, plist)
    if len(lit) != 1:
        found.append(f"{len(lit)} highlighted rows in the list (the cursor's must show)")
        return found
    if row is None:
        found.append(f"no row number in the status line: {status_text!r}")
        return found
    if not 1 <= row <= len(plist.rows):
        found.append(f"the status line's row {row} is not a row of the {len(plist.rows)}")
        return found
    paper = app.library.papers[plist.rows[row - 1]]
    shown = screen.text(region.y + lit[0], region.x, region.x + region.width)
    if _key(paper.title)[:KEY] not in " ".join(shown.split()):
        found.append(f"row {row} is {paper.title[:40]!r} but the highlighted row shows {shown!r}")
    if detail.display and detail.region.height > 2 and not _shows(screen, detail, paper):
        d = detail.content_region
        text = " ".join(screen.block(d.y, d.y + d.height, d.x, d.x + d.width).split())
        found.append(f"the detail pane does not show row {row}'s paper: {text[:60]!r}")
    return found


def _shows(screen: Rendered, detail: DetailPane, paper) -> bool:  # type: ignore[no-untyped-def]
    """Whether the detail pane's cells show `paper`: its title near the top, or (scrolled
    down) a run of words that its abstract holds."""
    d = detail.content_region
    top = " ".join(screen.block(d.y, d.y + min(d.height, 6), d.x, d.x + d.width).split())
    if _key(paper.title)[: min(KEY, d.width - 2)] in top:
        return True
    abstract = " ".join(safe_display(paper.abstract).split())
    lines = [screen.text(y, d.x, d.x + d.width).strip() for y in range(d.y, d.y + d.height)]
    runs = [m.group(0) for line in lines for m in _WORDS.finditer(line)]
    runs = [r for r in runs if len(r) >= 15]
    return bool(runs) and any(r in abstract for r in runs)
