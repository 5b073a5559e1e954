"""Readable math and emphasis for the detail pane: `$\\mathcal{O}(n^2)$` reads as 𝒪(n²),
`92\\%` as 92%, ``` ``view'' ``` as “view”, `***bold***` as bold. Text is never lost: a
command this does not know stays as written (`\\EP4` stays `\\EP4`), and the raw text is one
key away."""

from __future__ import annotations

import re

# operator names written upright: \sin x -> sin x
_FUNCTION_NAMES = ("sin", "cos", "tan", "ln", "arg", "ker", "dim", "gcd", "Pr", "argmin", "argmax")

SYMBOLS = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "vartheta": "ϑ",
    "iota": "ι",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "upsilon": "υ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Xi": "Ξ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
    "ell": "ℓ",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "sim": "∼",
    "simeq": "≃",
    "equiv": "≡",
    "propto": "∝",
    "times": "×",
    "cdot": "·",
    "cdots": "⋯",
    "ldots": "…",
    "dots": "…",
    "pm": "±",
    "mp": "∓",
    "in": "∈",
    "notin": "∉",
    "subset": "⊂",
    "subseteq": "⊆",
    "cup": "∪",
    "cap": "∩",
    "forall": "∀",
    "exists": "∃",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "mapsto": "↦",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "sqrt": "√",
    "log": "log",
    "exp": "exp",
    "min": "min",
    "max": "max",
    "sup": "sup",
    "inf": "inf",
    "lim": "lim",
    "det": "det",
    **{f: f for f in _FUNCTION_NAMES},
    "top": "⊤",
    "circ": "∘",
    "star": "⋆",
    "langle": "⟨",
    "rangle": "⟩",
    "lVert": "‖",
    "rVert": "‖",
    "|": "‖",
    "quad": " ",
    "qquad": "  ",
    ",": " ",
    ";": " ",
    "!": "",
    "left": "",
    "right": "",
    "big": "",
    "Big": "",
}
ESCAPES = {"%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}"}
_SUPER = dict(
    zip(
        "0123456789+-=()abcdefghijklmnoprstuvwxyzT",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ",
        strict=True,
    )
)
_SUB = dict(zip("0123456789+-=()aeijkmnoprstux", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤₓ", strict=True))
_ALPHABETS = {
    "mathcal": ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "𝒜ℬ𝒞𝒟ℰℱ𝒢ℋℐ𝒥𝒦ℒℳ𝒩𝒪𝒫𝒬ℛ𝒮𝒯𝒰𝒱𝒲𝒳𝒴𝒵"),
    "mathbb": ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "𝔸𝔹ℂ𝔻𝔼𝔽𝔾ℍ𝕀𝕁𝕂𝕃𝕄ℕ𝕆ℙℚℝ𝕊𝕋𝕌𝕍𝕎𝕏𝕐ℤ"),
}
_PLAIN_WRAPPERS = (
    "mathrm",
    "mathbf",
    "mathit",
    "text",
    "textbf",
    "textit",
    "emph",
    "operatorname",
    "boldsymbol",
    "mathsf",
    "texttt",
)

# $$x$$, \[x\] (display), \(x\), $x$
_MATH = re.compile(
    r"\$\$(.+?)\$\$|\\\[(.{1,2000}?)\\\]|\\\((.{1,300}?)\\\)"
    r"|(?<![\\$])\$(?!\s)([^$]{1,300}?)(?<![\s\\])\$"
)
_GROUP = r"\{([^{}]*)\}"
_CMD = re.compile(r"\\([A-Za-z]+|[%&_#${},;!|])")
_DECLARATION = re.compile(r"\{\\(?:sc|em|bf|it|tt|rm|sf|sl)\s+([^{}\\]*)\}")
_TEX_QUOTES = re.compile(r"``([^`$]{0,400}?)''")
_BOLD = re.compile(r"\*\*\*(.+?)\*\*\*|\*\*(.+?)\*\*")


def _script(body: str, table: dict[str, str], mark: str) -> str:
    if body and all(c in table for c in body):
        return "".join(table[c] for c in body)
    return f"{mark}{body}" if len(body) == 1 else f"{mark}({body})"


# \frac{a}{b}, \frac12, \frac1{n}: each argument a brace group or one character
_FRAC = re.compile(r"\\frac\s*(?:" + _GROUP + r"|(\w))\s*(?:" + _GROUP + r"|(\w))")


