"""System clipboard through pyperclip, bounded by a timeout because some backends hang.

The UI falls back to the terminal's own clipboard (OSC 52) when this reports failure.
"""

from __future__ import annotations

import threading

TIMEOUT = 2.0


def copy_system(text: str, timeout: float = TIMEOUT) -> str | None:
    """Copy with pyperclip. Returns None on success, else why it failed (one line)."""
    outcome: list[str | None] = []

    def run() -> None:
        try:
            import pyperclip

            pyperclip.copy(text)
            outcome.append(None)
        except Exception as exc:  # noqa: BLE001 - any backend failure means: fall back
            outcome.append(_reason(exc))

    worker = threading.Thread(target=run, name="papertui-clipboard", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return f"no answer from the clipboard program within {timeout:g} s"
    return outcome[0]


def _reason(exc: Exception) -> str:
    text = str(exc)
    if "copy/paste mechanism" in text:  # pyperclip's long message when no backend exists
        return "no clipboard program (wl-copy, xclip or xsel) found"
    return text.splitlines()[0][:120] if text else type(exc).__name__
