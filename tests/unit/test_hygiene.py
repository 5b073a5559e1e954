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
