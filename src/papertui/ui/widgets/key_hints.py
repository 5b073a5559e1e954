"""The line of keys at the foot of the reader: what the focused widget and the screen offer.

Textual's `Footer` shows the same keys, as a widget per key that it composes again at every
change of focus; each of them laid out again costs a layout of the whole screen, twice, and
`/` or Esc waited on it. This is one line of text, painted again in place."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget


class KeyHints(Widget):
    """The shown bindings of the focused chain, one per action, as `key description`; the
    command palette's key on the right. A click on a key presses it."""

    DEFAULT_CSS = """
    KeyHints {
        dock: bottom;
        height: 1;
        width: 100%;
        color: $footer-foreground;
        background: $footer-background;
        .key-hints--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-hints--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """
    COMPONENT_CLASSES = {"key-hints--key", "key-hints--description"}
    ALLOW_SELECT = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, str]] = []  # start, end, key: what a click presses

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        if self.is_attached and screen is self.screen:
            self.refresh()

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-hints--key", partial=True)
        text_style = self.get_component_rich_style("key-hints--description", partial=True)
        line = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        dimmed = text_style + Style(dim=True)
        palette = None
        actions: set[str] = set()
        for _node, binding, enabled, _tip in self.screen.active_bindings.values():
            if binding.key == self.app.COMMAND_PALETTE_BINDING:
                palette = binding
            if not binding.show or binding.action in actions:
                continue
            actions.add(binding.action)
            start = line.cell_len
            line.append(f" {self.app.get_key_display(binding)} ", key_style)
            line.append(f"{binding.description} ", text_style if enabled else dimmed)
            self._spans.append((start, line.cell_len, binding.key))
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:
            right = Text.assemble(
                ("▏", text_style),
                (f"{self.app.get_key_display(palette)} ", key_style),
                (f"{palette.description} ", text_style),
            )
            room = self.size.width - line.cell_len - right.cell_len
            if room >= 1:
                line.append(" " * room)
                start = line.cell_len + 1
                line.append_text(right)
                self._spans.append((start, line.cell_len, palette.key))
        return line

    def on_mouse_down(self, event: events.MouseDown) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key)
                return
