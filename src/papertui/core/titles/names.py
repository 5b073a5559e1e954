"""The name of the paper's own method, in the shapes abstracts introduce it."""

from __future__ import annotations

import re

from papertui.core.titles.acronyms import _expands, _expansion
from papertui.core.titles.words import _offerable, _wordset

# Name-shaped: an inner capital (NoProp, LiDAR), two capitals in a row (GRAPE) or a digit before
# a capital (3D). "Dual-Conditional" is not: its capitals only start words.
# (written so the engine never backtracks: a capital after the first character, with only
# lower-case letters or digits between)
_SHAPE = re.compile(r"[A-Za-z0-9][a-z0-9]*[A-Z]")

# Words that name what follows: "dubbed X", "we call it X", "referred to as X".
_CALLED_WORDS = _wordset("called named termed dubbed coined coin coded namely call term dub name")
_CALLED_AS = _wordset("denoted referred short known")
# "We refer to our method as X", "we name the proposed network as X"
_NAMED_AS = re.compile(r"\b(?:refer|name|term|call|denote|dub|coin)\w* (?:\S+ ){0,6}as $")
# Head nouns a name stands beside: "a novel framework, HRDFuse, that", "the BEDLAM dataset"
_APPOSITION = _wordset(
    """
    method framework model algorithm network approach technique system architecture pipeline
    module dataset benchmark leaderboard library toolkit tool loss metric paradigm strategy scheme
    solver estimator optimizer agent detector generator transformer encoder representation
    """
)
# Verbs that introduce the paper's own method: "we propose X, a ...".
_INTRO_WORDS = frozenset(
    f"{verb}{end}"
    for verb in _wordset(
        "propose introduce present develop design build create construct release devise "
        "contribute offer"
    )
    for end in ("", "s", "d", "ed")
) | _wordset("proposing introducing presenting developing designing building creating releasing")
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
# Possessive quantifiers (*+, ++): a word is never given back, which makes the scan three times
# faster.
_CANDIDATE = re.compile(
    r"[A-Z0-9](?=[A-Za-z0-9][a-z0-9]*[A-Z]|[A-Za-z0-9]*+(?:[-+@][A-Za-z0-9]++)*+\+*"
    r"[^ A-Za-z0-9+@-])[A-Za-z0-9]*+(?:[-+@][A-Za-z0-9]++)*+\+*"
)
_LOWER_PAREN = re.compile(r"\(([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)\)")
_REPO = re.compile(r"github\.com/[^/ ]+/([A-Za-z0-9][A-Za-z0-9.+-]*[A-Za-z0-9+])(?![\w/])")
# The clause before "(X)" names the method: "a method, called ..."; or introduces the paper's
# own method: "we present ...", "our ...", "a novel ..."
_NAMING_CLAUSE = re.compile(
    r" (?:called|named|termed|dubbed|coined|call it|we call|we name|we term|we dub) "
)
_OWN = re.compile(
    r" (?:(?:[Ww]e|[Tt]his (?:paper|work)) (?:\w+ )?(?:propose|present|introduce|develop|design|"
    r"devise|build)s?\b|(?:[Oo]ur|novel|proposed)\b)"
)
_PASSIVE_INTRO = ("is proposed", "is introduced", "is presented", "is developed", "is designed")
# What a name given in passing may name: a task, or a part of the paper's method
_PART = _wordset(
    "task problem setting scenario phenomenon issue module block component layer stage "
    "branch step unit mechanism head strategy operator paradigm"
)
# A name in a link: "EventNeRF", "3DAvatarGAN", "M6Doc"; not a video id or "paper-2023".
_LINK_NAME = re.compile(r"\d?[A-Za-z][a-z]*[A-Z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*\+*$")
# The words before a name that may introduce it (the rules in `judge`): others are skipped fast
_DASHES = ("-", "–", "—")
_TRIGGERS = (
    _CALLED_WORDS
    | _wordset("the as it our that - – —")
    | frozenset(w.lower() for w in _INTRO_WORDS)
    | _INTRO_SKIP
    | _APPOSITION
)
# What makes a name a newer version of another: "MAIR++", "GPT-4", "YOLOv8"
_VERSION = re.compile(r"\+\+?|-?v?\d{1,2}")
_NOT_NAMES = _wordset(
    "A An The Our This These That It We In On To For With Its Their One Two Such Each Both "
    "Here There Then Thus However Moreover Specifically"
)


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

    def judge(token: str, start: int, end: int, shaped: bool) -> None:
        after = text[end] if end < size else ""
        before = text[start - 1] if start else " "
        if before == "(" or text.endswith(" (or ", 0, start):  # "(X)", "(or X)"
            if not shaped:
                return
            if after != ")" and not text.startswith(" for short)", end):
                return
            words = text[max(0, start - 80) : start - 2].split()
            clause = text[max(0, start - 100) : start]
            clause = clause[clause.rfind(". ") + 1 :]
            expansion = _expansion(words, token)
            near = (expansion or 2) + 3  # the naming word comes just before, not a clause earlier
            called = _NAMING_CLAUSE.search(clause)
            own: re.Match[str] | None = None
            if called and len(clause[called.end() :].split()) > near:
                called = None
            if not called:
                found = list(_OWN.finditer(clause))
                own = found[-1] if found else None  # the last one
                if own and len(clause[own.end() :].split()) > near:
                    own = None
            if called:
                # "so we call it CLIP-Pixels Only (CLIPPO)": the short form is the name; "a task
                # termed X (Y)" names a task, "a module called X (Y)" a part of the method
                part = {w.strip(",") for w in clause[: called.start()].split()[-4:]}
                offer(token, 4.0 if _PART.intersection(part) else 12.0, start)
            elif expansion:
                # "Path-Augmented Method (PAM)" names a method, and so does any expansion in the
                # contribution sentence or after "we present", "our"; "federated learning (FL)"
                # elsewhere names a field, and so does an expansion met before the contribution
                # sentence ("Inverse reinforcement learning (IRL) offers ...": another field or
                # paper's name)
                if own or lo <= start <= hi:
                    offer(token, 5.0, start)
                else:
                    if 0 <= start < lo and not token[0].islower():  # "dugMatting" is no field
                        background.add(token)
                    offer(token, 1.5 + words[-1][0].isupper(), start)
            elif own:
                offer(token, 5.0, start)  # "we design a distortion-aware Transformer (OSRT)"
            elif words and (words[-1][:1].isupper() or not token.isupper()):
                # "Our image diffusion model (SinFusion)": a CamelCase name, not an acronym
                offer(token, 1.5 if token.isupper() else 4.0, start)
            return
        if text[start - 1] == " " and (after != " " or text[end + 1 : end + 2] not in _DASHES):
            # most mentions are plain ("the GNN is"): no word around them introduces a name
            prev = text[text.rfind(" ", 0, start - 1) + 1 : start - 1]
            if (
                prev.strip("\"'“").lower() not in _TRIGGERS
                and prev[-1:] not in ",:.!?"
                and (
                    not shaped
                    or text[end + 1 : end + 16].split(" ", 1)[0].strip(",.;:") not in _APPOSITION
                )
            ):
                return
        head = text[max(0, start - 60) : start]
        words = head.split()[-4:]
        if not words:
            return
        last = words[-1].strip("\"'“").lower()
        if (
            last in _CALLED_WORDS
            or (last == "the" and len(words) > 1 and words[-2] in _CALLED_WORDS)
            or (
                last == "as"
                and (words[-2:-1] and words[-2] in _CALLED_AS or _NAMED_AS.search(head))
            )
            or (last == "it" and len(words) > 1 and words[-2] == "call")
        ):
            offer(token, 10.0 if shaped else 7.0, start)
            return
        nxt = text[end + 1 : end + 16].split(" ", 1)[0].strip(",.;:")
        dash = text.startswith((" - ", " – ", " — "), end)
        i = len(words) - 1
        while i > 0 and words[i].lower() in _INTRO_SKIP:
            i -= 1
        if nxt[:1] == "(" and token in nxt:
            return  # "the Isomorphic-Consistent VGAE (IsoC-VGAE)": the name is in parentheses
        if words[i] in _INTRO_WORDS and (
            after in ",:;(" or nxt in _INTRO_NEXT or nxt in _APPOSITION or nxt[:1] == "(" or dash
        ):
            offer(token, 8.0 if shaped else 6.0, start)
            return
        prev = words[-1]
        if (
            len(words) > 1
            and (prev in ("-", "–", "—") or prev[-1:] in ",:" and prev[:-1].lower() in _APPOSITION)
            and (after in ",:;(" or nxt in _INTRO_NEXT or dash)
        ):
            # "a novel framework, HRDFuse, that ...", "neural radiance fields - MonoNeRF, that"
            novel = words[-2] in ("novel", "new", "proposed", "our")
            offer(token, (7.0 if shaped else 5.0) + novel, start)
            return
        if words[-1].lower() in _APPOSITION and (after == ":" or after == "," or dash):
            offer(token, 7.0 if shaped else 5.0, start)  # "a novel algorithm STEERING: ..."
            return
        if not shaped:
            return
        if nxt in _APPOSITION and (
            last == "our" or text.startswith(_PASSIVE_INTRO, end + 2 + len(nxt))
        ):
            # "our BEDLAM dataset", "the FlamePINN-1D framework is proposed" ("within the VGAE
            # framework" is not)
            offer(token, 6.0, start)
        elif dash and text.startswith(("a ", "an "), end + 3):
            offer(token, 6.0, start)  # "CRAFT - a novel approach"
        elif last == "our":
            offer(token, 4.0, start)
        elif (words[-1][-1:] in ".!?" or last == "that") and nxt in _SUBJECT_VERBS:
            offer(token, 3.0, start)

    kinds: dict[str, int] = {}  # name-shaped: 2, may be offered: 1
    for m in _CANDIDATE.finditer(text):
        token = m.group()
        start, end = m.span()
        if "a" <= text[start - 1] <= "z":
            # a lower-case first name: "expOSE", "pCON", "rPPG" (the scan met its capitals)
            begin = start - 1
            while begin > start - 6 and "a" <= text[begin - 1] <= "z":
                begin -= 1
            if text[begin - 1] not in " (\"'“" or end - begin < 4:  # not "dT", "xN"
                continue
            token, start = text[begin:end], begin
        after = text[end] if end < size else ""
        if after == "-":  # "GeoMAE-based": the scan stops before a trailing hyphen
            continue
        kind = kinds.get(token)  # a name is mentioned again and again: judge its shape once
        if kind is None:
            kind = kinds[token] = (2 if _SHAPE.match(token) else 0) + _offerable(token)
        if kind >= 2:
            counts[token] = counts.get(token, 0) + 1
        elif after == " " or after == "" or token in _NOT_NAMES or len(token) < 3:
            # a capitalised word followed by a space is a sentence's first word, not a name
            # ("we present Painter, a ..." is)
            continue
        if kind & 1:
            judge(token, start, end, kind >= 2)
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
    at = text.find("://")
    while at >= 0:
        # a link's last path segment: ".../projects/PLA", "4dqv.mpi-inf.mpg.de/EventNeRF/"
        link = text[at + 3 : text.find(" ", at) % (size + 1)].rstrip(".,;)")
        token = link.rstrip("/").rsplit("/", 1)[-1].removesuffix(".html") if "/" in link else ""
        if _LINK_NAME.match(token) and _offerable(token) and sum(map(str.isdigit, token)) <= 2:
            offer(token, 5.0, -2)
        at = text.find("://", at + 3)
    for token in ("2D", "3D", "4D", "6D"):  # "3D-aware", "3D." as well
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
    if ranked[token] < 3.0:
        return None
    for other, score in scores.items():
        if score >= 7.0 and other.startswith(token) and _VERSION.fullmatch(other, len(token)):
            token = other  # "MAIR was introduced ... we propose MAIR++": the paper's is the new one
    if "-" in token and f" {(joined := token.replace('-', ''))}" in text:
        return joined  # "Div-Clust" broken at a line end, "DivClust" elsewhere
    return token
