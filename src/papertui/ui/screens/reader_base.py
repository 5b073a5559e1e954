"""What the reader's key actions share: the screen's parts they read, and how they say things.
`ReaderScreen` is made of these mixins and holds what they declare."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from papertui.core.corpus import Paper
from papertui.core.library import Library
from papertui.ui import looks, triaging
from papertui.ui.outcome import Outcome
from papertui.ui.state import Placement, ReaderState
from papertui.ui.toasts import replace_toast

if TYPE_CHECKING:
    from textual.message import Message

    from papertui.core.query.view import View
    from papertui.ui.widgets.detail import DetailPane
    from papertui.ui.widgets.paper_list import PaperList
    from papertui.ui.widgets.search_bar import SearchBar

# characters beyond which terminals commonly drop an OSC 52 copy (tmux, xterm: about 74,000
# bytes once base64-encoded)
OSC52_SAFE = 50_000
ALL_HITS = 1 << 30  # a depth that ranks every full-text hit


class ReaderBase(Screen[None]):
    arrived: tuple[int, bool] = (-1, False)  # the paper shown, and whether passed over then

    # what `ReaderScreen` holds (declared here for the type checker)
    library: Library
    state: ReaderState
    view: View
    library_lock: threading.Lock
    answers: triaging.Answers
    answer_row: int | None
    list_width: int
    list_only: bool
    opened_from_list_only: bool
    copy_system: Callable[[str], str | None]
    browser: Callable[[str], bool]
    remember: Callable[[str, str | int | bool], None]
    if TYPE_CHECKING:

        @property
        def paper_list(self) -> PaperList: ...
        @property
        def detail(self) -> DetailPane: ...
        @property
        def search_bar(self) -> SearchBar: ...
        def change(self, placement: Placement | None = None, /, **changes: object) -> None: ...
        def search(
            self, placement: Placement | None = None, depth: int = ..., select_all: bool = ...
        ) -> None: ...
        def rerun(self, stay: bool = True) -> None: ...
        def return_to(self, state: ReaderState, paper: int | None = None) -> Placement | None: ...
        def _back_from_query(self, paper: int | None) -> Placement: ...
        def relearn(self) -> None: ...
        def update_status(self) -> None: ...
        def apply_layout(self) -> None: ...
        def post(self, message: Message) -> None: ...

    # -- saying things ---------------------------------------------------------------------------

    def toast(self, kind: str, text: str) -> None:
        replace_toast(self.app, kind, text)

    def say(self, outcome: Outcome) -> None:
        if not outcome.text:
            return
        if outcome.kind:
            self.toast(outcome.kind, outcome.text)
            return
        severity: Any = outcome.severity
        self.notify(outcome.text, title=outcome.title, severity=severity, timeout=outcome.timeout)

    @property
    def current_paper(self) -> Paper | None:
        pos = self.paper_list.position
        return None if pos is None else self.library.papers[pos]

    def target_positions(self) -> list[int]:
        """What a batch action acts on: the selection, else the paper under the cursor."""
        chosen = self.paper_list.selected
        if chosen:
            return sorted(chosen)
        pos = self.paper_list.position
        return [pos] if pos is not None else []

    def targets(self) -> list[Paper]:
        return [self.library.papers[i] for i in self.target_positions()]

    # -- the paper under the cursor --------------------------------------------------------------

    def show_current(self) -> None:
        """The detail pane, after the cursor moved or the paper's annotations changed."""
        pos = self.paper_list.position
        self.search_bar.under_cursor = pos
        if pos is None:
            self.detail.shown = None
            return
        if self.arrived[0] != pos:  # said only of a paper the reader left and came back to
            passed = self.state.learning() and triaging.passed_over(self.library, pos)
            self.arrived = (pos, passed)
        self.detail.shown = looks.shown(self.library, pos, self.view, self.arrived[1])

    def refresh_current(self) -> None:
        """Markers and detail again, after the paper's annotations changed."""
        self.paper_list.refresh()
        self.show_current()


def _fields(state: ReaderState) -> dict[str, object]:
    """A state's fields, to `change` to it."""
    return {name: getattr(state, name) for name in state.__dataclass_fields__}
