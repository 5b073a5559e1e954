"""Fitting a phrase into the title length: cut at a phrase boundary, never on a word that waits
for more."""

from __future__ import annotations

import re

from papertui.core.text import cut_words
from papertui.core.titles.words import _FUNCTION, _wordset

# Real titles run to a median of 70 characters and nine in ten fit 100; at 80 a third were cut
# short of the words that say what the paper does (docs/lab-notes/held-out-quality.md).
MAX_TITLE = 100
SHORT_CUT = 80  # a cut at a phrase boundary keeps at least 45% of this (or of a smaller limit)

# Words that wait for more: a title never ends on them.
_TRAILING = _wordset(
    "tailored designed trained called named dubbed termed aiming since because capable able "
    "built used based like unlike despite during after before until versus vs namely along "
    "referred generated aimed defined captured caused associated created together rather often "
    "only learn improve suitable large complex simple accurate respect up even still just "
    "however therefore hence moreover again"
)
# a symbol that joins two things, left alone by a cut: "... above the value 2 /"
_JOINING = frozenset(("/", "&", "+", "-", "–", "—", "×", "="))
# "... to localize objects directly": an adverb ends a clause, not a title ("anomaly" does)
_LY_NOUNS = _wordset("family anomaly assembly supply butterfly monopoly ally italy rely apply")
# "k-means clustering is an important problem": a clause; its subject is the title.
_COPULA = re.compile(r"^(.{6,70}?) (?:is|are|has been|have been|remains|remain) (?:a|an|the|one)\b")


# Participles and verbs that ask for an object or a complement: a title never ends on them
# ("... transformations working", "... by learning to produce", "... that combines").
_PARTICIPLES = _wordset(
    "working achieving using taking leveraging combining enabling allowing making providing "
    "yielding proving expanding spotlighting showing demonstrating requiring involving "
    "including resulting leading capturing introduced proposed given obtained inspired "
    "motivated guided driven followed known applied consisting containing according underlying "
    "connecting keeping representing following transferring"
)


# "... linear measurements corrupted", "... a model pretrained": a past participle after its
# noun starts a clause whose complement was cut ("corrupted by noise"); after a verb of being it
# is the clause's own end ("... can be achieved", "... is then transformed").
_ENDS_ITS_CLAUSE = _wordset(
    "be is are was were been being become becomes remain remains get gets got "
    # and verbs whose object the participle completes: "keeping language models grounded"
    "keep keeps keeping make makes making render renders rendering leave leaves leaving"
)
# Words of that shape that are not participles
_NOT_PARTICIPLES = _wordset("hundred embed infrared")


def _reduced_participle(words: list[str]) -> bool:
    last = words[-1].strip(",;:")
    return (
        len(last) >= 5
        and last.endswith("ed")
        and last.islower()
        and not last.endswith(("eed", "bed"))  # "need", "testbed"
        and last not in _NOT_PARTICIPLES
        # "... is in many cases bottlenecked"
        and not any(w.lower() in _ENDS_ITS_CLAUSE for w in words[-5:-1])
    )


# Nouns that ask for their "of": a title never ends on them ("... by means", "... in the context")
_OF_NOUNS = _wordset(
    "means purpose terms context presence absence lack use form number set series succession "
    "sequence variety range kind kinds type types class family amount collection combination "
    "subset part role notion sort fraction majority plethora host lot couple"
)
_WAITING = ("ing", "relevant", "associated", "underlying")
_OF_LEAD = _wordset("in by for with on of to as at into from under and a an the this its their")


def _of_phrase(words: list[str]) -> int:
    """Where the phrase that ends on a noun asking for its "of" starts ("in the context", "a
    set"), 0 when the words do not end on one."""
    if words[-1].lower().strip(",;:") not in _OF_NOUNS:
        return 0
    i = len(words) - 1
    while i > 0 and words[i - 1].lower() in _OF_LEAD and len(words) - i < 4:
        i -= 1
    return i if i < len(words) - 1 else 0


# Verbs of a relative clause that ask for a second complement: "that endows X with Y", "that maps
# X to Y"; a title that stops after X stops in the middle
_TWO_PLACE = _wordset(
    "endows endow equips equip maps map transforms transform converts convert turns turn casts "
    "cast relates relate links link connects connect translates translate"
)


def _two_place(words: list[str]) -> int:
    """Where a relative clause whose verb waits for a second complement starts, when the words
    end before that complement (0: none)."""
    for k in range(3, 7):
        if k < len(words) - 1 and words[-k] in ("that", "which") and words[-k + 1] in _TWO_PLACE:
            tail = {w.lower() for w in words[-k + 2 :]}
            return 0 if tail & {"with", "to", "into", "as"} else len(words) - k
    return 0


