"""What narrows the list beyond the query, and how Esc takes it off one layer at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from papertui.core.text import safe_display

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen


@dataclass
class Layers:
    similar: str = ""  # "like this paper" while a more-like-this view is shown
    topic: tuple[int, str] | None = None  # (index, label) chosen in the overview

    def describe(self, reader: ReaderScreen) -> list[str]:
        """The layers in force, for the status line; each names the key that changes it."""
        parts = []
        if self.similar:
            parts.append(f"{self.similar} (Esc: back)")
        if self.topic is not None:
            parts.append(f"topic {self.topic[0] + 1}: {safe_display(self.topic[1])} (Esc)")
        if reader.bookmarks_only:
            parts.append("bookmarks only (B)")
        if reader.collections:
            names = ", ".join(safe_display(c) for c in sorted(reader.collections))
            parts.append(f"in {names} (C)")
        return parts

    def peel(self, reader: ReaderScreen) -> None:
        """Esc: the selection, else a similar or ask-me view (back to the results it came from),
        else the topic, else the query, else bookmarks only, else the chosen collections."""
        if reader.paper_list.clear_selection():
            return
        if self.similar:
            self.similar = ""
            reader.searching.search()
        elif self.topic is not None:
            self.topic = None
            reader.searching.search()
        elif reader.search_bar.value:
            reader.search_bar.value = ""  # the box's Changed message runs the search
        elif reader.bookmarks_only:
            reader.bookmarks_only = False
        elif reader.collections:
            reader.collections = frozenset()
            reader.searching.search()
