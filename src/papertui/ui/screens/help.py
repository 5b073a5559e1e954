"""The help screen: every key and the query syntax, built from the same tables the app binds."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from papertui.ui.widgets.paging import scroll_lines, scroll_pages, scroll_to_edge

QUERY_SYNTAX = [
    ("words", "papers with every word (stemmed, accents optional, BM25); typos forgiven"),
    ('"exact phrase"', "the words next to each other"),
    ("a OR b", "either word"),
    ("NOT word, -word", "papers without the word"),
    ("optim*", "words starting with optim"),
    ("title:word", "the word in the title only (also abstract:)"),
    ("collection:name", "papers in collections whose name contains name (c: for short)"),
    ("is:bookmarked", "bookmarked papers (-is:bookmarked for the others)"),
    ("has:note", "papers with a note (-has:note for the others)"),
    ("is:read, is:unread", "papers you have (not) read; a paper shown for a moment is read"),
    ("is:new", "papers added to a file since you last opened it (until read)"),
    ("is:liked, is:skipped", "papers you liked (+) or skipped (-)"),
    ("tag:name", "papers with a tag"),
    ("author:name", "papers by an author (accents optional); also venue:word"),
    ("year:2024", "papers of a year; year:2020-2024 for a range"),
    ("category:cs.LG", "fetched papers by arXiv category; also status:oral, track:main"),
    ("~a sentence", "papers about the sentence, ranked by meaning (filters still apply)"),
    ("topic:N", "papers of the overview's N-th topic (O lists the topics)"),
]

MARKERS = [
    ("●", "selected (Space)"),
    ("★ ✎", "bookmarked; has a note"),
    ("+", "new: added to its file (or fetched, R) since you last opened it"),
    ("↑ ↓", "liked (+) or skipped (-): what 'for you' learns from"),
    ("bold title", "not read yet"),
]


def help_text(sections: list[tuple[str, list[tuple[str, str]]]]) -> Text:
    text = Text()
    for heading, rows in sections:
        text.append(f"{heading}\n", style="bold underline")
        width = max((len(k) for k, _ in rows), default=0)
        for keys, description in rows:
            text.append(f"  {keys.ljust(width)}  ", style="bold")
            text.append(f"{description}\n")
        text.append("\n")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
        Binding("j,down", "scroll(1)", "Down", show=False),
        Binding("k,up", "scroll(-1)", "Up", show=False),
        Binding("pagedown,ctrl+f,space", "page(1)", "Page down", show=False),
        Binding("pageup,ctrl+b", "page(-1)", "Page up", show=False),
        Binding("g,home", "ends(False)", "Top", show=False),
        Binding("G,end", "ends(True)", "Bottom", show=False),
    ]

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.sections = sections + [("List markers", MARKERS), ("Search syntax", QUERY_SYNTAX)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(
                "papertui help   (Esc, q or ? to close; j/k, PgDn/PgUp, g/G to move)",
                id="help-title",
            )
            yield Static(help_text(self.sections), id="help-body")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        scroll_lines(self.query_one(VerticalScroll), lines)

    def action_page(self, pages: int) -> None:
        scroll_pages(self.query_one(VerticalScroll), pages)

    def action_ends(self, bottom: bool) -> None:
        scroll_to_edge(self.query_one(VerticalScroll), bottom)
