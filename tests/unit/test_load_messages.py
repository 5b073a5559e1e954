"""What loading says about a file: a first paragraph taken as the collection's name, and
repeated warnings said once with their count."""

from __future__ import annotations

import subprocess
import sys

from papertui.core.corpus.formats.native import parse_native
from papertui.core.text import once_each

ABSTRACT = (
    "We study graph kernels for molecules and show that they beat message passing on "
    "three benchmarks while costing less to train."
)


def test_a_sentence_taken_as_the_collection_name_is_said():
    data = f"We propose a new method for graphs.\n\n{ABSTRACT}\n\n{ABSTRACT} Again.".encode()
    parsed = parse_native("dump.txt", data)
    assert parsed.collection == "We propose a new method for graphs."
    assert any("first paragraph" in w and "collection's name" in w for w in parsed.warnings)


def test_a_short_name_line_is_not_said():
    parsed = parse_native("dump.txt", f"NeurIPS 2025 paper list\n\n{ABSTRACT}".encode())
    assert parsed.collection == "NeurIPS 2025"
    assert parsed.warnings == []


def test_repeated_lines_are_said_once_with_their_count():
    lines = ["a.txt: bad", "b.txt: bad", "a.txt: bad", "a.txt: bad"]
    assert once_each(lines) == ["a.txt: bad (3 times)", "b.txt: bad"]


def test_the_command_line_says_the_name_taken_from_a_first_paragraph(tmp_path):
    dump = tmp_path / "dump.txt"
    dump.write_text(f"We propose a new method for graphs.\n\n{ABSTRACT}\n\n{ABSTRACT} Two.")
    done = subprocess.run(
        [sys.executable, "-m", "papertui", "list", str(dump)], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert 'its first paragraph ("We propose a new method for graphs.")' in done.stderr
