"""The name of the paper's own method, in the shapes abstracts introduce it."""

from __future__ import annotations

import re

from papertui.core.titles.words import _GENERIC, _wordset

# Name-shaped: an inner capital (NoProp, LiDAR), two capitals in a row (GRAPE) or a digit before
# a capital (3D). "Dual-Conditional" is not: its capitals only start words.
_SHAPE = re.compile(r"[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z])")

# Words that name what follows: "dubbed X", "we call it X", "referred to as X".
_CALLED_WORDS = _wordset("called named termed dubbed coined namely call term dub name")
_CALLED_AS = _wordset("denoted referred short known")
# Verbs that introduce the paper's own method: "we propose X, a ...".
_INTRO_WORDS = frozenset(
    f"{verb}{end}"
    for verb in _wordset(
        "propose introduce present develop design build create construct release devise "
        "contribute offer"
    )
    for end in ("", "s", "d", "ed")
)
_INTRO_SKIP = _wordset("our the a an new novel simple")
# What may follow a name the paper introduces: punctuation or a clause ("X, a ...", "X that").
_INTRO_NEXT = _wordset(
    "which that as is to for with by model framework method network architecture - – —"
)
_SUBJECT_VERBS = _wordset(
    """
    is achieves outperforms consists uses learns enables leverages can improves performs employs
    exploits combines introduces provides builds relies yields attains establishes sets reaches
    surpasses generates produces also further then consistently significantly thus
    """
)
# Candidate names: a capital or a digit first ("GeoMAE", "3D", "3Mformer"); Python's engine scans
# for the first character fast. Lower-case names ("dugMatting") are met in parentheses.
# Only a name-shaped word or one followed by punctuation ("we present Painter, a ...") can be a
# name: the others (a sentence's first word) are skipped by the regex engine, not by Python.
_CANDIDATE = re.compile(
    r"[A-Z0-9](?=[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z])|[A-Za-z0-9]*(?:[-+@][A-Za-z0-9]+)*\+*"
    r"[^ A-Za-z0-9+@-])[A-Za-z0-9]*(?:[-+@][A-Za-z0-9]+)*\+*"
)
_LOWER_PAREN = re.compile(r"\(([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)\)")
_REPO = re.compile(r"github\.com/[^/ ]+/([A-Za-z0-9][A-Za-z0-9.+-]*[A-Za-z0-9+])(?![\w/])")
_NOT_NAMES = _wordset(
    "A An The Our This These That It We In On To For With Its Their One Two Such Each Both "
    "Here There Then Thus However Moreover Specifically"
)


def _offerable(token: str) -> bool:
    return (
        len(token) >= 2
        and token not in _GENERIC
        and token.rstrip("s") not in _GENERIC
        and not token.isdigit()
    )


def _expands(words: list[str], acronym: str) -> bool:
    return _expansion(words, acronym) > 0


def _expansion(words: list[str], acronym: str) -> int:
    """How many of the last few `words` spell out `acronym` (0: none): "deep diffusion-based
    generative replay" -> DDGR (the initials of words and hyphen parts, in order); "decomposed-
    uncertainty-guided matting" -> dugMatting (its first letter and its capitals)."""
    letters = [c.lower() for i, c in enumerate(acronym) if c.isupper() or i == 0]
    if len(letters) < 2 or not words:
        return 0
    for k in range(1, min(len(words), len(letters) + 2) + 1):
        if words[-k][:1].lower() != letters[0]:
            continue
        initials = "".join(part[:1].lower() for w in words[-k:] for part in w.split("-") if part)
        it = iter(initials)
        if all(c in it for c in letters):
            return k
    return 0


