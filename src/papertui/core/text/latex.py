"""LaTeX in paper text, decoded one way for every reader and for ids.

Not a LaTeX renderer: the one projection that a paper's identity, the BibTeX reader and the
BibTeX writer share, so that an abstract as a dump writes it (`Herv\\'e`, ``` ``view'' ```,
`\\cite{x}`) and the same abstract as papertui's BibTeX export gives it back are one paper.
Math (`$...$`, `\\(...\\)`, `\\[...\\]`) is kept as written: dropping its commands would
make "$\\alpha$-loss" and "$\\beta$-loss" one paper. The detail pane renders math itself
(`mathtext`).

`plain_text` decodes text that holds LaTeX (a backslash, a brace, TeX quotes, dashes or ties)
and returns other text as it is; decoding its own output changes nothing, so a reader that
decodes and one that does not give the same id (`text.identity_text`). `escape_typography` is
its inverse for text that must come back exactly (a title papertui derived).
"""

from __future__ import annotations

import re
import unicodedata

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
    "textasciitilde": "~",
    "textbackslash": "\ue000",  # a backslash, put in after the other commands are read
    # symbols outside math, as bibtexparser's decoder writes them
    **dict(zip(_SYMBOL_NAMES.split(), _SYMBOLS, strict=True)),
}
_STYLES = (
    "emph|textit|textbf|textrm|textsf|texttt|textsc|textsl|textup|textnormal|underline|mbox|url"
)
# math, kept as written; its split keeps it at the odd positions
MATH = re.compile(r"(\$\$[^$]*\$\$|(?<!\\)\$[^$]*(?<!\\)\$|\\\([^$]*?\\\)|\\\[[^$]*?\\\])")
_ACCENT = re.compile(
    r"\\([\'`^\"~=.])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
    r"|\\([uvHckrdb])(?:\s*\{\s*(\\?[A-Za-z])\s*\}|\s+([A-Za-z]))"
)
_LETTER = re.compile(
    r"\\(" + "|".join(sorted(_LETTERS, key=len, reverse=True)) + r")(?![A-Za-z])(?:\{\}|\s*)"
)
_STYLE = re.compile(r"\\(?:" + _STYLES + r")\s*(?=\{)|\{\\(?:em|it|bf|sc|tt|rm|sf|sl)\s+")
_COMMAND = re.compile(r"\\[A-Za-z]+\s*")  # what is left: macros a BibTeX reader drops
_ESCAPED = re.compile(r"\\([%&_#$]|\s|\\)")


def _accented(match: re.Match[str]) -> str:
    accent = match.group(1) or match.group(4)
    base = next(g for g in match.group(2, 3, 5, 6) if g)
    base = {"\\i": "i", "\\j": "j"}.get(base, base)
    return unicodedata.normalize("NFC", base + _ACCENTS[accent])  # é, as typed, not e + ´


# TeX's typography in plain text: quotes, dashes and ties (an unbreakable space). A tilde after
# a backslash is an accent (\~n), not after two (a line break, \\), and one inside a link is
# part of the address.
_TYPOGRAPHY = re.compile(r"https?://[^\s{}]+|(?<!(?<!\\)\\)(?:---|--|``|''|~)")
_TYPES = {"---": "—", "--": "–", "``": "“", "''": "”", "~": " "}


def _typography(text: str) -> str:
    return _TYPOGRAPHY.sub(lambda m: _TYPES.get(m.group(), m.group()), text)


# \href{URL}{text}: the text, then the link apart from it (not glued to it as "URLtext")
_HREF = re.compile(r"\\href\s*\{([^{}\s]*)\}\s*\{([^{}]*)\}")


def _link(match: re.Match[str]) -> str:
    url, text = match.group(1), match.group(2).strip()
    return url if text in ("", url) else f"{text} ({url})"


def _letter(name: str, legacy: bool) -> str:
    return "" if legacy and name in ("textasciitilde", "textbackslash") else _LETTERS[name]


def _decode_text(text: str, legacy: bool) -> str:
    if not legacy:  # first, so that "-{}-" (how a literal "--" is written) stays two hyphens
        text = _typography(text)
    if "\\" in text:  # commands; else only braces, dashes and quotes
        if not legacy and "\\href" in text:
            text = _HREF.sub(_link, text)
        text = _ACCENT.sub(_accented, text)
        text = _LETTER.sub(lambda m: _letter(m.group(1), legacy), text)
        text = _STYLE.sub(lambda m: "{" if m.group().startswith("{") else "", text)
        text = _ESCAPED.sub(lambda m: m.group(1) if m.group(1) in "%&_#$" else " ", text)
        if legacy:
            text = _COMMAND.sub("", text.replace("\\{", "").replace("\\}", ""))
        else:  # commands first: \url\{https is not one command \urlhttps
            text = _COMMAND.sub("", text).replace("\\{", "").replace("\\}", "")
    text = text.replace("{", "").replace("}", "")
    if not legacy:
        return text.replace("\ue000", "\\") if "\ue000" in text else text
    text = text.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”")
    return text.replace("~", " ")


def decode_latex(text: str, *, legacy: bool = False) -> str:
    """`text` with LaTeX outside math decoded. `legacy`: as papertui decoded it before ties in
    links and "-{}-" were kept (only to find ids computed then)."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return _decode_text(text, legacy)
    parts = MATH.split(text)
    # odd positions are the math the split kept; only the text between is decoded
    return "".join(p if i % 2 else _decode_text(p, legacy) for i, p in enumerate(parts))


def has_latex(text: str) -> bool:
    """Whether `plain_text` would look at `text`: a backslash, a brace, a tie, TeX quotes or a
    dash written as hyphens. (Seven substring tests: five times faster than one pattern, and
    every field of every record of a dump is asked.)"""
    return (
        "\\" in text
        or "{" in text
        or "}" in text
        or "~" in text
        or "``" in text
        or "''" in text
        or "--" in text
    )


def plain_text(text: str) -> str:
    """`text` with its LaTeX decoded (`decode_latex`), or as it is when it holds none."""
    return decode_latex(text) if has_latex(text) else text


_PROTECT = re.compile(r"-(?=-)|`(?=`)|'(?=')|~")
_PROTECTED = {"-": "-{}", "`": "`{}", "'": "'{}", "~": "\\textasciitilde{}"}


def escape_typography(text: str) -> str:
    """`text` written so that `decode_latex` gives it back: hyphens, backquotes and tildes that
    TeX would read as dashes, quotes and spaces are kept apart by `{}` (braces and specials are
    the writer's to escape)."""
    return _PROTECT.sub(lambda m: _PROTECTED[m.group()], text)
