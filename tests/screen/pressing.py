"""Keys sent as the terminal driver posts them, and a wait for what they started.

`pilot.press` waits for the process to go idle after each key (two 20 ms looks at the CPU at
least): thousands of keys would take minutes of that alone. `quick_settle` waits for what a
key started instead: the search box's pause in typing, every worker, and two screen
refreshes."""

from __future__ import annotations

import asyncio

from textual import events

from papertui.ui.widgets import search_bar

from workers import workers_done

_CHARACTERS = {"slash": "/", "space": " ", "enter": "\r", "tab": "\t", "escape": "\x1b"}
_CHARACTERS["backspace"] = "\x7f"


async def press(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    for key in keys:
        pilot.app.post_message(
            events.Key(key, _CHARACTERS.get(key, key if len(key) == 1 else None))
        )
        await asyncio.sleep(0)  # as the driver does between keys; no frame forced


async def quick_settle(pilot) -> None:  # type: ignore[no-untyped-def]
    # handled without forcing a frame in between, so that what one key changes is painted
    # at once, as Textual's own 60 frames a second do (each frame forced costs a repaint)
    await handled(pilot)
    if pilot.app.focused is pilot.app.reader.search_bar:
        await asyncio.sleep(search_bar.TYPING_PAUSE + 0.02)
        await handled(pilot)
    await workers_done(pilot.app)
    await handled(pilot)
    # a frame, then what its `call_after_refresh` callbacks change (the list makes sure of its
    # cursor once the new rows are laid out): painted by a second frame if they moved a widget
    await pilot.pause(0)
    await handled(pilot)
    screen = pilot.app.screen
    if screen._layout_required or screen._dirty_widgets:  # Textual's, pinned with its minor
        await pilot.pause(0)


async def handled(pilot) -> None:  # type: ignore[no-untyped-def]
    """Every message queued so far on the screen and its widgets handled (`Pilot.pause`
    without its forced frame; Textual keeps this private, pinned with its minor version)."""
    await pilot._wait_for_screen()


async def keys_then_settle(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """The keys in a burst, as a held key repeats, then their work done."""
    await press(pilot, *keys)
    await quick_settle(pilot)
