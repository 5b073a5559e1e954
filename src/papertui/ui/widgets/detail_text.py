"""What the detail pane shows of a paper, as `Text`: its title, byline and facts, the user's
marks, the abstract (raw or readable) with the query's words lit, its translations, links and
note. Corpus text goes in as plain `Text`, never through markup."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from papertui.core.corpus import Paper
from papertui.core.corpus.formats.translations import language_name
from papertui.core.export import byline
from papertui.core.search import Highlighter
from papertui.core.text import mathtext, safe_display


@dataclass(slots=True)
class Rendered:
    text: Text
    hits: list[int]  # where each highlighted word starts in `text`


SHOWN_CHARS = 20_000  # of an abstract, at most (real ones have under 5,000)


def fetched_facts(paper: Paper) -> str:
    """ "arXiv 2509.01234 · cs.LG cs.CV · 42 upvotes · listed 2025-09-08 · Oral, main · 6.3",
    what fetched lists say of a paper (empty for most dumps)."""
    if not paper._meta:
        return ""
    meta = paper.meta
    decision = ", ".join(x for x in (meta.status, meta.track) if x)
    parts = [
        f"arXiv {meta.arxiv}" if meta.arxiv else "",
        " ".join(meta.categories),
        f"{meta.upvotes} upvotes" if meta.upvotes is not None else "",
        f"listed {meta.listed}" if meta.listed else "",
        decision,
        f"rating {meta.rating:g}" if meta.rating is not None else "",
    ]
    return " · ".join(p for p in parts if p)


def render_paper(
    paper: Paper,
    *,
    bookmarked: bool,
    note: str,
    highlighter: Highlighter | None,
    tags: list[str] | None = None,
    state: str = "",
    raw: bool = True,
    why: str = "",
) -> Rendered:
    """Corpus text goes in as plain `Text`, never markup, so `[bold]` shows as typed.

    With `raw` False, LaTeX and emphasis are made readable (𝒪(n²), bold); hits are found in
    the text as shown."""
    text = Text(overflow="fold")
    text.append(safe_display(paper.title), style="bold")
    text.append("\n")
    if not paper.has_real_title:
        text.append("title derived from the abstract\n", style="dim italic")
    people = byline(paper.authors, paper.venue, paper.year)
    if people:
        text.append(safe_display(people), style="italic")
        text.append("\n")
    facts = fetched_facts(paper)
    if facts:
        text.append(safe_display(facts))
        text.append("\n")
    meta = " · ".join(safe_display(c) for c in paper.collections)
    text.append(f"{meta} · id {paper.id}", style="dim")
    if bookmarked:
        text.append(" · ", style="dim")
        text.append("★ bookmarked", style="bold yellow")
    if state:
        text.append(" · ", style="dim")
        text.append(state, style="italic")
    if tags:
        text.append(" · ", style="dim")
        text.append(" ".join(f"#{safe_display(t)}" for t in tags), style="cyan")
    if why:
        text.append(f"\nfor you: {safe_display(why)}", style="italic green")
    text.append("\n\n")
    source = paper.abstract
    if len(source) > SHOWN_CHARS:  # a broken record (a whole file on one line): wrapping and
        # rendering it all would stall every key; y and the exports still take it whole
        source = source[:SHOWN_CHARS]
    body, bold = (source, []) if raw else mathtext.render(source)
    abstract = Text(safe_display(body), overflow="fold")
    if len(paper.abstract) > SHOWN_CHARS:
        abstract.append(
            f"\n\n[{len(paper.abstract):,} characters: the first {SHOWN_CHARS:,} shown;"
            " y copies it whole]",
            style="dim italic",
        )
    for start, end in bold:
        abstract.stylize("bold", start, end)
    hits: list[int] = []
    if highlighter:
        offset = len(text.plain)
        for start, end in highlighter.spans(abstract.plain):
            abstract.stylize("bold reverse", start, end)
            hits.append(offset + start)
    text.append_text(abstract)
    hits += translations(text, paper, highlighter)
    if paper.urls:
        text.append("\n\nLinks\n", style="bold")
        for url in paper.urls:
            text.append(f"  {safe_display(url)}\n", style="underline")
    if note.strip():
        text.append("\n\nNote\n" if not paper.urls else "\nNote\n", style="bold")
        text.append("\n".join(safe_display(line) for line in note.split("\n")))
    return Rendered(text, hits)


def translations(text: Text, paper: Paper, highlighter: Highlighter | None) -> list[int]:
    """Append the paper's titles and abstracts in other languages (a heading names each one's
    language) under its own; where each highlighted word starts in `text`."""
    if not paper._meta:
        return []
    hits: list[int] = []
    for one in paper.meta.translations:
        text.append(f"\n\n{safe_display(language_name(one.lang))}\n", style="bold dim")
        for part, style in ((one.title, "bold"), (one.abstract, "")):
            if not part:
                continue
            shown = Text(safe_display(part[:SHOWN_CHARS]), style=style, overflow="fold")
            if highlighter:
                for start, end in highlighter.spans(shown.plain):
                    shown.stylize("bold reverse", start, end)
                    hits.append(len(text.plain) + start)
            text.append_text(shown)
            if part is one.title and one.abstract:
                text.append("\n")
    return hits
