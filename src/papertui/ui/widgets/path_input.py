"""A text box for a file path: the completion shows dimmed as you type; Tab or → takes it."""

from __future__ import annotations

from textual.binding import Binding
from textual.suggester import Suggester
from textual.widgets import Input

from papertui.core.path_completion import complete_path


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
        """Tab: complete the path; with nothing to complete, move on as Tab does elsewhere."""
        done = complete_path(self.value) if self.cursor_at_end else None
        if done:
            self.value = done
            self.cursor_position = len(done)
        else:
            self.screen.focus_next()
