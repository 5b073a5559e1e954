"""Where the abstract states its contribution ("we propose", "this paper studies"), what its
first sentence is about, and the fallback phrase when no sentence states a contribution."""

from __future__ import annotations

import re
from bisect import bisect_right

from papertui.core.titles.compress import _CLAUSE, _PAREN, _PROPOSING
from papertui.core.titles.words import _FUNCTION, _wordset

_VERBS = {
    # verb -> how surely its sentence states the paper's contribution
    "propose": 5.0,
    "introduce": 5.0,
    "present": 4.5,
    "develop": 4.5,
    "design": 4.0,
    "devise": 4.0,
    "formulate": 3.5,
    "put forward": 4.0,
    "offer": 3.0,
    "build": 3.0,
    "construct": 3.0,
    "create": 3.0,
    "study": 4.0,
    "studies": 4.0,
    "studied": 4.0,
    "investigate": 4.0,
    "consider": 3.5,
    "address": 3.5,
    "tackle": 3.5,
    "explore": 3.5,
    "examine": 3.5,
    "analyze": 3.5,
    "analyse": 3.5,
    "revisit": 4.0,
    "focus on": 3.5,
    "focuses on": 2.0,  # the suffix goes after the verb, not after "on"
    "focused on": 2.0,
    "provide": 3.0,
    "derive": 3.0,
    "establish": 3.0,
    "extend": 3.0,
    "characterize": 3.0,
    "leverage": 2.5,
    "describe": 3.0,
    "pursue": 2.5,
    "initiate": 3.0,
    "prove": 2.0,
    "show": 1.5,
    "demonstrate": 1.5,
    "seek": 3.5,
    "identify": 2.0,
    "bridge": 2.5,
    "rethink": 3.5,
    "learn": 2.5,
    "improve": 2.0,
    "give": 3.0,
    "model": 2.5,
    "define": 2.5,
    "formalize": 3.0,
    "generalize": 3.0,
    "unify": 3.0,
}
_VERB_ALT = "|".join(sorted((re.escape(v) for v in _VERBS), key=len, reverse=True))
_CUE = re.compile(
    r" (?:[WwTtOo](?:e|his (?:paper|work|study|article|note|letter|thesis)|ur (?:work|paper|study)|"
    r"he (?:present )?(?:paper|work|study|article|authors?))|"
    # a doctoral abstract: "My PhD research investigates X"
    r"[Mm]y (?:(?:PhD|doctoral|current) )?(?:research|thesis|work|dissertation))"
    r"(?:,[^,]{1,40},)?(?: (?:also|further|first|then|here|now|instead|thus|therefore|hence|"
    r"[a-z]+ly))? (?:(aim|seek|attempt|set out|tri|try|wish|strive|want)(?:s|es|ed)? "
    r"(?=to [a-z])|"
    r"(?:(?:can|will|are able to|need to) )?(" + _VERB_ALT + r")(?:s|es|d|ed)?\b"
    r"(?: (?:that|how|whether|why) )?)"
)


# An object that points back at a method stated before: "the properties of the proposed method"
_BACK_REFERENCE = re.compile(
    r" (?:[a-z-]+ ){0,5}?(?:the proposed|our|this) (?:method|approach|model|framework|algorithm|"
    r"technique|scheme|system|estimator)s?\b"
)

# "Our main contribution is a polynomial mechanism for X": what follows is the contribution
_CONTRIBUTION_IS = re.compile(
    r"(?:^|(?<=\. ))(?:The|Our) (?:main |key |primary |central |core |major )?contributions? "
    r"(?:of this (?:paper|work) )?(?:is|are) (?:to |in )?(?!twofold|threefold|as follows)"
)

# "We challenge these assumptions by proposing X": the means is the contribution
_BY_CUE = re.compile(rf" by {_PROPOSING}\b")
_WE = re.compile(r"(?:^|\. |\b)[Ww]e ")

# (weight, sentence start, phrase start, phrase end) of a sentence stating the contribution
Cue = tuple[float, int, int, int]


def _sentence_of(
    m: re.Match[str], text: str, ends: list[int], seen: set[int]
) -> tuple[int, int, int] | None:
    """(index, start, end) of the sentence holding the cue `m`; None for a sentence that already
    gave a cue, or one too far into the abstract to state the contribution."""
    index = bisect_right(ends, m.start())
    if index in seen or index >= 14:
        return None
    seen.add(index)
    end = ends[index] if index < len(ends) else len(text)
    start = ends[index - 1] + 1 if index else 0
    return index, start, end


