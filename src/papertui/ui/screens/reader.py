"""The reader: composes the search box, the list, the detail pane and the status line and routes
keys and messages to the parts that act on them, each in its own module: `ui/searching.py`
(search and views), `ui/current_paper.py` (the detail pane and read state), `ui/indexing.py`,
`ui/annotating.py`, `ui/exporting.py`, `ui/triaging.py` and `ui/layers.py` (what Esc peels).
Each widget owns its own state."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer

from papertui.core.corpus import Paper
from papertui.core.library import DEPTH, Library, View
from papertui.core.text import safe_display
from papertui.ui.annotating import Annotating
from papertui.ui.current_paper import CurrentPaper
from papertui.ui.exporting import Exporting
from papertui.ui.indexing import Indexing
from papertui.ui.keys import APP_KEYS, SORT_NAMES, help_sections
from papertui.ui.layers import Layers
from papertui.ui.screens.help import HelpScreen
from papertui.ui.searching import Searching
from papertui.ui.triaging import Triaging
from papertui.ui.widgets.detail import DetailPane
from papertui.ui.widgets.paper_list import PaperList
from papertui.ui.widgets.search_bar import SearchBar
from papertui.ui.widgets.status import ListState, StatusLine

NARROW = 90  # below this many columns the panes stack
# A large library leaves its first paint this long before the index opens: opening it (a worker,
# ~1 s at 100,000 papers) holds the interpreter while the screen is laid out and painted.
FIRST_PAINT = 0.3
LARGE = 5000  # papers


class ReaderScreen(Screen[None]):
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

    bookmarks_only: reactive[bool] = reactive(False, init=False)

    def __init__(
        self,
        library: Library,
        copy: Callable[[str], str | None],
        list_width: int = 66,
        list_only: bool = False,
        sort: str = "relevance",
    ) -> None:
        super().__init__()
        self._layout = (list_width, list_only)
        self._opened_from_list_only = False  # Enter showed the detail; Esc hides it again
        self.library = library
        self.view = View(query="", indices=list(range(len(library.papers))))
        self.narrowing = Layers()
        self.sort = sort  # a remembered order applies once the index is open (index_ready)
        self.collections: frozenset[str] = frozenset()
        self.annotating = Annotating(self, copy)
        self.exporting = Exporting(self)
        self.triaging = Triaging(self)
        self.indexing = Indexing(self)
        self.searching = Searching(self)
        self.current = CurrentPaper(self)

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBar(id="search")
        with Horizontal(id="panes"):
            yield PaperList(self.library.papers, self.current.look, id="list")
            yield DetailPane(id="detail")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.apply_layout(*self._layout)
        self.paper_list.set_rows(self.view.indices)
        self.paper_list.focus()
        self.update_status()
        self.annotating.announce_drafts()  # a cold start of a large library: again when read
        if len(self.library.papers) > LARGE:
            self.set_timer(FIRST_PAINT, self.indexing.start)  # the list first
        else:
            self.indexing.start()

    def apply_layout(self, list_width: int, list_only: bool) -> None:
        """The list's share of the width, or the whole of it (the detail pane hidden)."""
        self._layout = (list_width, list_only)
        narrow = self.size.width < NARROW
        self.paper_list.styles.width = "100%" if list_only or narrow else f"{list_width}%"
        self.detail.display = not list_only
        self.set_class(list_only, "-list-only")

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW, "-narrow")
        self.apply_layout(*self._layout)

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
    def current_paper(self) -> Paper | None:
        return self.current.paper

    def target_positions(self) -> list[int]:
        """Where the papers a batch action acts on are in the library: the selection, else
        the current paper."""
        chosen = self.paper_list.selected
        if chosen:
            return sorted(chosen)
        current = self.paper_list.current
        return [current] if current is not None else []

    def targets(self) -> list[Paper]:
        """What a batch action acts on (see `target_positions`)."""
        return [self.library.papers[i] for i in self.target_positions()]

    def update_status(self) -> None:
        view = self.view
        layers = self.narrowing.describe(self)
        self.query_one(StatusLine).state = ListState(
            total=len(self.library.papers),
            shown=len(view.indices),
            more=view.truncated,
            matched=view.matched,
            # "n of N" only when the list is narrowed: notes such as "learned from 4 answers"
            # say how it is ordered, not that papers are missing
            filtered=bool(view.query or layers or len(view.indices) != len(self.library.papers)),
            layers=tuple(layers),
            sort=SORT_NAMES[self.sort],
            selected=len(self.paper_list.selected),
            corrections=tuple(view.corrections.items()),
            notes=tuple(view.remarks),
            position=self.paper_list.cursor + 1 if self.paper_list.current is not None else 0,
        )

    def set_index_state(self, text: str) -> None:
        self.query_one(StatusLine).index_state = text

    def on_unmount(self) -> None:
        self.workers.cancel_all()
        self.indexing.stop()

    # -- search (ui/searching.py) and the current paper (ui/current_paper.py) -------------------

    @on(SearchBar.Changed, "#search")
    def _query_changed(self) -> None:
        self.searching.typed()

    @on(SearchBar.Left)
    def _left_search(self, event: SearchBar.Left) -> None:
        if event.kept:
            self.searching.chose_result()
        self.paper_list.focus()

    def watch_bookmarks_only(self) -> None:
        self.searching.search()

    @on(PaperList.Highlighted)
    def _show_current(self, event: PaperList.Highlighted) -> None:
        self.current.render()
        self.update_status()
        if event.by_user:
            self.current.schedule_read()
            if self.searching.left is not None:
                self.searching.moved_in_results = True
        plist = self.paper_list
        if self.view.truncated and plist.cursor >= len(plist.rows) - plist.size.height:
            self.view.truncated = False  # near the end of the best hits: rank more of them
            self.searching.search((self.view.depth or DEPTH) * 4)

    @on(PaperList.CountTyped)
    def _count_typed(self, event: PaperList.CountTyped) -> None:
        self.query_one(StatusLine).count = event.count

    @on(PaperList.SelectionChanged)
    def _selection_changed(self) -> None:
        self.update_status()

    # -- actions ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a "/" typed into the search box stays text (dialogs are screens of their own)
        return not (action == "focus_search" and self.focused is self.search_bar)

    def action_focus_search(self) -> None:
        # now, not after a refresh: keys typed right after "/" belong in the box
        self.set_focus(self.search_bar)

    def action_clear_search(self) -> None:
        """Esc peels one layer: the selection, a similar view, the query, bookmarks only, the
        chosen collections. From the detail pane it first goes back to the list."""
        if self.detail.has_focus_within:
            if self._opened_from_list_only:
                self._opened_from_list_only = False
                self.app.toggle_list_only()  # type: ignore[attr-defined]
            self.paper_list.focus()
            return
        self.narrowing.peel(self)
        self.paper_list.focus()

    def action_open_paper(self) -> None:
        """Enter on a row: read the paper in the detail pane (shown for it in list-only mode)."""
        if self.current_paper is None:
            return
        if not self.detail.display:
            self._opened_from_list_only = True
            self.app.toggle_list_only()  # type: ignore[attr-defined]
        self.detail.focus()

    def action_switch_pane(self) -> None:
        if self.paper_list.has_focus:
            self.detail.focus()
        else:
            self.paper_list.focus()

    def action_bookmarks_only(self) -> None:
        self.bookmarks_only = not self.bookmarks_only

    def action_help(self) -> None:
        corpus = self.library.corpus
        loaded = [
            (safe_display(Path(f.path).name), safe_display(f.summary())) for f in corpus.files
        ]
        loaded += [("not loaded", safe_display(line)) for line in corpus.errors]
        self.app.push_screen(HelpScreen(help_sections() + [("Loaded files", loaded)]))

    def action_cycle_sort(self) -> None:
        names = list(SORT_NAMES)
        self.sort = names[(names.index(self.sort) + 1) % len(names)]
        name = SORT_NAMES[self.sort]
        if self.sort == "relevance" and not self.search_bar.value.strip():
            name += " (with no search: corpus order)"
        self.notify(f"Order: {name}.", timeout=2)
        self.app.remember_sort(self.sort)  # type: ignore[attr-defined]
        self.searching.search()

    def action_collections(self) -> None:
        from papertui.ui.screens.collections import CollectionsScreen

        def chosen(names: frozenset[str] | None) -> None:
            if names is not None:
                self.collections = names
                self.searching.search()

        counts = self.library.marks.collection_counts()
        self.app.push_screen(CollectionsScreen(counts, self.collections), chosen)

    def action_toggle_raw(self) -> None:
        raw = self.detail.toggle_raw()
        self.notify("Showing the raw text." if raw else "Showing readable math.", timeout=2)
        self.current.refresh()

    def action_next_hit(self) -> None:
        if not self.detail.jump(1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_previous_hit(self) -> None:
        if not self.detail.jump(-1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_more_like_this(self) -> None:
        paper = self.current_paper
        if paper is not None:
            self.searching.similar_to(paper)

    def action_like_bookmarks(self) -> None:
        self.searching.similar_to(None)

    def action_widen_list(self) -> None:
        self.app.set_split(+5)  # type: ignore[attr-defined]

    def action_narrow_list(self) -> None:
        self.app.set_split(-5)  # type: ignore[attr-defined]

    def action_list_only(self) -> None:
        self.app.toggle_list_only()  # type: ignore[attr-defined]

    # annotating and exporting: see ui/annotating.py and ui/exporting.py
    def action_toggle_bookmark(self) -> None:
        self.annotating.toggle_bookmark()

    def action_edit_note(self) -> None:
        self.annotating.edit_note()

    def action_tag(self) -> None:
        self.annotating.tag()

    def action_toggle_read(self) -> None:
        self.annotating.toggle_read()

    def action_toggle_select(self) -> None:
        self.paper_list.action_toggle_select()

    def action_select_all(self) -> None:
        if self.view.truncated and not self.paper_list.selected.issuperset(self.paper_list.rows):
            self.searching.select_every_hit()  # more hits than listed: all of them
        else:
            self.paper_list.select_all()

    def action_copy_abstract(self) -> None:
        self.annotating.copy_abstract()

    def action_copy_markdown(self) -> None:
        self.annotating.copy_markdown()

    def action_open_url(self) -> None:
        self.annotating.open_url()

    def action_export(self) -> None:
        self.exporting.open_dialog()

    def action_like_next(self) -> None:
        self.triaging.judge(liked=True)

    def action_skip_next(self) -> None:
        self.triaging.judge(liked=False)

    def action_undo_answer(self) -> None:
        self.triaging.undo()

    def action_ask_me(self) -> None:
        self.triaging.ask_me()

    def action_overview(self) -> None:
        self.triaging.overview()

    def action_add_seeds(self) -> None:
        self.triaging.add_seeds()

    def action_add_negative_keyword(self) -> None:
        self.triaging.add_negative_keyword()

    def action_reset_feedback(self) -> None:
        self.triaging.reset()
