"""Derive a scannable title from an untitled abstract.

Dumps carry no titles. A real title names the method a paper introduces and says in a few words
what it is or what the paper does ("LegendreTron: learning proper canonical losses ..."), so:

1. clean the text: LaTeX rendered or dropped (`{\\sc X}` -> X), control characters removed;
2. find the contribution sentence ("we propose", "this paper studies", "we aim to") and take the
   phrase after its verb: what is proposed or studied;
3. find the method's name in the shapes abstracts use (`{\\sc X}`, "dubbed X", "we propose X, a
   ...", "Expanded Name (X)", "our X", a name repeated through the abstract), preferring names
   met in the contribution sentence and never a field's acronym ("federated learning (FL)");
4. compress the phrase like a title: no lead-in, article, "novel", parenthesis or relative
   clause; "to learn X" -> "Learning X"; cut at a phrase boundary to fit 100 characters (never
   after "the", "of", "for"), with an ellipsis only when no boundary is left.

The title is a pure function of the abstract text (the list derives titles lazily and the index
build caches them: both must agree). Regexes start with a literal character where they can:
Python's engine scans for it fast, which keeps a title near 100 µs. The package imports only `text`.
"""

from __future__ import annotations

import re

from papertui.core.titles.acronyms import _expansion, _hyphen_spelled, _spelled_out
from papertui.core.titles.choose import _choose
from papertui.core.titles.clean import _SENTENCE_END, _balance, _clean
from papertui.core.titles.compress import _NOT_VERB_ENDS, _compress, _gerund
from papertui.core.titles.cues import (
    _POINTER,
    _POINTING_END,
    _STILL_OPENER,
    Cue,
    _contributions,
    _fallback,
    _subject,
)
from papertui.core.titles.fit import _COPULA, MAX_TITLE, _fit
from papertui.core.titles.judge import (
    _DIMENSIONS,
    _adds,
    _bad,
    _lead_clause,
    _qualify,
    _rescue,
    _resolve,
    _weak,
    _what_is_called,
)
from papertui.core.titles.names import _find_name
from papertui.core.titles.words import _FUNCTION, _HEAD_WORDS

__all__ = ["EMPTY", "MAX_TITLE", "derive_title"]

KEEP = 0.6
# one word that is no title: a head, a vague noun, an introducing verb ("RExC: introducing")
_BARE = frozenset(w.rstrip("s") for w in _HEAD_WORDS | {"introducing", "challenge", "result"})
# what is left of "we propose X and show its efficacy" once the name went to the front
_LEFT_OVER = re.compile(r"and [a-z]+ (?:its|their|the|that|how)\b")
_ACRONYM = re.compile(r"\b[A-Z][A-Za-z-]*[A-Z]s?\b")  # GNNs, HW-NAS, NeRF
_CAPITALS = re.compile(r"[A-Z][A-Z0-9-]*[A-Z]s?")  # GNNs, HW-NAS; not NeRF
KEEP_SETTING = 0.4  # "in 3D" is worth more of the phrase
EMPTY = "(empty abstract)"


def _names(phrase: str, name: str) -> bool:
    at = f" {phrase} ".find(f" {name}")
    return at >= 0 and not f"{phrase} "[at + len(name)].isalnum()


def _said(body: str, topic: str) -> bool:
    """Whether the body names every word of the topic to add (" in 3D" after "monocular 3D
    object detection")."""
    low = body.lower()
    return all(_names(low, word) for word in topic.lower().split()[1:])


def _expanded(text: str, name: str) -> str:
    """What the name stands for: "soft-isomorphic relational graph convolution network" for
    "(SIR-GCN)"; "" when the abstract never spells it out."""
    at = text.find(f" ({name})")
    if at < 0:
        return ""
    words = text[max(0, at - 100) : at].split()
    k = _expansion(words, name)
    return " ".join(words[-k:]) if k >= 2 else ""