def _contributions(text: str, ends: list[int]) -> list[Cue]:
    """(weight, sentence start, phrase start, phrase end) of the sentences that may state the
    paper's contribution, best first: the verb's weight, less a little for every sentence before
    it. A cue inside a definition ("Inverse design, where we seek to ...") says what a field does,
    not what the paper does: it weighs little."""
    found: list[Cue] = []
    seen: set[int] = set()
    for m in _CUE.finditer(text):
        place = _sentence_of(m, text, ends, seen)
        if place is None or place[2] - m.end() < 12:
            continue
        index, start, end = place
        verb = "seek" if m.group(1) else m.group(2).lower()  # "we aim to X": the phrase is "to X"
        weight = _VERBS.get(verb, 2.0) - index * 0.15
        if text[max(start, m.start() - 7) : m.start()].endswith((", where", " where", " which")):
            weight -= 3.0
        if _BACK_REFERENCE.match(text, m.end()):
            weight -= 2.5  # "we investigate the properties of the proposed method": stated before
        found.append((weight, start, m.end(), end))
    if "ontribution" in text:
        for m in _CONTRIBUTION_IS.finditer(text):
            place = _sentence_of(m, text, ends, seen)
            if place is not None and place[2] - m.end() >= 12:
                index, start, end = place
                found.append((4.0 - index * 0.15, start, m.end(), end))
    if " by " in text:
        for m in _BY_CUE.finditer(text):
            place = _sentence_of(m, text, ends, seen)
            if place is None or place[2] - m.end() < 12:
                continue
            index, start, end = place
            if _WE.search(text, start, m.start()):  # "We challenge X by proposing Y": Y
                found.append((_VERBS["propose"] - 0.5 - index * 0.15, start, m.end(), end))
            else:
                seen.discard(index)
    if " is proposed" in text or " are proposed" in text or "s introduced " in text:
        for m in _PASSIVE.finditer(text):
            place = _sentence_of(m, text, ends, seen)
            if place is None:
                continue
            index, start, end = place
            if m.group(1):
                at = m.end() - 3 if m.group(1) == "to" else m.end()  # "to solve Y"
                found.append((3.5 - index * 0.15, start, at, end))
            elif subject := _passive_subject(text, start, m.start()):
                # "In this paper, a dual decoupling framework is proposed": what is proposed
                found.append((3.0 - index * 0.15, start, subject, m.start()))
    found.sort(key=lambda c: -c[0])
    return found


_OPENERS = re.compile(
    r"^ ?(?:(?:recent(?:ly)?|despite|although|though|while|however|existing|current|many|most|"
    r"in recent years|here|to (?:this|that) end|as|with|since|given|when|because|nowadays|"
    r"today|traditionally|typically|in|given|if|for|under|on)\b[^,]{0,120}, |"
    r"(?:recent|prior|previous|existing|many|"
    r"most)\b.{0,80}?\b(?:show|shown|showed|suggest|suggested|indicate|indicated|"
    r"demonstrate|demonstrated|found|reveal|revealed) that )",
    re.IGNORECASE,
)
_STILL_OPENER = re.compile(
    r"^(?:we|our|this (?:paper|work|study)|in this|here,? we|recent(?:ly)?|despite|although|"
    r"while|existing|current|many|most|however|it|there|these|they|such|this|that|if|given|"
    r"when)\b",
    re.IGNORECASE,
)


# The first sentence's main verb when its subject alone reads as a title.
_MAIN_VERB = re.compile(
    r"^([A-Z][^,;]{5,70}?) (?:(?:have|has) (?:recently )?(?:gained|attracted|become|shown|"
    r"emerged|received|achieved|drawn)|(?:can|could|may) be|(?:is|are) (?:a|an|the|one|widely|"
    r"increasingly|becoming|often|commonly)|bears?|plays?|remains?)\b"
)


