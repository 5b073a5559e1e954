"""What the papers in view hold: counts, plots, distinctive terms and topics.

Enter on a topic dismisses with the topic's index; the reader narrows the list to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from papertui.core.text import counted, safe_display

if TYPE_CHECKING:
    from papertui.core.overview import Overview


def counts_line(overview: Overview) -> str:
    c = overview.view
    return (
        f"{counted(c.papers, 'paper')} · {counted(c.collections, 'collection')} · "
        f"{c.unread} unread · "
        f"{c.bookmarked} bookmarked · {c.noted} noted · {c.tagged} tagged"
    )


def plots(overview: Overview, titled: bool) -> list[tuple[str, list[str], list[int]]]:
    """(title, labels, values) for each plot the dump has data for; nothing for absent fields."""
    series: list[tuple[str, list[tuple[object, int]] | None]] = [
        ("Papers per year", list(overview.years) if overview.years else None),
        ("Papers per venue", list(overview.venues) if overview.venues else None),
        (
            "Papers per collection",
            list(overview.collections) if len(overview.collections) > 1 else None,
        ),
        ("Abstract length (words)", None if titled else list(overview.lengths) or None),
    ]
    return [
        (title, [safe_display(str(k))[:12] for k, _ in pairs], [n for _, n in pairs])
        for title, pairs in series
        if pairs
    ]


class OverviewScreen(ModalScreen[int | None]):
    BINDINGS = [
        Binding("escape,q,O", "close", "Close"),
        Binding("j", "cursor(1)", "Down", show=False),
        Binding("k", "cursor(-1)", "Up", show=False),
    ]

    def __init__(self, what: str, overview: Overview, titled: bool, topic_state: str) -> None:
        super().__init__()
        self.what = what
        self.overview = overview
        self.titled = titled
        self.topic_state = topic_state

    def compose(self) -> ComposeResult:
        overview = self.overview
        with VerticalScroll(id="overview-box"):
            yield Label(f"Overview of {safe_display(self.what)}", id="overview-title", markup=False)
            yield Label(counts_line(overview), id="overview-counts", markup=False)
            charts = plots(overview, self.titled)
            if charts:
                from textual_plotext import PlotextPlot  # loads only when the overview opens

                with Horizontal(id="overview-plots"):
                    for title, labels, values in charts:
                        plot = PlotextPlot(classes="overview-plot")
                        # horizontal bars: one row per label, so every label is shown (vertical
                        # bars drop tick labels by the width they happened to get)
                        plot.plt.bar(labels, values, orientation="horizontal")
                        plot.plt.title(title)
                        plot.plt.theme("clear")
                        yield plot
            terms = " · ".join(safe_display(t.text) for t in overview.terms) or "none"
            if overview.view.papers == overview.library.papers:
                terms = "the whole library is in view (search or choose collections to compare)"
            yield Label(f"Distinctive terms: {terms}", id="overview-terms", markup=False)
            if overview.topics:
                yield Label("Topics (Enter shows a topic's papers)", classes="overview-head")
                yield OptionList(
                    *[
                        Option(
                            f"{t.index + 1:>2}. {safe_display(t.label)}  ·  "
                            f"{counted(t.size, 'paper')} · {t.unread} unread",
                            id=str(t.index),
                        )
                        for t in overview.topics
                    ],
                    id="overview-topics",
                )
            else:
                state = self.topic_state or "topics: none in view"
                yield Label(state, id="overview-topic-state", markup=False)
            yield Static("Enter  show the topic      Esc  close", classes="hint")

    def on_mount(self) -> None:
        topics = self.query("#overview-topics")
        if topics:
            topics.first().focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(int(event.option.id))

    def action_cursor(self, step: int) -> None:
        topics = self.query(OptionList)
        if topics:
            options = topics.first()
            options.action_cursor_down() if step > 0 else options.action_cursor_up()

    def action_close(self) -> None:
        self.dismiss(None)
