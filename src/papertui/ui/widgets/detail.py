"""The detail pane: the whole abstract of the current paper, wrapped, with the query's words lit."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from papertui.core.corpus import Paper
from papertui.core.export import byline
from papertui.core.search import Highlighter
from papertui.core.text import safe_display


def render_paper(
    paper: Paper, *, bookmarked: bool, note: str, highlighter: Highlighter | None
) -> Text:
    """Corpus text goes in as plain `Text`, never markup, so `[bold]` shows as typed."""
    text = Text(overflow="fold")
    text.append(safe_display(paper.title), style="bold")
    text.append("\n")
    people = byline(paper.authors, paper.venue, paper.year)
    if people:
        text.append(safe_display(people), style="italic")
        text.append("\n")
    meta = " · ".join(safe_display(c) for c in paper.collections)
    text.append(f"{meta} · id {paper.id}", style="dim")
    if bookmarked:
        text.append("  ★ bookmarked", style="bold yellow")
    text.append("\n\n")
    abstract = Text(safe_display(paper.abstract), overflow="fold")
    if highlighter:
        for start, end in highlighter.spans(abstract.plain):
            abstract.stylize("bold reverse", start, end)
    text.append_text(abstract)
    if paper.urls:
        text.append("\n\nLinks\n", style="bold")
        for url in paper.urls:
            text.append(f"  {safe_display(url)}\n", style="underline")
    if note.strip():
        text.append("\n\nNote\n" if not paper.urls else "\nNote\n", style="bold")
        text.append("\n".join(safe_display(line) for line in note.split("\n")))
    return text


class DetailPane(VerticalScroll, can_focus=True):
    BINDINGS = [
        Binding("j,down", "scroll_down", "Scroll down", show=False),
        Binding("k,up", "scroll_up", "Scroll up", show=False),
        Binding("g,home", "scroll_home", "Top", show=False),
        Binding("G,end", "scroll_end", "Bottom", show=False),
        Binding("space", "page_down", "Page down", show=False),
        Binding("tab", "app.switch_pane", "Switch pane", show=False),
    ]

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(id="detail-body")

    def show(self, content: Text | str) -> None:
        self.query_one("#detail-body", Static).update(content)
        self.scroll_home(animate=False)
