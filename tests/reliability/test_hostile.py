"""Hostile input changes nothing but the text shown: every command and flow, literal text,
no escape sequence from the corpus reaches the terminal, no markup action runs."""

from __future__ import annotations

import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from hostile import ENTRIES, MARKER, write_hostile
from textual.widgets import Input, Select

from papertui.cli import main
from papertui.core.corpus import load_corpus
from papertui.ui.app import make_app
from papertui.ui.screens.help import HelpScreen
from papertui.ui.screens.note_editor import NoteEditor
from papertui.ui.widgets.paper_list import PaperList

from workers import workers_done

# the sequences the corpus plants, byte for byte; the reader itself never writes any of them
PLANTED = [
    b"\x1b]0;" + MARKER,
    b"\x1b]2;" + MARKER,
    b"\x1b]52;c;UFdORUQ=",
    b"\x1b]8;;http://evil.example/" + MARKER,
    b"\x1bP$q" + MARKER,
    b"\x1b[6n",
    b"\x1b[>c",
    b"\x1b]10;?",
    b"\x1b[10;10H PWNED",
]
QUERIES = ['"unbalanced', "title:", "[bold]", "\x1b[2J", "*", "NOT NOT", "这是", "a" * 300, "🧪"]


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    return write_hostile(tmp_path / "hostile")


def test_hostile_corpus_loads_every_entry(hostile):
    corpus = load_corpus([hostile])
    texts = [p.abstract for p in corpus.papers]
    distinct = {text for _, text in ENTRIES}
    assert len(corpus.papers) == len(distinct) + 1 + 2  # + invalid UTF-8 + the long-line file
    assert any("[@click=app.quit]" in t for t in texts)
    assert corpus.files[0].skipped == {"duplicate": 1}
    assert any("invalid UTF-8" in w for w in corpus.warnings)
    assert {f.collection for f in corpus.files} == {
        "Hostile [bold]collection[/] \x1b]0;PWNED-name\x07",
        "longline",
    }


def test_every_cli_command_on_hostile_input(capsys, hostile, tmp_path):
    def run(*argv: str) -> str:
        code = main(list(argv))
        out, err = capsys.readouterr()
        # search exits 1 when nothing matched, as grep does, and says so
        nothing = argv[0] == "search" and "no papers match" in err and out.strip() in ("", "[]")
        assert code == (1 if nothing else 0), err
        assert "Traceback" not in err
        return out

    records = json.loads(run("list", str(hostile), "--json"))
    run("list", str(hostile))
    run("index", str(hostile))
    for query in QUERIES:
        run("search", query, str(hostile), "--json")
        run("search", query, str(hostile))
    for record in records[:6]:
        run("bookmark", record["id"], "-c", str(hostile))
        run("note", record["id"], record["abstract"][:500], "-c", str(hostile))
        run("note", record["id"], "-c", str(hostile))
    for fmt in ("markdown", "json", "csv", "bibtex"):
        run("export", "--format", fmt, "-c", str(hostile), "-o", str(tmp_path / f"x.{fmt}"))
    assert "[@click=app.quit]" in (tmp_path / "x.json").read_text("utf-8")


async def test_every_reader_flow_on_hostile_input(hostile, tmp_path):
    copied: list[str] = []
    app = make_app([hostile], clipboard=lambda t: copied.append(t) or None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await workers_done(app)
        plist = app.query_one(PaperList)
        shown: list[str] = [app.reader.detail.shown_text]
        for _ in range(len(plist.rows) - 1):  # scroll through all of it, rendering each paper
            await pilot.press("j")
            shown.append(app.reader.detail.shown_text)
            for y in range(plist.size.height):
                row = plist.render_line(y).text
                assert "\x1b" not in row and "\x00" not in row
        for text in shown:
            assert "\x1b" not in text and "\x00" not in text and "\u202e" not in text
        everything = "\n".join(shown)
        assert "[bold red]x[/] [link=file:///etc/passwd]y[/link] [@click=app.quit]z[/]" in (
            everything
        )
        assert "␛[2J␛[H" in everything and "␀" in everything
        await pilot.press("g", "b", "y", "Y")
        await workers_done(app)
        assert app.library.marks.is_bookmarked(app.reader.current_paper) and len(copied) == 2
        await pilot.press("n", *"[red]note[/]", "ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, NoteEditor)
        assert app.library.marks.note(app.reader.current_paper) == "[red]note[/]"
        for query in QUERIES:
            app.reader.search_bar.value = query
            await pilot.pause()
            await workers_done(app)
        await pilot.press("escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "space", "space", "t", *"odd[tag]", "enter", "escape")
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#export-what", Select).value = "results"
        app.screen.query_one("#export-format", Select).value = "json"
        app.screen.query_one("#export-path", Input).value = str(tmp_path / "all.json")
        await pilot.press("ctrl+s")
        await pilot.pause()
        exported = json.loads((tmp_path / "all.json").read_text("utf-8"))
        assert any("[@click=app.quit]" in e["abstract"] for e in exported)
        await pilot.press("s", "m", "r", "right_square_bracket", "C", "escape", "escape")
        await workers_done(app)
        await pilot.click("#detail", offset=(5, 3))  # where a [@click] would sit
        await pilot.pause()
        assert app.is_running
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("size", [(20, 6), (40, 10), (80, 24), (120, 40), (300, 100)])
async def test_terminal_sizes_render_without_errors(hostile, size):
    app = make_app([hostile], clipboard=lambda t: None)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("j", "G", "pagedown", "slash", *"graph", "enter", "question_mark")
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running
        assert app.reader.has_class("-narrow") == (size[0] < 90)


def _read_all(fd: int, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


def test_no_planted_escape_sequence_reaches_the_terminal(hostile, tmp_path):
    """The real reader in a real pseudo-terminal: what it writes is scanned byte by byte."""
    master, slave = pty.openpty()
    import fcntl

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    proc = subprocess.Popen(
        [sys.executable, "-m", "papertui", str(hostile)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    output = _read_all(master, 4.0)
    try:
        # one paper at a time, so each is drawn in the detail pane (derived titles in the list
        # carry no control characters at all)
        for keys in [*[b"j"] * 24, b"G", b"g", b"/", b"PWNED", b"\r", b"\x1b", b"?", b"\x1b", b"b"]:
            os.write(master, keys)
            output += _read_all(master, 0.3)
        os.write(master, b"q")
        output += _read_all(master, 2.0)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert len(output) > 10_000  # the reader did draw its screens
    assert b"Hostile" in output
    assert [seq for seq in PLANTED if seq in output] == []
    assert "␛]0;PWNED-title".encode() in output  # shown, as harmless placeholders
    assert b"\x1b]52;" not in output  # nothing was copied without a key asking for it
    assert proc.returncode == 0
