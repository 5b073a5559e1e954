"""Triage for the reader: like / skip, take an answer back, negative keywords and starting
over, as functions over the library that return what to say. The screen moves the cursor and
asks for the new order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from papertui.core.library import Library
from papertui.core.semantic.foryou import is_passed_over, learned
from papertui.core.store import StoreError
from papertui.core.text import cut_words, safe_display
from papertui.ui.outcome import Outcome


@dataclass
class Answers:
    """This session's likes and skips, newest last, each with what its papers had before (for
    `U`): positions into the library and "liked", "skipped" or None."""

    batches: list[list[tuple[int, str | None]]] = field(default_factory=list)

    def judge(self, library: Library, positions: Sequence[int], liked: bool) -> Outcome:
        marks = library.marks
        papers = [library.papers[i] for i in positions]
        before = [(i, marks.feedback_word(p)) for i, p in zip(positions, papers, strict=True)]
        try:
            (marks.like if liked else marks.skip)(papers)
        except StoreError as exc:
            return Outcome(str(exc), "error", "Not saved", timeout=10)
        self.batches.append(before)
        verb = "Liked" if liked else "Skipped"
        what = "this paper" if len(papers) == 1 else f"{len(papers)} papers"
        so_far = learned(*library.foryou.answer_counts())
        return Outcome(f"{verb} {what}. 'For you' {so_far}.", kind="answer")

    def undo(self, library: Library) -> tuple[Outcome, int | None]:
        """Take back the last answer (the papers get what they had before); the outcome and
        the first paper it was about."""
        if not self.batches:
            return Outcome("No like or skip to take back in this session.", timeout=4), None
        batch = self.batches.pop()
        marks, papers = library.marks, library.papers
        changes = (("liked", marks.like), ("skipped", marks.skip), (None, marks.undecide))
        try:
            for word, change in changes:
                if chosen := [papers[i] for i, had in batch if had == word]:
                    change(chosen)
        except StoreError as exc:
            self.batches.append(batch)
            return Outcome(str(exc), "error", "Not saved", timeout=10), None
        position = batch[0][0]
        title = cut_words(papers[position].title, 60)
        what = f"“{title}”" if len(batch) == 1 else f"{len(batch)} papers"
        return Outcome(f"Took back the answer for {safe_display(what)}.", kind="answer"), position


def negative_keyword(library: Library, typed: str | None) -> Outcome:
    """Add a phrase whose papers sink in "for you"; "-phrase" takes one out again."""
    text = " ".join((typed or "").split())
    if not text or text == "-":
        return Outcome()
    removing = text.startswith("-")
    phrase = text[1:].strip() if removing else text
    foryou = library.foryou
    problem = (foryou.remove_negative_keyword if removing else foryou.add_negative_keyword)(phrase)
    if problem is not None:
        return Outcome(safe_display(problem), "error", timeout=8)
    shown = safe_display(phrase)
    if removing:
        return Outcome(f"Papers about {shown!r} no longer sink in 'for you'.", relearn=True)
    return Outcome(f"Papers about {shown!r} now sink in 'for you'.", relearn=True)


def negative_question(library: Library) -> str:
    now = ", ".join(library.foryou.negative_keywords())
    return (
        "Sink papers about (still listed and found; -phrase removes one). "
        f"Now: {safe_display(now) if now else 'none'}"
    )


def reset(library: Library) -> Outcome:
    try:
        library.marks.reset_feedback()
    except StoreError as exc:
        return Outcome(str(exc), "error")
    return Outcome("Forgot every like, skip and seed.", relearn=True)


RESET_QUESTION = (
    "Forget every like, skip and seed, and start 'for you' over? Papers read so far "
    "stop counting as passed over; bookmarks, notes, tags and read marks stay."
)


def passed_over(library: Library, position: int) -> bool:
    """Read and not kept: "for you" learns from it as from a skip."""
    return is_passed_over(library.annotations(), library.papers[position].id)
