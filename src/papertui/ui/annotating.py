"""Annotating papers, for the reader: bookmarks, notes, tags and read state, as functions over
the library that return what to say. Every failure to save is said, never swallowed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from papertui.core.corpus import Paper
from papertui.core.export import byline, paper_markdown
from papertui.core.library import Library
from papertui.core.store import StoreError, drafts
from papertui.core.text import counted, cut_words, safe_display
from papertui.ui.outcome import Outcome


def _saved(change: Callable[[], None], what: str) -> Outcome | None:
    """None when saved; else the error to show."""
    try:
        change()
    except StoreError as exc:
        return Outcome(str(exc), "error", f"{what} not saved", timeout=10)
    return None


def toggle_bookmark(library: Library, papers: Sequence[Paper]) -> Outcome:
    """Bookmark one paper (or take the bookmark off); a batch: bookmark them all, or take
    every bookmark off when all have one."""
    marks = library.marks
    marks.refresh_if_changed()
    if not papers:
        return Outcome("No paper selected.", "warning")
    if len(papers) == 1:
        now: list[bool] = []
        failed = _saved(lambda: now.append(marks.toggle_bookmark(papers[0])), "Bookmark")
        if failed:
            return failed
        return Outcome("Bookmarked." if now[0] else "Bookmark removed.", timeout=2, relearn=True)
    on = not all(marks.is_bookmarked(p) for p in papers)

    def mark_all() -> None:
        for paper in papers:
            marks.set_bookmark(paper, on)

    failed = _saved(mark_all, "Bookmark")
    if failed:
        return failed
    verb = "Bookmarked" if on else "Removed the bookmarks of"
    return Outcome(f"{verb} {counted(len(papers), 'paper')}.", timeout=2, relearn=True)


def note_to_edit(library: Library, paper: Paper) -> tuple[str, str, str]:
    """(text to edit, the note as saved, a problem to show): a draft typed before the reader
    stopped and never saved comes back first."""
    library.marks.refresh()  # edit the latest text
    saved = library.marks.note(paper)
    left = drafts.load(paper.id)
    if left is not None and left != saved:
        return left, saved, "Restored the text you had not saved: ctrl+s saves it."
    return saved, saved, ""


def save_note(library: Library, paper: Paper, text: str, before: str) -> Outcome:
    """Save the note; on failure the caller reopens the editor with the text and the reason."""
    failed = _saved(lambda: library.marks.set_note(paper, text), "Note")
    if failed:
        return failed
    drafts.drop(paper.id)
    kept_changed = bool(text.strip()) != bool(before.strip())  # kept, or no longer
    return Outcome("Note saved." if text.strip() else "Note removed.", relearn=kept_changed)


def set_tags(
    library: Library, papers: Sequence[Paper], changes: Sequence[tuple[str, bool]]
) -> list[Outcome]:
    said = []
    for tag, on in changes:
        try:
            library.marks.set_tag(papers, tag, on)
        except StoreError as exc:
            said.append(Outcome(str(exc), "error", "Tag not saved"))
            break
        verb = "Tagged" if on else "Removed the tag from"
        what = "the paper" if len(papers) == 1 else f"{len(papers)} papers"
        said.append(Outcome(f"{verb} {what}: #{safe_display(tag)}", relearn=True))
    return said


def mark_read(library: Library, paper: Paper) -> bool:
    """Whether it became read now (read state is a convenience: a failure is not said)."""
    if library.marks.is_read(paper):
        return False
    try:
        library.marks.set_read([paper], True)
    except StoreError:
        return False
    return True


def toggle_read(library: Library, papers: Sequence[Paper]) -> Outcome:
    library.marks.refresh_if_changed()
    if not papers:
        return Outcome()
    read = not all(library.marks.is_read(p) for p in papers)
    return _saved(lambda: library.marks.set_read(papers, read), "Read state") or Outcome()


def markdown(library: Library, paper: Paper) -> str:
    """What `Y` copies: title, byline, abstract, links and note."""
    people = byline(paper.authors, paper.venue, paper.year)
    return paper_markdown(
        paper.title, paper.abstract, paper.urls, library.marks.note(paper), people
    )


def pending_draft(library: Library) -> tuple[int, str] | None:
    """At startup: (position, what to say) for the newest note typed and never saved."""
    by_id = library.by_id
    ids = [pid for pid in drafts.pending() if pid in by_id]
    if not ids:
        return None
    position = by_id[ids[-1]]
    title = safe_display(cut_words(library.papers[position].title, 60))
    more = f" (and {len(ids) - 1} more)" if len(ids) > 1 else ""
    return position, (
        f"A note you had not saved is kept for “{title}”{more}: n on it brings it back."
    )
