"""The paper list: a Line API view over a list of paper positions.

It renders only the rows on screen, so 100,000 papers cost no more to show or scroll than 100.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events, on
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollDown, ScrollTo, ScrollUp
from textual.strip import Strip

from papertui.core.corpus import Paper
from papertui.core.text import safe_display
from papertui.ui.widgets.row_labels import SELECTED, RowLook, short_labels
from papertui.ui.widgets.vim_count import VimCount

# rows kept between the cursor and the list's top or bottom edge while it moves, as vim's
# 'scrolloff': the papers around the one being read stay in sight
SCROLL_OFF = 3
WHEEL_ROWS = 3  # rows a notch of the mouse wheel moves


class PaperList(VimCount, ScrollView, can_focus=True):
    """Rows of "markers  title  [collection]"; the cursor row is the paper in the detail pane.

    It owns the selection (Space) and the cursor, and keeps the cursor's row on screen, with
    `SCROLL_OFF` rows around it; the collection column shows only when the listed papers come
    from more than one collection."""

    # VimCount comes first in the bases, so ScrollView's own overflow rule does not reach this
    # class: without it the list can never scroll to its cursor
    DEFAULT_CSS = """
    PaperList {
        overflow-y: auto;
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
    }
    """

    BINDINGS = [
        Binding("j,down", "cursor_down", "Down", show=False),
        Binding("k,up", "cursor_up", "Up", show=False),
        Binding("g,home", "first", "First", show=False),
        Binding("G,end", "last", "Last", show=False),
        Binding("pagedown,ctrl+f", "page_down", "Page down", show=False),
        Binding("space", "toggle_select", "Select", show=False),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False),
        Binding("tab", "screen.switch_pane", "Switch pane", show=False),
        Binding("enter", "screen.open_paper", "Read", show=False),
    ]

    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--marker",
        "paper-list--collection",
        "paper-list--empty",
        "paper-list--unread",
        "paper-list--tags",
        "paper-list--suffix",
    }

    cursor: reactive[int] = reactive(0, always_update=False, repaint=False)

    @dataclass
    class Highlighted(Message):
        """The cursor moved to another paper (None: the list is empty)."""

        paper_list: PaperList
        position: int | None
        by_user: bool = False  # moved there by a key or a click, not by a new result list

    @dataclass
    class SelectionChanged(Message):
        """Papers were selected or unselected."""

        paper_list: PaperList

    def __init__(
        self,
        papers: list[Paper],
        look: Callable[[int], RowLook],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._papers = papers
        self._look = look
        self.rows: list[int] = []
        self.selected: set[int] = set()  # positions into the papers
        self.labels: dict[str, str] = {}  # collection -> short label; empty: one collection
        self.empty_message = "No papers match."
        self._by_user = False

    # -- data -------------------------------------------------------------------------------------

    @property
    def position(self) -> int | None:
        """The paper under the cursor, as its position in the library."""
        if 0 <= self.cursor < len(self.rows):
            return self.rows[self.cursor]
        return None

    @property
    def screen_row(self) -> int:
        """The cursor's row on screen, counted from the list's top edge."""
        return self.cursor - int(self.scroll_offset.y)

    def set_papers(self, papers: list[Paper]) -> None:
        """The library's papers grew (a cold start reads its files while the list is shown);
        positions shown so far keep their papers."""
        self._papers = papers
        self.labels = {}

    def set_rows(
        self,
        rows: list[int],
        keep: int | None = None,
        row: int | None = None,
        screen_row: int | None = None,
    ) -> None:
        """Show `rows`; keep the cursor on paper `keep` if it is still there, or on row `row`
        (whatever paper is there now), else go to the top. `screen_row`: the cursor's row on
        screen (from the list's top edge) to show it at; by default a paper kept stays where
        it was on screen."""
        before, before_at = self.position, self.screen_row
        self.rows = rows
        self.virtual_size = Size(self.size.width, len(rows))
        self._update_labels()
        target = 0
        if row is not None:
            target = max(0, min(row, len(rows) - 1))
        elif keep is not None:
            try:
                target = rows.index(keep)
            except ValueError:
                target = 0
        if screen_row is None and before is not None and rows and rows[target] == before:
            screen_row = before_at  # the same paper: no jump under the reader's eyes
        self._by_user = False
        self.set_reactive(PaperList.cursor, target)
        self._announce()
        # now, so that no frame shows the old rows' scroll; and once the new virtual size is
        # laid out the cursor is made sure of again (Textual may clamp the scroll to the old
        # size meanwhile; keys pressed since have moved the cursor where they wanted)
        self._place_cursor(screen_row)
        self.call_after_refresh(self._scroll_cursor_visible)
        self.refresh()

    def _place_cursor(self, screen_row: int | None) -> None:
        """Scroll so that the cursor shows on `screen_row`, or (None) in the middle when it is
        off screen."""
        height = max(1, self.size.height)
        if screen_row is None:
            if self._cursor_visible():
                return
            screen_row = height // 2
        screen_row = max(0, min(screen_row, height - 1))
        self._scroll_top_to(self.cursor - screen_row)
        self._scroll_cursor_visible()

    def _cursor_visible(self) -> bool:
        top = int(self.scroll_offset.y)
        return top <= self.cursor < top + max(1, self.size.height)

    def _scroll_top_to(self, top: int) -> None:
        # `force`: the list scrolls itself, whatever its scrollbar shows
        top = max(0, min(top, len(self.rows) - self.size.height))
        if top != int(self.scroll_offset.y):
            self.scroll_to(y=top, animate=False, immediate=True, force=True)

    def _update_labels(self) -> None:
        papers, first = self._papers, None
        for pos in self.rows:  # stops at the second collection it meets
            name = papers[pos].collection
            if first is None:
                first = name
            elif name != first:
                if not self.labels:
                    self.labels = short_labels(sorted({p.collection for p in papers}))
                return
        self.labels = {}

    def toggle_select(self, pos: int) -> None:
        self.selected.symmetric_difference_update({pos})
        self.refresh()
        self.post_message(self.SelectionChanged(self))

    def clear_selection(self) -> bool:
        """Unselect everything; False when nothing was selected."""
        if not self.selected:
            return False
        self.selected.clear()
        self.refresh()
        self.post_message(self.SelectionChanged(self))
        return True

    def select_all(self, toggle: bool = True) -> int:
        """Select every paper listed, or (`toggle`) unselect them all when they all are; how
        many are selected after."""
        if toggle and self.rows and self.selected.issuperset(self.rows):
            self.selected.difference_update(self.rows)
        else:
            self.selected.update(self.rows)
        self.refresh()
        self.post_message(self.SelectionChanged(self))
        return len(self.selected)

    def action_toggle_select(self) -> None:
        pos = self.position
        if pos is not None:
            self.toggle_select(pos)
            self.action_cursor_down()

    # -- cursor -----------------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_cursor_visible()
        self._announce()

    def _announce(self) -> None:
        self.post_message(self.Highlighted(self, self.position, self._by_user))

    def _refresh_row(self, row: int) -> None:
        # ScrollView's refresh_line takes the row in the list and finds it on screen itself
        if 0 <= row - int(self.scroll_offset.y) < self.size.height:
            self.refresh_line(row)

    def _margin(self) -> int:
        return max(0, min(SCROLL_OFF, (self.size.height - 1) // 2))

    def _scroll_cursor_visible(self) -> None:
        """Scroll the least that shows the cursor's row with `SCROLL_OFF` rows around it."""
        top, height, margin = int(self.scroll_offset.y), max(1, self.size.height), self._margin()
        if self.cursor < top + margin:
            self._scroll_top_to(self.cursor - margin)
        elif self.cursor > top + height - 1 - margin:
            self._scroll_top_to(self.cursor - height + 1 + margin)

    # the wheel or the scrollbar moved the rows: once they have moved, the cursor comes along,
    # as in vim, so the paper in the detail pane is always one on screen (a scroll of the
    # list's own, to its cursor or to a new list's length, moves no cursor)
    def on_mouse_scroll_down(self) -> None:
        self.call_after_refresh(self._cursor_into_view)

    def on_mouse_scroll_up(self) -> None:
        self.call_after_refresh(self._cursor_into_view)

    @on(ScrollTo)
    @on(ScrollUp)
    @on(ScrollDown)
    def _scrollbar_moved(self) -> None:
        self.call_after_refresh(self._cursor_into_view)

    def _cursor_into_view(self) -> None:
        if not self.rows or not self.size.height:
            return
        top, height, margin = int(self.scroll_offset.y), self.size.height, self._margin()
        low = top + margin if top > 0 else 0
        high = top + height - 1 - margin
        if top + height >= len(self.rows):
            high = len(self.rows) - 1
        if self.cursor < low or self.cursor > high:
            self._by_user = True
            self.cursor = max(low, min(self.cursor, high, len(self.rows) - 1))

    def go_to(self, position: int) -> bool:
        """Put the cursor on paper `position` (of the library) if the list shows it."""
        try:
            self.cursor = self.rows.index(position)
        except ValueError:
            return False
        return True

    def _move_to(self, row: int) -> None:
        if self.rows:
            self._by_user = True
            self.cursor = max(0, min(len(self.rows) - 1, row))

    def action_cursor_down(self) -> None:
        self._move_to(self.cursor + (self._take_count() or 1))

    def action_cursor_up(self) -> None:
        self._move_to(self.cursor - (self._take_count() or 1))

    def action_first(self) -> None:
        count = self._take_count()  # "12g": row 12, as vim's 12gg
        self._move_to(count - 1 if count else 0)

    def action_last(self) -> None:
        count = self._take_count()  # "12G": row 12
        self._move_to(count - 1 if count else len(self.rows) - 1)

    def action_page_down(self) -> None:
        self._move_to(self.cursor + (self._take_count() or 1) * max(1, self.size.height - 1))

    def action_page_up(self) -> None:
        self._move_to(self.cursor - (self._take_count() or 1) * max(1, self.size.height - 1))

    def on_click(self, event: events.Click) -> None:
        self._move_to(int(self.scroll_offset.y) + event.y)

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(event.size.width, len(self.rows))
        self.call_after_refresh(self._scroll_cursor_visible)

    # -- rendering --------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = int(self.scroll_offset.y) + y
        base = self.rich_style
        if not self.rows:
            if y == 0:
                style = self.get_component_rich_style("paper-list--empty")
                return Strip([Segment(f" {self.empty_message}", style)]).adjust_cell_length(
                    width, base
                )
            return Strip.blank(width, base)
        if row >= len(self.rows):
            return Strip.blank(width, base)
        pos = self.rows[row]
        paper = self._papers[pos]
        marker_style = self.get_component_rich_style("paper-list--marker")
        look = self._look(pos)
        markers = (SELECTED if pos in self.selected else " ") + look.markers
        title_style = (
            base + self.get_component_rich_style("paper-list--unread") if (look.unread) else base
        )
        label = self.labels.get(paper.collection, "") if self.labels else ""
        title_width = max(4, width - cell_len(markers) - 1 - (cell_len(label) + 2 if label else 0))
        text = safe_display(paper.title)
        if cell_len(text) > title_width:  # cut with a mark, so a cut word is not taken as whole
            text = set_cell_size(text, title_width - 1).rstrip() + "…"
        title_segments = [Segment(text, title_style)]
        if look.tags:
            tag_style = self.get_component_rich_style("paper-list--tags")
            title_segments.append(Segment("  " + safe_display(look.tags), tag_style))
        used = sum(cell_len(t) for t, _, _ in title_segments)
        if look.suffix and used + 2 + cell_len(look.suffix) <= title_width:
            suffix_style = self.get_component_rich_style("paper-list--suffix")
            title_segments.append(Segment("  " + safe_display(look.suffix), suffix_style))
        title = Strip(title_segments).crop(0, title_width)
        segments = [Segment(f"{markers} ", marker_style + base if base else marker_style)]
        segments.extend(title.adjust_cell_length(title_width, base))
        if label:
            collection_style = self.get_component_rich_style("paper-list--collection")
            segments.append(Segment("  ", base))
            segments.append(Segment(label, collection_style))
        strip = Strip(segments).adjust_cell_length(width, base)
        if row == self.cursor:
            # applied over each segment's own style, so the cursor's background wins
            cursor = self.get_component_rich_style("paper-list--cursor")
            strip = Strip([Segment(t, (s or Style()) + cursor) for t, s, _ in strip])
        return strip
