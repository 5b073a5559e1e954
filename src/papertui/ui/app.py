"""PaperTUI: the application shell. Settings, theme, the reader screen, the command palette, and
`make_app`, the one factory the CLI, the tests and the benchmark build the reader with."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.command import CommandList, CommandPalette
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Input, TextArea

from papertui.core.library import Library
from papertui.core.system.clipboard import copy_system
from papertui.core.system.settings import load_settings, remember, settings_path
from papertui.core.text import once_each, safe_display
from papertui.ui.ending import Ending
from papertui.ui.keys import APP_KEYS, PALETTE, SORT_NAMES
from papertui.ui.screens.dialog import KeysWelcome, TypingDialog
from papertui.ui.screens.reader import ReaderScreen


class SafePalette(CommandPalette):
    """Textual's palette raises KeyError on PageUp/PageDown while its list has no rows yet
    (OptionList._move_page with height 0, Textual 8.2); those keys wait for the rows. A second
    Enter that arrives before the first one has closed it dismissed it again, popping the
    reader itself (ScreenStackError, found by random keys): only the open palette closes."""

    def dismiss(self, result: None = None) -> AwaitComplete:
        if not self.is_current:
            return AwaitComplete()
        return super().dismiss(result)

    def _action_command_list(self, action: str) -> None:
        if action in ("page_up", "page_down"):
            options = self.query_one(CommandList)
            laid_out = getattr(options, "_index_to_line", None)
            if not options.option_count or not laid_out:
                return
            if options.scrollable_content_region.height <= 0:
                return
        super()._action_command_list(action)


HOLD_AT_MOST = 1.0  # seconds a dialog may take to open before held keys go where they may


class PaperTUI(App[None]):
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "papertui"

    def __init__(
        self,
        library: Library,
        *,
        clipboard: Callable[[str], str | None] = copy_system,
        sort: str | None = None,
    ) -> None:
        super().__init__()
        self.library = library
        self._start_sort = sort  # this start's order (papertui daily), not the remembered one
        self._copy_system = clipboard
        self.settings = load_settings({k.action for k in APP_KEYS})
        self._said_about_files: set[str] = set()  # load problems already toasted
        self._ending: Ending | None = None  # ends the reader when its terminal closes
        self._held: list[events.Key] | None = None  # keys typed while a dialog opens

    # -- keys typed while a dialog opens (see ui/screens/dialog.py) ------------------------------

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(screen, TypingDialog) and self._held is None:
            self._held = []
            self.set_timer(HOLD_AT_MOST, self._deliver_held)  # should the dialog never say
        return super().push_screen(screen, *args, **kwargs)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self._held is not None:
            self._held.append(event)
            return
        await super().on_event(event)

    @on(KeysWelcome)
    async def _deliver_held(self) -> None:
        held, self._held = self._held, None
        for key in held or []:
            await super().on_event(key)
            target = self.focused
            if target is not None:  # each key taken before the next: ctrl+s after the text
                done = asyncio.Event()
                target.call_later(done.set)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(done.wait(), HOLD_AT_MOST)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # the cursor_blink setting, given to each text box as it takes the focus
        if isinstance(event.widget, Input | TextArea):
            event.widget.cursor_blink = self.settings.cursor_blink

    def get_default_screen(self) -> Screen:
        sort = self.settings.sort if self.settings.sort in SORT_NAMES else "relevance"
        if self._start_sort in SORT_NAMES:  # this start's order: the remembered one is kept
            sort = str(self._start_sort)
        elif self.settings.sort and sort != self.settings.sort:
            known = ", ".join(SORT_NAMES)
            self.settings.problems.append(
                f"{settings_path()}: unknown sort {self.settings.sort!r} (known: {known})"
            )
        return ReaderScreen(
            self.library,
            self._copy_system,
            self._remember,
            list_width=self.settings.list_width,
            list_only=self.settings.list_only,
            sort=sort,
        )

    @property
    def reader(self) -> ReaderScreen:
        screen = self.default_screen
        assert isinstance(screen, ReaderScreen)
        return screen

    def on_mount(self) -> None:
        self._apply_settings()
        self.report_corpus()
        if not self.is_headless:  # a terminal that can close under it (not the tests' one)
            loop = asyncio.get_running_loop()
            self._ending = Ending(
                loop.call_soon_threadsafe, self.ended_from_outside, self._keep_drafts
            )
            self._ending.start()

    def on_unmount(self) -> None:
        if self._ending is not None:
            self._ending.stop()

    def ended_from_outside(self) -> None:
        """The terminal closed (SIGHUP) or the reader was killed (SIGTERM): keep any note
        being typed as a draft at once (the next `n` offers it back), then end as q does."""
        self._keep_drafts()
        self.exit()

    def _keep_drafts(self) -> None:
        """Write every open note's text as its draft (also from the ending thread)."""
        from papertui.ui.screens.note_editor import NoteEditor

        for screen in self.screen_stack:
            if isinstance(screen, NoteEditor):
                screen.write_draft()

    def _apply_settings(self) -> None:
        settings = self.settings
        if settings.keys:
            self.set_keymap(settings.keys)
        if settings.theme:
            if settings.theme in self.available_themes:
                self.theme = settings.theme
            else:
                settings.problems.append(
                    f"unknown theme {settings.theme!r} in {settings_path()}; using the default"
                )
        for problem in settings.problems:
            self.notify(safe_display(problem), title="Settings", severity="warning", timeout=10)
        self.watch(self, "theme", lambda theme: self._remember("theme", theme), init=False)

    def _remember(self, name: str, value: str | int | bool) -> None:
        """Keep a setting the reader changed (the order, the split, the theme) for next time."""
        problem = remember(name, value)
        if problem is not None:
            self.notify(f"Setting not remembered: {safe_display(problem)}", severity="warning")

    def report_corpus(self) -> None:
        """One toast per problem with the files, each once (a deferred load reports a file's
        problems when it is read, after the first paint: the reader calls this again then);
        the help's "Loaded files" keeps them after the toasts fade."""
        corpus = self.library.corpus
        said = self._said_about_files

        def say(text: str, title: str, severity: SeverityLevel, timeout: int) -> None:
            if text not in said:
                said.add(text)
                self.notify(safe_display(text), title=title, severity=severity, timeout=timeout)

        for line in once_each(corpus.errors):
            say(line, "Not loaded", "error", 10)
        for line in once_each(corpus.warnings):
            say(line, "Warning", "warning", 10)
        for report in corpus.files:
            if report.skipped:
                say(f"{report.path}: {report.summary()}", "Loaded with skips", "information", 8)
        for severity, message in self.library.marks.problems():
            if message not in said:
                said.add(message)
                self.notify(safe_display(message), severity=severity, timeout=20)  # type: ignore[arg-type]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast is plain text: messages carry file names, tags and phrases the reader
        typed, and "[red]" in one of them is text, not a style."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    # -- quitting --------------------------------------------------------------------------------

    async def action_quit(self) -> None:
        """Quit, but never with a note typed and not saved (ctrl+q and the palette's Quit reach
        here from inside the note editor): ask to save it first, or go back to it."""
        from papertui.ui.screens.confirm import ConfirmScreen
        from papertui.ui.screens.note_editor import NoteEditor

        editor = next((s for s in self.screen_stack if isinstance(s, NoteEditor) and s.dirty), None)
        if editor is None:
            self.exit()
            return
        if self.screen is not editor:  # its "discard?" question is open: answer that first
            self.notify("Answer the question about the note first.", severity="warning")
            return

        def answered(save: bool | None) -> None:
            if save:
                editor.action_save()
                self.set_timer(0.2, self._quit_unless_editing)  # a failed save reopens it

        question = "The note has unsaved changes. Save it and quit? (n: back to the note)"
        self.push_screen(ConfirmScreen(question), answered)

    def _quit_unless_editing(self) -> None:
        from papertui.ui.screens.note_editor import NoteEditor

        if not any(isinstance(s, NoteEditor) for s in self.screen_stack):
            self.exit()

    # -- the command palette -----------------------------------------------------------------------

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(SafePalette(id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            # Textual's key panel lists widget bindings; "?" is the reader's help
            if command.title != "Keys":
                yield command
        if not isinstance(screen, ReaderScreen):
            return
        for action, description in PALETTE:
            yield SystemCommand(description, "command palette", getattr(screen, f"action_{action}"))
        for key in APP_KEYS:
            label = key.label or key.keys
            action = getattr(screen, f"action_{key.action}", None) or getattr(
                self, f"action_{key.action}"
            )
            yield SystemCommand(key.description, f"key: {label}", action)


def make_app(
    paths: Sequence[str | Path] | None = None,
    fmt: str | None = None,
    clipboard: Callable[[str], str | None] | None = None,
    library: Library | None = None,
    sort: str | None = None,
) -> PaperTUI:
    """The reader on `paths` (default: the settings' paths, else the bundled corpus). A cold
    start of a large corpus shows the first papers while the indexing child reads the rest
    (`Library.open_deferred`; a small corpus is read whole before the first screen). `sort`:
    the order to start in, instead of the remembered one."""
    library = library if library is not None else Library.open_deferred(paths, fmt)
    return PaperTUI(library, clipboard=clipboard or copy_system, sort=sort)
