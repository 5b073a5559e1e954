"""What the reader's workers post to the screen. Workers never touch a widget: they post one of
these, and the screen (on its own thread) decides what changes."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from papertui.core.corpus import Corpus
from papertui.core.query.view import View
from papertui.ui.state import Placement, ReaderState


@dataclass
class ViewReady(Message):
    """The list for `state` (request `request`): dropped if a newer one was asked for."""

    request: int
    state: ReaderState
    view: View
    placement: Placement
    select_all: bool = False  # `v` asked for every hit, not only the best ones


@dataclass
class IndexProgress(Message):
    """What the background preparation is doing ("indexing 40%"; "" when done)."""

    text: str


@dataclass
class CorpusGrew(Message):
    """More of a cold-started corpus was read (the indexing child reads the rest): the
    library holds it already; the list shows it now."""


@dataclass
class IndexReady(Message):
    """The search index is open: searches rank by full text from now on."""


@dataclass
class SemanticReady(Message):
    """The paper vectors and topics are built: "for you" and "more like this" can rank."""


@dataclass
class Said(Message):
    """A worker's result, to be said in a toast."""

    text: str
    severity: str = "information"
    rerank: bool = False  # what it changed moves "for you" (seeds were added)


@dataclass
class OverviewReady(Message):
    what: str
    overview: object
    state: str


@dataclass
class Copied(Message):
    text: str
    what: str
    problem: str | None  # None: the system clipboard took it


@dataclass
class Opened(Message):
    url: str
    opened: bool


@dataclass
class Fetched(Message):
    """`R` ended: one line to say, the failures, and the corpus read again (None when the
    reader does not show fetched papers)."""

    summary: str
    failures: list[str]
    corpus: Corpus | None = None
