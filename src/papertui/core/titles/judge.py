"""Judging candidate phrases (fragments, pointers, bare head nouns), rescuing a bad one, and
putting back the topic the abstract keeps naming."""

from __future__ import annotations

import re
from bisect import bisect_right

from papertui.core.titles.acronyms import _hyphen_spelled, _spelled_out
from papertui.core.titles.compress import _compress, _gerund, _stem
from papertui.core.titles.cues import _WEAK_START, _fallback, _subject
from papertui.core.titles.words import _FUNCTION, _GENERIC, _HEAD_WORDS, _wordset

TOPIC_MIN = 3
_ONE_MODEL = frozenset(("CLIP", "BERT", "GPT", "DETR", "SAM"))  # "CLIPs" is no field
_DIMENSIONS = ("3D", "4D", "6D")
_NOUN_ENDS = ("tion", "sion", "ment", "ness", "ity", "ing")


def _qualify(phrase: str, text: str, counts: dict[str, int], name: str | None) -> tuple[str, str]:
    """Put back the qualifier or topic the abstract keeps naming: "point cloud segmentation" ->
    "3D point cloud segmentation" when the abstract says "3D point cloud" again and again; and,
    when the phrase has no place for it, a topic named three times or more as a suffix to add
    after the phrase is fitted (" for MDPs", " in 3D")."""
    ranked = [
        (token, count)
        for token, count in sorted(counts.items(), key=lambda kv: -kv[1])[:3]
        if count >= 2 and token not in phrase and not (name and (token in name or name in token))
    ]
    # "3D" in the first sentence or said twice is the paper's setting: real titles keep it
    for token in _DIMENSIONS:
        if token not in counts or token in phrase or (name and token in name):
            continue
        at = text.find(f" {token}")  # in the first sentence?
        if counts[token] >= 2 or at >= 0 and at + 3 <= text.find(". ") % len(text):
            ranked = [(token, max(counts[token], TOPIC_MIN))] + [r for r in ranked if r[0] != token]
            break
    for token, _count in ranked[:2]:
        spelled = _spelled_out(phrase, token) or _hyphen_spelled(phrase, token)
        if token[-1] == "s" and token[:-1].isupper() or spelled:
            # a plural ("DNNs") modifies no noun after it; "the LDP constraint of local
            # differential privacy" would say the field twice
            continue
        at = text.find(f" {token} ")
        for _ in range(5):
            if at < 0:
                break
            begin = at + len(token) + 2
            after = text[begin : text.find(" ", begin) % (len(text) + 1)].strip(",.;:")
            if len(after) > 2 and after.isalpha() and after.islower() and after not in _FUNCTION:
                where = phrase.find(f" {after}")
                before = phrase[:where].rsplit(" ", 1)[-1] if where > 0 else ""
                if (
                    where >= 0
                    and (
                        where + len(after) + 1 == len(phrase)
                        or not phrase[where + len(after) + 1].isalnum()
                    )
                    # not inside a compound: "assortment optimization MNL problem"
                    and (token in _DIMENSIONS or not before.endswith(_NOUN_ENDS))
                ):
                    return f"{phrase[:where]} {token}{phrase[where:]}", ""
                if phrase.startswith(after + " ") or phrase == after:
                    return f"{token} {phrase}", ""
            at = text.find(f" {token} ", at + 1)
    for token, count in ranked[:1]:
        # only a field's term: another paper's method ("for KataGo") or a quantity's
        # abbreviation ("for CE") would puzzle a reader
        if count >= TOPIC_MIN and len(phrase) > 12 and _is_field(token):
            if (
                token[-1].isupper()
                and token not in _ONE_MODEL
                and re.search(rf"\b{re.escape(token)}s\b", text)
            ):
                token += "s"  # titles say "for MDPs" (77 to 12), "for CNNs", as the abstract can
            return phrase, f" in {token}" if token[0].isdigit() else f" for {token}"
    return phrase, ""


