"""The screen tier: tests that assert only on what is painted (Textual's own screen, and a real
pseudo-terminal read by a terminal emulator)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "ui", HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
