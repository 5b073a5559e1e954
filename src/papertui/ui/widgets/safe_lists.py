"""Option lists that survive the keys pressed the moment they open.

Textual 8.2's `OptionList._move_page` looks the highlight up among lines it builds only once
the list has been laid out; PageUp/PageDown queued before that raised KeyError and ended the
reader (a seeded random-key run found it). These lists let such a key wait for the lines."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import OptionList, Select
from textual.widgets._select import SelectCurrent, SelectOverlay


class _WaitsForLines(OptionList):
    """Page keys do nothing until the list's lines are built (the highlight found in them)."""

    def _move_page(self, direction: int) -> None:  # type: ignore[override]
        if (self.highlighted or 0) in self._index_to_line:
            super()._move_page(direction)  # type: ignore[arg-type]


class SafeOptionList(_WaitsForLines):
    pass


class _SafeOverlay(SelectOverlay, _WaitsForLines):
    pass  # SelectOverlay first: Textual's CSS and queries follow the first base


class SafeSelect(Select[str]):
    """`Select` whose drop-down list is a safe one."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield _SafeOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)
