"""The progress bar of index and semantic redraws one line on a terminal (its carriage return
reaches the terminal, past the CLI's sanitising of stderr), and draws nothing on a pipe."""

from __future__ import annotations

import io
import sys

from papertui.cli import _SafeStream
from papertui.commands.common import ProgressBar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_redraws_its_line_on_a_terminal(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "__stderr__", terminal)
    monkeypatch.setattr(sys, "stderr", _SafeStream(terminal))  # as the CLI wraps it
    bar = ProgressBar(as_json=False, what="vectors")
    bar(1, 4)
    bar(4, 4)
    bar.close()
    shown = terminal.getvalue()
    assert shown.count("\r") == 2 and "␍" not in shown
    assert shown.endswith("vectors [#########################] 100%  4/4\n")


def test_the_bar_draws_nothing_on_a_pipe(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", _SafeStream(pipe))
    bar = ProgressBar(as_json=False)
    bar(1, 2)
    bar.close()
    assert pipe.getvalue() == ""
