"""The command line refuses what it does not know instead of reading it as a file name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papertui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["list", "--limit", "1"], "--limit"),
        (["search", "graph", "--jsn"], "--jsn"),
        (["export", "--formt", "csv"], "--formt"),
        (["bookmark", "abc", "-x"], "-x"),
    ],
)
def test_an_unknown_option_is_an_error_of_one_line(capsys, write_corpus, argv, named):
    path = write_corpus("C\n\nOne abstract about graphs.\n\nAnother about proteins.\n")
    code, out, err = run(capsys, *argv, str(path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"unknown option {named}" in err and "--help" in err


def test_a_close_option_is_suggested(capsys):
    _, _, err = run(capsys, "search", "graph", "--jsn")
    assert "did you mean --json?" in err


def test_queries_that_start_with_a_minus_still_work(capsys):
    code, out, _ = run(capsys, "search", "--json", "--limit", "500", "-graph")
    assert code == 0 and len(json.loads(out)) == 98
    code, out, _ = run(capsys, "search", "--json", "-tag:x")
    assert code == 0 and json.loads(out)


def test_a_path_starting_with_a_minus_is_reached_after_double_dash_or_dot_slash(
    capsys, tmp_path: Path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    Path("-odd.txt").write_text("Odd\n\nAn abstract about odd file names.\n", "utf-8")
    code, out, _ = run(capsys, "list", "--json", "--", "-odd.txt")
    assert code == 0 and len(json.loads(out)) == 1
    code, out, _ = run(capsys, "list", "--json", "./-odd.txt")
    assert code == 0 and len(json.loads(out)) == 1


def test_top_level_help_lists_each_command_once(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in ("list", "search", "export", "bookmark"):
        assert len([line for line in out.splitlines() if line.strip().startswith(name + " ")]) == 1
