"""The core is pure: importing every core module must not import textual."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import papertui.core


def test_core_never_imports_textual():
    modules = [m.name for m in pkgutil.walk_packages(papertui.core.__path__, "papertui.core.")]
    assert "papertui.core.search" in modules and "papertui.core.library" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "import papertui.cli\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_the_reader_and_the_cli_reach_the_store_only_through_the_library():
    import ast
    from pathlib import Path

    root = Path(papertui.core.__path__[0]).parent
    files = [
        *sorted(root.glob("cli*.py")),
        *sorted((root / "commands").rglob("*.py")),
        *sorted((root / "ui").rglob("*.py")),
    ]
    offenders = []
    for path in files:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "papertui.core.store":
                names = {a.name for a in node.names}
                if names - {"StoreError", "drafts"}:  # the error type is shared, and drafts are
                    # files of their own; the Store is not
                    offenders.append(f"{path.name}: imports {sorted(names)}")
            if isinstance(node, ast.Attribute) and node.attr == "store":
                offenders.append(f"{path.name}:{node.lineno}: .store")
    assert offenders == []
    assert len(files) > 10  # the walk found the reader's modules
    assert root / "commands" / "papers.py" in files  # and the commands
