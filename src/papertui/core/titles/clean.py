"""Plain text from an abstract (LaTeX, tags, control characters out), its sentence ends, and
bracket balancing."""

from __future__ import annotations

import re

from papertui.core.text.mathtext import render
from papertui.core.titles.words import _FUNCTION, _wordset

_CONTROL = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffc\ufffd]"
)
_FONT_GROUP = re.compile(r"\{\\(?:sc|bf|it|em|tt|rm|sf|sl|textsc)\s+([^{}]*)\}")
# Smaller capitals inside a word stand for small capitals, lower-case letters in the name:
# "F{\small ED}GA" is FedGA
_SMALL_CAPS = re.compile(r"(?<=[A-Za-z])\{\\(?:small|scriptsize|footnotesize|tiny)\s+([A-Z]+)\}")
_TEXT_CMD = re.compile(
    r"\\(?:textsc|textbf|textit|texttt|textrm|textsf|emph|text|mathrm|mathsf|mathtt|mbox)\s*"
    r"\{([^{}]*)\}"
)
_TAG = re.compile(r"</?[A-Za-z][^<>]{0,400}>")
# A footnote the proceedings inlined: "NeUDF <sup>1</sup> <sup>1</sup> Visit our project page at
# http://... , that ..." -> "NeUDF (Visit our project page at http://...), that ...": an aside the
# phrase drops, with its link kept for the name.
_FOOTNOTE = re.compile(
    r" ?<sup[^<>]{0,200}>(\w{1,3})</sup> ?<sup[^<>]{0,200}>\1</sup> ?"
    r"([^<>]{0,160}?(?:https?://|www\.|\.io/|\.edu/|\.com/|\.org/)[^ <>]*?)([.,;:]?)(?= |$)"
)
# A superscript inside a name: "X <sup>3</sup> KD" -> X3KD, "M <sup>6</sup> Doc" -> M6Doc
_SUP_NAME = re.compile(r"(?<= )([A-Z][A-Za-z]{0,3}) <sup[^<>]{0,200}>(\w{1,3})</sup> (?=[A-Z-])")
# A footnote mark after a word ("dataset <sup>1</sup>") goes; a superscript on a word ("m<sup>2
# </sup>") stays.
_FOOTNOTE_MARK = re.compile(r" <sup[^<>]{0,200}>\w{1,3}</sup>")
# A reference ("ideas first explored in \cite{agde17, agde14}"): its keys are not words or names
_REFERENCE = re.compile(
    r" ?\\(?:cite[a-z]*|ref|eqref|autoref|cref|label|footnote)\*?\s*(?:\[[^\]]*\])?\{[^{}]*\}"
)
_LEFTOVER_CMD = re.compile(r"\\[A-Za-z]+\*?\s*|\\")


# A terminal escape sequence (colour, title, clipboard): gone whole, not just its ESC
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")


def _unglue(match: re.Match[str]) -> str:
    """A control character between words parts them (a space); an invisible one joins (none)."""
    return " " if match.group() < "\xa0" else ""


_GLUED_PAREN = re.compile(r"([A-Za-z]{2})\((?=[A-Z][\w-]*[A-Z][\w-]*\))")


# A word broken at a line end: "tech- nique", "curriculum- based" (not "pre- and post-")
_BROKEN = re.compile(r"(?<![\w-])([A-Za-z][a-z]+)- ([a-z]{2,})\b(?!-)")
_ALONE = re.compile(r"(?<![\w-])[a-z]{2,}(?![\w-])")
# second halves of compounds: "curriculum- based" is "curriculum-based"
_COMPOUND = _wordset(
    "based sensitive aware free specific level wise like driven guided invariant efficient "
    "agnostic oriented scale time world shot supervised training trained dimensional order "
    "step stage sharing making constrained dependent independent consistent"
)