def _fallback(
    text: str, ends: list[int], noun_phrase: bool = False, cut_clause: bool = False
) -> str:
    """No contribution sentence: the first sentence, less any opener, that reads as a title.
    With `noun_phrase`, only the subject of a sentence that says what its subject is ("X have
    gained popularity"), or ""."""
    start = 0
    for end in [*ends[:6], len(text)]:
        clause = _OPENERS.sub("", text[start:end].strip())
        clause = _PAREN.sub("", clause)
        if m := _CLAUSE.search(clause, 20):
            clause = clause[: m.start()]
        clause = clause.strip(" ,;:")
        if m := _MAIN_VERB.match(clause):  # "X have gained popularity": X is the title
            clause = m.group(1)
        elif noun_phrase and len(clause) >= 8 and not _STILL_OPENER.match(clause):
            return ""  # a clause
        if len(clause) >= 8 and not _STILL_OPENER.match(clause):
            if cut_clause and (m := _FINITE.search(clause)):
                # "X cannot always be satisfied": X, when X says what the paper is about
                subject = _WIDELY_USED.sub("", clause[: m.start()])
                if _VAGUE_SUBJECT.match(subject) or len(_content(subject)) < 2:
                    start = end + 1
                    continue
                first, _, rest = subject.partition(" ")
                if first[1:].islower() and f" {first} " not in text[end:]:
                    subject = f"{first.lower()} {rest}"  # a sentence's capital, not a name's
                return subject
            return clause
        start = end + 1
    if noun_phrase:
        return ""
    return _PAREN.sub("", text[: ends[0] if ends else len(text)]).strip(" .")


# The verb of a background sentence's main clause: "X cannot always be ...", "X was a ...",
# "X often achieve ...", "X has achieved ..."
_FINITE = re.compile(
    r" (?:(?:often|always|usually|rarely|commonly|frequently|still) [a-z]+\b|"
    r"(?:(?:[a-z]+ly|often|always|still|also|now|not|usually|generally) )?(?:is|are|was|were|"
    r"has|have|had|can|cannot|could|may|might|will|would|should|must|do|does|did|remains?|"
    r"raises?|encounters?|achieve|achieves|shows?|suffers?|requires?|involves?|relies|rely|"
    r"plays?|lacks?|faces?|brings?|leads?|led|became|becomes?|makes?|made|provides?|offers?|"
    r"allows?|enables?|attracts?|gains?|receives?|struggles?|fails?|exhibits?)\b)"
)
_WIDELY_USED = re.compile(r"^(?:[A-Za-z]+ly )?(?:used|adopted|studied|applied|deployed) ")
_VAGUE_SUBJECT = re.compile(
    r"(?i)(?:the |a |an |one of )*(?:goal|aim|purpose|objective|key|main|common|experiments?|"
    r"results?|abstract|this|it|they|there)\b"
)


def _content(phrase: str) -> list[str]:
    return [w for w in phrase.split() if len(w) > 3 and w.lower() not in _FUNCTION]


