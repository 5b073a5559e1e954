"""The scripting CLI: same core, JSON records, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from papertui import __version__
from papertui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_has_every_record_field(capsys):
    code, out, _ = run(capsys, "list", "--json")
    records = json.loads(out)
    assert code == 0 and len(records) == 139
    assert set(records[0]) >= {
        "id",
        "title",
        "collection",
        "abstract",
        "urls",
        "bookmarked",
        "note",
    }


def test_list_text_shows_id_title_collection(capsys):
    code, out, _ = run(capsys, "list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 139
    assert any("CaliGCL:" in line and "[NeurIPS 2025]" in line for line in lines)


def test_search_json_adds_score_and_respects_limit(capsys):
    code, out, _ = run(capsys, "search", "optmal transprt", "--json", "--limit", "1")
    hits = json.loads(out)
    assert code == 0 and len(hits) == 1
    assert "optimal transport" in hits[0]["abstract"].lower() and hits[0]["score"] > 0


def test_search_with_no_match_says_so_and_exits_1(capsys):
    for extra in ((), ("--json",)):
        code, out, err = run(capsys, "search", "zzqxwv", *extra)
        assert code == 1 and err == "papertui: no papers match 'zzqxwv'\n"
        assert out == ("[]\n" if extra else "")


def test_bookmark_note_and_export_by_id_prefix(capsys, tmp_path):
    _, out, _ = run(capsys, "search", "caligcl", "--json")
    pid = json.loads(out)[0]["id"]
    assert run(capsys, "bookmark", pid[:5])[0] == 0
    assert run(capsys, "note", pid[:6], "check the ablation")[0] == 0
    code, out, _ = run(capsys, "note", pid)
    assert code == 0 and out == "check the ablation\n"
    record = next(r for r in json.loads(run(capsys, "list", "--json")[1]) if r["id"] == pid)
    assert record["bookmarked"] and record["note"] == "check the ablation"
    target = tmp_path / "out.bib"
    assert run(capsys, "export", "--format", "bibtex", "-o", str(target))[0] == 0
    bib = target.read_text("utf-8")
    assert bib.count("@misc{") + bib.count("@inproceedings{") == 1
    assert "check the ablation" in bib and "CaliGCL" in bib
    for fmt in ("markdown", "json", "csv"):
        code, out, _ = run(capsys, "export", "--format", fmt)
        assert code == 0 and "check the ablation" in out
    assert run(capsys, "bookmark", pid, "--remove")[0] == 0
    assert not json.loads(run(capsys, "search", "caligcl", "--json")[1])[0]["bookmarked"]


def test_note_from_stdin(capsys, monkeypatch):
    import io

    pid = json.loads(run(capsys, "search", "cdflow", "--json")[1])[0]["id"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("multi\nline"))
    assert run(capsys, "note", pid, "-")[0] == 0
    assert run(capsys, "note", pid)[1] == "multi\nline\n"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["list", "/no/such/dump.txt"], "/no/such/dump.txt: no such file or folder"),
        (["bookmark", "zzzz"], "no paper with id 'zzzz' in the corpus (the default collections"),
        (["bookmark", ""], "empty paper id"),
        (["search", "x", "--limit", "0"], "--limit must be at least 1"),
        (["export", "--format", "docx"], "invalid choice"),
        (["frobnicate-this.txt"], "frobnicate-this.txt: no such file or folder"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("papertui")


def test_ambiguous_prefix_is_explained(capsys, write_corpus):
    path = write_corpus("X\n\n" + "\n\n".join(f"paper number {i}" for i in range(300)))
    code, _, err = run(capsys, "bookmark", "a", "-c", str(path))
    assert code == 2 and "ambiguous" in err


def test_version_and_help_on_every_command(capsys):
    # the installed entry point once (a process start is a second on a busy machine), then the
    # same parsers in this process for the help of every command
    proc = subprocess.run(
        [sys.executable, "-m", "papertui", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert __version__ in proc.stdout
    commands = ("list", "search", "index", "similar", "bookmark", "note", "tag", "read", "export")
    for argv in (["--help"], *[[c, "--help"] for c in commands]):
        with pytest.raises(SystemExit) as ended:
            main(argv)
        out, err = capsys.readouterr()
        assert ended.value.code == 0, (argv, err)
        assert "usage:" in out, argv


def test_text_output_never_writes_escape_sequences_from_the_corpus(capsys, write_corpus):
    dump = write_corpus(
        "Hostile\n\nWe propose EvilNet, a \x1b[31mred\x1b[0m method with a bell\x07 inside it.\n"
    )
    code, out, err = run(capsys, "list", str(dump))
    assert code == 0 and "EvilNet" in out
    assert "\x1b" not in out + err and "\x07" not in out
    code, out, _ = run(capsys, "list", str(dump), "--json")  # JSON escapes them itself
    assert code == 0 and "\x1b" not in out and "\\u001b" in out


def test_export_takes_the_format_from_the_file_extension(capsys, tmp_path):
    _, out, _ = run(capsys, "search", "caligcl", "--json")
    assert run(capsys, "bookmark", json.loads(out)[0]["id"])[0] == 0
    for name, starts in (("out.json", "["), ("out.bib", "@"), ("out.csv", "id,title")):
        assert run(capsys, "export", "-o", str(tmp_path / name))[0] == 0
        assert (tmp_path / name).read_text("utf-8").startswith(starts), name
    assert run(capsys, "export", "-o", str(tmp_path / "o.txt"), "--format", "json")[0] == 0
    assert (tmp_path / "o.txt").read_text("utf-8").startswith("[")


def test_a_mistyped_command_is_named_and_an_ambiguous_id_lists_its_papers(capsys):
    code, _, err = run(capsys, "serach", "graph")
    assert code == 2 and "did you mean 'search'" in err
    _, out, _ = run(capsys, "list", "--json")
    ids = [r["id"] for r in json.loads(out)]
    prefix = next(p for p in (i[:1] for i in ids) if sum(i.startswith(p) for i in ids) > 1)
    code, _, err = run(capsys, "note", prefix)
    assert code == 2 and "ambiguous" in err
    assert sum(i in err for i in ids if i.startswith(prefix)) >= 2  # the candidates are named


def test_liked_and_skipped_filters_list_and_export_the_answers(capsys, tmp_path):
    records = json.loads(run(capsys, "list", "--json")[1])
    liked, skipped = records[3]["id"], records[7]["id"]
    assert run(capsys, "like", liked)[0] == 0
    assert run(capsys, "skip", skipped)[0] == 0
    code, out, _ = run(capsys, "search", "is:liked", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)] == [liked]
    code, out, _ = run(capsys, "search", "is:skipped", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)] == [skipped]
    target = tmp_path / "liked.json"
    assert run(capsys, "export", "--query", "is:liked", "-o", str(target))[0] == 0
    assert [r["id"] for r in json.loads(target.read_text("utf-8"))] == [liked]
    # a misspelt filter is an error, not an export of the whole library
    code, _, err = run(capsys, "export", "--query", "is:likd", "-o", str(tmp_path / "x.json"))
    assert code == 2 and "unknown filter 'is:likd'" in err and "is:liked" in err
    assert not (tmp_path / "x.json").exists()


def test_the_digest_says_since_when_to_the_second_with_its_zone():
    from papertui.commands.digest import markdown

    since = "2025-09-08T07:00:01.123456Z"  # as the last digest's time is kept
    out = markdown([], 0, since, "2025-09-09T07:00:00.000001Z")
    assert out.endswith("0 papers fetched since 2025-09-08 07:00:01 UTC.\n")
    assert "2025-09-01" in markdown([], 0, "2025-09-01", "2025-09-09T07:00:00Z")  # --since DATE


def test_the_readme_and_the_cli_docs_name_every_export_format():
    from pathlib import Path

    from papertui.core.export import FORMATS

    root = Path(__file__).resolve().parents[2]
    for doc in (root / "README.md", root / "docs" / "cli.md"):
        text = doc.read_text("utf-8").lower()
        for fmt in (*FORMATS, "notes"):
            assert fmt in text, (doc.name, fmt)
    commands = (root / "README.md").read_text("utf-8").split("## Commands")[1].split("\n## ")[0]
    assert all(fmt in commands for fmt in (*FORMATS, "notes")), commands  # the command block
    assert "-c PATH" in commands
