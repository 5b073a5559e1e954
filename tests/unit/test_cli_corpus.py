"""One way to name a corpus: `-c PATH` on every command that reads one, PATHs after the other
positionals where they cannot mean anything else, and a note that names a file refused."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from papertui.cli import main
from papertui.cli_args import COMMANDS, UsageError
from papertui.core.library import Library

# the commands that read no corpus of the user's: fetch writes dumps, daily and digest read them
NO_CORPUS = {"fetch", "daily", "digest"}
READING = [c.name for c in COMMANDS if c.name not in NO_CORPUS]
# where a positional PATH could be read as something else: note's words, like's FILE, export's -o
NO_POSITIONAL_PATH = {"note", "like", "export"}
# what each command needs besides its corpus
REQUIRED = {
    "search": ["graph"],
    "similar": ["abc"],
    "like": ["abc"],
    "skip": ["abc"],
    "feedback": ["--reset"],
    "bookmark": ["abc"],
    "note": ["abc"],
    "tag": ["abc", "later"],
    "read": ["abc"],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The sources each library is opened on; opening one ends the command (exit 2)."""
    seen: list[list[str]] = []

    def record(cls, sources=None, fmt=None):  # type: ignore[no-untyped-def]
        seen.append([str(s) for s in sources or []])
        raise UsageError("papertui: opened")

    def serve(host, port, token, token_file, public_url, reader_args):  # type: ignore[no-untyped-def]
        seen.append([a for a in reader_args if a != "--"])
        raise UsageError("papertui: opened")

    monkeypatch.setattr(Library, "open", classmethod(record))
    monkeypatch.setattr(Library, "open_deferred", classmethod(record))
    monkeypatch.setattr("papertui.commands.serving.check_options", serve)
    monkeypatch.setattr("papertui.core.semantic.child.one_blas_thread_env", lambda: None)
    return seen


@pytest.fixture
def dump(write_corpus) -> Path:  # type: ignore[no-untyped-def]
    return write_corpus("Mine\n\nA graph method for molecules.\n\nA kernel method for proteins.\n")


@pytest.mark.parametrize("command", READING)
def test_every_command_that_reads_a_corpus_takes_it_as_dash_c(capsys, opened, dump, command):
    code, _, err = run(capsys, command, *REQUIRED.get(command, []), "-c", str(dump))
    assert (code, err) == (2, "papertui: opened\n")
    expected = os.path.abspath(dump) if command == "serve" else str(dump)
    assert opened == [[expected]]


@pytest.mark.parametrize("command", [c for c in READING if c not in NO_POSITIONAL_PATH])
def test_paths_after_the_other_arguments_are_the_same_as_dash_c(capsys, opened, dump, command):
    other = dump.with_name("other.txt")
    other.write_text("Other\n\nA third abstract about graphs.\n", "utf-8")
    code, _, err = run(capsys, command, *REQUIRED.get(command, []), str(dump), "-c", str(other))
    assert (code, err) == (2, "papertui: opened\n")
    expected = [str(dump), str(other)]
    assert opened == [[os.path.abspath(p) for p in expected] if command == "serve" else expected]


@pytest.mark.parametrize("command", sorted(NO_POSITIONAL_PATH - {"note"}))
def test_a_path_where_none_is_taken_is_one_line_naming_dash_c(capsys, dump, command):
    code, out, err = run(capsys, command, *REQUIRED.get(command, []), str(dump))
    assert code == 2 and out == ""
    assert err == (
        f"papertui {command}: unexpected argument {str(dump)!r} ("
        + ("-o FILE names the file to write; " if command == "export" else "")
        + f"a corpus is given as -c PATH; see papertui {command} --help)\n"
    )


def test_list_and_search_read_the_same_papers_either_way(capsys, dump):
    by_path = json.loads(run(capsys, "list", str(dump), "--json")[1])
    by_option = json.loads(run(capsys, "list", "-c", str(dump), "--json")[1])
    assert len(by_path) == 2 and by_path == by_option
    code, out, _ = run(capsys, "search", "kernel", "--corpus", str(dump), "--json")
    assert code == 0 and [r["title"] for r in json.loads(out)] == [by_path[1]["title"]]
    code, _, err = run(capsys, "bookmark", by_path[0]["id"], str(dump))
    assert code == 0, err
    assert json.loads(run(capsys, "list", "-c", str(dump), "--json")[1])[0]["bookmarked"]


