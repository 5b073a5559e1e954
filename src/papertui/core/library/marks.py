"""What the reader marks on papers: bookmarks, notes, tags, read and seen state, and the likes
and skips that "for you" learns from. Reads answer from the store's current snapshot; writes go
to the store (each raises StoreError, one line, when it cannot be saved)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from papertui.core.corpus import Paper
from papertui.core.query import Filter
from papertui.core.store import LIKED, SKIPPED, UNDECIDED, Annotations, Store
from papertui.core.system import paths

if TYPE_CHECKING:
    from papertui.core.query.planner import Planner


class Marks:
    """The user's marks in `store`, on the papers the library shows now (`corpus_changed`)."""

    def __init__(self, store: Store, papers: Sequence[Paper], planner: Planner) -> None:
        self._store = store
        self._papers = papers
        self._planner = planner

    def corpus_changed(self, papers: Sequence[Paper], planner: Planner) -> None:
        """The library shows `papers` now, queried by `planner`."""
        self._papers = papers
        self._planner = planner

    def _annotations(self) -> Annotations:
        return self._store.snapshot()

    # -- reading ----------------------------------------------------------------------------------

    def is_bookmarked(self, paper: Paper) -> bool:
        return paper.id in self._annotations().bookmarks

    def note(self, paper: Paper) -> str:
        return self._annotations().notes.get(paper.id, "")

    def is_read(self, paper: Paper) -> bool:
        return paper.id in self._annotations().reads

    def is_new(self, paper: Paper) -> bool:
        return self._annotations().is_new(paper.id)

    def feedback_word(self, paper: Paper) -> str | None:
        """'liked' or 'skipped' when the reader answered for this paper, else None."""
        return self._annotations().feedback_word(paper.id)

    def all_tags(self) -> list[str]:
        tags = {t for names in self._annotations().tags.values() for t in names}
        return sorted(tags, key=str.casefold)

    def tags_of(self, paper: Paper) -> list[str]:
        return self._annotations().tags_of(paper.id)

    def tagged(self, tag: str) -> list[Paper]:
        """The papers with `tag`, matched as `tag:` matches it (case-insensitive)."""
        found = self._planner.sets.positions(Filter("tag", tag), self._annotations())
        return [self._papers[i] for i in sorted(found)]

    def refresh_if_changed(self) -> None:
        """Pick up what another papertui wrote, when it wrote anything (cheap otherwise): before
        a toggle, so a stale copy never undoes another reader's bookmark."""
        self._store.refresh_if_changed()

    def refresh(self) -> None:
        """Pick up what another papertui (a second TUI, a CLI script) has written meanwhile.
        Raises StoreError (one line) when the store cannot be read."""
        self._store.refresh()

    # -- the user's data file and the collections ----------------------------------------------

    def problems(self) -> list[tuple[str, str]]:
        """(severity, message) about the user's data file, for the reader and the CLI."""
        found = []
        if self._store.moved_aside is not None:
            found.append(
                (
                    "error",
                    f"Your data file was damaged. It was moved to {self._store.moved_aside} "
                    "and a fresh one started.",
                )
            )
        if self._store.unavailable:
            found.append(
                ("warning", f"Bookmarks and notes cannot be saved: {self._store.unavailable}")
            )
        return found

    def collection_counts(self) -> list[tuple[str, int, int, int]]:
        """(collection, papers, unread, bookmarked) for each collection, in corpus order."""
        annotations = self._annotations()
        totals: dict[str, list[int]] = {}
        for paper in self._papers:
            for name in paper.collections:
                row = totals.setdefault(name, [0, 0, 0])
                row[0] += 1
                row[1] += paper.id not in annotations.reads
                row[2] += paper.id in annotations.bookmarks
        return [(name, *row) for name, row in totals.items()]  # type: ignore[misc]

    # -- writing ----------------------------------------------------------------------------------

    def toggle_bookmark(self, paper: Paper) -> bool:
        """Flip the bookmark; returns the new state."""
        self.refresh()
        on = not self.is_bookmarked(paper)
        self.set_bookmark(paper, on)
        return on

    def set_bookmark(self, paper: Paper, on: bool) -> None:
        self._store.set_bookmark(paper, on)

    def set_note(self, paper: Paper, text: str) -> None:
        self._store.set_note(paper, text)

    def set_read(self, papers: Sequence[Paper], read: bool) -> None:
        self._store.set_read([p.id for p in papers], read)

    def set_tag(self, papers: Sequence[Paper], tag: str, on: bool) -> None:
        """Add or remove a tag; a tag you already have in another case is that tag
        ("Reading-Group" adds "reading-group" when that exists)."""
        self._store.set_tag(list(papers), self.canonical_tag(tag), on)

    def canonical_tag(self, tag: str) -> str:
        """The spelling of `tag` among the tags in use (case-insensitive), else `tag`."""
        folded = tag.casefold()
        return next((t for t in self.all_tags() if t.casefold() == folded), tag)

    def like(self, papers: Sequence[Paper]) -> None:
        """Say these papers are what you want to read (a positive for "for you")."""
        self._store.set_feedback(list(papers), LIKED)

    def skip(self, papers: Sequence[Paper]) -> None:
        """Say these papers are not for you (a negative for "for you")."""
        self._store.set_feedback(list(papers), SKIPPED)

    def unjudge(self, papers: Sequence[Paper]) -> None:
        """Forget a like or skip on these papers."""
        self._store.set_feedback(list(papers), None)

    def undecide(self, papers: Sequence[Paper]) -> None:
        """Take back an answer: the papers count as neither liked nor passed over (even when
        read) and are ranked again, until answered."""
        self._store.set_feedback(list(papers), UNDECIDED)

    def reset_feedback(self) -> None:
        """Forget every like, skip and seed text (bookmarks, notes, tags and reads stay)."""
        self._store.reset_feedback()

    def mark_seen(self) -> set[str]:
        """Note which papers each file holds now; papers new since a file was last opened
        become `is:new` (until read). Writes one row per paper the first time: call it from a
        worker for large corpora."""
        papers = self._papers
        by_source: dict[str, list[str]] = {}
        for paper in papers:
            by_source.setdefault(paper.source, []).append(paper.id)
        # every fetched dump counts as one source: a day's new file holds new papers, not a
        # file opened for the first time (whose papers would all count as seen); what was
        # fetched since the reader last showed fetched papers is new
        fetched = str(paths.fetched_dir().resolve())
        grouped: dict[str, list[str]] = {}
        for src, ids in by_source.items():
            where = str(Path(src).resolve())
            grouped.setdefault(fetched if where.startswith(fetched + os.sep) else where, []).extend(
                ids
            )
        by_source = grouped
        if fetched in grouped:
            # fetched papers are new to the reader the first time too: the group is known
            # (empty) before its papers are recorded
            self._store.record_seen({fetched: []})
        self._store.reconcile(papers)  # annotations made under an older id move to the new
        return self._store.record_seen(by_source)


def tag_problem(tag: str) -> str | None:
    """Why `tag` cannot be a tag (one line), or None: one word, no commas (exports list tags
    with commas), not starting with "-" (that reads as "without" in queries and the CLI)."""
    if not tag:
        return "a tag cannot be empty"
    if any(c.isspace() for c in tag) or "," in tag or tag.startswith("-"):
        return f"{tag!r} is not a tag: one word, without spaces or commas, not starting with -"
    return None
