"""Text helpers shared by parsers and views: whitespace normalisation and safe display."""

from __future__ import annotations

import re
import unicodedata

_WS = re.compile(r"\s+")

# Characters that can move the cursor, restyle or reorder the terminal's output. Corpus text is
# untrusted, so each is shown as a visible placeholder instead of being written to the terminal.
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _placeholder(ch: str) -> str:
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ␁ ... ␟ (Control Pictures)
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f" + _BIDI + "\u2028\u2029\ufeff]")


def safe_display(text: str) -> str:
    """Replace control, escape and bidi-override characters with visible placeholders.

    U+2028/U+2029 become spaces: they are line breaks, not attacks, and the view wraps anyway.
    """

    def sub(match: re.Match[str]) -> str:
        ch = match.group()
        if ch in "\u2028\u2029":
            return " "
        if ch == "\ufeff":
            return ""
        return _placeholder(ch)

    return _UNSAFE.sub(sub, text)


def normalise_ws(text: str) -> str:
    """Collapse all whitespace runs to one space and strip the ends."""
    return _WS.sub(" ", text).strip()


def identity_text(text: str) -> str:
    """The form of an abstract that its id is computed from: NFC, whitespace collapsed."""
    return normalise_ws(unicodedata.normalize("NFC", text))


def cut_words(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters at a word boundary, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit // 2:
        head = head[:space]
    return head.rstrip(" ,;:-") + "…"
