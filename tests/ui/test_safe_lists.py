"""The topic, collection and export lists take PageUp/PageDown before they are laid out."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import OptionList

from papertui.ui.widgets.safe_lists import SafeOptionList


class _Hidden(App[None]):
    """A list not shown yet: its lines are not built, as when a key beats its first layout."""

    def __init__(self, kind: type[OptionList]) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        options = self.kind(*[f"topic {i}" for i in range(30)])
        options.display = False
        yield options


async def test_page_keys_before_the_list_is_laid_out_wait_for_it() -> None:
    app = _Hidden(SafeOptionList)
    async with app.run_test() as pilot:
        options = app.query_one(OptionList)
        options.highlighted = 0
        options.action_page_down()
        options.action_page_up()
        assert options.highlighted == 0  # nothing moved, nothing raised
        options.display = True
        await pilot.pause()
        options.action_page_down()
        assert options.highlighted is not None and options.highlighted > 0  # laid out: it pages


async def test_textual_s_own_list_still_raises_there() -> None:
    # the reason for SafeOptionList: when this stops raising, Textual has fixed it upstream
    app = _Hidden(OptionList)
    async with app.run_test():
        options = app.query_one(OptionList)
        options.highlighted = 0
        with pytest.raises(KeyError):
            options.action_page_down()