def _rejoin(text: str) -> str:
    """Join words broken at a line end: with the hyphen when the second half is a word
    compounds end on or one the abstract says alone ("curriculum- based" -> "curriculum-based"),
    else into one word ("tech- nique" -> "technique"). A function word after the dash is a
    dash between words ("a model- which scales", "pre- and post-"): left as it is."""
    alone = set(_ALONE.findall(_BROKEN.sub(" ", text)))

    def join(m: re.Match[str]) -> str:
        first, second = m.group(1), m.group(2)
        if second in _COMPOUND or (second not in _FUNCTION and second in alone):
            return f"{first}-{second}"
        return m.group(0) if second in _FUNCTION else f"{first}{second}"

    return _BROKEN.sub(join, text)


def _clean(abstract: str) -> str:
    """Plain single-spaced text with a leading space, so every word follows a space."""
    text = abstract[:4000]
    if not (text.isascii() and text.isprintable()):
        if "\x1b" in text:
            text = _ESCAPE.sub("", text)
        text = _CONTROL.sub(_unglue, text)
    if "\\" in text or "$" in text or "{" in text:
        if "\\" in text:
            text = _REFERENCE.sub("", text)
        if "{\\" in text:
            text = _SMALL_CAPS.sub(lambda m: m.group(1).lower(), text)
        text = _FONT_GROUP.sub(r"\1", text)
        text = _TEXT_CMD.sub(r"\1", text)
        if "$" in text or "\\" in text:
            text = render(text)[0]
        text = _LEFTOVER_CMD.sub("", text)
        text = text.replace("{", "").replace("}", "").replace("$", "")
    if "<" in text:  # MathML and HTML tags some proceedings leave in abstracts
        if "<sup" in text:
            text = _FOOTNOTE.sub(r" (\2)\3", text)
            text = _SUP_NAME.sub(r"\1\2", text)
            text = _FOOTNOTE_MARK.sub("", text)
        text = _TAG.sub("", text)
    if "*" in text:  # markdown emphasis
        text = text.replace("*", "")
    if "`" in text or "''" in text:  # TeX quotes: ``view''
        text = text.replace("``", '"').replace("''", '"').replace("`", "'")
    if "~(" in text or "~[" in text:  # TeX's unbreakable space: "Box~(SDB)"
        text = text.replace("~(", " (").replace("~[", " [")
    if "(" in text:  # "meta-RL(MetaDiffuser)": a bracket glued to the word before it
        text = _GLUED_PAREN.sub(r"\1 (", text)
    if "." in text:
        text = _RUN_ON.sub(". ", text)
    if "- " in text:
        text = _rejoin(text)
    if ". " in text or ": " in text:
        text = _HEADING.sub(" ", text)  # "Background. Floods are ...": a structured abstract
    if "  " not in text and text.isprintable():  # no space to fold: only a space is printable
        return " " + text.strip(" ")
    return " " + " ".join(text.split())


# The headings of a structured abstract, each alone before its sentence
_HEADING = re.compile(
    r"(?:^|(?<=[.!?] )|(?<=[.!?])\\)(?:Background|Motivation|Contributions?|Context|Purpose|"
    r"Objectives?|Aims?|Methods?|Methodology|Results?|Findings|Conclusions?|Significance|"
    r"Abstract|Summary|Problem|Approach|Novelty)[.:](?= [A-Z])"
)
# A sentence ends at . ! ? before a capital, digit, quote or bracket.
_SENTENCE_END = re.compile(
    r"[.!?](?= [A-Z0-9\"'(\[“])(?<!et al\.)(?<!e\.g\.)(?<!i\.e\.)(?<! cf\.)(?<! vs\.)"
    r"(?<!abbr\.)(?<!abbrev\.)"
)
# "... problems.In this work, we ...", "... video data.Thanks to ...": a sentence run into the
# next (a capitalised word after a full stop with no space)
_RUN_ON = re.compile(r"\.(?<=[a-z]{2}\.)(?=[A-Z][a-z]+,? )")


def _balance(text: str) -> str:
    """Drop brackets that do not pair up."""
    if not any(c in text for c in "()[]{}"):
        return text
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[int] = []
    drop: set[int] = set()
    for i, c in enumerate(text):
        if c in "([{":
            stack.append(i)
        elif c in pairs:
            if stack and text[stack[-1]] == pairs[c]:
                stack.pop()
            else:
                drop.add(i)
    drop.update(stack)
    return " ".join("".join(c for i, c in enumerate(text) if i not in drop).split())