def _abbreviated(phrase: str, subject: str, counts: dict[str, int]) -> tuple[str, str]:
    """The acronym in the phrase that the subject spells out, and the words that spell it ("SSL"
    and "semi-supervised learning", "GNNs" and "graph neural networks"); ("", "") when none.
    Only capitals: a coined name ("MaxCon", "DeepONet") is the paper's word and stays."""
    words = subject.split()
    for token in sorted(set(counts) | set(_ACRONYM.findall(phrase))):
        if not _CAPITALS.fullmatch(token) or not _names(phrase, token):
            continue
        if spelled := _spelled_out(subject, token):
            return token, spelled
        if _expansion(words, token) == len(words):
            return token, subject
    return "", ""


def _says_head(phrase: str, subject: str) -> bool:
    """Whether the phrase holds the subject's head ("Poisson point processes" and
    "inhomogeneous Poisson point processes"): the subject would say it again."""
    words = subject.split()
    if len(words) < 2:
        return False
    if " ".join(words[-2:]).lower() in phrase.lower():
        return True
    # "implicit planners inspired by X" says "implicit planning": the same words, other endings
    head = [_root(w) for w in words[-2:]]
    said = [_root(w) for w in phrase.split()]
    return any(said[i : i + 2] == head for i in range(len(said) - 1))


def _root(word: str) -> str:
    """A word's first five letters, lower-cased: "planners" and "planning" share "plann"."""
    return word.lower()[:5] if len(word) > 5 else word.lower()


def _once(body: str) -> str:
    """A field said twice, spelled out and as its acronym, is said once: "video salient object
    detection VSOD problem" (a dump that lost the brackets) -> "video salient object detection
    problem"; "traditional RL methods by optimizing token-level reinforcement learning" -> "...
    token-level RL"."""
    for acronym in set(_ACRONYM.findall(body)):
        words = _spelled_out(body, acronym)
        if not words or any(
            len(w) < 3 or w.lower() in _FUNCTION or w == acronym for w in words.split()
        ):
            continue
        if f"{words} {acronym}" in body:
            body = body.replace(f"{words} {acronym}", words, 1)
        elif body.endswith(f" {words}") and re.search(rf"\b{re.escape(acronym)}[ ,]", body):
            body = f"{body[: -len(words)]}{acronym}"  # the field said last, as the acronym
    return body


_ARTICLE = re.compile(r"^(?:a|an|the) ")
# after a name, a phrase opening on a preposition says what the method is for or how it works:
# "SemAffiNet: for point cloud segmentation" reads "SemAffiNet: point cloud segmentation"
_LEAD_PREPOSITION = re.compile(r"(?:for|by|with|via) (?=[^ ]+ [^ ])")
_SPACED_COMMA = re.compile(r" +,(?= )")
# "1 a more challenging reformulation ...": the number of an item in a list, its brackets gone
_ENUMERATOR = re.compile(r"^[1-9] (?=(?:a|an|the|[a-z]+ing) )")


def _colon_head(title: str) -> str:
    """The one word before a colon that opens a phrase ("DanceMVP: multi-task ...",
    "algorithm: a sample efficient ..."); "" when there is none."""
    head, colon, rest = title.partition(": ")
    return head if colon and " " not in head and len(rest.split()) >= 2 else ""


def _name_in_phrase(name: str, phrase: str) -> tuple[str, str]:
    """The name and phrase of "name: phrase" when the phrase opens on a word and a colon:
    "DanceMVP: multi-task ..." after "ImperialDance" names itself (the name it holds is the
    paper's); "algorithm: a sample efficient ..." after "VRMPO" is a bare head, dropped."""
    head = _colon_head(phrase)
    if not head:
        return name, phrase
    rest = _ARTICLE.sub("", phrase[len(head) + 2 :], count=1)
    shaped = any(c.isupper() for c in head[1:]) or any(c.isdigit() for c in head)
    return (head if shaped else name), rest


def _without_lead_preposition(phrase: str) -> str:
    """The phrase after a name without the preposition it opens on ("for X" -> "X"), and "to
    meta-learn a kernel" as "meta-learning a kernel"; "to the task of X" stays."""
    if m := _LEAD_PREPOSITION.match(phrase):
        return phrase[m.end() :]
    verb, _, rest = phrase[3:].partition(" ")
    if (
        phrase.startswith("to ")
        and rest
        and verb.replace("-", "").isalpha()
        and verb.islower()
        and verb not in _FUNCTION
        and not verb.endswith(_NOT_VERB_ENDS)
    ):
        return f"{_gerund(verb)} {rest}"
    return phrase


