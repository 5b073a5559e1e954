"""What the terminal shows: each cell's character and background, with no widget attribute
behind it.

`screen_of` reads the compositor's full update, the strips Textual would write to the
terminal; `svg_screen_of` rebuilds the same grid from `export_screenshot()` (a `<text>` run per
style, a `<rect>` per background run) for a check against the SVG. The reader's panes are found
by their places on the screen (the status line is the row above the footer; the list and the
detail pane are left and right of the divider)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from rich.cells import cell_len

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
    """The app's screen as it is painted now: the compositor's full update, the strips
    `export_screenshot` prints into its SVG, read cell by cell without drawing the SVG
    (a tenth of the time: the seeded monkey reads the screen after every key)."""
    width, height = app.size
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    rows: list[str] = []
    bg: list[list[str]] = []
    for line in update.strips[:height]:
        chars: list[str] = []
        colours: list[str] = []
        for strip in line:
            for segment in strip:
                if segment.control:
                    continue
                style = segment.style
                colour = None if style is None else style.color if style.reverse else style.bgcolor
                fill = _BLACK if colour is None or colour.is_default else _hex(colour)
                text = segment.text.replace("\xa0", " ")
                chars.append(text)
                colours.extend([fill] * cell_len(text))
        row = "".join(chars)
        rows.append((row + " " * width)[:width])
        bg.append((colours + [_BLACK] * width)[:width])
    while len(rows) < height:
        rows.append(" " * width)
        bg.append([_BLACK] * width)
    return Rendered(rows, bg)


_BLACK = "#000000"


def _hex(colour) -> str:  # type: ignore[no-untyped-def]
    return str(colour.get_truecolor().hex).lower()


def svg_screen_of(app) -> Rendered:  # type: ignore[no-untyped-def]
    """The same grid read back from Textual's SVG screenshot (`screen_of` is held to it)."""
    return read_screen(app.export_screenshot(), app.size.width, app.size.height)
