"""Option lists that survive the keys pressed the moment they open.

Textual 8.2's `OptionList._move_page` looks the highlight up among lines it builds only once
the list has been laid out; PageUp/PageDown queued before that raised KeyError and ended the
reader (a seeded random-key run found it). These lists let such a key wait for the lines."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import OptionList, Select
from textual.widgets._select import SelectCurrent, SelectOverlay


def _laid_out(options: OptionList) -> bool:
    return (options.highlighted or 0) in options._index_to_line


class SafeOptionList(OptionList):
    def _move_page(self, direction: int) -> None:  # type: ignore[override]
        if _laid_out(self):
            super()._move_page(direction)  # type: ignore[arg-type]


class _SafeOverlay(SelectOverlay):
    def _move_page(self, direction: int) -> None:  # type: ignore[override]
        if _laid_out(self):
            super()._move_page(direction)  # type: ignore[arg-type]


class SafeSelect(Select[str]):
    """`Select` whose drop-down list is a safe one."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield _SafeOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)