def _closing_quote_alone(title: str) -> str:
    """A single quote that closes what no quote opened goes: "if-then' logic rules" (the
    opening one was cut with the words before it); "models' outputs" and "f'(x)" stay."""
    words = title.split(" ")
    opened = False
    for i, word in enumerate(words):
        if word.startswith(("'", "‘")):
            opened = True
        core = word.rstrip(",.;:")
        if core.endswith("'") and len(core) > 1 and not core.endswith("s'") and not opened:
            words[i] = core[:-1] + word[len(core) :]
        elif core.endswith("'"):
            opened = False
    return " ".join(words)


def _open_paren(phrase: str) -> str:
    """A title does not open with a bracket: "(Virtual Environment for X)" -> "Virtual Environment
    for X"; "(i) a bound on X" and "(to our knowledge) the first X" lose the bracket; a bracket
    that is part of a word stays ("(ε,δ)-differentially private X")."""
    close = phrase.find(")")
    if close == len(phrase) - 1 and phrase.count("(") == 1:
        return phrase[1:-1]
    if close > 0 and phrase[close + 1 : close + 2] == " " and len(phrase[close:].split()) > 3:
        rest = phrase[close + 2 :]
        first, _, after = rest.partition(" ")
        return after if first in ("a", "an", "the") else rest
    return phrase


def derive_title(abstract: str) -> str:
    """A title of at most `MAX_TITLE` (100) characters a person can scan in a list."""
    text = _clean(abstract)
    if len(text) < 2:
        return EMPTY
    ends = [m.start() for m in _SENTENCE_END.finditer(text)]
    cues = _contributions(text, ends)
    counts: dict[str, int] = {}
    name = _find_name(text, cues[0][1:] if cues else None, counts)
    subject = _subject(text)
    phrase, bad = _choose(text, ends, cues, name, counts, subject)
    return _finish(phrase, bad, text, ends, cues, name, counts, subject)


