"""PaperTUI: the reader. Binds keys, starts workers and routes messages between the panes."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static, TextArea
from textual.worker import get_current_worker

from papertui.core.clipboard import copy_system
from papertui.core.corpus import Paper
from papertui.core.indexer import index_in_child
from papertui.core.library import DEPTH, Library, View
from papertui.core.search import IndexCancelled
from papertui.core.settings import load_settings, remember_theme, settings_path
from papertui.core.text import safe_display
from papertui.ui.annotate import AnnotationActions
from papertui.ui.keys import APP_KEYS, help_sections
from papertui.ui.screens.help import HelpScreen
from papertui.ui.widgets.detail import DetailPane, Rendered, render_paper
from papertui.ui.widgets.paper_list import BOOKMARK, NEW, NOTE, SELECTED, PaperList, RowLook
from papertui.ui.widgets.search_bar import SearchBar
from papertui.ui.workflow import WorkflowActions

NARROW = 90  # below this many columns the panes stack
IN_PROCESS_UP_TO = 5000  # larger corpora are indexed by a child process


class PaperTUI(AnnotationActions, WorkflowActions):
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "papertui"
    BINDINGS = [
        Binding(
            k.keys,
            k.action,
            k.description.split(" (")[0],
            show=k.footer,
            key_display=k.label or None,
            id=k.action,  # settings.toml's [keys] rebinds by this id
            priority=k.priority,
        )
        for k in APP_KEYS
    ]

    bookmarks_only: reactive[bool] = reactive(False, init=False)
    index_state: reactive[str] = reactive("", init=False)

    def __init__(
        self, library: Library, *, clipboard: Callable[[str], str | None] = copy_system
    ) -> None:
        super().__init__()
        self.library = library
        self.view = View(query="", indices=list(range(len(library.papers))))
        self._copy_system = clipboard
        self._search_lock = threading.Lock()
        self._index_child: subprocess.Popen[str] | None = None
        self._generation = 0  # bumped by every search; older answers are dropped
        self._read_timer: Timer | None = None
        self.selected: set[int] = set()
        self.sort = "relevance"
        self.collections: frozenset[str] = frozenset()
        self.raw = False
        self.showing_similar = False
        self.settings = load_settings({k.action for k in APP_KEYS})

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBar(id="search")
        with Horizontal(id="panes"):
            yield PaperList(self.library.papers, self._look, id="list")
            yield DetailPane(id="detail")
        yield Static("", id="status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._apply_settings()
        self.paper_list.set_rows(self.view.indices)
        self.paper_list.focus()
        self._report_corpus()
        self.build_index()

    def _apply_settings(self) -> None:
        settings = self.settings
        if settings.keys:
            self.set_keymap(settings.keys)
        if settings.theme:
            if settings.theme in self.available_themes:
                self.theme = settings.theme
            else:
                settings.problems.append(
                    f"unknown theme {settings.theme!r} in {settings_path()}; using the default"
                )
        for problem in settings.problems:
            self.notify(safe_display(problem), title="Settings", severity="warning", timeout=10)
        self.watch(self, "theme", self._remember_theme, init=False)

    def _remember_theme(self, theme: str) -> None:
        problem = remember_theme(theme)
        if problem is not None:
            self.notify(f"Theme not remembered: {safe_display(problem)}", severity="warning")

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW, "-narrow")

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one(SearchBar)

    @property
    def current_paper(self) -> Paper | None:
        pos = self.paper_list.current
        return None if pos is None else self.library.papers[pos]

    def _look(self, pos: int) -> RowLook:
        paper, library = self.library.papers[pos], self.library
        markers = (
            (SELECTED if pos in self.selected else " ")
            + (BOOKMARK if library.is_bookmarked(paper) else " ")
            + (NOTE if library.note(paper) else " ")
            + (NEW if library.is_new(paper) else " ")
        )
        tags = " ".join(f"#{t}" for t in library.tags_of(paper))
        return RowLook(markers, unread=not library.is_read(paper), tags=tags)

    def _report_corpus(self) -> None:
        corpus = self.library.corpus
        for line in corpus.errors:
            self.notify(safe_display(line), title="Not loaded", severity="error", timeout=10)
        for line in corpus.warnings:
            self.notify(safe_display(line), title="Warning", severity="warning", timeout=10)
        for report in corpus.files:
            if report.skipped:
                self.notify(
                    safe_display(f"{report.path}: {report.summary()}"),
                    title="Loaded with skips",
                    timeout=8,
                )
        moved = self.library.store.moved_aside
        if moved is not None:
            self.notify(
                f"Your data file was damaged. It was moved to {moved} and a fresh one started.",
                severity="error",
                timeout=20,
            )
        if self.library.store.unavailable:
            self.notify(
                f"Bookmarks and notes cannot be saved: {self.library.store.unavailable}",
                severity="warning",
                timeout=15,
            )

    # -- status line ------------------------------------------------------------------------------

    def _update_status(self) -> None:
        total = len(self.library.papers)
        shown = len(self.view.indices)
        more = "+" if self.view.truncated else ""
        filtered = self.view.query or self.bookmarks_only or self.collections or self.view.notes
        parts = [f"{shown}{more} of {total} papers" if filtered else f"{total} papers"]
        if self.bookmarks_only:
            parts.append("bookmarks only (B)")
        if self.collections:
            parts.append("in " + ", ".join(sorted(self.collections)) + " (C)")
        if self.sort != "relevance":
            parts.append(f"sorted by {self.sort} (s)")
        if self.selected:
            parts.append(f"{len(self.selected)} selected")
        if self.view.corrections:
            fixed = ", ".join(f"{a}→{b}" for a, b in self.view.corrections.items())
            parts.append(f"searched {fixed}")
        parts.extend(self.view.notes)
        if self.index_state:
            parts.append(self.index_state)
        self.query_one("#status", Static).update(safe_display(" · ".join(parts)))

    def watch_index_state(self) -> None:
        self._update_status()

    # -- index ------------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def build_index(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            percent = int(100 * done / total) if total else 100
            self.call_from_thread(setattr, self, "index_state", f"indexing {percent}%")

        def cancelled() -> bool:
            return worker.is_cancelled

        try:
            big = len(self.library.papers) > IN_PROCESS_UP_TO
            if big and not self.library.index_is_current():
                self.call_from_thread(setattr, self, "index_state", "indexing 0%")
                index_in_child(
                    self.library.sources,
                    progress,
                    cancelled,
                    self._track_child,
                    self.library.format,
                )
                self.call_from_thread(setattr, self, "index_state", "opening the index")
            with self._search_lock:
                self.library.ensure_index(progress, cancelled)
            self.library.mark_seen()  # which papers are new since their file was last opened
        except IndexCancelled:
            return
        except Exception as exc:  # noqa: BLE001 - the reader still works without full text
            message = f"search index unavailable: {str(exc).splitlines()[0] if str(exc) else exc}"
            self.call_from_thread(setattr, self, "index_state", message)
            return
        self.call_from_thread(self._index_ready)

    def _track_child(self, child: subprocess.Popen[str]) -> None:
        self._index_child = child

    def on_unmount(self) -> None:
        child = self._index_child
        if child is not None and child.poll() is None:
            child.terminate()  # the previous index generation stays in place

    def _index_ready(self) -> None:
        self.index_state = ""
        self._refresh_paper()  # "new" markers and states are known now
        if self.view.query:
            self.search()

    # -- search -----------------------------------------------------------------------------------

    @on(SearchBar.Changed, "#search")
    def _query_changed(self) -> None:
        self.search()

    @on(SearchBar.Left)
    def _left_search(self) -> None:
        self.paper_list.focus()

    def search(self, depth: int = 0) -> None:
        """Run the query in the box with the current filters and sort, in a worker."""
        self._generation += 1
        self.run_search(
            self._generation,
            self.search_bar.value,
            self.bookmarks_only,
            depth or DEPTH,
            self.sort,
            self.collections,
        )

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def run_search(
        self,
        generation: int,
        query: str,
        bookmarks_only: bool,
        depth: int,
        sort: str,
        collections: frozenset[str],
    ) -> None:
        with self._search_lock:
            if get_current_worker().is_cancelled:
                return  # the user typed on while an earlier search ran: skip to the newest
            view = self.library.run_query(
                query,
                bookmarks_only=bookmarks_only,
                depth=depth,
                sort=sort,
                collections=collections,
            )
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_view, view, generation)

    def _show_view(self, view: View, generation: int, similar: bool = False) -> None:
        if generation != self._generation:
            return  # the user has typed on (or asked for something else) since: stale
        keep = self.paper_list.current
        self.view = view
        self.showing_similar = similar
        shown = safe_display(view.query.strip())
        if view.notes and not view.indices:
            self.paper_list.empty_message = view.notes[-1][:1].upper() + view.notes[-1][1:] + "."
        elif shown:
            self.paper_list.empty_message = f"No papers match {shown!r}."
        else:
            self.paper_list.empty_message = "No bookmarks yet: press b on a paper."
        self.paper_list.set_rows(view.indices, keep=keep)
        self._update_status()

    def watch_bookmarks_only(self) -> None:
        self.search()

    # -- the current paper ------------------------------------------------------------------------

    @on(PaperList.Highlighted)
    def _show_current(self) -> None:
        self._render_detail()
        self._update_status()
        self._schedule_read()
        plist = self.paper_list
        if self.view.truncated and plist.cursor >= len(plist.rows) - plist.size.height:
            # near the end of the best hits: rank more of them
            self.view.truncated = False
            self.search((self.view.depth or DEPTH) * 4)

    def _render_detail(self, keep_scroll: bool = False) -> None:
        detail = self.query_one(DetailPane)
        paper = self.current_paper
        if paper is None:
            detail.show("No paper selected.")
            return
        detail.show(self._rendered(paper), keep_scroll=keep_scroll)

    def _rendered(self, paper: Paper) -> Rendered:
        library = self.library
        state = "new" if library.is_new(paper) else "" if library.is_read(paper) else "unread"
        return render_paper(
            paper,
            bookmarked=library.is_bookmarked(paper),
            note=library.note(paper),
            highlighter=self.view.highlighter,
            tags=library.tags_of(paper),
            state=state,
            raw=self.raw,
        )

    def _refresh_paper(self) -> None:
        self.paper_list.refresh_markers()
        self._render_detail(keep_scroll=True)

    # -- actions ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a "/" typed into the search box, a note or a dialog stays text
        typing = len(self.screen_stack) > 1 or isinstance(self.focused, (Input, TextArea))
        return not (action == "focus_search" and typing)

    def action_focus_search(self) -> None:
        # now, not after a refresh: keys typed right after "/" belong in the box
        self.screen.set_focus(self.search_bar)

    def action_clear_search(self) -> None:
        """Esc peels one layer: the selection, the query, the similar view, bookmarks only,
        the chosen collections."""
        if self.selected:
            self.selected.clear()
            self.paper_list.refresh_markers()
            self._update_status()
        elif self.search_bar.value:
            self.search_bar.value = ""
        elif self.showing_similar:
            self.search()
        elif self.bookmarks_only:
            self.bookmarks_only = False
        elif self.collections:
            self.collections = frozenset()
            self.search()
        self.paper_list.focus()

    def action_switch_pane(self) -> None:
        if self.paper_list.has_focus:
            self.query_one(DetailPane).focus()
        else:
            self.paper_list.focus()

    def action_bookmarks_only(self) -> None:
        self.bookmarks_only = not self.bookmarks_only

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            loaded = [
                (safe_display(Path(f.path).name), safe_display(f.summary()))
                for f in self.library.corpus.files
            ]
            self.push_screen(HelpScreen(help_sections() + [("Loaded files", loaded)]))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for key in APP_KEYS:
            label = key.label or key.keys
            yield SystemCommand(
                key.description, f"key: {label}", getattr(self, f"action_{key.action}")
            )
