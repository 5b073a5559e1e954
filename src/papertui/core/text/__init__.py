"""Text: helpers shared by parsers and views (whitespace, safe display, identity text), and
LaTeX (`latex`), readable math (`mathtext`) and the marks papertui puts in Markdown
(`markdown_marks`). Imports nothing else of papertui."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from papertui.core.text.latex import decode_latex, has_latex

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


def counted(n: int, noun: str) -> str:
    """ "1 paper", "3 papers": a count with its noun in the right number (regular plurals)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def normalise_ws(text: str) -> str:
    """Collapse all whitespace runs to one space and strip the ends (str.split and the
    pattern's \\s agree on every character; splitting is five times faster, and every
    abstract of a million passes here twice)."""
    return " ".join(text.split())


def identity_text(text: str) -> str:
    """The form of an abstract that its id is computed from: control characters out (as every
    export drops them), LaTeX decoded (`latex.plain_text`: a BibTeX copy decoded on reading,
    `Hervé`, and a dump's copy as written, `Herv\\'e`, are one paper), NFC, whitespace
    collapsed."""
    return _identity(text, _unescape_braces)


def previous_identity_text(text: str) -> str:
    """`identity_text` as papertui computed it before an escaped brace had to follow an odd run
    of backslashes (`\\\\{`, a line break then a brace, lost a backslash): to find the
    annotations kept under such ids."""
    return _identity(text, lambda t: t.replace("\\{", "{").replace("\\}", "}"))


def _unescape_braces(text: str) -> str:
    return _ESCAPED_BRACE.sub(r"\1\2", text)


# a brace after an odd run of backslashes: `\{` is escaped, `\\{` a line break and a brace
_ESCAPED_BRACE = re.compile(r"(?<!\\)((?:\\\\)*)\\([{}])")


def _identity(text: str, unescape: Callable[[str], str]) -> str:
    if _CONTROL.search(text):
        text = strip_controls(text)
    if has_latex(text):
        # decoded until nothing changes, so that the copy a reader decoded (a BibTeX export read
        # back) has the id of the copy as written even where decoding once more would change
        # it (`\\$x$--$`); almost always one pass, and a second that finds nothing to do
        for _ in range(4):
            decoded = decode_latex(text)  # whitespace as any run of it: layout stays irrelevant
            if decoded == text:
                break
            text = decoded
            if not has_latex(text):
                break
        if "\\\\" in text:  # a line break in math, then a space BibTeX needs before a brace
            text = _BREAK_SPACE.sub(r"\\\\", text)
        if "\\{" in text or "\\}" in text:  # in math, kept: BibTeX needs a lone one escaped
            text = unescape(text)
    return normalise_ws(unicodedata.normalize("NFC", text))


_BREAK_SPACE = re.compile(r"\\\\\s+")


def legacy_identity_text(text: str) -> str:
    """`identity_text` as papertui computed it before ids ignored control characters and before
    TeX quotes, dashes and ties counted as LaTeX without a backslash or a brace: to find the
    annotations kept under such ids."""
    if "\\" in text or "{" in text or "}" in text:
        text = decode_latex(text, legacy=True)
    return normalise_ws(unicodedata.normalize("NFC", text))


# Control characters other than tab and newline, and terminal escape sequences whole: exports
# leave them out (an escape sequence in an untrusted abstract would colour, move or write to
# the clipboard of the terminal that shows the exported file), so ids leave them out too.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")


def strip_controls(text: str) -> str:
    """`text` without terminal escape sequences and with every other control character but tab
    and newline turned into a space (a control between words parts them)."""
    if "\x1b" in text:
        text = _ESCAPE.sub("", text)
    return _CONTROL.sub(" ", text)


def cut_words(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters at a word boundary, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit // 2:
        head = head[:space]
    return head.rstrip(" ,;:-") + "…"


def once_each(lines: list[str]) -> list[str]:
    """Each line once, in first-seen order, with how often it was said when more than once:
    seven identical warnings about one file are one line."""
    seen: dict[str, int] = {}
    for line in lines:
        seen[line] = seen.get(line, 0) + 1
    return [line if n == 1 else f"{line} ({n} times)" for line, n in seen.items()]
