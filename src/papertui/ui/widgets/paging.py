"""How keys move a scrolling text (the detail pane, the help, a note's abstract): at once, as
in a pager. An animated scroll lags behind a held key, and one deferred to the next refresh
counts keys that arrive together as one."""

from __future__ import annotations

from textual.widget import Widget


def scroll_lines(box: Widget, lines: int) -> None:
    box.scroll_relative(y=lines, animate=False, immediate=True)


def scroll_pages(box: Widget, pages: int) -> None:
    """`pages` screens of text, less the line kept for context."""
    scroll_lines(box, pages * max(1, box.scrollable_content_region.height - 1))


def scroll_to_edge(box: Widget, bottom: bool) -> None:
    (box.scroll_end if bottom else box.scroll_home)(animate=False, immediate=True)
