"""The status line: what the list shows and why, driven by reactives."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.reactive import reactive
from textual.widgets import Static

from papertui.core.query.planner import SCANNED
from papertui.core.text import safe_display


@dataclass(frozen=True, slots=True)
class ListState:
    """Everything the status line reports about the list."""

    total: int = 0
    shown: int = 0
    more: bool = False  # more full-text hits are ranked when scrolled to the end
    matched: int | None = None  # how many papers the query matches, when more are to come
    filtered: bool = False
    layers: tuple[str, ...] = ()  # filters in force, in the order Esc peels them (last first)
    sort: str = ""
    selected: int = 0
    corrections: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = field(default=())
    position: int = 0  # the cursor's row, from 1 (0: no paper under the cursor)


class StatusLine(Static):
    """One line: counts, filters in force, the order, notes about the query, index progress."""

    state: reactive[ListState] = reactive(ListState, init=False)
    index_state: reactive[str] = reactive("", init=False)
    count: reactive[str] = reactive("", init=False)  # a vim count being typed ("12" of "12G")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)

    def watch_state(self) -> None:
        self._render_line()

    def watch_index_state(self) -> None:
        self._render_line()

    def watch_count(self) -> None:
        self._render_line()

    def on_resize(self) -> None:
        self._render_line()

    def _render_line(self) -> None:
        s = self.state
        # where the cursor is goes with the count, as vim's ruler, and is never dropped
        # with more to come, of how many matches (a trial read "of 3000", the library, as that)
        of = f"{s.matched} matches" if s.matched is not None else str(s.total)
        if s.position and s.filtered and s.more:
            counted = f"row {s.position} of the best {s.shown} of {of} (more as you scroll)"
        elif s.position:
            counted = f"row {s.position}/{s.shown}" + (f" of {s.total}" if s.filtered else "")
        elif s.filtered:
            counted = f"{s.shown} of {s.total} papers" if s.total != 1 else "1 of 1 paper"
            if s.more:
                papers = of if s.matched is not None else f"{s.total} papers"
                counted = f"best {s.shown} of {papers} (more as you scroll)"
        else:
            counted = f"{s.total} papers" if s.total != 1 else "1 paper"
        # (priority, text) in the order shown; a line too long for the terminal drops whole
        # parts, least needed first, instead of ending in half a word
        parts: list[tuple[float, str]] = [(0, counted), *((1, layer) for layer in s.layers)]
        if s.selected:
            parts.append((2, f"{s.selected} selected"))
        if s.corrections:
            parts.append((4, "searched " + ", ".join(f"{a}→{b}" for a, b in s.corrections)))
        notes, progress = list(s.notes), self.index_state
        if SCANNED in notes and progress:  # results from a scan while the index is built
            notes.remove(SCANNED)
            notes.insert(0, f"partial: {progress}")
            progress = ""
        parts.extend((2.5 if note.startswith("partial: ") else 5, note) for note in notes)
        if s.sort:  # the order in force is always named: a list in "for you" or file order
            # must never pass for the best matches of a search
            parts.append((0.5, f"order: {s.sort} (s)"))
        if progress:
            parts.append((3, progress))
        if self.count:  # as vim shows it: the keys typed so far, waiting for a move
            parts.append((0, f"{self.count}…"))
        width = self.content_size.width or 10_000
        # too long: the order's key hint goes first, then its label; its name always stays
        for short in (f"order: {s.sort}", s.sort):
            if s.sort and len(" · ".join(t for _, t in parts)) > width:
                parts = [(p, short if t.startswith(f"order: {s.sort}") else t) for p, t in parts]
        while len(parts) > 1 and len(" · ".join(t for _, t in parts)) > width:
            del parts[max(range(len(parts)), key=lambda i: (parts[i][0], i))]
        # one row, as wide as the screen (app.tcss): a new text never changes its size
        self.update(safe_display(" · ".join(t for _, t in parts)), layout=False)
