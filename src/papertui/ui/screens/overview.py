"""What the papers in view hold: counts, plots, distinctive terms and topics.

Enter on a topic dismisses with the topic's index; the reader narrows the list to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from papertui.core.text import counted, safe_display
from papertui.ui.widgets.safe_lists import SafeOptionList

if TYPE_CHECKING:
    from papertui.core.semantic.overview import Overview


def topic_row(index: int, label: str, size: int, unread: int) -> Table:
    """One row per topic, never wrapped: the label, cut with "…" where the row is too narrow
    (its last phrase, the least telling, goes first), and the counts on the right."""
    row = Table.grid(expand=True)
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_column(justify="right", no_wrap=True)
    row.add_row(
        Text(f"{index + 1:>2}. {safe_display(label)}"),
        Text(f"  {counted(size, 'paper')} · {unread} unread", style="dim"),
    )
    return row


def counts_line(overview: Overview) -> str:
    c = overview.view
    return (
        f"{counted(c.papers, 'paper')} · {counted(c.collections, 'collection')} · "
        f"{c.unread} unread · "
        f"{c.bookmarked} bookmarked · {c.noted} noted · {c.tagged} tagged"
    )


class BarChart(Static):
    """A titled horizontal bar chart in text: one row per label with its count, bars scaled to
    the width the chart gets (exact rows, whole numbers: papers are counted, not measured)."""

    def __init__(self, title: str, labels: list[str], values: list[int]) -> None:
        super().__init__(classes="overview-plot")
        self.title = title
        self.labels = labels
        self.values = values
        self.styles.height = len(labels) + 1

    def render(self) -> Text:
        text = Text(self.title + "\n", style="bold", no_wrap=True, overflow="crop")
        label_width = max((len(label) for label in self.labels), default=0)
        count_width = max((len(str(v)) for v in self.values), default=1)
        room = max(1, self.size.width - label_width - count_width - 2)  # a row never wraps
        top = max(self.values, default=0) or 1
        bar = "bold " + self.app.theme_variables.get("accent", "magenta")
        for n, (label, value) in enumerate(zip(self.labels, self.values, strict=True)):
            filled = round(room * value / top)
            text.append(label.rjust(label_width) + " ", style="dim")
            text.append("█" * filled or ("▏" if value else ""), style=bar)
            text.append(f" {value}")  # the count right after its bar
            if n < len(self.labels) - 1:
                text.append("\n")
        return text


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


# below this many rows the plots are left out (a taller terminal shows them)
PLOTS_FROM_ROWS = 34


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
        with Vertical(id="overview-box"):  # fits the screen: the topics list scrolls itself
            yield Label(f"Overview of {safe_display(self.what)}", id="overview-title", markup=False)
            yield Label(counts_line(overview), id="overview-counts", markup=False)
            charts = plots(overview, self.titled)
            if charts:
                with Horizontal(id="overview-plots") as box:
                    box.styles.height = max(len(labels) for _, labels, _ in charts) + 1
                    for title, labels, values in charts:
                        yield BarChart(title, labels, values)
            terms = " · ".join(safe_display(t.text) for t in overview.terms) or "none"
            if overview.view.papers == overview.library.papers:
                terms = "the whole library is in view (search or choose collections to compare)"
            yield Label(f"Distinctive terms: {terms}", id="overview-terms", markup=False)
            if overview.topics:
                yield Label("Topics (Enter shows a topic's papers)", classes="overview-head")
                yield SafeOptionList(
                    *[
                        Option(topic_row(t.index, t.label, t.size, t.unread), id=str(t.index))
                        for t in overview.topics
                    ],
                    id="overview-topics",
                )
            else:
                state = self.topic_state or "topics: none in view"
                yield Label(state, id="overview-topic-state", markup=False)
            yield Static("Enter  show the topic      Esc  close", classes="hint")

    def on_resize(self) -> None:
        # a short terminal (80x24) gives the rows to the topics, which can be chosen
        tall = self.size.height >= PLOTS_FROM_ROWS
        for plots in self.query("#overview-plots"):
            plots.display = tall
        for line in self.query("#overview-counts, #overview-terms"):
            line.styles.padding = (0, 0, 1 if tall else 0, 0)

    def on_mount(self) -> None:
        self.on_resize()
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
