"""The name of the paper's own method, in the shapes abstracts introduce it."""

from __future__ import annotations

import re

from papertui.core.titles.acronyms import _expands, _expansion, _in_order
from papertui.core.titles.name_pick import _pick
from papertui.core.titles.name_words import (
    _APPOSITION,
    _CALLED_AS,
    _CALLED_WORDS,
    _CANDIDATE,
    _DASHES,
    _INTRO_NEXT,
    _INTRO_SKIP,
    _INTRO_WORDS,
    _LINK_NAME,
    _LOWER_PAREN,
    _NAMED_AS,
    _NAMING_CLAUSE,
    _NOT_NAMES,
    _OWN,
    _PART,
    _PASSIVE_INTRO,
    _PLAIN_NAME,
    _REPO,
    _SHAPE,
    _SHORT_LEADS,
    _SUBJECT_VERBS,
    _TRIGGERS,
)
from papertui.core.titles.words import _offerable, _wordset

_OWN_SENTENCE = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work|article|study))\b")
# Words that make the next noun an object, not the head a name stands beside
# Hosts whose paths are codes, not names: link shorteners and videos
_NO_NAME_HOSTS = ("bit.ly/", "tinyurl.com/", "goo.gl/", "t.co/", "youtu.be/", "youtube.com/")
_LINKS = _wordset("on of in with and or to for by from than like including as over via using")


# a clause that names what experiments run on: a name in parentheses there is a dataset's
_DATA_CLAUSE = re.compile(r"\b(?:datasets?|benchmarks?|experiments? on)\b")


