"""Triage for the reader: like / skip and move on, "ask me", seeds, negative keywords and the
overview with its topics. Talks to the `Library` only; slow work runs in the reader's workers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core.library import View
from papertui.core.semantic.foryou import learned
from papertui.core.store import StoreError
from papertui.core.text import counted, cut_words, safe_display
from papertui.ui.screens.prompt import PromptScreen

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen


ASK_ME = "the model is least sure about"  # the ask-me view's name in the status line


class Triaging:
    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.library = reader.library
        # this session's answers, newest last, each with what the papers had before, for U
        self.answers: list[list[tuple[int, str | None]]] = []

    def judge(self, liked: bool) -> None:
        """Like or skip the paper (or the selection) and move to the next one."""
        reader = self.reader
        positions = reader.target_positions()
        if not positions:
            return
        marks = self.library.marks
        papers = [self.library.papers[i] for i in positions]
        before = [(i, marks.feedback_word(p)) for i, p in zip(positions, papers, strict=True)]
        try:
            (marks.like if liked else marks.skip)(papers)
        except StoreError as exc:
            reader.notify(str(exc), title="Not saved", severity="error", timeout=10)
            return
        self.answers.append(before)
        plist = reader.paper_list
        selection = bool(plist.selected)
        plist.clear_selection()
        if reader.narrowing.similar == ASK_ME or reader.sort == "foryou":
            # the ranking learns as you go: the judged paper sinks to the judged papers at the
            # end, and the cursor goes to the first paper of the new order the reader has not
            # passed (in ask-me: the next least sure; see `Searching.show_view`). No toast:
            # the status line counts the answers and the row's ↑/↓ shows this one, and a
            # toast per key would cover the abstract being read. Until the new order comes the
            # cursor moves on, so a quick second answer judges the next paper, not this one
            # again; the new order then shows from the first row answered.
            searching = reader.searching
            row = searching.answer_row if searching.answer_row is not None else plist.cursor
            if not selection:
                plist.action_cursor_down()
            reader.current.refresh()
            if reader.narrowing.similar == ASK_ME:
                self.ask_me(row=row)
            else:
                searching.search(row=row)
            searching.answer_row = row
        else:
            verb = "Liked" if liked else "Skipped"
            what = "this paper" if len(papers) == 1 else f"{len(papers)} papers"
            learned_from = learned(*self.library.foryou.answer_counts())
            reader.app.replace_toast(  # type: ignore[attr-defined]
                "answer", f"{verb} {what}. 'For you' {learned_from}."
            )
            reader.paper_list.action_cursor_down()
            reader.current.refresh()

    def undo(self) -> None:
        """Take back the last like or skip of this session (the papers get what they had
        before), and show the paper again: in "for you" it takes its place in the order."""
        reader = self.reader
        if not self.answers:
            reader.notify("No like or skip to take back in this session.", timeout=4)
            return
        batch = self.answers.pop()
        marks, papers = self.library.marks, self.library.papers
        changes = (("liked", marks.like), ("skipped", marks.skip), (None, marks.undecide))
        try:
            for word, change in changes:
                if chosen := [papers[i] for i, had in batch if had == word]:
                    change(chosen)
        except StoreError as exc:
            self.answers.append(batch)
            reader.notify(str(exc), title="Not saved", severity="error", timeout=10)
            return
        position = batch[0][0]
        title = cut_words(papers[position].title, 60)
        what = f"“{title}”" if len(batch) == 1 else f"{len(batch)} papers"
        reader.app.replace_toast(  # type: ignore[attr-defined]
            "answer", f"Took back the answer for {safe_display(what)}."
        )
        plist = reader.paper_list
        if reader.narrowing.similar == ASK_ME:
            self.ask_me(row=plist.cursor)
        elif reader.sort == "foryou":
            reader.searching.search(keep=position)
        else:
            plist.go_to(position)
            plist.refresh()
        reader.current.refresh()
        reader.update_status()

    def ask_me(self, row: int | None = None, pinned: int | None = None) -> None:
        self.reader.searching.start_view(lambda: self.library.foryou.ask_me(), ASK_ME, row, pinned)

    def relearn(self) -> None:
        """A paper was kept (bookmarked, noted, tagged) or no longer is: "for you" and "ask
        me" learn from it at once. The paper being read stays on its row; the rest of the
        list takes the new order (and the status line the new count)."""
        reader = self.reader
        plist = reader.paper_list
        if plist.current is None:
            return
        if reader.narrowing.similar == ASK_ME:
            self.ask_me(row=plist.cursor, pinned=plist.current)
        elif reader.sort == "foryou" and not reader.narrowing.similar:
            reader.searching.search(row=plist.cursor, pinned=plist.current)

    def add_seeds(self) -> None:
        def chosen(path: str | None) -> None:
            if path:
                self.reader.run_worker(lambda: self._seed(path), thread=True, group="seeds")

        question = "Like the papers of a file you already have (.bib, .json, ...):"
        self.reader.app.push_screen(PromptScreen(question, "path to a file", path=True), chosen)

    def _seed(self, path: str) -> None:
        problems: list[str] = []
        try:
            count = self.library.foryou.add_seeds(Path(path).expanduser(), problems)
            message, severity = f"Learned from {counted(count, 'paper')} of {path}.", "information"
            if problems:  # the entries left out: the first two, and how many more
                more = f"; {len(problems) - 2} more problems" if len(problems) > 2 else ""
                message += f" Left out: {'; '.join(problems[:2])}{more}."
                severity = "warning"
        except (OSError, ValueError, StoreError) as exc:
            message, severity = f"{path}: {exc}", "error"
        self.reader.app.call_from_thread(
            self.reader.notify, safe_display(message), severity=severity, timeout=6
        )
        if severity != "error":  # the order and the answer count in the status line
            self.reader.app.call_from_thread(self.reader.searching.rerun)

    def add_negative_keyword(self) -> None:
        """Ask for a phrase to sink in "for you"; "-phrase" takes one out again."""
        foryou = self.library.foryou

        def chosen(text: str | None) -> None:
            text = " ".join((text or "").split())
            if not text or text == "-":
                return
            removing = text.startswith("-")
            phrase = text[1:].strip() if removing else text
            change = foryou.remove_negative_keyword if removing else foryou.add_negative_keyword
            problem = change(phrase)
            if problem is not None:
                self.reader.notify(safe_display(problem), severity="error", timeout=8)
                return
            shown = safe_display(phrase)
            if removing:
                self.reader.notify(f"Papers about {shown!r} no longer sink in 'for you'.")
            else:
                self.reader.notify(f"Papers about {shown!r} now sink in 'for you'.")
            if self.reader.sort == "foryou":
                self.reader.searching.rerun()

        now = ", ".join(foryou.negative_keywords())
        question = (
            "Sink papers about (still listed and found; -phrase removes one). "
            f"Now: {safe_display(now) if now else 'none'}"
        )
        self.reader.app.push_screen(PromptScreen(question, "e.g. medical imaging"), chosen)

    def reset(self) -> None:
        from papertui.ui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.library.marks.reset_feedback()
            except StoreError as exc:
                self.reader.notify(str(exc), severity="error")
                return
            self.reader.notify("Forgot every like, skip and seed.")
            self.reader.current.refresh()  # the ↑ ↓ marks and "why" go at once
            self.reader.searching.rerun()

        question = (
            "Forget every like, skip and seed, and start 'for you' over? Papers read so far "
            "stop counting as passed over; bookmarks, notes, tags and read marks stay."
        )
        self.reader.app.push_screen(ConfirmScreen(question), answered)

    # -- the overview ---------------------------------------------------------------------------

    def overview(self) -> None:
        reader = self.reader
        indices = list(reader.view.indices)
        what = self._what()
        reader.notify("Computing the overview…", timeout=1)

        def compute() -> None:
            result = self.library.semantic.overview(indices)
            state = self.library.semantic.state()
            reader.app.call_from_thread(self._show_overview, what, result, state)

        reader.run_worker(compute, thread=True, group="overview", exclusive=True)

    def _what(self) -> str:
        reader = self.reader
        if reader.view.query or reader.narrowing.describe(reader):
            return f"the {counted(len(reader.view.indices), 'paper')} in view"
        return f"the whole library ({len(self.library.papers)} papers)"

    def _show_overview(self, what: str, overview: object, state: str) -> None:
        from papertui.ui.screens.overview import OverviewScreen

        titled = any(p.has_real_title for p in self.library.papers[:200])

        def chosen(topic: int | None) -> None:
            if topic is not None:
                self.reader.narrowing.topic = (topic, self.library.semantic.topic_label(topic + 1))
                self.reader.searching.search()

        screen = OverviewScreen(what, overview, titled, state)  # type: ignore[arg-type]
        self.reader.app.push_screen(screen, chosen)


def empty_view(note: str) -> View:
    return View(query="", indices=[], remarks=[note])
