"""How the library's papers look in the reader: a row's markers, and what the detail pane shows
of the paper under the cursor. Functions of the library and the view, computed on the UI
thread and handed down to the widgets."""

from __future__ import annotations

from papertui.core.library import Library
from papertui.core.query.view import View
from papertui.core.text import safe_display
from papertui.ui.widgets.detail import Shown
from papertui.ui.widgets.row_labels import BOOKMARK, LIKED, NEW, NOTE, SKIPPED, RowLook

PASSED_OVER = "passed over (+ to like)"


def row_look(library: Library, position: int) -> RowLook:
    """How the list draws the row of the paper at `position`."""
    paper = library.papers[position]
    notes, pid = library.annotations(), paper.id  # one snapshot per row drawn
    markers = (
        (BOOKMARK if pid in notes.bookmarks else " ")
        + (NOTE if notes.notes.get(pid) else " ")
        + _third_marker(notes.feedback_word(pid), notes.is_new(pid))
    )
    tags = " ".join(f"#{t}" for t in notes.tags_of(pid))
    suffix = " ".join(str(x) for x in (paper.year, paper.venue) if x)
    return RowLook(markers, unread=pid not in notes.reads, tags=tags, suffix=suffix)


def _third_marker(judged: str | None, new: bool) -> str:
    """Liked or skipped (what "for you" learned) shows before new: it is the reader's own answer."""
    if judged == "liked":
        return LIKED
    if judged == "skipped":
        return SKIPPED
    return NEW if new else " "


def shown(library: Library, position: int, view: View, passed_over: bool) -> Shown:
    """The paper at `position` for the detail pane. `passed_over`: it was read and not kept
    before the reader came to it this time (said where "for you" is at work: reading a good
    paper without + is then no surprise; never of the paper just arrived at)."""
    paper = library.papers[position]
    marks = library.marks
    marks.refresh_if_changed()  # another reader's bookmark or note shows when you get there
    state = "new" if marks.is_new(paper) else "" if marks.is_read(paper) else "unread"
    judged = marks.feedback_word(paper) or (PASSED_OVER if passed_over else "")
    return Shown(
        position,
        paper,
        bookmarked=marks.is_bookmarked(paper),
        note=marks.note(paper),
        highlighter=view.highlighter,
        tags=tuple(marks.tags_of(paper)),
        state=" · ".join(x for x in (state, judged) if x),
        why=view.why.get(position, ""),
    )


def empty_message(view: View) -> str:
    """What an empty list says: why, when the query's remarks know, else that nothing matched."""
    shown = safe_display(view.query.strip())
    if view.remarks and not view.indices:
        text = view.remarks[-1][:1].upper() + view.remarks[-1][1:] + "."
    elif shown:
        text = f"No papers match {shown!r}."
    else:
        text = "No papers here."
    return safe_display(text)
