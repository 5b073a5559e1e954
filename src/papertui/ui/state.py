"""What the reader's list shows, as one value: the query, the order and every layer that
narrows it. No Textual here: the screen holds a `ReaderState` in one reactive, and every list it
shows is a function of that state and the library (`background.compute_view`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from papertui.core.text import safe_display

ASK_ME = "the model is least sure about"  # the ask-me view's name in the status line
# the orders that are "for you" at heart: they learn from each answer and re-rank
LEARNING_ORDERS = ("foryou", "new")


@dataclass(frozen=True, slots=True)
class ReaderState:
    query: str = ""
    sort: str = "relevance"  # the order for browsing: remembered for the next session
    # the order the reader chose for the query being typed (None: best match first); a new
    # search is always ranked, whatever the browsing order
    query_sort: str | None = None
    bookmarks_only: bool = False
    collections: frozenset[str] = frozenset()
    # a view that is not a search, over the query's results: "more like" a paper (its position
    # in the library), like the bookmarks taken together, or "ask me"
    like_paper: int | None = None
    like_bookmarks: bool = False
    ask_me: bool = False
    topic: tuple[int, str] | None = None  # (index, label) chosen in the overview

    @property
    def order(self) -> str:
        """The order in force: the query's (best match unless chosen for it), else the
        browsing order."""
        if self.query.strip():
            return self.query_sort or "relevance"
        return self.sort

    def with_order(self, order: str) -> ReaderState:
        """`order` chosen: for the query when there is one, else for browsing."""
        if self.query.strip():
            return replace(self, query_sort=order)
        return replace(self, sort=order)

    @property
    def special(self) -> bool:
        """A view that is not the query's results: more like this, like my bookmarks, ask me."""
        return self.like_paper is not None or self.like_bookmarks or self.ask_me

    @property
    def narrowed(self) -> bool:
        """Anything but the whole library in file order: the status line says "n of N"."""
        return bool(self.query.strip() or self.layer_count())

    def layer_count(self) -> int:
        return sum(
            (self.special, self.topic is not None, self.bookmarks_only, bool(self.collections))
        )

    def peel(self) -> ReaderState | None:
        """One layer off, as Esc takes it: a special view (back to the results it came from),
        else the topic, else the query, else bookmarks only, else the chosen collections;
        None when nothing is left to take off."""
        if self.special:
            return replace(self, like_paper=None, like_bookmarks=False, ask_me=False)
        if self.topic is not None:
            return replace(self, topic=None)
        if self.query:
            return replace(self, query="", query_sort=None)
        if self.bookmarks_only:
            return replace(self, bookmarks_only=False)
        if self.collections:
            return replace(self, collections=frozenset())
        return None

    def showing(self, **changes: object) -> ReaderState:
        """Another special view in place of the one shown (they do not stack)."""
        cleared = replace(self, like_paper=None, like_bookmarks=False, ask_me=False)
        return replace(cleared, **changes)  # type: ignore[arg-type]

    def layers(self, title_of: Callable[[int], str]) -> list[str]:
        """The layers in force for the status line, each with the key that changes it."""
        parts = []
        if self.ask_me:
            parts.append(f"{ASK_ME} (Esc: back)")
        elif self.like_bookmarks:
            parts.append("papers like your bookmarks (Esc: back)")
        elif self.like_paper is not None:
            parts.append(f"papers like {safe_display(title_of(self.like_paper))!r} (Esc: back)")
        if self.topic is not None:
            parts.append(f"topic {self.topic[0] + 1}: {safe_display(self.topic[1])} (Esc)")
        if self.bookmarks_only:
            parts.append("bookmarks only (B)")
        if self.collections:
            names = ", ".join(safe_display(c) for c in sorted(self.collections))
            parts.append(f"in {names} (C)")
        return parts

    def learning(self) -> bool:
        """Whether answers re-rank the list at once: "for you" and "ask me"."""
        return self.ask_me or (self.order in LEARNING_ORDERS and not self.special)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the cursor goes in a list that is to come.

    `keep`: on that paper (a position in the library) if the list has it; `row`: on that row,
    moved up to the first paper of the new order that was not above it before (an answer:
    the next paper the reader has not passed); `pinned`: that paper shown at `row` whatever its
    place in the new order (the paper being read when the order changed under it). None of
    them: the top. `stay`: on whatever paper is under the cursor when the list arrives (a
    background result never moves the reader). `screen_row`: where on screen the cursor's row
    is shown (back in a list left earlier: where it was then)."""

    keep: int | None = None
    row: int | None = None
    pinned: int | None = None
    stay: bool = False
    screen_row: int | None = None  # the cursor's row on screen, from the list's top edge


class Spots:
    """Where the reader was in each list it left: the paper under the cursor and its row on
    screen, by the state that showed the list. Esc, or a layer turned off, lands there again."""

    KEPT = 64  # states remembered; the oldest are forgotten first

    def __init__(self) -> None:
        self._spots: dict[ReaderState, tuple[int, int]] = {}

    def remember(self, state: ReaderState, paper: int | None, screen_row: int) -> None:
        if paper is None:
            return
        self._spots.pop(state, None)
        self._spots[state] = (paper, screen_row)
        while len(self._spots) > self.KEPT:
            del self._spots[next(iter(self._spots))]

    def placement(self, state: ReaderState, paper: int | None = None) -> Placement | None:
        """Where the reader was when it left `state` (only if that was on `paper`, when
        given); None when it never was there."""
        spot = self._spots.get(state)
        if spot is None or (paper is not None and spot[0] != paper):
            return None
        return Placement(keep=spot[0], screen_row=spot[1])