# "Open world object detection (OWOD) is a new task ...": the first sentence's subject names the
# paper's field or task, the words a real title so often ends with ("... for X").
_SUBJECT = re.compile(
    r" (?:(?:Recent(?:ly)?|In recent years|Nowadays|Today|Currently|However),? )?"
    r"(?:(?:The|A|An) )?([A-Za-z0-9][\w-]*+(?: [\w-]++){0,5}?)(?: \([^()]*\))? "
    r"(?:is|are|has|have|remains|remain|plays|play|aims|aim|refers|can|enables|allows|offers|"
    r"provides|suffers|suffer|achieves?|requires?|shows?|emerged|becomes?|involves?|seeks?|"
    r"concerns?|studies|study|attempts?|focuses|focus)\b"
)
# verbs of `_SUBJECT` that are as often nouns: after a modifier they end the subject, not
# the sentence's verb ("Numerous studies have ...")
_NOUN_VERBS = frozenset(("studies", "study", "play", "plays"))
_QUANTIFIERS = _wordset("numerous many several various multiple recent previous prior existing")
_MODIFIER_ENDS = ("ical", "ous", "ive", "ar", "able", "ible")  # not "retrieval", "logic"
_NOT_SUBJECT = _wordset(
    """
    we it this that these those there they such our its their which what how why when studies
    works papers methods approaches models techniques algorithms literature research progress
    most many existing current recent prior previous traditional conventional several some
    one it's issue issues problem problems question questions challenge topic area key
    approach method framework technique algorithm model work paper year years decade decades past
    humans people children animals researchers practitioners users
    """
)
_LY_NOUNS = _wordset("anomaly family assembly supply monopoly poly")
_SUBJECT_TRIM = _wordset("existing current modern conventional traditional standard typical")
_WORK = _wordset("work research studies")
# The phrase points back at a task it does not name: "... to tackle this problem".
# What a pointer points back at ("this problem", "these issues", "the above challenges")
_POINTED = (
    r"problems?|issues?|tasks?|challenges?|limitations?|shortcomings?|questions?|drawbacks?|"
    r"difficult(?:y|ies)|goals?|needs?"
)
_POINTER = re.compile(
    r"(?:,? (?:to|that|which|for|in|on|of) [a-z]+(?: [a-z]+ly)?)? (?:this|these|those|such|the "
    rf"above|the|that) (?:{_POINTED}|settings?|gap|schemes?|end)\b"
    r"(?! of )(?! in [a-z])(?! for [a-z])(?! between ).*$"
)
# The same at a phrase's very end, with a demonstrative only ("... to address this issue"):
# it points back at what the title cannot show
_POINTING_END = re.compile(
    r"(?:(?: as a way)?,? (?:to|that|which|for)(?: [a-z]+ly)? [a-z]+(?: [a-z]+ly)?)? "
    rf"(?:this|these|those|such|the above) (?:{_POINTED}|gaps?)$"
)
_WEAK_START = _wordset(
    """
    and as to question answer this these such it its their both which where while there then
    thus however instead differently further finally first also by in on with for of from that
    when how what whether why so our we here not types kind kinds way ways use issue issues
    """
)


_CONJUNCTIONS = _wordset(
    "if when while although though since as given for in on with by because unless whereas "
    "once after before under"
)
# "In this work, the X framework is proposed to solve Y": the contribution in the passive
_PASSIVE = re.compile(
    r" (?:is|are) (?:here |first |thus |then |also )?(?:proposed|introduced|presented|developed|"
    r"designed)(?: (to|for) |\b)"
)
_NEW = re.compile(r"^(?:an?|our|the proposed) |\b(?:novel|new)\b")


def _passive_subject(text: str, start: int, verb: int) -> int:
    """Where the subject of "X is proposed" starts, when X is the paper's own ("a novel X", "our
    X", "the proposed X"; after an opener's comma); 0 for "several methods are proposed"."""
    comma = text.rfind(", ", start, verb)
    at = comma + 2 if comma >= 0 else start + 1
    return at if verb - at >= 8 and _NEW.search(text[at:verb]) else 0


def _subject(text: str, pos: int = 0) -> str:
    """The subject of the first sentence when it names a task: "open world object detection"."""
    m = _SUBJECT.match(text, pos)
    if not m:
        return ""
    words = _WIDELY_USED.sub("", m.group(1)).split()  # "widely used deep networks"
    if len(words) > 1 and words[-1].endswith("ly") and words[-1] not in _LY_NOUNS:
        del words[-1]  # "Deep reinforcement learning primarily focuses on ..."
    while words and words[0].lower() in _SUBJECT_TRIM:
        del words[0]
    if len(words) > 2 and words[0].lower() in _WORK and words[1] in ("in", "on"):
        del words[:2]  # "Recent work in classical planning has ...": the field is the subject
    if not words or any(w.lower() in _NOT_SUBJECT for w in words) or len(words) > 6:
        return ""
    if words[-1].lower() in _FUNCTION:  # "Chen and Poor initiated the [study of]": no noun
        return ""
    verb = m.group(0).rsplit(" ", 1)[-1]
    last = words[-1].lower()
    if verb in _NOUN_VERBS and (last in _QUANTIFIERS or last.endswith(_MODIFIER_ENDS)):
        return ""  # "Empirical studies show", "The entropic fictitious play (EFP) is": no verb
    if words[0].lower() in _CONJUNCTIONS:  # "If h is a ring-valued function": no subject
        return ""
    first = words[0]
    inside = text.count(f" {first} ") - text.count(f". {first} ") - text.startswith(f" {first} ")
    title_case = len(words) > 1 and words[1][:1].isupper()  # "Graph Neural Networks"
    if first[1:].islower() and inside <= 0 and not title_case:
        words[0] = first.lower()  # a sentence's capital, not a name's ("Riemannian" stays)
    return " ".join(words)
