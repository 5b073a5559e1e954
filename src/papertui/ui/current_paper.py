"""The paper under the cursor, for the reader: its row markers, the detail pane's rendering
of it, and marking it read once it has stayed on screen for a moment."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.timer import Timer

from papertui.core.corpus import Paper
from papertui.core.semantic.foryou import is_passed_over
from papertui.ui.keys import LEARNING_ORDERS
from papertui.ui.triaging import ASK_ME
from papertui.ui.widgets.detail import render_paper
from papertui.ui.widgets.paper_list import BOOKMARK, LIKED, NEW, NOTE, SKIPPED, RowLook

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen

READ_AFTER = 1.5  # seconds a paper the user moved to stays shown before it counts as read


class CurrentPaper:
    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.library = reader.library
        self._read_timer: Timer | None = None

    @property
    def paper(self) -> Paper | None:
        pos = self.reader.paper_list.current
        return None if pos is None else self.library.papers[pos]

    def look(self, pos: int) -> RowLook:
        """How the list draws the row of the paper at `pos`."""
        paper = self.library.papers[pos]
        notes, pid = self.library.annotations(), paper.id  # one snapshot per row drawn
        markers = (
            (BOOKMARK if pid in notes.bookmarks else " ")
            + (NOTE if notes.notes.get(pid) else " ")
            + _third_marker(notes.feedback_word(pid), notes.is_new(pid))
        )
        tags = " ".join(f"#{t}" for t in notes.tags_of(pid))
        suffix = " ".join(str(x) for x in (paper.year, paper.venue) if x)
        return RowLook(markers, unread=pid not in notes.reads, tags=tags, suffix=suffix)

    def render(self, keep_scroll: bool = False) -> None:
        reader = self.reader
        paper = self.paper
        if paper is None:
            reader.detail.show("No paper selected.")
            return
        marks = self.library.marks
        marks.refresh_if_changed()  # another reader's bookmark or note shows when you get there
        state = "new" if marks.is_new(paper) else "" if marks.is_read(paper) else "unread"
        judged = marks.feedback_word(paper) or self._passed_over(paper)
        state = " · ".join(x for x in (state, judged) if x)
        rendered = render_paper(
            paper,
            bookmarked=marks.is_bookmarked(paper),
            note=marks.note(paper),
            highlighter=reader.view.highlighter,
            tags=marks.tags_of(paper),
            state=state,
            raw=reader.detail.raw,
            why=getattr(reader.view, "why", {}).get(reader.paper_list.current, ""),
        )
        reader.detail.show(rendered, keep_scroll=keep_scroll)

    def _passed_over(self, paper: Paper) -> str:
        """ "passed over" for a paper read and not kept, which "for you" learns from as it
        learns from a skip: said, so that reading a good paper without + is not a surprise."""
        reader = self.reader
        if reader.sort not in LEARNING_ORDERS and reader.narrowing.similar != ASK_ME:
            return ""  # said where "for you" is at work, not to every reader of a paper
        notes = self.library.annotations()
        return "passed over (+ to like)" if is_passed_over(notes, paper.id) else ""

    def refresh(self) -> None:
        """Markers and detail again, after the paper's annotations changed."""
        self.reader.paper_list.refresh_markers()
        self.render(keep_scroll=True)

    def schedule_read(self) -> None:
        self.stop_read_timer()
        pos = self.reader.paper_list.current
        if pos is None or self.library.marks.is_read(self.library.papers[pos]):
            return
        self._read_timer = self.reader.set_timer(READ_AFTER, lambda: self._mark_read(pos))

    def _mark_read(self, pos: int) -> None:
        if self.reader.paper_list.current == pos:
            self.reader.annotating.mark_read(self.library.papers[pos])

    def stop_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()


def _third_marker(judged: str | None, new: bool) -> str:
    """Liked or skipped (what "for you" learned) shows before new: it is the reader's own answer."""
    if judged == "liked":
        return LIKED
    if judged == "skipped":
        return SKIPPED
    return NEW if new else " "
