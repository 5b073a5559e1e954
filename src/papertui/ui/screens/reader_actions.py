"""The reader's keys for moving, layers, the layout and annotating: each reads the widgets'
state, calls a function over the library (`ui/annotating.py`) and shows what it says."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core.corpus import Paper
from papertui.core.semantic.foryou import positive_ids
from papertui.core.store import drafts
from papertui.core.text import safe_display
from papertui.ui import annotating
from papertui.ui.keys import SORT_NAMES, help_sections
from papertui.ui.outcome import Outcome
from papertui.ui.screens.help import HelpScreen
from papertui.ui.screens.note_editor import NoteEditor
from papertui.ui.screens.reader_base import ReaderBase, _fields
from papertui.ui.screens.tags import TagScreen
from papertui.ui.state import Placement

if TYPE_CHECKING:
    pass

# characters beyond which terminals commonly drop an OSC 52 copy (tmux, xterm: about 74,000
# bytes once base64-encoded)
OSC52_SAFE = 50_000
ALL_HITS = 1 << 30  # a depth that ranks every full-text hit


class ReaderActions(ReaderBase):
    # -- moving and layers -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the keys bound before the focused widget sees them ("/", and those that open a
        # dialog) stay text in the search box (dialogs are screens of their own)
        typed = action in ("focus_search", "edit_note", "tag", "export")
        return not (typed and self.focused is self.search_bar)

    def action_focus_search(self) -> None:
        # now, not after a refresh: keys typed right after "/" belong in the box
        self.set_focus(self.search_bar)

    def action_clear_search(self) -> None:
        """Esc peels one layer: the selection, then what `ReaderState.peel` takes off. From
        the detail pane it first goes back to the list."""
        if self.detail.has_focus_within:
            if self.opened_from_list_only:
                self.opened_from_list_only = False
                self.action_list_only()
            self.paper_list.focus()
            return
        self.paper_list.focus()
        if self.paper_list.clear_selection():
            return
        peeled = self.state.peel()
        if peeled is None:
            return
        placement = self.return_to(peeled) or Placement()
        if peeled.query != self.state.query:  # back to the paper searched from, or stay
            back, self.search_bar.back_to = self.search_bar.back_to, None
            placement = self._back_from_query(back)
            self.search_bar.show_query("")
        self.change(placement, **_fields(peeled))

    def action_open_paper(self) -> None:
        """Enter on a row: read the paper in the detail pane (shown for it in list-only mode)."""
        if self.current_paper is None:
            return
        if not self.detail.display:
            self.opened_from_list_only = True
            self.action_list_only()
        self.detail.focus()

    def action_switch_pane(self) -> None:
        if self.paper_list.has_focus:
            self.detail.focus()
        else:
            self.paper_list.focus()

    def action_bookmarks_only(self) -> None:
        self.change(bookmarks_only=not self.state.bookmarks_only)

    def action_help(self) -> None:
        corpus = self.library.corpus
        loaded = [
            (safe_display(Path(f.path).name), safe_display(f.summary())) for f in corpus.files
        ]
        loaded += [("not loaded", safe_display(line)) for line in corpus.errors]
        self.app.push_screen(HelpScreen(help_sections() + [("Loaded files", loaded)]))

    def action_cycle_sort(self) -> None:
        names = list(SORT_NAMES)
        at = names.index(self.state.order)
        # "new first" and "most upvoted" only where there are new or upvoted papers
        sort = next(
            n
            for n in (names[(at + k) % len(names)] for k in range(1, len(names) + 1))
            if n not in ("new", "upvotes") or self.library.has_order(n)
        )
        name = SORT_NAMES[sort]
        if self.state.query.strip():
            name += " (for this search; browsing keeps its own order)"
        elif sort == "relevance":
            name += " (with no search: file order)"
        self.notify(f"Order: {name}.", timeout=2)
        self.change(**_fields(self.state.with_order(sort)))

    def action_collections(self) -> None:
        from papertui.ui.screens.collections import CollectionsScreen

        def chosen(names: frozenset[str] | None) -> None:
            if names is not None:
                self.change(collections=names)

        counts = self.library.marks.collection_counts()
        self.app.push_screen(CollectionsScreen(counts, self.state.collections), chosen)

    def action_toggle_raw(self) -> None:
        self.detail.raw = not self.detail.raw
        self.notify("Showing the raw text." if self.detail.raw else "Showing readable math.")

    def action_next_hit(self) -> None:
        if not self.detail.jump(1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_previous_hit(self) -> None:
        if not self.detail.jump(-1):
            self.notify("No highlighted words in this abstract.", timeout=2)

    def action_more_like_this(self) -> None:
        pos = self.paper_list.position
        if pos is not None:
            self.change(**_fields(self.state.showing(like_paper=pos)))

    def action_like_bookmarks(self) -> None:
        if not self.library.annotations().bookmarks:
            self.notify("No bookmarks yet: press b on a paper.", severity="warning")
            return
        self.change(**_fields(self.state.showing(like_bookmarks=True)))

    def action_ask_me(self) -> None:
        annotations = self.library.annotations()
        if not annotations.feedback and not positive_ids(annotations):
            # an empty list would say nothing of what it lacks
            self.notify(
                "Ask me needs something to learn from first: like (+) or skip (-) a few "
                "papers, or bookmark (b) some; then it asks about those it is least sure of.",
                severity="warning",
                timeout=6,
            )
            return
        self.change(**_fields(self.state.showing(ask_me=True)))

    def _split(self, step: int) -> None:
        self.list_only = False
        self.list_width = max(20, min(90, self.list_width + step))
        self.apply_layout()
        message = f"List: {self.list_width}% of the width."
        if self.size.width < 90:  # stacked panes: the split waits for a wider terminal
            message += " The panes are stacked below 90 columns: it applies when wider."
        self.toast("split", message)
        self.remember("list_width", self.list_width)
        self.remember("list_only", False)

    def action_widen_list(self) -> None:
        self._split(+5)

    def action_narrow_list(self) -> None:
        self._split(-5)

    def action_list_only(self) -> None:
        self.list_only = not self.list_only
        self.apply_layout()
        self.remember("list_only", self.list_only)

    # -- annotating ------------------------------------------------------------------------------

    def _annotated(self, outcome: Outcome) -> None:
        self.say(outcome)
        self.refresh_current()
        if outcome.relearn:
            self.relearn()

    def action_toggle_bookmark(self) -> None:
        self._annotated(annotating.toggle_bookmark(self.library, self.targets()))

    def action_edit_note(self) -> None:
        paper = self.current_paper
        if paper is None:
            self.notify("No paper selected.", severity="warning")
            return
        text, saved, problem = annotating.note_to_edit(self.library, paper)
        self._open_note(paper, text, saved, problem)

    def _open_note(self, paper: Paper, text: str, saved: str, problem: str = "") -> None:
        def closed(result: str | None) -> None:
            if result is None:
                drafts.drop(paper.id)  # left unchanged, or its changes discarded on purpose
                return
            outcome = annotating.save_note(self.library, paper, result, saved)
            if outcome.failed:  # reopen with what was typed: nothing typed is lost
                self._open_note(paper, result, saved, f"Not saved: {outcome.text}")
                return
            self._annotated(outcome)

        editor = NoteEditor(
            paper.title, text, problem, saved, lambda t: drafts.keep(paper.id, t), paper.abstract
        )
        self.app.push_screen(editor, closed)

    def action_tag(self) -> None:
        self.library.marks.refresh_if_changed()
        papers = self.targets()
        if not papers:
            return
        marks = self.library.marks
        what = papers[0].title if len(papers) == 1 else f"{len(papers)} selected papers"
        common = set.intersection(*(set(marks.tags_of(p)) for p in papers))

        def chosen(changes: list[tuple[str, bool]] | None) -> None:
            said = annotating.set_tags(self.library, papers, changes or [])
            for outcome in said:
                self.say(outcome)
            self.refresh_current()
            if any(o.relearn for o in said):
                self.relearn()

        self.app.push_screen(TagScreen(what, sorted(common), marks.all_tags()), chosen)

    def action_toggle_read(self) -> None:
        self._annotated(annotating.toggle_read(self.library, self.targets()))

    def action_toggle_select(self) -> None:
        self.paper_list.action_toggle_select()

    def action_select_all(self) -> None:
        plist = self.paper_list
        if self.view.truncated and not plist.selected.issuperset(plist.rows):
            # more hits than listed: rank every one of them first, then select them all
            self.search(Placement(stay=True), depth=ALL_HITS, select_all=True)
        else:
            plist.select_all()