def _finish(
    phrase: str,
    bad: bool,
    text: str,
    ends: list[int],
    cues: list[Cue],
    name: str | None,
    counts: dict[str, int],
    subject: str,
) -> str:
    """The title from the chosen phrase: rescued when it reads badly, the topic put back, the
    name in front, fitted to `MAX_TITLE` characters. `bad`: whether the phrase reads badly
    (`_bad`)."""
    if len(phrase) < 8:
        # no sentence states the contribution: what the name stands for, or the first sentence
        phrase = _expanded(text, name) if name else ""
        if not phrase:
            phrase = _fallback(text, ends, cut_clause=True)
            if name:
                phrase = _compress(phrase, name)
        bad = _bad(phrase)
    if phrase[:1] in "wtbB" and (opened := _lead_clause(phrase)) != phrase:
        phrase, bad = opened, _bad(opened)  # "[X,] which exploits Y" -> "exploiting Y"
    # a bare head and its clause: "benchmark, which measures X" -> "benchmark measuring X"
    # (not "overfitting, by regularizing X": that "by" says how, not what)
    head, comma, rest = phrase.partition(", ")
    relative = comma and " " not in head and rest.startswith(("which ", "that "))
    if relative and (opened := _lead_clause(rest)) != rest:
        phrase = f"{head} {opened}"
        bad = _bad(phrase)
    if cues and " them " in f" {phrase} ":
        phrase = _resolve(phrase, text, ends, cues[0][1])
        bad = _bad(phrase)
    if bad:
        phrase = _rescue(phrase, text, ends, cues, name)
    phrase = _what_is_called(phrase)
    if phrase.startswith("("):
        phrase = _open_paren(phrase)
    phrase, topic = _qualify(phrase, text, counts, name)
    if m := _COPULA.match(phrase):
        phrase = m.group(1)
    if not subject or subject == name:
        # "ToCo: Token Contrast to address this issue": the pointer says nothing the title can
        # show; it goes when enough is left (with a subject, the subject may stand in below)
        pointless = _POINTING_END.sub("", phrase)
        if pointless != phrase and not _weak(pointless):
            phrase = pointless
    else:
        phrase = _POINTER.sub("", phrase)
        if _weak(phrase):
            phrase = subject
        elif _adds(subject, phrase) and (not topic or topic.split()[-1] in subject):
            token, spelled = _abbreviated(phrase, subject, counts)
            if token:
                # "distribution mismatch in SSL" -> "... in semi-supervised learning"; "dynamic
                # DSGG" -> "dynamic scene graph generation", not "dynamic dynamic ..."
                first = re.escape(spelled.split()[0])
                at = rf"(?<!\w)(?:{first} )?{re.escape(token)}(?!\w)"
                phrase = re.sub(at, lambda _: spelled, phrase, count=1, flags=re.I)
            elif not _says_head(phrase, subject):
                topic = f" in {subject}" if " for " in phrase else f" for {subject}"
    if _weak(phrase) and not (name and _names(phrase, name)):
        # a bare head ("approach", "technique") says nothing: what the name stands for, or the
        # first sentence, says more
        better = _expanded(text, name) if name else ""
        if not better and (phrase.lower().rstrip("s") in _BARE or _LEFT_OVER.match(phrase)):
            # "Here we propose an alternative, where ..." left one bare word, "we propose X and
            # show its efficacy" a clause with no object: the first sentence says the field
            better = _fallback(text, ends, cut_clause=True)
            better = _compress(better, name) if name else better
        if better and not _weak(better) and not _bad(better):
            phrase = better
    if (
        name
        and _names(phrase, name)
        and not _STILL_OPENER.match(phrase)  # "existing convergence properties of DCA"
        and _names(_fit(phrase, MAX_TITLE - len(topic)), name)
    ):
        name = None  # "sample complexity of AdaBoost": the phrase names it already
    room = MAX_TITLE - (len(name) + 2 if name else 0)
    if name and len(name) >= MAX_TITLE // 2:
        title = _fit(name, MAX_TITLE)
    else:
        body = _once(_fit(phrase or text, room))
        first, _, rest = body.partition(" ")
        if first in ("and", "or", "but") and len(rest) > 8:
            body = rest  # "AD-ESN: and adaptive echo state network ...": left from a list
        if topic and (words := _spelled_out(body, token := topic.rsplit(" ", 1)[-1])):
            # "phenomena in stochastic gradient descent for SGD" -> "phenomena in SGD"
            if token[-1] == "s" and words[-1] != "s":
                token = token[:-1]  # "a frozen language model" -> "a frozen LLM", not "LLMs"
            body, topic = (body.replace(words, token, 1) if words != body else body), ""
        elif topic and (_hyphen_spelled(body, token) or _said(body, topic)):
            topic = ""  # "generalization to out-of-distribution data for OOD": said already
        if topic and len(body) + len(topic) > room:
            # the task fits when the phrase keeps most of its words, else the phrase alone
            shorter = _fit(body, room - len(topic))
            keep = KEEP_SETTING if topic.endswith(_DIMENSIONS) else KEEP
            if len(shorter) >= keep * len(body) and not shorter.endswith("…"):
                body = shorter
            else:
                topic = ""
        title = f"{body}{topic}" if body else ""
        if name:
            name, title = _name_in_phrase(name, title)
            title = _without_lead_preposition(title)
            title = f"{name}: {title}" if title else name
    title = _ENUMERATOR.sub("", _balance(title).strip())
    for quote in ('"', "“", "”"):
        if quote in title and (title.count(quote) % 2 or quote != '"'):
            title = " ".join(title.replace(quote, "").split())
    if ": , " in title:  # 'we propose “HRO ”, a hybrid framework': the quotes left the comma
        name_part, _, rest = title.partition(": , ")
        title = f"{name_part}: {_ARTICLE.sub('', rest, count=1)}"
    title = _SPACED_COMMA.sub(",", title)  # "GP² , General-Purpose", "“HRO ”, a hybrid"
    if "'" in title:
        title = _closing_quote_alone(title)
    if not title:
        return EMPTY
    first = title.split(" ", 1)[0]
    if "a" <= title[0] <= "z" and first.islower():  # not "dugMatting", "iToF"
        return title[0].upper() + title[1:]
    return title
