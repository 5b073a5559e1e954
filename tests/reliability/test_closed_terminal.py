"""A closed terminal ends the reader: in every state, within 2 s, with no child process left.

Each trial runs the installed `papertui` in a real pseudo-terminal, brings it to a state, and
closes the terminal's master end, as closing a terminal window does. The reader and every
process of its session (the index child `papertui index --progress-json` and the segment writer
it forks, the topics child `papertui semantic --progress-json`) must be gone within 2 s, and a
note being typed must be on disk as a draft. Before the fix a trial in any of these states
hung now and then (in Textual's writer thread, see `papertui.ui.ending`), and the reader stayed
running with its children."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from papertui.core.search.building import PARALLEL_FROM
from papertui.core.store import drafts

from pty_reader import PtyReader, papertui_command

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the processes of a session in /proc"
)

WITHIN = 2.0  # seconds from the terminal closing to the last process ending
SMALL = 200
# the fewest papers the reader indexes and builds topics for in child processes, and the index
# child in two processes (it forks a segment writer)
LARGE = PARALLEL_FROM
PARALLEL = (os.cpu_count() or 1) > 1  # else the index child writes alone: no segment writer


def write_corpus(path: Path, n: int, seed: int = 1) -> Path:
    """`n` abstracts of 60-140 words drawn from a Zipf-like synthetic vocabulary."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pre", "con", "tra", "gen"]
    vocabulary = ["".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(3000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    lines = ["Generated"]
    for i in range(n):
        words = rng.choices(vocabulary, weights, k=rng.randint(60, 140))
        lines.append(f"We study {words[0]} number {i}. " + " ".join(words) + ".")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(lines) + "\n", "utf-8")
    return path


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpora" / "small.txt", SMALL)


@pytest.fixture
def large(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpora" / "large.txt", LARGE)


@pytest.fixture
def open_reader() -> Iterator[Callable[..., PtyReader]]:
    """Start the reader on a corpus in a pseudo-terminal; whatever a failed trial left
    running is killed afterwards."""
    started: list[PtyReader] = []

    def start(corpus: Path, controlling: bool = True) -> PtyReader:
        reader = PtyReader([str(corpus)], controlling=controlling)
        started.append(reader)
        return reader

    yield start
    for reader in started:
        reader.kill()


def assert_ends(reader: PtyReader) -> None:
    took, left = reader.close_terminal(WITHIN)
    assert took is not None, f"still running {WITHIN} s after the terminal closed: {left}"
    print(f"ended {took:.2f} s after the terminal closed")


def test_idle(open_reader, small):
    reader = open_reader(small)
    reader.wait_for(f"row 1/{SMALL}")
    assert_ends(reader)


def test_idle_and_no_sighup_comes(open_reader, small):
    """The terminal is gone, and no SIGHUP says so: the reader finds out by itself."""
    reader = open_reader(small, controlling=False)
    reader.wait_for(f"row 1/{SMALL}")
    assert_ends(reader)


def test_typing_a_query(open_reader, small):
    reader = open_reader(small)
    reader.wait_for(f"row 1/{SMALL}")
    reader.type("/")
    reader.type("number 1", pause=0.03)
    reader.wait_for("number 1")
    reader.type("7")  # and the terminal closes as the key lands
    assert_ends(reader)


def test_indexing(open_reader, large):
    reader = open_reader(large)
    reader.wait_for("indexing")
    # the index child, and the segment writer it forked
    reader.wait_for_children("index --progress-json", count=2 if PARALLEL else 1)
    assert_ends(reader)


def test_topics_computing(open_reader, large):
    subprocess.run([*papertui_command(), "index", str(large)], check=True, capture_output=True)
    reader = open_reader(large)
    reader.wait_for("topics")
    reader.wait_for_children("semantic --progress-json")
    assert_ends(reader)


def test_a_dialog_open(open_reader, small):
    reader = open_reader(small)
    reader.wait_for(f"row 1/{SMALL}")
    reader.type("t")
    reader.wait_for("Tag")
    assert_ends(reader)


def test_a_note_being_typed_is_kept_as_a_draft(open_reader, small):
    reader = open_reader(small)
    reader.wait_for(f"row 1/{SMALL}")
    reader.type("n")
    reader.wait_for("Note on")
    reader.type("first words", pause=0.02)
    reader.wait_for("first words")
    reader.type(" then more")  # shown, and closed before the next draft is written (0.3 s)
    reader.wait_for("then more")
    assert_ends(reader)
    assert [drafts.load(pid) for pid in drafts.pending()] == ["first words then more"]
