"""The paper list: a Line API view over a list of paper positions.

It renders only the rows on screen, so 100,000 papers cost no more to show or scroll than 100.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from papertui.core.corpus import Paper
from papertui.core.text import safe_display
from papertui.ui.widgets.row_labels import SELECTED, RowLook, short_labels
from papertui.ui.widgets.vim_count import VimCount


class PaperList(VimCount, ScrollView, can_focus=True):
    """Rows of "markers  title  [collection]"; the cursor row is the paper in the detail pane.

    It owns the selection (Space) and the cursor; the collection column shows only when the
    listed papers come from more than one collection."""

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

    def set_papers(self, papers: list[Paper]) -> None:
        """The library's papers grew (a cold start reads its files while the list is shown);
        positions shown so far keep their papers."""
        self._papers = papers
        self.labels = {}

    def set_rows(self, rows: list[int], keep: int | None = None, row: int | None = None) -> None:
        """Show `rows`; keep the cursor on paper `keep` if it is still there, or on row `row`
        (whatever paper is there now), else go to the top."""
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
        self._by_user = False
        self.set_reactive(PaperList.cursor, target)
        self._announce()
        # after the new virtual size is laid out, or the scroll is clamped to the old one
        self.call_after_refresh(self._center_cursor)
        self.refresh()

    def _center_cursor(self) -> None:
        self.scroll_to(y=max(0, self.cursor - self.size.height // 2), animate=False, immediate=True)

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
        y = row - int(self.scroll_offset.y)
        if 0 <= y < self.size.height:
            self.refresh_line(y)

    def _scroll_cursor_visible(self) -> None:
        top = int(self.scroll_offset.y)
        height = max(1, self.size.height)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

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
