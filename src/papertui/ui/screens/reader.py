"""The reader: composes the search box, the list, the detail pane and the status line, runs the
search and index workers and routes messages between them. Annotating and exporting live in
`ui/annotating.py` and `ui/exporting.py`; each widget owns its own state."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import get_current_worker

from papertui.core.corpus import Corpus, Paper
from papertui.core.library import DEPTH, Library, View
from papertui.core.text import cut_words, safe_display
from papertui.ui.annotating import Annotating
from papertui.ui.exporting import Exporting
from papertui.ui.indexing import Indexing
from papertui.ui.keys import APP_KEYS, SORT_NAMES, help_sections
from papertui.ui.layers import Layers
from papertui.ui.screens.help import HelpScreen
from papertui.ui.triaging import Triaging
from papertui.ui.widgets.detail import DetailPane, render_paper
from papertui.ui.widgets.paper_list import BOOKMARK, NEW, NOTE, PaperList, RowLook
from papertui.ui.widgets.search_bar import SearchBar
from papertui.ui.widgets.status import ListState, StatusLine

NARROW = 90  # below this many columns the panes stack
TYPING_PAUSE = 0.06  # seconds without a key before the query in the box is searched
READ_AFTER = 1.5  # seconds a paper the user moved to stays shown before it counts as read


class ReaderScreen(Screen[None]):
    BINDINGS = [
        Binding(
            k.keys,
            "app.quit" if k.action == "quit" else k.action,
            k.description.split(" (")[0],
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
    ) -> None:
        super().__init__()
        self._layout = (list_width, list_only)
        self.library = library
        self.view = View(query="", indices=list(range(len(library.papers))))
        self.narrowing = Layers()
        self.sort = "relevance"
        self.collections: frozenset[str] = frozenset()
        self.annotating = Annotating(self, copy)
        self.exporting = Exporting(self)
        self.triaging = Triaging(self)
        self.indexing = Indexing(self)
        self.search_lock = threading.Lock()
        self._generation = 0  # bumped by every search; older answers are dropped
        self._read_timer: Timer | None = None
        self._typing: Timer | None = None

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBar(id="search")
        with Horizontal(id="panes"):
            yield PaperList(self.library.papers, self._look, id="list")
            yield DetailPane(id="detail")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.apply_layout(*self._layout)
        self.paper_list.set_rows(self.view.indices)
        self.paper_list.focus()
        self.update_status()
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
        pos = self.paper_list.current
        return None if pos is None else self.library.papers[pos]

    def targets(self) -> list[Paper]:
        """What a batch action acts on: the selection, else the current paper."""
        chosen = self.paper_list.selected
        if chosen:
            return [self.library.papers[i] for i in sorted(chosen)]
        paper = self.current_paper
        return [paper] if paper is not None else []

    def _look(self, pos: int) -> RowLook:
        paper, library = self.library.papers[pos], self.library
        markers = (
            (BOOKMARK if library.marks.is_bookmarked(paper) else " ")
            + (NOTE if library.marks.note(paper) else " ")
            + (NEW if library.marks.is_new(paper) else " ")
        )
        tags = " ".join(f"#{t}" for t in library.marks.tags_of(paper))
        suffix = " ".join(str(x) for x in (paper.year, paper.venue) if x)
        return RowLook(markers, unread=not library.marks.is_read(paper), tags=tags, suffix=suffix)

    def update_status(self) -> None:
        view = self.view
        layers = self.narrowing.describe(self)
        self.query_one(StatusLine).state = ListState(
            total=len(self.library.papers),
            shown=len(view.indices),
            more=view.truncated,
            filtered=bool(view.query or layers or view.notes),
            layers=tuple(layers),
            sort=SORT_NAMES[self.sort],
            selected=len(self.paper_list.selected),
            corrections=tuple(view.corrections.items()),
            notes=tuple(view.notes),
        )

    def set_index_state(self, text: str) -> None:
        self.query_one(StatusLine).index_state = text

    def on_unmount(self) -> None:
        self.workers.cancel_all()
        self.indexing.stop()

    def corpus_grew(self, corpus: Corpus) -> None:
        """More of a cold-started corpus is read: show it, keeping the cursor on its paper."""
        with self.search_lock:
            self.library.replace_corpus(corpus)
        plist = self.paper_list
        plist.set_papers(self.library.papers)
        if self.view.query or self.narrowing.describe(self):
            self.search(keep_cursor=True)
        else:
            self.view = View(query="", indices=list(range(len(self.library.papers))))
            plist.set_rows(self.view.indices, keep=plist.current)
        self.update_status()

    def index_ready(self) -> None:
        self.set_index_state("")
        self.refresh_paper()  # "new" markers and states are known now
        if self.view.query:
            self.search(keep_cursor=True)

    # -- search -----------------------------------------------------------------------------------

    @on(SearchBar.Changed, "#search")
    def _query_changed(self) -> None:
        # Wait for a pause in typing: a search per key competes with the keys themselves (a
        # burst, a paste or a held Backspace), and only the last query's answer is shown.
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(TYPING_PAUSE, self._typed)

    def _typed(self) -> None:
        self._typing = None
        self.search()

    @on(SearchBar.Left)
    def _left_search(self) -> None:
        self.paper_list.focus()

    def search(self, depth: int = 0, keep_cursor: bool = False) -> None:
        """Run the query in the box with the current filters and sort, in a worker. A new
        result list starts at its top hit; `keep_cursor` stays on the paper (a re-run)."""
        self._generation += 1
        keep = self.paper_list.current if keep_cursor or depth else None
        query = self.search_bar.value
        if self.narrowing.topic is not None:  # the topic chosen in the overview, as a filter
            query = f"{query} topic:{self.narrowing.topic[0] + 1}"
        self.run_search(self._generation, query, depth or DEPTH, keep)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def run_search(self, generation: int, query: str, depth: int, keep: int | None) -> None:
        bookmarks_only, sort, collections = self.bookmarks_only, self.sort, self.collections
        with self.search_lock:
            if get_current_worker().is_cancelled:
                return  # the user typed on while an earlier search ran: skip to the newest
            try:
                view = self.library.run_query(
                    query, bookmarks_only, depth=depth, sort=sort, collections=collections
                )
            except Exception as exc:  # noqa: BLE001 - a failed search is said, not swallowed
                view = View(query=query, indices=[], notes=[f"search failed: {exc}"])
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_view, view, generation, keep)

    def show_view(
        self, view: View, generation: int, keep: int | None = None, similar: str = ""
    ) -> None:
        if generation != self._generation:
            return  # the user has typed on (or asked for something else) since: stale
        self.view = view
        self.narrowing.similar = similar
        shown = safe_display(view.query.strip())
        plist = self.paper_list
        if view.notes and not view.indices:
            plist.empty_message = view.notes[-1][:1].upper() + view.notes[-1][1:] + "."
        elif shown:
            plist.empty_message = f"No papers match {shown!r}."
        else:
            plist.empty_message = "No papers here."
        if plist.selected:  # b, t, u and E act on the selection: never on papers out of view
            shown_now = set(view.indices)
            plist.selected.intersection_update(shown_now)
        plist.set_rows(view.indices, keep=keep)
        self.update_status()

    def watch_bookmarks_only(self) -> None:
        self.search()

    # -- the current paper ------------------------------------------------------------------------

    @on(PaperList.Highlighted)
    def _show_current(self, event: PaperList.Highlighted) -> None:
        self.render_detail()
        self.update_status()
        if event.by_user:
            self._schedule_read()
        plist = self.paper_list
        if self.view.truncated and plist.cursor >= len(plist.rows) - plist.size.height:
            self.view.truncated = False  # near the end of the best hits: rank more of them
            self.search((self.view.depth or DEPTH) * 4)

    @on(PaperList.SelectionChanged)
    def _selection_changed(self) -> None:
        self.update_status()

    def render_detail(self, keep_scroll: bool = False) -> None:
        paper = self.current_paper
        if paper is None:
            self.detail.show("No paper selected.")
            return
        library = self.library
        state = (
            "new"
            if library.marks.is_new(paper)
            else ""
            if library.marks.is_read(paper)
            else "unread"
        )
        rendered = render_paper(
            paper,
            bookmarked=library.marks.is_bookmarked(paper),
            note=library.marks.note(paper),
            highlighter=self.view.highlighter,
            tags=library.marks.tags_of(paper),
            state=state,
            raw=self.detail.raw,
            why=getattr(self.view, "why", {}).get(self.paper_list.current, ""),
        )
        self.detail.show(rendered, keep_scroll=keep_scroll)

    def refresh_paper(self) -> None:
        self.paper_list.refresh_markers()
        self.render_detail(keep_scroll=True)

    def _schedule_read(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()
        pos = self.paper_list.current
        if pos is None or self.library.marks.is_read(self.library.papers[pos]):
            return
        self._read_timer = self.set_timer(READ_AFTER, lambda: self._mark_read(pos))

    def _mark_read(self, pos: int) -> None:
        if self.paper_list.current == pos:
            self.annotating.mark_read(self.library.papers[pos])

    def stop_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()

    # -- actions ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a "/" typed into the search box stays text (dialogs are screens of their own)
        return not (action == "focus_search" and self.focused is self.search_bar)

    def action_focus_search(self) -> None:
        # now, not after a refresh: keys typed right after "/" belong in the box
        self.set_focus(self.search_bar)

    def action_clear_search(self) -> None:
        """Esc peels one layer: the selection, a similar view, the query, bookmarks only, the
        chosen collections."""
        self.narrowing.peel(self)
        self.paper_list.focus()

    def action_switch_pane(self) -> None:
        if self.paper_list.has_focus:
            self.detail.focus()
        else:
            self.paper_list.focus()

    def action_bookmarks_only(self) -> None:
        self.bookmarks_only = not self.bookmarks_only

    def action_help(self) -> None:
        loaded = [
            (safe_display(Path(f.path).name), safe_display(f.summary()))
            for f in self.library.corpus.files
        ]
        self.app.push_screen(HelpScreen(help_sections() + [("Loaded files", loaded)]))

    def action_cycle_sort(self) -> None:
        names = list(SORT_NAMES)
        self.sort = names[(names.index(self.sort) + 1) % len(names)]
        self.notify(f"Order: {SORT_NAMES[self.sort]}.", timeout=2)
        self.search()

    def action_collections(self) -> None:
        from papertui.ui.screens.collections import CollectionsScreen

        def chosen(names: frozenset[str] | None) -> None:
            if names is not None:
                self.collections = names
                self.search()

        counts = self.library.marks.collection_counts()
        self.app.push_screen(CollectionsScreen(counts, self.collections), chosen)

    def action_toggle_raw(self) -> None:
        raw = self.detail.toggle_raw()
        self.notify("Showing the raw text." if raw else "Showing readable math.", timeout=2)
        self.refresh_paper()

    def action_next_hit(self) -> None:
        if not self.detail.jump(1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_previous_hit(self) -> None:
        if not self.detail.jump(-1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_more_like_this(self) -> None:
        paper = self.current_paper
        if paper is not None:
            self.start_view(lambda: self._similar(paper), "")

    def action_like_bookmarks(self) -> None:
        if not self.library.annotations().bookmarks:
            self.notify("No bookmarks yet: press b on a paper.", severity="warning")
            return
        self.start_view(lambda: self._similar(None), "")

    def _similar(self, paper: Paper | None) -> View:
        return self.library.similar(
            paper, bookmarks_only=self.bookmarks_only, collections=self.collections
        )

    def start_view(self, make: Callable[[], View], label: str) -> None:
        """Show a view that is not a search (more like this, ask me) as a layer Esc peels; its
        first note names it when `label` is empty."""
        self._generation += 1
        generation = self._generation

        def run() -> None:
            with self.search_lock:
                view = make()
            name = label or (view.notes.pop(0) if view.notes else "a view")
            name = cut_words(name, 60)  # the status line keeps room for Esc and the order
            self.app.call_from_thread(self.show_view, view, generation, None, name)

        self.run_worker(run, thread=True, group="search", exclusive=True)

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
