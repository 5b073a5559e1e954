"""The reader: composes the search box, the list, the detail pane and the status line, holds
what the list shows in one reactive (`ReaderState`) and routes: messages come up from the
widgets and the workers (`ui/messages.py`), attributes go down. The keys' actions are in
`reader_actions.py`; the work behind them is in functions over the library (`ui/background.py`,
`annotating.py`, `triaging.py`, `exporting.py`)."""

from __future__ import annotations

import contextlib
import threading
import webbrowser
from collections.abc import Callable
from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.worker import get_current_worker

from papertui.core.library import DEPTH, Library
from papertui.core.query.view import View
from papertui.core.semantic.foryou import NOT_READY
from papertui.ui import annotating, background, looks, messages, triaging
from papertui.ui.keys import APP_KEYS, SORT_NAMES
from papertui.ui.screens.reader_actions import ReaderActions
from papertui.ui.screens.reader_preparing import ReaderPreparing
from papertui.ui.screens.reader_taking import ReaderTaking
from papertui.ui.screens.reader_triage import ReaderTriage
from papertui.ui.state import Placement, ReaderState, Spots
from papertui.ui.widgets.detail import DetailPane
from papertui.ui.widgets.key_hints import KeyHints
from papertui.ui.widgets.paper_list import PaperList
from papertui.ui.widgets.search_bar import SearchBar
from papertui.ui.widgets.status import ListState, StatusLine

NARROW = 90  # below this many columns the panes stack
# A large library leaves its first paint this long before the index opens and the rest of its
# papers are read: a worker doing so (~1 s at 100,000 papers) holds the interpreter while the
# screen is laid out and painted.
FIRST_PAINT = 0.3
LARGE = 5000  # papers
Remember = Callable[[str, str | int | bool], None]


