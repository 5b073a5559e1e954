"""The docs are kept honest by tests: every command `papertui --help` lists is documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from papertui.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"


def commands(capsys: pytest.CaptureFixture[str]) -> list[str]:
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out.split("commands (", 1)[1]
    return re.findall(r"^  ([a-z]+)  ", listed, re.M)


def test_every_command_in_the_help_is_in_the_docs(capsys):
    names = commands(capsys)
    assert len(names) >= 19 and "digest" in names  # the help was read
    docs = "\n".join(p.read_text("utf-8") for p in DOCS.glob("*.md"))
    missing = [n for n in names if not re.search(rf"\bpapertui {n}\b", docs)]
    assert missing == [], f"commands no page of docs/ shows: {missing}"