def _is_field(token: str) -> bool:
    return token in _GENERIC or token[:-1] in _GENERIC and token[-1] == "s"


def _weak(phrase: str) -> bool:
    """A phrase that does not say what the paper is about: a fragment or a bare head noun."""
    words = phrase.split()
    content = [w for w in words if w.lower() not in _FUNCTION and len(w) > 2]
    return not words or words[0].lower() in _WEAK_START or len(content) < 2


def _adds(subject: str, phrase: str) -> bool:
    """Whether the subject says something the phrase does not."""
    low = phrase.lower()
    return any(w.lower().rstrip("s") not in low for w in subject.split() if len(w) > 3)


_BAD_START = _wordset(
    "if cases case such this these those it they them other whether how what when where which "
    "there then thus and but or so that as its their moreover furthermore additionally besides "
    "hence therefore also unlike despite although though whereas while since because given along "
    "through following"
)
# A sequence word with its comma opens a sentence, not a title ("First, ..."; "second order" may)
_SEQUENCE = _wordset("first, second, third, finally, next, lastly, last,")
# A verb that makes a phrase a clause, unless a relative pronoun comes first
_MAIN_CLAUSE = re.compile(
    r" (?:can|may|could|might|will|would|should|must|is|are|was|were|has|have|refers|remains|"
    r"requires|becomes|allows|enables|reconstructs|reveals|hypothesize) "
)
_RELATIVE = re.compile(r" (?:that|which|who|how|when|whether) ")


# the evidence a paper gives, not what it is about: "experimental results to support our
# theory", "experiments on synthetic and real-world data", "empirical results substantiate X"
_EVIDENCE = re.compile(
    r"(?:(?:extensive|comprehensive|numerical|empirical|experimental|thorough) )?"
    r"(?:experiments?|experimental results?|empirical (?:results?|evidence)|simulations?)"
    r"(?: (?:on|to|that|demonstrate|show|confirm|substantiate|illustrate|support)\b|$)",
    re.I,
)


def _bad(phrase: str) -> bool:
    """A phrase that cannot be a title: a fragment led by a pointer or a conjunction ("such a
    framework", "if h"), a main clause ("X can vary ...", "X refers to ..."), or one whose only
    content is a head noun ("algorithms as part of a framework")."""
    if len(phrase) < 10:
        return True
    words = phrase.split()
    first = words[0].lower()
    if first.strip(",") in _BAD_START or first.endswith("ly,") or first in _SEQUENCE:
        return True
    low = f" {phrase.lower()} "
    if " we " in low or _EVIDENCE.match(phrase):
        return True
    if (m := _MAIN_CLAUSE.search(low)) and not _RELATIVE.search(low, 0, m.start() + 1):
        return True
    for i in (1, 2):
        if (
            i < len(words)
            and words[i] in ("such", "this", "these", "them")
            and (words[i] != "such" or words[i + 1 : i + 2] not in (["as"], ["that"]))
        ):
            return True
    content = 0
    for word in words:
        w = word.lower().strip(",;:")
        if len(w) > 2 and w not in _FUNCTION and w not in _HEAD_WORDS and w != "part":
            content += 1
            if content >= 2:
                return False
    return not (content == 1 and len(words) == 1 and len(phrase) >= 10)


def _antecedent(phrase: str, text: str, before: int, name: str | None) -> str:
    """ "such a framework" -> the earlier "a general framework for differentiability ..."."""
    m = re.match(r"(?:such|this|these|that|the same) (?:an? )?([a-z-]+)", phrase)
    if not m:
        return ""
    head = m.group(1)
    found = ""
    for hit in re.finditer(
        r" (?:an?|the) ((?:[\w-]+ ){0,3}" + re.escape(head) + r"s? "
        r"(?:for|of|to|that|which|based|with|on)\b[^.]*)",
        text[:before],
    ):
        found = hit.group(1)
    for stop in (" that ", " which "):
        found = found.split(stop, 1)[0]
    return _compress(found, name) if found else ""


