"""What the terminal shows, read from Textual's own screenshot: each cell's character and
background, with no widget attribute behind it.

`export_screenshot()` is the SVG Textual renders the screen to; its rows and cells sit on a
fixed grid (a `<text>` run per style, a `<rect>` per background run), so the grid is rebuilt
cell by cell. The reader's panes are found by their places on the screen (the status line is
the row above the footer; the list and the detail pane are left and right of the divider)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_CELL_W, _ROW_H, _TOP = 12.2, 24.4, 1.5
_TEXT = re.compile(
    r'<text class="terminal-[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-(?:\d+-)?line-(\d+)\)">(.*?)</text>'
)
_RECT = re.compile(
    r'<rect fill="(#[0-9a-fA-F]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
    r'height="[\d.]+" shape-rendering="crispEdges"'
)


@dataclass
class Rendered:
    """The screen as a grid: `rows[y]` its text, `bg[y][x]` each cell's background colour."""

    rows: list[str]
    bg: list[list[str]]

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def text(self, y: int, x0: int = 0, x1: int | None = None) -> str:
        return self.rows[y][x0:x1]

    def block(self, y0: int, y1: int, x0: int, x1: int) -> str:
        """The text of a rectangle, rows joined by spaces (wrapped text read as one line)."""
        return " ".join(self.rows[y][x0:x1].strip() for y in range(y0, y1))

    def dump(self) -> str:
        return "\n".join(self.rows)


def read_screen(svg: str, width: int, height: int) -> Rendered:
    grid = [[" "] * width for _ in range(height)]
    bg = [["#000000"] * width for _ in range(height)]
    for fill, x, y, w in _RECT.findall(svg):
        row = round((float(y) - _TOP) / _ROW_H)
        start, cells = round(float(x) / _CELL_W), round(float(w) / _CELL_W)
        if 0 <= row < height:
            for col in range(start, min(width, start + cells)):
                bg[row][col] = fill.lower()
    for x, line, text in _TEXT.findall(svg):
        row, col = int(line), round(float(x) / _CELL_W)
        if not 0 <= row < height:
            continue
        for ch in html.unescape(text).replace("\xa0", " "):
            if col < width:
                grid[row][col] = ch
            col += 1
    return Rendered(["".join(r) for r in grid], bg)


def screen_of(app) -> Rendered:  # type: ignore[no-untyped-def]
    """The app's screen as it is painted now."""
    return read_screen(app.export_screenshot(), app.size.width, app.size.height)
