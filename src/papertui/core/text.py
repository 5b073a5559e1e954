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


def counted(n: int, noun: str) -> str:
    """ "1 paper", "3 papers": a count with its noun in the right number (regular plurals)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def normalise_ws(text: str) -> str:
    """Collapse all whitespace runs to one space and strip the ends."""
    return _WS.sub(" ", text).strip()


def identity_text(text: str) -> str:
    """The form of an abstract that its id is computed from: NFC, whitespace collapsed, and
    LaTeX accents, escapes and text-style braces decoded, so that a BibTeX copy (decoded on
    reading: `Hervé`) and a text dump's copy as written (`Herv\\'e`) are one paper."""
    if "\\" in text or "{" in text or "}" in text:
        text = _decode_latex(text)  # reads whitespace as any run of it: layout stays irrelevant
    return normalise_ws(unicodedata.normalize("NFC", text))


# -- LaTeX in the identity text ---------------------------------------------------------------
# Not a LaTeX renderer: a projection on which an abstract as written and the same abstract as
# BibTeX readers decode it agree (on 86% of the LaTeX-bearing abstracts of a real 23k dump; the
# rest mostly have an unescaped % that BibTeX reads as a comment). Math ($...$, \(...\),
# \[...\]) is kept as written, as bibtexparser keeps it: dropping its commands would make
# "$\alpha$-loss" and "$\beta$-loss" one paper.

_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
_SYMBOL_NAMES = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda"
    " mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega"
    " Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega times cdot infty approx"
    " sim leq le geq ge neq pm mp to rightarrow leftarrow Rightarrow leftrightarrow in"
    " ell partial nabla sum prod int circ dagger star propto ll gg equiv cdots"
)
_SYMBOLS = "αβγδϵεζηθϑικλμνξπϖρϱσςτυϕφχψωΓΔΘΛΞΠΣΥΦΨΩ×·∞≈∼≤≤≥≥≠±∓→→←⇒↔∈ℓ∂∇∑∏∫∘†⋆∝≪≫≡⋯"
_LETTERS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "ldots": "…",
    "dots": "…",
    "textendash": "–",
    "textemdash": "—",
    # symbols outside math, as bibtexparser's decoder writes them
    **dict(zip(_SYMBOL_NAMES.split(), _SYMBOLS, strict=True)),
}
_STYLES = (
    "emph|textit|textbf|textrm|textsf|texttt|textsc|textsl|textup|textnormal|underline|mbox|url"
)
_MATH = re.compile(r"(\$\$[^$]*\$\$|(?<!\\)\$[^$]*(?<!\\)\$|\\\([^$]*?\\\)|\\\[[^$]*?\\\])")
_ACCENT = re.compile(
    r"\\([\'`^\"~=.])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
    r"|\\([uvHckrdb])(?:\s*\{\s*(\\?[A-Za-z])\s*\}|\s+([A-Za-z]))"
)
_LETTER = re.compile(
    r"\\(" + "|".join(sorted(_LETTERS, key=len, reverse=True)) + r")(?![A-Za-z])\s*"
)
_STYLE = re.compile(r"\\(?:" + _STYLES + r")\s*(?=\{)|\{\\(?:em|it|bf|sc|tt|rm|sf|sl)\s+")
_COMMAND = re.compile(r"\\[A-Za-z]+\s*")  # what is left: macros a BibTeX reader drops
_ESCAPED = re.compile(r"\\([%&_#$]|\s|\\)")


def _accented(match: re.Match[str]) -> str:
    accent = match.group(1) or match.group(4)
    base = next(g for g in match.group(2, 3, 5, 6) if g)
    base = {"\\i": "i", "\\j": "j"}.get(base, base)
    return base + _ACCENTS[accent]


def _decode_text(text: str) -> str:
    if "\\" in text:  # commands; else only braces, dashes and quotes
        text = _ACCENT.sub(_accented, text)
        text = _LETTER.sub(lambda m: _LETTERS[m.group(1)], text)
        text = _STYLE.sub(lambda m: "{" if m.group().startswith("{") else "", text)
        text = _ESCAPED.sub(lambda m: m.group(1) if m.group(1) in "%&_#$" else " ", text)
        text = _COMMAND.sub("", text.replace("\\{", "").replace("\\}", ""))
    text = text.replace("{", "").replace("}", "")
    text = text.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”")
    return text.replace("~", " ")


def _decode_latex(text: str) -> str:
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return _decode_text(text)
    parts = _MATH.split(text)
    # odd positions are the math the split kept; only the text between is decoded
    return "".join(p if i % 2 else _decode_text(p) for i, p in enumerate(parts))


def cut_words(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters at a word boundary, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit // 2:
        head = head[:space]
    return head.rstrip(" ,;:-") + "…"
