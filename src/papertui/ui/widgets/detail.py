"""The detail pane: the whole abstract of the paper under the cursor, wrapped, with the query's
words lit. It owns how the paper is shown (readable math or raw) and when it counts as read."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from papertui.core.corpus import Paper
from papertui.core.search import Highlighter
from papertui.ui.widgets.detail_text import render_paper
from papertui.ui.widgets.paging import scroll_lines, scroll_pages, scroll_to_edge

READ_AFTER = 1.5  # seconds a paper stays shown, with the list or this pane focused, to be read


@dataclass(frozen=True, slots=True)
class Shown:
    """A paper as the pane shows it, with what the reader made of it (attributes down)."""

    position: int  # in the library
    paper: Paper
    bookmarked: bool = False
    note: str = ""
    highlighter: Highlighter | None = None
    tags: tuple[str, ...] = ()
    state: str = ""
    why: str = ""


class DetailPane(ScrollView, can_focus=True):
    """The paper under the cursor (`shown`), readable or `raw`; jumps between the highlighted
    words. Posts `Dwelled` once a paper has been shown READ_AFTER seconds while the list or this
    pane has focus (never while the search box has it): the one rule for "read".

    It wraps and paints its own lines: a text widget inside a scrolling box, given a new paper
    at every key of the list, made Textual lay out the whole screen again (about a third of
    the time a key took)."""

    DEFAULT_CSS = """
    DetailPane {
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-gutter: stable;
    }
    """

    BINDINGS = [
        Binding("j,down", "scroll_lines(1)", "Scroll down", show=False),
        Binding("k,up", "scroll_lines(-1)", "Scroll up", show=False),
        Binding("g,home", "scroll_edge(False)", "Top", show=False),
        Binding("G,end", "scroll_edge(True)", "Bottom", show=False),
        Binding("space", "scroll_page", "Page down", show=False),
        Binding("tab", "screen.switch_pane", "Switch pane", show=False),
    ]

    shown: reactive[Shown | None] = reactive(None, always_update=True, init=False)
    raw: reactive[bool] = reactive(False, init=False)
    empty: reactive[str] = reactive("No paper selected.", init=False)

    @dataclass
    class Dwelled(Message):
        """The paper at `position` was shown long enough to count as read."""

        position: int

    def __init__(self, *, id: str | None = None, reading: type[Widget] | None = None) -> None:
        super().__init__(id=id)
        self._text: Text | None = None
        self._hits: list[int] = []
        self._hit = -1
        self._dwell: Timer | None = None
        self._reading = reading  # besides this pane, the widget whose focus counts as reading
        self._moves = 0  # keys that moved the text: a repaint does not undo them
        self._lines: list[Strip] = []  # the text wrapped to the pane's width
        self._wrapped: tuple[Text | None, int] = (None, -1)  # what `_lines` wraps, and how wide

    @property
    def shown_text(self) -> str:
        """The pane's text as a person reads it, unwrapped: the paper, or why there is none."""
        return self._text.plain if self._text is not None else self.empty

    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    def watch_shown(self, old: Shown | None, new: Shown | None) -> None:
        moved = old is None or new is None or old.position != new.position
        self._paint(keep_scroll=not moved)
        if moved:
            self._start_dwell()

    def watch_raw(self) -> None:
        self._paint(keep_scroll=True)

    def watch_empty(self) -> None:
        if self.shown is None:
            self._paint(keep_scroll=False)

    def _paint(self, keep_scroll: bool) -> None:
        y = self.scroll_y
        hits, hit = self._hits, self._hit
        shown = self.shown
        if shown is None:
            self._text, self._hits = None, []
        else:
            rendered = render_paper(
                shown.paper,
                bookmarked=shown.bookmarked,
                note=shown.note,
                highlighter=shown.highlighter,
                tags=list(shown.tags),
                state=shown.state,
                raw=self.raw,
                why=shown.why,
            )
            self._text, self._hits = rendered.text, rendered.hits
        self._wrap()
        # a repaint in place (marked read after a while) keeps the place among the same hits
        self._hit = hit if keep_scroll and len(self._hits) == len(hits) else -1
        if keep_scroll:  # once the new text is laid out
            self.call_after_refresh(self._keep_at, y, self._moves)
        else:
            self.scroll_home(animate=False)

    def _keep_at(self, y: float, moves: int) -> None:
        # a paper repainted in place (marked read, a note saved) stays where it was, unless a
        # key has moved it since: that key wins
        if moves == self._moves:
            self.scroll_to(y=y, animate=False, immediate=True)

    # -- lines ------------------------------------------------------------------------------------

    def _wrap(self) -> None:
        """Wrap the text to the width there is, and say how many lines it makes. The new height
        is set without a layout of the screen: only this pane's scrollbar depends on it."""
        text = self._text if self._text is not None else Text(self.empty)
        width = self.scrollable_content_region.width
        if width <= 0 or (self._wrapped[0] is text and self._wrapped[1] == width):
            return
        console = self.app.console
        wrapped = text.wrap(console, width, overflow="fold")
        self._lines = [Strip(line.render(console), line.cell_len) for line in wrapped]
        self._wrapped = (text, width)
        size = Size(width, len(self._lines))
        if size != self.virtual_size:
            self.set_reactive(DetailPane.virtual_size, size)
            self._scroll_update(size)  # Textual's own step for a new virtual size, minus layout
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._wrap()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        line = self._lines[index] if 0 <= index < len(self._lines) else Strip.blank(0)
        return line.crop_extend(0, width, None).apply_style(self.rich_style)

    # -- read -------------------------------------------------------------------------------------

    def _reading_focus(self) -> bool:
        focused = self.screen.focused
        if focused is None:
            return False
        if focused is self or self in focused.ancestors:
            return True
        return self._reading is not None and isinstance(focused, self._reading)

    def _start_dwell(self) -> None:
        if self._dwell is not None:
            self._dwell.stop()
            self._dwell = None
        shown = self.shown
        if shown is None or not self._reading_focus():
            return
        position = shown.position
        self._dwell = self.set_timer(READ_AFTER, lambda: self._dwelled(position))

    def _dwelled(self, position: int) -> None:
        self._dwell = None
        shown = self.shown
        if shown is not None and shown.position == position and self._reading_focus():
            self.post_message(self.Dwelled(position))

    def read_again(self) -> None:
        """Count the paper shown from now, as if just shown (its dwell was not counted)."""
        self._start_dwell()

    def _focus_moved(self) -> None:
        # into the search box: the timer stops; back to the list: the paper shown starts again
        if not self._reading_focus():
            if self._dwell is not None:
                self._dwell.stop()
                self._dwell = None
        elif self._dwell is None:
            self._start_dwell()

    # -- hits -------------------------------------------------------------------------------------

    def action_scroll_lines(self, lines: int) -> None:
        self._moves += 1
        scroll_lines(self, lines)

    def action_scroll_page(self) -> None:
        self._moves += 1
        scroll_pages(self, 1)

    def action_scroll_edge(self, bottom: bool) -> None:
        self._moves += 1
        scroll_to_edge(self, bottom)

    def jump(self, step: int) -> bool:
        """Scroll to the next (step 1) or previous (-1) highlighted word; False if none."""
        if not self._hits or self._text is None:
            return False
        self._hit = (self._hit + step) % len(self._hits)
        prefix = self._text[: self._hits[self._hit]]
        width = max(1, self.scrollable_content_region.width)
        line = len(prefix.wrap(self.app.console, width)) - 1
        self._moves += 1
        self.scroll_to(y=max(0, line - 2), animate=False, immediate=True)
        return True