def _resolve(phrase: str, text: str, ends: list[int], start: int) -> str:
    """ "designing them" -> "designing normalization layers and activation functions": "them" is
    what the sentence before the contribution sentence was about."""
    index = bisect_right(ends, start - 1)
    if index == 0:
        return phrase
    before = ends[index - 2] + 1 if index >= 2 else 0
    subject = _subject(text, before)
    if not subject or " " not in subject:
        return phrase
    return " ".join(subject if w == "them" else w for w in phrase.split())


def _rescue(
    phrase: str,
    text: str,
    ends: list[int],
    cues: list[tuple[float, int, int, int]],
    name: str | None,
) -> str:
    """The phrase read badly: the first of the other candidates that reads as a title (the
    antecedent a pointer stands for, another contribution sentence, the first sentence, its
    subject); the phrase itself when none does."""
    if cues and (found := _antecedent(phrase, text, cues[0][1], name)) and not _bad(found):
        return found
    for _weight, _start, at, end in cues[:5]:
        candidate = _compress(text[at:end], name)
        if candidate != phrase and not _bad(candidate):
            return candidate
    subject = _subject(text)
    if len(subject) >= 10 and not _bad(subject):
        return subject
    candidate = _compress(_fallback(text, ends), name)
    return candidate if not _bad(candidate) else phrase


# "a method called X", "a framework, termed as X": the head before the naming word says less than
# the name it gives (real titles are "Two-Price Equilibrium", not "notion called two-price ...")
_CALLED = re.compile(
    r"^((?:[\w-]+,? ){1,6}?)(?:called|named|termed|dubbed|coined)(?: as)?(?: the| an?)? "
)


def _what_is_called(phrase: str) -> str:
    """The phrase from the name it gives to its head: "method called generalizable multi-linear
    attention network" -> "generalizable multi-linear attention network". A name of one word
    ("architecture named ENet, created ...") is left to the name rules."""
    if (
        " called " not in phrase
        and "named " not in phrase
        and " termed " not in phrase
        and (" dubbed " not in phrase and " coined " not in phrase)
    ):
        return phrase
    m = _CALLED.match(phrase)
    if not m or m.group(1).split()[0].endswith("ing"):  # "reducing X from a view called Y"
        return phrase
    given = phrase[m.end() :]
    head, comma, _rest = given.partition(", ")
    if head.split(" ", 1)[0].lower() in _FUNCTION:
        # the name itself went to the front: "tracking framework, coined [X], for ..."
        before = m.group(1).strip(" ,")
        return before if " " in before else given
    if len(head.split()) < 2:
        return phrase
    return head if comma else given


_RELATIVE_LEAD = re.compile(r"^(?:which|that) (?:[a-z]+ly )?([a-z]+s) ")
# "which consists of", "which stands for": what the thing is, not what it does
_STATIVE = _wordset("does goes consists stands refers contains includes comprises means")
_AND_VERB = re.compile(r"and ([a-z]{4,}s) (?=[a-z])")  # "discovers and represents concepts"
_BY_LEAD = re.compile(r"^[Bb]y ((?:[a-z]+ly )?[a-z]+ing) ")


def _lead_clause(phrase: str) -> str:
    """A phrase left opening on a relative pronoun or "by" once the name went to the front:
    "[X,] which exploits a compact representation" -> "exploiting a compact representation";
    "which discovers and represents X" -> "discovering and representing X"; "by carefully
    designing the regularizer" -> "carefully designing the regularizer"."""
    if (m := _RELATIVE_LEAD.match(phrase)) and m.group(1) not in _STATIVE:
        word = m.group(1)
        if len(word) <= 3:  # "which is", "that has": no verb to turn
            return phrase
        rest = phrase[m.end() :]
        if (both := _AND_VERB.match(rest)) and both.group(1) not in _STATIVE:
            rest = f"and {_gerund(_stem(both.group(1)))} {rest[both.end() :]}"
        return f"{_gerund(_stem(word))} {rest}"
    if _BY_LEAD.match(phrase):
        return phrase[3:]
    return phrase