def _short_for(word: str, token: str) -> bool:
    """Whether `token` abbreviates the one name-shaped `word` before it ("HyPoradise" (HP))."""
    word = word.strip('"“”,')
    shaped = any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)
    return (
        shaped
        and not any(d in word for d in "-–")  # "Follow-the-Regularized-Leader (FTRL)"
        and len(word) > len(token) + 2
        and word[:1].lower() == token[:1].lower()
        and _in_order(token.lower(), word.lower())
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

    def own_sentence(at: int) -> bool:
        """Whether a name met at `at` may be the paper's: not in a sentence before the
        contribution sentence that is not the paper's own ("a recent technique, named X, ...")."""
        if not 0 <= at < lo:
            return True
        sentence = text[text.rfind(". ", 0, at) + 1 : at]
        return _OWN_SENTENCE.search(sentence) is not None

    def judge(token: str, start: int, end: int, shaped: bool) -> None:
        after = text[end] if end < size else ""
        before = text[start - 1] if start else " "
        # "Expanded Name, or X" ("we call our approach Dynamic Recurrent ... Networks, or
        # DRAGNN") introduces a name as "(X)" does
        spelled = shaped and text.endswith(", or ", 0, start) and not after.isalnum()
        opened = start  # where "(" is: "(X)", "(abbr. X)"
        if before == " " and after == ")" and text[start - 2 : start - 1] in ".:,s":
            for lead in _SHORT_LEADS:
                if text.endswith(lead, 0, start):
                    opened = start - len(lead) + 1
                    break
        if before == "(" or opened < start or text.endswith(" (or ", 0, start) or spelled:
            if not shaped:
                return
            if not spelled and after != ")" and not text.startswith(" for short)", end):
                return
            words = text[max(0, opened - 80) : opened - (5 if spelled else 2)].split()
            if not spelled and words and _short_for(words[-1], token):
                # '"HyPoradise" (HP)': the short form of the name said just before it
                offer(words[-1].strip('"\u201c\u201d,'), 5.0 if own_sentence(start) else 3.0, start)
                return
            clause = text[max(0, opened - 100) : opened]
            clause = clause[clause.rfind(". ") + 1 :]
            expansion = _expansion(words, token)
            if spelled and not expansion:
                return  # "Flamingo, SeViLA, or GPT-4": a list, not a name spelled out
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
                named = 12.0 if own_sentence(start) else 3.0
                offer(token, 4.0 if _PART.intersection(part) else named, start)
            elif expansion and " ".join(words[-expansion - 2 : -expansion]).lower().endswith(
                ("like", "such as", "e.g.,", "including", "e.g.")
            ):
                # "probabilistic models, like Bayesian Neural Networks (BNNs)": an example the
                # method applies to, not the method
                background.add(token)
                offer(token, 1.5, start)
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
            elif _DATA_CLAUSE.search(clause):
                # "datasets from biology (Allen Brain Observatory) and deep learning
                # (NAS-Bench-101)": what the method is tested on, not the method
                background.add(token)
                offer(token, 1.0, start)
            elif words and (words[-1][:1].isupper() or not token.isupper()):
                # "Our image diffusion model (SinFusion)": a CamelCase name, not an acronym
                offer(token, 1.5 if token.isupper() else 4.0, start)
            return
        if text[start - 1] == " " and (after != " " or text[end + 1 : end + 2] not in _DASHES):
            # most mentions are plain ("the GNN is"): no word around them introduces a name
            prev = text[text.rfind(" ", 0, start - 1) + 1 : start - 1]
            if token.isupper() and 2 <= len(prev) <= 4 and prev.isupper() and prev.isalpha():
                # a name of two words in capitals: "which we name MS MARCO, for ..."
                before_name = text[max(0, start - 30) : start - len(prev) - 2].rsplit(" ", 1)[-1]
                if before_name in _CALLED_WORDS:
                    offer(f"{prev} {token}", 10.0, start)
                    return
            if (
                prev.strip("\"'“(").lower() not in _TRIGGERS
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
        last = words[-1].strip("\"'“(").lower()
        if (
            last in _CALLED_WORDS
            or (last == "the" and len(words) > 1 and words[-2] in _CALLED_WORDS)
            or (
                last == "as"
                and (words[-2:-1] and words[-2] in _CALLED_AS or _NAMED_AS.search(head))
            )
            or (last == "it" and len(words) > 1 and words[-2] == "call")
            or text.startswith((" in short", " for short"), end)  # "..., X in short, for"
        ):
            if text.startswith(", ", end) and text[end + 2 : end + 3].isupper():
                return  # "datasets, namely DomainNet, Office-Home, and Office31": a list
            offer(token, (10.0 if shaped else 7.0) if own_sentence(start) else 3.0, start)
            return
        nxt = text[end + 1 : end + 16].split(" ", 1)[0].strip(",.;:")
        dash = text.startswith((" - ", " – ", " — ", " -- "), end)
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
            and (prev in ("-", "–", "—") or prev[-1:] in ",:" and prev[:-1] in _APPOSITION)
            and (after in ",:;(" or nxt in _INTRO_NEXT or dash)
            and words[-2].lower() not in _LINKS  # not "experiments on Transformer, X, ..."
        ):
            # "a novel framework, HRDFuse, that ...", "neural radiance fields - MonoNeRF, that"
            novel = words[-2] in ("novel", "new", "proposed", "our")
            offer(token, (7.0 if shaped else 5.0) + novel, start)
            return
        if (
            last in ("i.e.,", "namely", "namely,")
            and len(words) > 1
            and words[-2][-1:] == ","
            and words[-2][:-1].lower() in _APPOSITION
            and after in ",:;("
        ):
            offer(token, 7.0 if shaped else 5.0, start)  # "a framework, i.e., BabelTower, to"
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
    at = text.find(", a")
    while at >= 0:  # "we present sketch-rnn, a recurrent network"
        if (
            text.startswith((", a ", ", an "), at)
            and (plain := _PLAIN_NAME.search(text, max(0, at - 60), at))
            and text.count(plain.group(1)) > 1
        ):
            offer(plain.group(1), 6.0, plain.start(1))  # and named again
        at = text.find(", a", at + 3)
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
        if link.startswith(_NO_NAME_HOSTS, link.startswith("www.") * 4):
            token = ""  # "bit.ly/3LkQbaT", "youtu.be/dtkXvNXcWRY": a code, no project's name
        if _LINK_NAME.match(token) and _offerable(token) and sum(map(str.isdigit, token)) <= 2:
            offer(token, 5.0, -2)
        at = text.find("://", at + 3)
    for token in ("2D", "3D", "4D", "6D"):  # "3D-aware", "3D." as well
        if token in counts or f" {token}" in text:
            counts[token] = text.count(f" {token}")
    for token, count in counts.items():
        if count >= 2 and _offerable(token):
            offer(token, 1.5, -2)
    return _pick(scores, background, text)
