"""What the reader's action mixins may rely on: the state and helpers `PaperTUI` provides."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    import threading

    from textual.timer import Timer

    from papertui.core.corpus import Paper
    from papertui.core.library import Library, View
    from papertui.ui.widgets.paper_list import PaperList


class ReaderBase(App[None]):
    """Declares, for the type checker, what the mixins use of the app."""

    if TYPE_CHECKING:
        library: Library
        view: View
        selected: set[int]
        sort: str
        collections: frozenset[str]
        raw: bool
        _generation: int
        _read_timer: Timer | None
        _search_lock: threading.Lock
        _copy_system: Callable[[str], str | None]

        @property
        def paper_list(self) -> PaperList: ...
        @property
        def current_paper(self) -> Paper | None: ...
        def search(self, depth: int = 0) -> None: ...
        def targets(self) -> list[Paper]: ...
        def _save(self, change: Callable[[], None], what: str) -> bool: ...
        def _refresh_paper(self) -> None: ...
        def _update_status(self) -> None: ...
        def _show_view(self, view: View, generation: int, similar: bool = False) -> None: ...