def _find_name(text: str, cue: tuple[int, int, int] | None, counts: dict[str, int]) -> str | None:
    """The name of the paper's own method, if it introduces one.

    One scan over the capitalised words; each is judged by the few words around it: "called X",
    "we propose X, a", "our X", "X achieves", "Expanded Name (X)", or repeated through the text.
    `counts` receives how often each name-shaped word occurs (the caller reuses it)."""
    lo, hi = (cue[0], cue[2]) if cue else (-1, -1)
    scores: dict[str, float] = {}
    background: set[str] = set()
    size = len(text)

    def offer(token: str, score: float, at: int) -> None:
        if lo <= at <= hi:
            score += 2.0  # met in the contribution sentence
        if score > scores.get(token, 0.0):
            scores[token] = score

    for m in _CANDIDATE.finditer(text):
        token = m.group()
        start, end = m.span()
        after = text[end] if end < size else ""
        if after == "-":  # "GeoMAE-based": the scan stops before a trailing hyphen
            continue
        shaped = _SHAPE.match(token) is not None
        if shaped:
            counts[token] = counts.get(token, 0) + 1
        elif after == " " or after == "" or token in _NOT_NAMES or len(token) < 3:
            # a capitalised word followed by a space is a sentence's first word, not a name
            # ("we present Painter, a ..." is)
            continue
        if not _offerable(token):
            continue
        before = text[start - 1] if start else " "
        if before == "(":
            if after != ")" or not shaped:
                continue
            words = text[max(0, start - 80) : start - 2].split()
            if _expands(words, token):
                # "Path-Augmented Method (PAM)" names a method, and so does any expansion in the
                # contribution sentence; "federated learning (FL)" elsewhere names a field, and
                # so does an expansion met before the contribution sentence ("Inverse
                # reinforcement learning (IRL) offers ...": another field or paper's name)
                if 0 <= start < lo:
                    background.add(token)
                offer(token, 5.0 if lo <= start <= hi else 1.5 + words[-1][0].isupper(), start)
            elif words and (words[-1][:1].isupper() or not token.isupper()):
                # "Our image diffusion model (SinFusion)": a CamelCase name, not an acronym
                offer(token, 1.5 if token.isupper() else 4.0, start)
            continue
        words = text[max(0, start - 40) : start].split()[-4:]
        if not words:
            continue
        last = words[-1].strip("\"'“").lower()
        if (
            last in _CALLED_WORDS
            or (last == "as" and len(words) > 1 and words[-2] in _CALLED_AS)
            or (last == "it" and len(words) > 1 and words[-2] == "call")
        ):
            offer(token, 10.0 if shaped else 7.0, start)
            continue
        i = len(words) - 1
        while i > 0 and words[i].lower() in _INTRO_SKIP:
            i -= 1
        if words[i] in _INTRO_WORDS and (
            after in ",:;("
            or (nxt := text[end + 1 : end + 13].split(" ", 1)[0]) in _INTRO_NEXT
            or nxt[:1] == "("
        ):
            offer(token, 8.0 if shaped else 6.0, start)
            continue
        if not shaped:
            continue
        if last == "our":
            offer(token, 4.0, start)
        elif words[-1][-1:] in ".!?" and text[end + 1 : end + 16].split(" ", 1)[0] in (
            _SUBJECT_VERBS
        ):
            offer(token, 3.0, start)
    if "(" in text:
        for m in _LOWER_PAREN.finditer(text):
            token = m.group(1)
            words = text[max(0, m.start() - 80) : m.start()].split()
            if _expands(words, token):
                offer(token, 5.0, m.start())
                counts[token] = counts.get(token, 0) + 1
    if "github.com/" in text:
        for m in _REPO.finditer(text):
            token = m.group(1).removesuffix(".git")
            if _SHAPE.match(token) and _offerable(token):
                offer(token, 6.0, -2)
    for token in ("2D", "3D", "4D"):  # "3D-aware", "3D." as well
        if token in counts or f" {token}" in text:
            counts[token] = text.count(f" {token}")
    for token, count in counts.items():
        if count >= 2 and _offerable(token):
            offer(token, 1.5, -2)
    for token in background:
        if scores.get(token, 0.0) < 6.0:  # only "called X" or "we propose X, a" outweighs it
            del scores[token]
    if not scores:
        return None
    ranked = {t: s + min(text.count(t), 6) * 0.5 for t, s in scores.items()}
    token = max(ranked, key=ranked.__getitem__)
    return token if ranked[token] >= 3.0 else None
