"""The reader's work off the UI thread: plain functions over the library that return a result
or post messages (`ui/messages.py`). None of them touches a widget; each takes `post` (thread
safe, dropping messages once the reader has closed) and, where it can take long,
`cancelled`."""

from __future__ import annotations

import os
import subprocess
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from textual.message import Message

from papertui.core.corpus import Corpus
from papertui.core.library import Library
from papertui.core.query.view import View
from papertui.core.search import IndexCancelled, SearchStopped, stop_when
from papertui.core.store import StoreError
from papertui.core.text import counted, cut_words, safe_display
from papertui.ui import messages
from papertui.ui.state import ReaderState

Post = Callable[[Message], None]


def compute_view(library: Library, state: ReaderState, depth: int) -> View:
    """The list `state` shows: its query's results, or the special view over them."""
    if state.ask_me:
        return library.foryou.ask_me()
    if state.special:
        paper = library.papers[state.like_paper] if state.like_paper is not None else None
        view = library.semantic.similar(
            paper, bookmarks_only=state.bookmarks_only, collections=state.collections
        )
        if view.remarks:
            view.remarks.pop(0)  # its name: the status line says it from the state
        return view
    query = state.query
    if state.topic is not None:  # the topic chosen in the overview, as a filter
        query = f"{query} topic:{state.topic[0] + 1}"
    return library.run_query(
        query, state.bookmarks_only, depth=depth, sort=state.order, collections=state.collections
    )


def safe_view(
    library: Library,
    state: ReaderState,
    depth: int,
    lock: threading.Lock,
    cancelled: Callable[[], bool] = lambda: False,
) -> View | None:
    """`compute_view` under the library's lock; a failure is said in the list, never raised.
    None when `cancelled` turned true meanwhile and the search was given up."""
    with lock:
        try:
            with stop_when(cancelled):
                return compute_view(library, state, depth)
        except SearchStopped:
            return None
        except Exception as exc:  # noqa: BLE001 - a failed search is said, not swallowed
            return View(query=state.query, indices=[], remarks=[f"search failed: {exc}"])


def prepare(
    library: Library,
    lock: threading.Lock,
    post: Post,
    cancelled: Callable[[], bool],
    track: Callable[[subprocess.Popen[str]], None],
) -> None:
    """Read the rest of a cold-started corpus, open or build the search index (in a child
    process for a large one), then the vectors and topics, saying each step."""

    def progress(done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        post(messages.IndexProgress(f"indexing {percent}%"))

    def grew(corpus: Corpus) -> None:
        with lock:  # here, before the index is opened over it; the screen then shows it
            library.replace_corpus(corpus)
        post(messages.CorpusGrew())

    def tick() -> None:  # while the child indexes: show the files it has read so far
        grown = library.load_ready()
        if grown is not None:
            grew(grown)

    try:
        if library.loading:
            post(messages.IndexProgress("reading files…"))
        try:
            if library.indexing.needs_child_process() and not library.indexing.is_current():
                if not library.loading:  # else "reading files…" until the child indexes
                    post(messages.IndexProgress("indexing 0%"))
                library.indexing.run_in_child(progress, cancelled, track, tick=tick)
                post(messages.IndexProgress("opening the index"))
        finally:
            if not cancelled():
                whole = library.finish_loading()  # what no cache holds yet, if anything
                if whole is not None:
                    grew(whole)
        if cancelled():
            return
        with lock:
            library.indexing.ensure(progress, cancelled)
        library.marks.mark_seen()  # which papers are new since their file was last opened
        post(messages.IndexReady())
    except IndexCancelled:
        return
    except Exception as exc:  # noqa: BLE001 - the reader works without full text; say why
        post(messages.IndexProgress(f"search index unavailable: {_reason(exc)}"))
        return
    _semantic(library, post, cancelled)


def _semantic(library: Library, post: Post, cancelled: Callable[[], bool]) -> None:
    def progress(done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        post(messages.IndexProgress(f"topics: computing {percent}%"))

    try:
        library.semantic.ensure(progress, cancelled)
    except IndexCancelled:
        return
    except Exception as exc:  # noqa: BLE001 - reading works without topics; say why
        post(messages.IndexProgress(f"topics unavailable: {_reason(exc)}"))
        return
    post(messages.IndexProgress(""))
    post(messages.SemanticReady())


def _reason(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def overview(library: Library, indices: list[int], what: str, post: Post) -> None:
    result = library.semantic.overview(indices)
    post(messages.OverviewReady(what, result, library.semantic.state()))


def add_seeds(library: Library, path: str, post: Post) -> None:
    """Like the papers of a file: says how many were learned from, and what was left out."""
    problems: list[str] = []
    try:
        count = library.foryou.add_seeds(Path(path).expanduser(), problems)
    except (OSError, ValueError, StoreError) as exc:
        post(messages.Said(safe_display(f"{path}: {exc}"), "error"))
        return
    message, severity = f"Learned from {counted(count, 'paper')} of {path}.", "information"
    if problems:  # the entries left out: the first two, and how many more
        more = f"; {len(problems) - 2} more problems" if len(problems) > 2 else ""
        message += f" Left out: {'; '.join(problems[:2])}{more}."
        severity = "warning"
    post(messages.Said(safe_display(message), severity, rerank=True))


def copy(text: str, what: str, system: Callable[[str], str | None], post: Post) -> None:
    """A clipboard program can take its time to answer: asked here, said by the screen."""
    post(messages.Copied(text, what, system(text)))


SYSTEM_OPEN = webbrowser.open  # the reader's default way to open a link
# browsers Python's webbrowser finds with no display: they would draw over the reader
_CONSOLE_BROWSERS = ("www-browser", "links", "elinks", "lynx", "w3m")


def system_browser_found() -> bool:
    """Whether Python's webbrowser has a browser to start (a few milliseconds: it looks on
    PATH): with none, `o` says so at once instead of after the attempt. A text-mode browser
    is no browser here unless BROWSER names it, since it would take over the reader's
    terminal."""
    if os.environ.get("BROWSER"):
        return True
    try:
        found = webbrowser.get()
    except webbrowser.Error:
        return False
    return getattr(found, "name", "") not in _CONSOLE_BROWSERS


def open_url(url: str, browser: Callable[[str], bool], post: Post) -> None:
    """A browser can take seconds to start: not on the UI thread."""
    try:
        opened = browser(url)
    except Exception:  # noqa: BLE001 - webbrowser.Error, or a broken BROWSER setting
        opened = False
    post(messages.Opened(url, opened))


def title_of(library: Library, position: int) -> str:
    return cut_words(library.papers[position].title, 50)