def _trim(words: list[str], strict: bool = True) -> list[str]:
    """Drop the words a title cannot end on: a function word, a word that waits for more, an
    infinitive or relative clause cut short, a gerund after a preposition ("by integrating"),
    half a pair ("in both unsupervised"), a participle clause cut short (", taking the form")."""
    while words:
        last = words[-1].strip(",;:")
        low = last.lower()
        if (
            low in _FUNCTION
            or last in _JOINING
            or (len(words) > 2 and (last in _TRAILING or low in _PARTICIPLES))
            or (len(words) > 3 and low.endswith("ly") and low not in _LY_NOUNS)
            or (len(words) > 3 and _reduced_participle(words))
        ):
            words.pop()
        elif len(words) > 4 and low == "paper" and words[-2] == "this":
            del words[-3 if words[-3] == "in" else -2 :]  # "... network in this paper"
        elif len(words) > 3 and low == "al." and words[-2] == "et":
            del words[-3:]  # "... bottleneck of Tishby et al.": who, not what
        elif len(words) > 3 and words[-2] in ("to", "that", "which"):
            del words[-2:]  # "... in the loop to obtain", "... optimization that achieves"
        elif (
            len(words) > 3
            and low.endswith("ing")
            and words[-2].lower() in _FUNCTION
            and not last[:1].isupper()  # "Deaf or Hard of Hearing": a name's word, no verb
        ):
            del words[-2:]
        elif len(words) > 4 and (cut := _two_place(words)):
            del words[cut:]  # "... that endows models", "... that maps a simple distribution"
        elif len(words) > 3 and (cut := _of_phrase(words)) >= 2:
            del words[cut:]  # "... for the purpose", "... based on a succession"
            if (
                len(words) > 3
                and words[-1].lower().endswith(_WAITING)
                and (words[-2].lower() in _FUNCTION or not words[-1].endswith("ing"))
            ):
                # "capable of producing | an unlimited number": its object went ("image
                # editing | in the context" keeps its noun)
                words.pop()
        elif strict and len(words) > 4 and (cut := _unfinished(words)):
            del words[cut:]
        else:
            break
    return words


def _unfinished(words: list[str]) -> int:
    """Where a construction the last words leave open starts (0: none): "both X" without its
    "and Y", "to dynamically capture X" (an infinitive), ", taking the form" (a participle)."""
    for i in range(len(words) - 1, max(len(words) - 5, 3), -1):
        word = words[i].lower()
        if word in ("both", "either") or (
            word == "to" and words[i + 1 : i + 2] and words[i + 1].endswith("ly")
        ):
            return i
        if words[i - 1].endswith(",") and word.endswith("ing"):
            return i
    return 0


# A word that is mathematics, not language: "_n", "h(x)^", "of--(iii)", "x=1"
_MATH = re.compile(r"[\^_=\\]|--")
# mathematics rendered to Unicode (𝒪, √, ², ·, ∑, ≤): kept leading a title ("𝒪(√T) regret
# bound for ..."); a formula over several words later is a cut point ("regret scaling as
# 𝒪√d³ H³ · ..." ends before it)
_RENDERED = re.compile(r"[\u00b2\u00b3\u00b9\u00b7\u2070-\u209f\u2200-\u22ff\U0001d400-\U0001d7ff]")


def _unmath(words: list[str]) -> list[str]:
    """Cut the words before the first piece of mathematics (drop TeX when it leads)."""
    for i, word in enumerate(words):
        if _MATH.search(word):
            return words[:i] if i >= 2 else [w for w in words if not _MATH.search(w)]
        if i >= 2 and _RENDERED.search(word) and _RENDERED.search(" ".join(words[i + 1 : i + 2])):
            return words[:i]  # a formula over several words; one compact symbol stays
    return words


# the endings of adjectives coordinated before their noun ("synchronous or asynchronous cues")
_MODIFIER_ENDS = ("al", "ic", "ous", "ive", "ar", "able", "ible", "ent", "ant", "ful", "less")


def _paired_modifiers(word: str, after: list[str]) -> bool:
    """Whether `word`, "and"/"or", then `after` are two adjectives of one noun: "physical and
    synthetic", "conservative and non-conservative"."""
    other = after[0].lower() if after else ""
    return (
        word.islower()
        and word.endswith(_MODIFIER_ENDS)
        and (other.endswith(_MODIFIER_ENDS) or other.startswith("non-"))
    )


def _fit(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a phrase boundary; never ending on a function word."""
    words = text.split()
    if _MATH.search(text) or _RENDERED.search(text):
        words = _unmath(words)
    words = _trim(words)
    if not words:
        return ""
    text = " ".join(words).rstrip(" ,;:")
    if len(text) <= limit:
        return text
    best = 0
    length = -1
    clause = 0  # where a relative clause starts: a cut inside one ends before it
    for i, word in enumerate(words):
        length += len(word) + 1
        if length > limit:
            break
        if word in ("that", "which", "whose") and length - len(word) > limit * 0.5:
            clause = i
        following = words[i + 1].lower() if i + 1 < len(words) else ""
        # "... by integrating" asks for its object: not an end
        waits = word.endswith("ing") and i > 0 and words[i - 1].lower() in _FUNCTION
        ends_phrase = word.endswith(",") or following in _FUNCTION
        if following in ("and", "or") and _paired_modifiers(word, words[i + 2 : i + 3]):
            ends_phrase = False  # "on physical [and synthetic video datasets]": half a pair
        if ends_phrase and not waits and word.lower() not in _FUNCTION:
            best = i + 1
    for strict in (True, False):  # half a pair ("both X") is still better than an ellipsis
        for end in (clause if clause and best > clause else 0, best):
            cut = _trim(words[:end], strict) if end else []
            if sum(len(w) + 1 for w in cut) > min(limit, SHORT_CUT) * 0.45:
                return " ".join(cut).rstrip(" ,;:")
    return cut_words(text, limit)
