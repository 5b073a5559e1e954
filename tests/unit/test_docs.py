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


ROOT = DOCS.parent
NAME_COLUMN = 24  # where the layout's descriptions start: a line indented this far goes on


def layout() -> tuple[list[Path], str]:
    """The paths docs/contributing.md's layout names (nested by indentation), and its text."""
    text = (DOCS / "contributing.md").read_text("utf-8").split("## The layout", 1)[1]
    block = text.split("```", 2)[1]
    named: list[Path] = []
    parents: list[tuple[int, Path]] = []
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent >= NAME_COLUMN:
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        while parents and parents[-1][0] >= indent:
            parents.pop()
        base = parents[-1][1] if parents else ROOT
        for name in (n.strip() for n in names.split(",") if n.strip()):
            named.append(base / name)
        if names.endswith("/") and "," not in names:
            parents.append((indent, base / names))
    return named, block


def test_the_layout_in_contributing_names_only_what_exists_and_every_package():
    named, block = layout()
    assert len(named) > 30 and ROOT / "src/papertui/core/query/" in [*named]  # it was read
    assert [str(p.relative_to(ROOT)) for p in named if not p.exists()] == []
    source = ROOT / "src" / "papertui"
    packages = [p.parent for p in source.rglob("__init__.py") if p.parent != source]
    undescribed = [str(p.relative_to(source)) for p in packages if f"{p.name}/" not in block]
    assert undescribed == [], "packages docs/contributing.md's layout does not describe"