# a group with a command before it is its argument (kept); one after "}" (spaces between
# allowed) is a second argument (\frac{a} {b}), after ^ or _ a script's, after a backslash an
# escaped brace: see `_unwrapped`
_BARE_GROUP = re.compile(r"(\\[A-Za-z]+\s*)?" + _GROUP)


def _unwrapped(m: re.Match[str]) -> str:
    if m.group(1):
        return m.group(0)
    before = m.string[max(0, m.start() - 40) : m.start()]
    if before[-1:] == "\\" or before.rstrip()[-1:] in ("}", "^", "_"):
        return m.group(0)
    return m.group(2)


def _wrapped(part: str) -> str:
    """`part` as a fraction's or root's operand: bare when it is one symbol or already one group."""
    part = part.strip()
    if len(part) <= 1 or re.fullmatch(r"√?(?:\w+|\([^()]*\))", part):
        return part
    return f"({part})"


def _fraction(m: re.Match[str]) -> str:
    top = m.group(1) if m.group(1) is not None else m.group(2)
    bottom = m.group(3) if m.group(3) is not None else m.group(4)
    return f"{_wrapped(top)}/{_wrapped(bottom)}"


def _math(source: str) -> str:
    text = source
    for name, (plain, fancy) in _ALPHABETS.items():
        table = dict(zip(plain, fancy, strict=True))

        def letters(m: re.Match[str], table: dict[str, str] = table) -> str:
            return "".join(table.get(c, c) for c in (m.group(1) or m.group(2)))

        text = re.sub(rf"\\{name}\s*(?:{_GROUP}|([A-Z]))", letters, text)
    for name in _PLAIN_WRAPPERS:
        text = re.sub(rf"\\{name}\s*{_GROUP}", r"\1", text)
    for _ in range(4):  # innermost groups first: \frac{1}{\sqrt{T}} needs two rounds
        before = text
        text = _FRAC.sub(_fraction, text)
        text = re.sub(r"\\sqrt\s*" + _GROUP, lambda m: "√" + _wrapped(m.group(1)), text)
        text = re.sub(r"\^\s*" + _GROUP, lambda m: _script(m.group(1), _SUPER, "^"), text)
        text = re.sub(r"_\s*" + _GROUP, lambda m: _script(m.group(1), _SUB, "_"), text)
        # a group that is no command's argument ("_{x}{(a+b)}"), so that the one around it
        # can match: \frac{\mathrm{Var}_{P}{(V+r)}}{d} stayed "\fracVar_P(V+r)d"
        text = _BARE_GROUP.sub(_unwrapped, text)
        if text == before:
            break
    text = re.sub(r"\^([0-9a-zA-Z+\-])", lambda m: _script(m.group(1), _SUPER, "^"), text)
    text = re.sub(r"_([0-9a-z])", lambda m: _script(m.group(1), _SUB, "_"), text)

    def command(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in SYMBOLS:
            return SYMBOLS[name]
        return ESCAPES.get(name, m.group(0))  # unknown: as written

    text = _CMD.sub(command, text)
    return re.sub(r"(?<!\\)[{}]", "", text)


def render(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Readable text and the spans to show in bold (from `**x**` / `***x***`)."""

    def math(m: re.Match[str]) -> str:
        shown = _math(next(g for g in m.groups() if g is not None))
        if m.group(2) is not None:  # display math: set apart from the words around it
            before, after = m.string[m.start() - 1 : m.start()], m.string[m.end() : m.end() + 1]
            shown = ("" if not before or before.isspace() else " ") + shown.strip()
            shown += "" if not after or after.isspace() or after in ".,;:" else " "
        return shown

    if "``" in text:  # TeX quotes, before math (whose f'' is no quote) is rendered
        text = _TEX_QUOTES.sub("\u201c\\1\u201d", text)
    text = _MATH.sub(math, text)
    text = re.sub(r"\\([%&#_])", r"\1", text)  # 92\% outside math
    for name in ("textbf", "textit", "emph", "texttt", "textsc", "textrm", "textsf"):
        text = re.sub(rf"\\{name}\s*{_GROUP}", r"\1", text)
    text = _DECLARATION.sub(r"\1", text)  # {\sc LegendreTron} reads LegendreTron
    bold: list[tuple[int, int]] = []
    out: list[str] = []
    last = 0
    for m in _BOLD.finditer(text):
        out.append(text[last : m.start()])
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        start = sum(len(p) for p in out)
        out.append(inner)
        bold.append((start, start + len(inner)))
        last = m.end()
    out.append(text[last:])
    return "".join(out), bold
