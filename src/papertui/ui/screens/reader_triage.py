"""The reader's keys for triage: like and skip, take back, the overview, seeds, negative
keywords and starting over (`ui/triaging.py`, `ui/background.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on

from papertui.core.text import counted
from papertui.ui import background, messages, triaging
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.prompt import PromptScreen
from papertui.ui.screens.reader_base import ReaderBase
from papertui.ui.state import LEARNING_ORDERS, Placement

if TYPE_CHECKING:
    pass

# characters beyond which terminals commonly drop an OSC 52 copy (tmux, xterm: about 74,000
# bytes once base64-encoded)
OSC52_SAFE = 50_000
ALL_HITS = 1 << 30  # a depth that ranks every full-text hit


class ReaderTriage(ReaderBase):
    # -- triage ----------------------------------------------------------------------------------

    def _judge(self, liked: bool) -> None:
        """Like or skip the paper (or the selection) and move to the next one."""
        positions = self.target_positions()
        if not positions:
            return
        outcome = self.answers.judge(self.library, positions, liked)
        if outcome.failed:
            self.say(outcome)
            return
        plist = self.paper_list
        selection = plist.clear_selection()
        if not self.state.learning():
            self.say(outcome)
            plist.action_cursor_down()
            self.refresh_current()
            return
        # the ranking learns as you go: the judged paper sinks, and the cursor goes to the
        # first paper of the new order the reader has not passed. No toast: the status line
        # counts the answers and the row's ↑/↓ shows this one. Until the new order comes the
        # cursor moves on, so a quick second answer judges the next paper, not this one again
        row = self.answer_row if self.answer_row is not None else plist.cursor
        if not selection:
            plist.action_cursor_down()
        self.refresh_current()
        self.search(Placement(row=row))
        self.answer_row = row

    def action_like_next(self) -> None:
        self._judge(liked=True)

    def action_skip_next(self) -> None:
        self._judge(liked=False)

    def action_undo_answer(self) -> None:
        """Take back the last like or skip of this session, and show the paper again: in "for
        you" it takes its place in the order."""
        outcome, position = self.answers.undo(self.library)
        self.say(outcome)
        if position is None:
            return
        plist = self.paper_list
        if self.state.ask_me:
            self.search(Placement(row=plist.cursor))
        elif self.state.order in LEARNING_ORDERS:
            self.search(Placement(keep=position))
        else:
            plist.go_to(position)
        self.refresh_current()
        self.update_status()

    def action_overview(self) -> None:
        indices = list(self.view.indices)
        if self.state.narrowed:
            what = f"the {counted(len(indices), 'paper')} in view"
        else:
            what = f"the whole library ({len(self.library.papers)} papers)"
        self.notify("Computing the overview…", timeout=1)
        library, post = self.library, self.post
        self.run_worker(
            lambda: background.overview(library, indices, what, post),
            thread=True,
            group="overview",
            exclusive=True,
        )

    @on(messages.OverviewReady)
    def _overview_ready(self, message: messages.OverviewReady) -> None:
        from papertui.ui.screens.overview import OverviewScreen

        titled = any(p.has_real_title for p in self.library.papers[:200])

        def chosen(topic: int | None) -> None:
            if topic is not None:
                label = self.library.semantic.topic_label(topic + 1)
                self.change(topic=(topic, label))

        screen = OverviewScreen(message.what, message.overview, titled, message.state)  # type: ignore[arg-type]
        self.app.push_screen(screen, chosen)

    def action_add_seeds(self) -> None:
        library, post = self.library, self.post

        def chosen(path: str | None) -> None:
            if path:
                self.run_worker(
                    lambda: background.add_seeds(library, path, post), thread=True, group="seeds"
                )

        question = "Like the papers of a file you already have (.bib, .json, ...):"
        self.app.push_screen(PromptScreen(question, "path to a file", path=True), chosen)

    @on(messages.Said)
    def _said(self, message: messages.Said) -> None:
        severity: Any = message.severity
        self.notify(message.text, severity=severity, timeout=6)
        if message.rerank:  # the order and the answer count in the status line
            self.rerun()

    def action_add_negative_keyword(self) -> None:
        def chosen(text: str | None) -> None:
            outcome = triaging.negative_keyword(self.library, text)
            self.say(outcome)
            if outcome.relearn and self.state.order in LEARNING_ORDERS:
                self.rerun()

        question = triaging.negative_question(self.library)
        self.app.push_screen(PromptScreen(question, "e.g. medical imaging"), chosen)

    def action_reset_feedback(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                outcome = triaging.reset(self.library)
                self.say(outcome)
                if not outcome.failed:
                    self.refresh_current()  # the ↑ ↓ marks and "why" go at once
                    self.rerun()

        self.app.push_screen(ConfirmScreen(triaging.RESET_QUESTION), answered)