class ReaderScreen(ReaderActions, ReaderTaking, ReaderTriage, ReaderPreparing):
    BINDINGS = [
        Binding(
            k.keys,
            "app.quit" if k.action == "quit" else k.action,
            k.short or k.description.split(" (")[0],
            show=k.footer,
            key_display=k.label or None,
            id=k.action,  # settings.toml's [keys] rebinds by this id
            priority=k.priority,
        )
        for k in APP_KEYS
    ]

    state: reactive[ReaderState] = reactive(ReaderState, init=False)

    def __init__(
        self,
        library: Library,
        copy: Callable[[str], str | None],
        remember: Remember | None = None,
        *,
        list_width: int = 66,
        list_only: bool = False,
        sort: str = "relevance",
        browser: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__()
        self.library = library
        self.copy_system = copy
        self.browser = browser or webbrowser.open  # True: a browser took it
        self.remember: Remember = remember or (lambda name, value: None)
        self.list_width, self.list_only = list_width, list_only
        self.opened_from_list_only = False  # Enter showed the detail; Esc hides it again
        # a remembered order applies once the index is open (`on_index_ready`)
        self.set_reactive(ReaderScreen.state, ReaderState(sort=sort))
        self.view = View(query="", indices=list(range(len(library.papers))))
        self.library_lock = threading.Lock()  # one query at a time over the library
        self.request = 0  # the newest list asked for; older answers are dropped
        self.answered = 0  # the newest list shown
        self.unread_dwell = False  # a paper was dwelled on while a newer list was on its way
        self.answers = triaging.Answers()
        # the row a like or skip left while the order it asked for is on its way: more answers
        # before it comes keep it, and the new order shows its best paper there
        self.answer_row: int | None = None
        self._placement: Placement | None = None  # for the next state change
        self.spots = Spots()  # where the reader was in each list it left

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBar(id="search")
        with Horizontal(id="panes"):
            look = lambda pos: looks.row_look(self.library, pos)  # noqa: E731
            yield PaperList(self.library.papers, look, id="list")
            yield DetailPane(id="detail", reading=PaperList)
        yield StatusLine(id="status")
        yield KeyHints(id="keys")

    def on_mount(self) -> None:
        self.apply_layout()
        self.paper_list.set_rows(self.view.indices)
        self.paper_list.focus()
        self.update_status()
        self.announce_drafts()  # a cold start of a large library: again when read
        if len(self.library.papers) > LARGE or self.library.loading:
            self.set_timer(FIRST_PAINT, self.start_preparing)  # the list first
        else:
            self.start_preparing()

    def apply_layout(self) -> None:
        """The list's share of the width, or the whole of it (the detail pane hidden)."""
        narrow = self.size.width < NARROW
        full = self.list_only or narrow
        self.paper_list.styles.width = "100%" if full else f"{self.list_width}%"
        self.detail.display = not self.list_only
        self.set_class(self.list_only, "-list-only")

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW, "-narrow")
        self.apply_layout()

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one(SearchBar)

    @property
    def sort(self) -> str:
        return self.state.order

    def order_name(self) -> str:
        """The order that applies: "best match" ranks nothing without words to match."""
        if self.state.order == "relevance" and self.view.indices and not self.view.scores:
            return SORT_NAMES["corpus"]
        return SORT_NAMES[self.state.order]

    def update_status(self) -> None:
        view, state, plist = self.view, self.state, self.paper_list
        total = len(self.library.papers)
        layers = state.layers(lambda pos: background.title_of(self.library, pos))
        self.query_one(StatusLine).state = ListState(
            total=total,
            shown=len(view.indices),
            more=view.truncated,
            matched=view.matched,
            # "n of N" only when the list is narrowed: notes such as "learned from 4 answers"
            # say how it is ordered, not that papers are missing
            filtered=state.narrowed or len(view.indices) != total,
            layers=tuple(layers),
            # a view that is not a search names its own order (the layer says it)
            sort="" if state.special else self.order_name(),
            selected=len(plist.selected),
            corrections=tuple(view.corrections.items()),
            notes=tuple(view.remarks),
            position=plist.cursor + 1 if plist.position is not None else 0,
        )

    def on_unmount(self) -> None:
        self.workers.cancel_all()
        child = self._index_child
        if child is not None and child.poll() is None:
            child.terminate()  # the previous index generation stays in place

    # -- the state, and the lists it shows ------------------------------------------------------

    def change(self, placement: Placement | None = None, /, **changes: object) -> None:
        """A new state (its watcher asks for the list); `placement`: where the cursor goes (by
        default the top, or where the reader was when a layer taken off was put on)."""
        new = replace(self.state, **changes)  # type: ignore[arg-type]
        if not new.query.strip():
            new = replace(new, query_sort=None)  # the next search is ranked again
        if new != self.state:
            if placement is None and new.layer_count() < self.state.layer_count():
                placement = self.return_to(new)
            self._placement = placement
            self.state = new

    def return_to(self, state: ReaderState, paper: int | None = None) -> Placement | None:
        return self.spots.placement(state, paper)

    def watch_state(self, old: ReaderState, new: ReaderState) -> None:
        self.spots.remember(old, self.paper_list.position, self.paper_list.screen_row)
        placement, self._placement = self._placement, None
        if old.sort != new.sort:
            self.remember("sort", new.sort)
        self.search(placement or Placement())

    def search(
        self, placement: Placement | None = None, depth: int = 0, select_all: bool = False
    ) -> None:
        """Ask for the list the state shows, in a worker; only the newest answer is shown.
        `depth`: how many full-text hits to rank (0: the first screenful's worth)."""
        depth = depth or DEPTH
        self.request += 1
        request, state, library, lock = self.request, self.state, self.library, self.library_lock
        placement = placement or Placement()

        def run() -> None:
            worker = get_current_worker()
            if worker.is_cancelled:
                return  # the user typed on while an earlier search ran: skip to the newest
            # given up as soon as the user types on (a newer search cancels this worker)
            view = background.safe_view(library, state, depth, lock, lambda: worker.is_cancelled)
            if view is not None and not worker.is_cancelled:
                self.post(messages.ViewReady(request, state, view, placement, select_all))

        self.run_worker(run, thread=True, exclusive=True, group="search", exit_on_error=False)

    def rerun(self, stay: bool = True) -> None:
        """The same state again after something behind it changed (the index, the vectors, a
        negative keyword): on the paper under the cursor if the reader has moved to it, else
        at the new top (a restart in "for you" must not keep the file's first paper wherever
        the ranking puts it; nor the stand-in order's, unless a paper is being read)."""
        plist = self.paper_list
        stand_in = NOT_READY in self.view.remarks and not self.detail.has_focus_within
        moved = plist.cursor > 0 or self.detail.has_focus_within
        self.search(Placement(stay=stay and moved and not stand_in))

    def relearn(self) -> None:
        """What the reader keeps changed: "for you" and "ask me" learn from it at once. The
        paper being read stays on its row; the rest of the list takes the new order."""
        plist = self.paper_list
        if plist.position is not None and self.state.learning():
            self.search(Placement(row=plist.cursor, pinned=plist.position))

    def post(self, message: Message) -> None:
        """Post from a worker; dropped once the reader has closed."""
        with contextlib.suppress(RuntimeError):  # the event loop closed meanwhile
            self.post_message(message)

    @on(messages.ViewReady)
    def _view_ready(self, message: messages.ViewReady) -> None:
        if message.request != self.request:
            return  # the reader asked for something else since: stale
        self.answered = message.request
        view, placement, plist = message.view, message.placement, self.paper_list
        keep, row = placement.keep, placement.row
        if placement.stay:
            keep = plist.position
        if placement.pinned is not None and row is not None:
            if placement.pinned in view.indices:
                view.indices.remove(placement.pinned)
            view.indices.insert(min(row, len(view.indices)), placement.pinned)
            keep, row = placement.pinned, None
        elif row is not None:  # the first paper of the new order the reader has not passed
            passed = set(plist.rows[:row])
            row = next((i for i, p in enumerate(view.indices) if p not in passed), row)
        self.answer_row = None
        self.view = view
        self.paper_list.empty_message = looks.empty_message(view)
        if plist.selected:  # b, t, u and E act on the selection: never on papers out of view
            before = len(plist.selected)
            plist.selected.intersection_update(set(view.indices))
            if dropped := before - len(plist.selected):
                what = "paper is" if dropped == 1 else "papers are"
                self.toast(
                    "selection", f"Unselected {dropped}: the selected {what} not in this list."
                )
        plist.set_rows(view.indices, keep=keep, row=row, screen_row=placement.screen_row)
        if message.select_all:
            plist.select_all(toggle=False)
        self.show_current()
        self.update_status()
        if self.unread_dwell:  # the paper the reader rests on, now that its list is shown
            self.unread_dwell = False
            self.detail.read_again()

    @on(PaperList.Highlighted)
    def _highlighted(self, event: PaperList.Highlighted) -> None:
        self.show_current()
        self.update_status()
        if event.by_user:
            self.search_bar.chose_result()  # moving in the results chooses one
        plist = self.paper_list
        if self.view.truncated and plist.cursor >= len(plist.rows) - plist.size.height:
            self.view.truncated = False  # near the end of the best hits: rank more of them
            self.search(Placement(stay=True), depth=(self.view.depth or DEPTH) * 4)

    @on(DetailPane.Dwelled)
    def _dwelled(self, event: DetailPane.Dwelled) -> None:
        if self.answered != self.request:  # the list shown is about to be replaced (Esc out
            self.unread_dwell = True  # of a search): its paper was not the reader's choice
            return
        if annotating.mark_read(self.library, self.library.papers[event.position]):
            self.refresh_current()

    @on(PaperList.CountTyped)
    def _count_typed(self, event: PaperList.CountTyped) -> None:
        self.query_one(StatusLine).count = event.count

    @on(PaperList.SelectionChanged)
    def _selection_changed(self) -> None:
        self.update_status()

    # -- the search box ---------------------------------------------------------------------------

    @on(SearchBar.QueryChanged)
    def _query_changed(self, event: SearchBar.QueryChanged) -> None:
        if event.query.strip():
            self.change(Placement(), query=event.query)
        else:  # back to the paper searched from, or (None) stay on the result chosen
            self.change(self._back_from_query(event.back_to), query="")

    def _back_from_query(self, paper: int | None) -> Placement:
        """Clearing the query: back to `paper` (the one searched from) where it was on screen,
        or (None: a result was chosen) stay on the paper under the cursor."""
        if paper is None:
            return Placement(stay=True)
        back = replace(self.state, query="")
        return self.return_to(back, paper) or Placement(keep=paper)

    @on(SearchBar.Left)
    def _left_search(self) -> None:
        self.paper_list.focus()
