"""Searching, for the reader: the query in the box searched after a pause in typing, in a
worker over the current filters and order, and views that are not searches (more like this,
like my bookmarks, ask me) shown the same way. Only the newest answer is ever shown."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.timer import Timer
from textual.worker import get_current_worker

from papertui.core.corpus import Paper
from papertui.core.library import DEPTH, View
from papertui.core.semantic.foryou import NOT_READY
from papertui.core.text import cut_words, safe_display

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen

TYPING_PAUSE = 0.06  # seconds without a key before the query in the box is searched


ALL_HITS = 1 << 30  # a depth that ranks every full-text hit


class Searching:
    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.library = reader.library
        self.lock = threading.Lock()  # one query at a time over the library
        self.generation = 0  # bumped by every search; older answers are dropped
        # the search whose every hit `v` asked to select once shown (the list held only the
        # best hits: a trial's v selected 100 of 349)
        self.select_all_of: int | None = None
        self._typing: Timer | None = None
        # the row a like or skip left while the re-ranking it asked for is on its way: more
        # answers before it comes keep it, and the new order shows its best paper there
        self.answer_row: int | None = None
        # the paper the reader was on when they began typing a query, and whether they have
        # moved in its results since: clearing the query goes back to that paper, or stays on
        # the one they moved to (vim's / then Esc; a trial lost its place at row 500)
        self.left: int | None = None
        self.moved_in_results = False

    def typed(self) -> None:
        # Wait for a pause in typing: a search per key competes with the keys themselves (a
        # burst, a paste or a held Backspace), and only the last query's answer is shown.
        if self._typing is not None:
            self._typing.stop()
        if self.left is None and self.reader.search_bar.value.strip():
            # the paper to go back to is the one under the cursor at the first key: a query
            # typed and erased within the pause never ran, and must not send the reader to row 1
            self.left = self.reader.paper_list.current
        self._typing = self.reader.set_timer(TYPING_PAUSE, self._paused)

    def _paused(self) -> None:
        self._typing = None
        plist = self.reader.paper_list
        if self.reader.search_bar.value.strip():  # `typed` took the paper to go back to
            self.moved_in_results = False
            self.search()
        else:
            back = plist.current if self.moved_in_results or self.left is None else self.left
            self.left, self.moved_in_results = None, False
            self.search(keep=back)

    def chose_result(self) -> None:
        """Enter in the search box: the paper the results show is the one the reader wants
        (clearing the query later stays on it)."""
        if self._typing is not None:  # Enter before the pause in typing: search it now
            self._typing.stop()
            self._paused()
        if self.left is not None:
            self.moved_in_results = True

    def search(
        self,
        depth: int = 0,
        keep: int | None = None,
        row: int | None = None,
        pinned: int | None = None,
    ) -> None:
        """Run the query in the box with the current filters and sort, in a worker. A new
        result list starts at its top hit; with `keep` on that paper (a position in the
        library) if the list has it, with `row` on that row, whichever paper the new order
        puts there (with `pinned`: that paper, moved there); more of the same hits (`depth`)
        stay on the current paper."""
        reader = self.reader
        self.generation += 1
        if keep is None and depth:
            keep = reader.paper_list.current
        query = reader.search_bar.value
        if reader.narrowing.topic is not None:  # the topic chosen in the overview, as a filter
            query = f"{query} topic:{reader.narrowing.topic[0] + 1}"
        generation, depth = self.generation, depth or DEPTH
        bookmarks_only, sort, collections = reader.bookmarks_only, reader.sort, reader.collections

        def run() -> None:
            with self.lock:
                if get_current_worker().is_cancelled:
                    return  # the user typed on while an earlier search ran: skip to the newest
                try:
                    view = self.library.run_query(
                        query, bookmarks_only, depth=depth, sort=sort, collections=collections
                    )
                except Exception as exc:  # noqa: BLE001 - a failed search is said, not swallowed
                    view = View(query=query, indices=[], remarks=[f"search failed: {exc}"])
            if not get_current_worker().is_cancelled:
                reader.app.call_from_thread(self.show_view, view, generation, keep, "", row, pinned)

        reader.run_worker(run, thread=True, exclusive=True, group="search", exit_on_error=False)

    def rerun(self) -> None:
        """The same query again after something behind it changed (the index, the vectors, a
        negative keyword): on the same paper if the reader has moved down to it, else at the
        new top (a restart in "for you" must not keep the first paper of the file wherever
        the ranking puts it). When "for you" arrives after its stand-in order (unread first,
        while the vectors load), the new top too, unless a paper is being read in the detail
        pane: a trial moved 5 rows down the stand-in and was carried to row 99,986."""
        reader = self.reader
        plist = reader.paper_list
        stand_in = NOT_READY in reader.view.remarks and not reader.detail.has_focus_within
        self.search(keep=plist.current if plist.cursor > 0 and not stand_in else None)

    def show_view(
        self,
        view: View,
        generation: int,
        keep: int | None = None,
        similar: str = "",
        row: int | None = None,
        pinned: int | None = None,
    ) -> None:
        """Show `view` (unless a newer search was asked for since); `pinned`: a paper (a
        position in the library) shown at `row` whatever its place in the view, the one being
        read when the order was asked for again. Without `pinned`, `row` (the row a like or
        skip left) moves up to the first paper of the new order that was not above it before:
        one the reader has not passed (a paper kept above the cursor leaves the order, and
        the one that took its place must not slip by unseen)."""
        if generation != self.generation:
            return  # the user has typed on (or asked for something else) since: stale
        plist = self.reader.paper_list
        if pinned is not None and row is not None:
            if pinned in view.indices:
                view.indices.remove(pinned)
            view.indices.insert(min(row, len(view.indices)), pinned)
            keep, row = pinned, None
        elif row is not None:
            passed = set(plist.rows[:row])
            row = next((i for i, p in enumerate(view.indices) if p not in passed), row)
        self.answer_row = None
        reader = self.reader
        reader.view = view
        reader.narrowing.similar = similar
        shown = safe_display(view.query.strip())
        if view.remarks and not view.indices:
            plist.empty_message = view.remarks[-1][:1].upper() + view.remarks[-1][1:] + "."
        elif shown:
            plist.empty_message = f"No papers match {shown!r}."
        else:
            plist.empty_message = "No papers here."
        if plist.selected:  # b, t, u and E act on the selection: never on papers out of view
            before = len(plist.selected)
            plist.selected.intersection_update(set(view.indices))
            if dropped := before - len(plist.selected):
                what = "paper is" if dropped == 1 else "papers are"
                reader.app.replace_toast(  # type: ignore[attr-defined]
                    "selection", f"Unselected {dropped}: the selected {what} not in this list."
                )
        plist.set_rows(view.indices, keep=keep, row=row)
        if self.select_all_of == generation:
            self.select_all_of = None
            plist.select_all(toggle=False)
        reader.update_status()

    def select_every_hit(self) -> None:
        """`v` on a list of only the best hits: rank every hit, then select them all."""
        self.search(depth=ALL_HITS)
        self.select_all_of = self.generation

    def start_view(
        self,
        make: Callable[[], View],
        label: str,
        row: int | None = None,
        pinned: int | None = None,
    ) -> None:
        """Show a view that is not a search (more like this, ask me) as a layer Esc peels; its
        first note names it when `label` is empty. `row`: the cursor's row in it (a re-run);
        `pinned`: a paper shown at that row (see `show_view`)."""
        self.generation += 1
        generation = self.generation

        def run() -> None:
            with self.lock:
                view = make()
            name = label or (view.remarks.pop(0) if view.remarks else "a view")
            name = cut_words(name, 60)  # the status line keeps room for Esc and the order
            self.reader.app.call_from_thread(
                self.show_view, view, generation, None, name, row, pinned
            )

        self.reader.run_worker(run, thread=True, group="search", exclusive=True)

    def similar_to(self, paper: Paper | None) -> None:
        """More like `paper`, or (None) like the bookmarked papers together, within the
        list's filters."""
        reader = self.reader
        if paper is None and not self.library.annotations().bookmarks:
            reader.notify("No bookmarks yet: press b on a paper.", severity="warning")
            return
        only, chosen = reader.bookmarks_only, reader.collections
        similar = self.library.semantic.similar
        self.start_view(lambda: similar(paper, bookmarks_only=only, collections=chosen), "")