def test_a_corpus_path_that_is_not_there_is_named_by_the_paper_commands(capsys, dump):
    pid = json.loads(run(capsys, "list", str(dump), "--json")[1])[0]["id"]
    code, _, err = run(capsys, "bookmark", pid, "nosuchid")  # `bookmark ID1 ID2`
    assert (code, err) == (2, "papertui bookmark: nosuchid: no such corpus file or folder\n")


def _first_id(capsys, dump: Path) -> str:
    return str(json.loads(run(capsys, "list", str(dump), "--json")[1])[0]["id"])


def test_a_note_that_names_a_file_is_refused_and_the_old_note_kept(capsys, dump):
    pid = _first_id(capsys, dump)
    assert run(capsys, "note", pid, "check the ablation", "-c", str(dump))[0] == 0
    code, out, err = run(capsys, "note", pid, str(dump))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"papertui note: {str(dump)!r} is a file or folder, not a note")
    assert f"-c {dump}" in err and f"--text {dump}" in err
    folder = str(dump.parent)
    assert run(capsys, "note", pid, "see", folder, "-c", str(dump))[0] == 2  # a folder too
    assert run(capsys, "note", pid, "-c", str(dump))[1] == "check the ablation\n"


def test_text_stores_a_path_on_purpose(capsys, dump):
    pid = _first_id(capsys, dump)
    code, out, _ = run(capsys, "note", pid, "--text", str(dump), "-c", str(dump))
    assert code == 0 and out.startswith(f"saved note on {pid}")
    assert run(capsys, "note", pid, "-c", str(dump))[1] == f"{dump}\n"
    code, _, err = run(capsys, "note", pid, "words", "--text", "more", "-c", str(dump))
    assert code == 2 and "given twice" in err


def test_replacing_a_note_says_how_long_the_old_one_was(capsys, dump):
    pid = _first_id(capsys, dump)
    first = run(capsys, "note", pid, "x" * 212, "-c", str(dump))[1]
    assert first.startswith(f"saved note on {pid}")
    code, out, _ = run(capsys, "note", pid, "a new", "note", "-c", str(dump))
    assert code == 0 and out.startswith(f"replaced a 212-character note on {pid}")
    assert run(capsys, "note", pid, "-c", str(dump))[1] == "a new note\n"  # the words joined
    assert run(capsys, "note", pid, "", "-c", str(dump))[1].startswith("cleared a 10-character")


def test_append_adds_to_the_note_after_a_newline(capsys, dump):
    pid = _first_id(capsys, dump)
    code, out, _ = run(capsys, "note", pid, "--append", "first", "-c", str(dump))
    assert code == 0 and out.startswith("saved note on")  # nothing to add to: the note
    code, out, _ = run(capsys, "note", pid, "--append", "second", "line", "-c", str(dump))
    assert code == 0 and out.startswith(f"added to the note on {pid}")
    assert run(capsys, "note", pid, "-c", str(dump))[1] == "first\nsecond line\n"
    code, _, err = run(capsys, "note", pid, "--append", "-c", str(dump))
    assert code == 2 and "--append needs the text to add" in err
    assert run(capsys, "note", pid, "-c", str(dump))[1] == "first\nsecond line\n"


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_usage_shows_every_path_as_optional(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    bare = re.sub(r"\[[^\[\]]*\]", "", re.sub(r"\[[^\[\]]*\]", "", usage))  # [..] and [[..]]
    assert "PATH" not in bare, usage


@pytest.mark.parametrize("command", ["search", "similar", "tag", "note"])
def test_a_missing_argument_never_says_path_is_required(capsys, command):
    code, _, err = run(capsys, command)
    assert code == 2 and len(err.splitlines()) == 1
    required = err.split("required: ")[1].split(";")[0]
    assert "PATH" not in required and required in ("QUERY", "ID", "ID, TAG")
    assert "[PATH ...]" in err or command == "note"
