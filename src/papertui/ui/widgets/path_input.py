"""A text box for a file path: the completion shows dimmed as you type; Tab or → takes it, and
a second Tab lists what the typed name could still become."""

from __future__ import annotations

from textual.binding import Binding
from textual.suggester import Suggester
from textual.widgets import Input

from papertui.core.system.path_completion import candidates, complete_path
from papertui.core.text import safe_display

SHOWN = 12  # candidates listed by a second Tab


class PathSuggester(Suggester):
    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)  # the folder can change

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value)


class PathInput(Input):
    BINDINGS = [Binding("tab", "complete", "Complete the path", show=False)]

    def __init__(self, value: str = "", **kwargs: object) -> None:
        super().__init__(value, suggester=PathSuggester(), **kwargs)  # type: ignore[arg-type]

    def action_complete(self) -> None:
        """Tab: complete the path; when several entries still match, list them and stay; with
        nothing to complete, move on as Tab does elsewhere."""
        if not self.cursor_at_end:
            self.screen.focus_next()
            return
        done = complete_path(self.value)
        if done:
            self.value = done
            self.cursor_position = len(done)
            return
        names = candidates(self.value) if self.value else []
        if len(names) > 1:
            more = f"  … and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
            listed = "   ".join(safe_display(n) for n in names[:SHOWN])
            self.notify(listed + more, title="Could be", timeout=4)
            return
        self.screen.focus_next()
