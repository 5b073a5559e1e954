"""The reading workflow on top of the reader: read state, tags, selection, sort, more like this,
collections, readable math, hit jumping and export. A mixin of `PaperTUI`, kept apart so the
app module stays about layout, search and routing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from papertui.core.corpus import Paper
from papertui.core.export import Entry, render
from papertui.core.store import StoreError
from papertui.ui.base import ReaderBase
from papertui.ui.screens.collections import CollectionsScreen
from papertui.ui.screens.export import ExportScreen
from papertui.ui.screens.tags import TagScreen
from papertui.ui.widgets.detail import DetailPane

if TYPE_CHECKING:
    pass

SORTS = ("relevance", "corpus", "title", "recent")
READ_AFTER = 1.5  # seconds a paper stays in the detail pane before it counts as read


class WorkflowActions(ReaderBase):
    """Actions of the reading workflow."""

    # -- read state -------------------------------------------------------------------------------

    def _schedule_read(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()
        pos = self.paper_list.current
        if pos is None or self.library.papers[pos].id in self.library.store.reads:
            return
        self._read_timer = self.set_timer(READ_AFTER, lambda: self._mark_read(pos))

    def _mark_read(self, pos: int) -> None:
        if self.paper_list.current != pos:
            return
        try:
            self.library.set_read([self.library.papers[pos]], True)
        except StoreError:
            return  # read state is a convenience; failing to save it is not worth a message
        self._refresh_paper()

    def action_toggle_read(self) -> None:
        papers = self.targets()
        if not papers:
            return
        read = not all(self.library.is_read(p) for p in papers)
        if self._read_timer is not None:
            self._read_timer.stop()
        self._save(lambda: self.library.set_read(papers, read), "Read state")
        self._refresh_paper()

    # -- selection --------------------------------------------------------------------------------

    def targets(self) -> list[Paper]:
        """What a batch action acts on: the selection, else the current paper."""
        if self.selected:
            return [self.library.papers[i] for i in sorted(self.selected)]
        paper = self.current_paper
        return [paper] if paper is not None else []

    def action_toggle_select(self) -> None:
        pos = self.paper_list.current
        if pos is None:
            return
        self.selected.symmetric_difference_update({pos})
        self.paper_list.action_cursor_down()
        self.paper_list.refresh_markers()
        self._update_status()

    def _save(self, change: Callable[[], None], what: str) -> bool:
        try:
            change()
        except StoreError as exc:
            self.notify(str(exc), title=f"{what} not saved", severity="error", timeout=10)
            return False
        return True

    # -- tags -------------------------------------------------------------------------------------

    def action_tag(self) -> None:
        papers = self.targets()
        if not papers:
            return
        what = papers[0].title if len(papers) == 1 else f"{len(papers)} selected papers"
        common = set.intersection(*(set(self.library.tags_of(p)) for p in papers))

        def apply(tag: str) -> str | None:
            on = not all(tag in self.library.tags_of(p) for p in papers)
            try:
                self.library.set_tag(papers, tag, on)
            except StoreError as exc:
                return str(exc)
            self._refresh_paper()
            return None

        known = self.library.store.all_tags()
        self.push_screen(TagScreen(what, sorted(common), known, apply))

    # -- sort, collections, raw text, hits -------------------------------------------------------

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.notify(f"Sorted by {self.sort}.", timeout=2)
        self.search()

    def action_collections(self) -> None:
        store, counts = self.library.store, []
        totals: dict[str, list[int]] = {}
        for paper in self.library.papers:
            for name in paper.collections:
                row = totals.setdefault(name, [0, 0, 0])
                row[0] += 1
                row[1] += paper.id not in store.reads
                row[2] += paper.id in store.bookmarks
        counts = [(name, *row) for name, row in totals.items()]

        def chosen(names: frozenset[str] | None) -> None:
            if names is not None:
                self.collections = names
                self.search()

        self.push_screen(CollectionsScreen(counts, self.collections), chosen)  # type: ignore[arg-type]

    def action_toggle_raw(self) -> None:
        self.raw = not self.raw
        self.notify("Showing the raw text." if self.raw else "Showing readable math.", timeout=2)
        self._refresh_paper()

    def action_next_hit(self) -> None:
        if not self.query_one(DetailPane).jump(1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_previous_hit(self) -> None:
        if not self.query_one(DetailPane).jump(-1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    # -- more like this ---------------------------------------------------------------------------

    def action_more_like_this(self) -> None:
        paper = self.current_paper
        if paper is not None:
            self._generation += 1
            self.find_similar(paper, self._generation)

    def action_like_bookmarks(self) -> None:
        if not self.library.store.bookmarks:
            self.notify("No bookmarks yet: press b on a paper.", severity="warning")
            return
        self._generation += 1
        self.find_similar(None, self._generation)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def find_similar(self, paper: Paper | None, generation: int) -> None:
        with self._search_lock:
            view = self.library.similar(paper)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_view, view, generation, True)

    # -- export -----------------------------------------------------------------------------------

    def action_export(self) -> None:
        choices = [("bookmarked and annotated papers", "bookmarks")]
        if self.selected:
            choices.append((f"the {len(self.selected)} selected papers", "selection"))
        choices.append((f"the current results ({len(self.view.indices)})", "results"))
        choices += [(f"tag #{tag}", f"tag:{tag}") for tag in self.library.store.all_tags()]

        def save(what: str, fmt: str, path: str) -> str | None:
            entries = self._entries(what)
            target = Path(path).expanduser()
            try:
                target.write_text(render(entries, fmt), "utf-8")
            except OSError as exc:
                return f"{target}: {exc.strerror or exc}"
            self.notify(f"Exported {len(entries)} papers to {target}.", timeout=5)
            return None

        self.push_screen(ExportScreen(choices, save))

    def _entries(self, what: str) -> list[Entry]:
        library = self.library
        if what == "selection":
            papers = [library.papers[i] for i in sorted(self.selected)]
        elif what == "results":
            papers = [library.papers[i] for i in self.view.indices]
        elif what.startswith("tag:"):
            papers = library.tagged(what[4:])
        else:
            return library.export_entries()
        return [library.entry(p) for p in papers]
