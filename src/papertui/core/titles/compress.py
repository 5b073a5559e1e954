"""Compressing a contribution phrase like a title: lead-ins, articles, "novel", parentheses,
relative clauses and vague head nouns out; "to learn X" -> "learning X"."""

from __future__ import annotations

import re

from papertui.core.titles.name_words import _SHORT_LEADS
from papertui.core.titles.openers import _open
from papertui.core.titles.words import _FUNCTION, _HEADS, _VAGUE, _wordset

_PAREN = re.compile(r" \([^()]*\)(?!\w)| \[[^\[\]]*\](?!\w)")  # not "[b]word": the space would go
# Where a title-like phrase ends: a relative or subordinate clause, a second main verb.
# Every branch starts with a literal character, so the engine only tries where one occurs (four
# times faster than a branch led by an optional comma or a character class)
_REL = (
    r"which|where|whereby|whose|while|thereby|so that|such that|in order to|i\.e\.|e\.g\.|"
    r"in which|and thus|and hence|and therefore|(?:that|which),|as well as|resulting in|"
    r"leading to|namely|i\.e|e\.g"
)
_CLAUSE = re.compile(
    r"; |: |, (?:a |an |that (?!is\b)|such as |(?:"
    + _REL
    + r")\b|(?:and )?(?:we|it|our|this|these|they|thus|then|"
    r"showing|demonstrating|allowing|enabling|achieving|yielding|making|providing|including|and|"
    r"but|or|as|with|to)\b)| (?:[–—-]+ |(?:" + _REL + r")\b|and (?:we )?(?:show|demonstrate|"
    r"prove|evaluate|achieve|validate|apply|provide|obtain|establish|derive|find|conduct|compare|"
    r"use|then|empirically|experimentally|theoretically|extensive|further|also|analyze|analyse|"
    r"study|test|verify|illustrate|discuss|introduce|propose|present|develop|design)\b)"
)
_LEAD = re.compile(
    r"^(?:(?:a|an|the|our|this|these|two|three|several|some|first|new) )?"
    r"(?:(?:novel|new|simple|simple yet effective|simple but effective|effective|generic|"
    r"first|general|principled|straightforward|elegant|lightweight|powerful|practical|"
    r"flexible|versatile|concise|intuitive|innovative|conceptually simple|highly|"
    r"yet|but|surprisingly|very|more|comprehensive|thorough|carefully designed)(?:,| and)? )*"
    r"(?:(?:problem|task|question|challenge|issue|setting|study|notion|idea|concept|topic) of )?",
    re.IGNORECASE,
)
_HEAD_NAMES = tuple(re.sub(r"[^a-z|]", "", _HEADS).split("|"))
_NOVEL_WORDS = r"(?:novel|new|simple yet effective|simple but effective)"
_NOVEL = re.compile(rf" {_NOVEL_WORDS} ")
_A_NOVEL = re.compile(rf"(?<![\w-])a {_NOVEL_WORDS} (?=[aeioAEIO]|un(?!i))")
_PREPOSITIONS = (" for", " of", " in", " on", " under", " with", " by", " from", " to", " at")
_GERUND_DOUBLE = _wordset(
    "get set run map plan stop put cut drop fit let swap split ship trim "
    "scan tag pin chat plug step"
)


_HEAD_THAT = re.compile(
    r"^(?:"
    + _HEADS
    + "|"
    + _VAGUE
    + r"),? (?:that|which) (?:[a-z]+ly )?(?!is |has |was )([a-z]+)s "
)
_HEAD_OF = re.compile(
    r"^(?:(?:broad|large|wide|rich|new|general|whole) )?(?:class|family|set|kind|type|variety|"
    r"suite|collection|series|range|number|perspective|view|lens) (?:of|on) (?!the |a |an |it )",
    re.IGNORECASE,
)
_THAT_LEAD = re.compile(r"^(?:here |(?:[a-z]+ly,? (?:and |or )?){1,3}(?=that ))?(?:that )?")
_IN_THIS_PAPER = re.compile(
    r"^(?:in this (?:paper|work|article|note|study|letter)|here|herein|for the first time),? ",
    re.IGNORECASE,
)
_THIS_PAPER_INSIDE = re.compile(r",? (?:in|of) this (?:paper|work|article|study)\b(?=[,.]| [a-z])")
# "which does not rely on X" -> "without X"
_WITHOUT = re.compile(
    r",? (?:which|that) (?:does|do) not (?:rely on|use|require|need|involve|depend on)"
    r" (?:either |any )?"
)
# "framework to tackle the problem of X" -> "framework for X"
_TACKLE = re.compile(
    r",? (?:to|that|which) (?:can )?(?:tackle|address|solve|handle|deal with|overcome)s? "
    r"(?:the |this )?(?:problem|task|challenge)s? of "
)
# A bare head before what it is: "approach, Task-Agnostic Morphology Evolution", "framework, a
# principled approach for X" (the name between them taken out)
_HEAD_COMMA = re.compile(
    r"^(?:[a-z-]+ )?"
    + _HEADS
    + r", (?:(?:a|an) (?=[a-z])|(?=[A-Z][a-z]*[A-Z-]|[A-Z][a-z]+ (?:[a-z]+ )?[A-Z]))"
)
_HEAD_LEAD = re.compile(r"^" + _HEADS + r",? (?:(?:for|of) |(?=to [a-z]+ ))", re.IGNORECASE)
_HEAD_INNER = re.compile(
    r" ([a-z0-9-]+) "
    + _HEADS
    + r"\b(?=,? (?:for|to|that|of|which|with|based|in|on|by|using|via)\b|$)"
)
# "unified framework for X" keeps its head: without it the adjective would dangle
# ("first-order methods", "molecular framework", "tuning-free approach", "end-to-end framework")
_ADJECTIVE_ENDS: tuple[str, ...] = ("ed", "ive", "al", "ic", "ent", "ant", "ful", "ous", "able")
_ADJECTIVE_ENDS += ("ible", "ary", "ar", "ian", "ean", "wise", "free", "aware", "like", "-end")
_ADJECTIVE_ENDS += ("level", "scale", "order", "driven", "preserving")
_ADJECTIVES = _wordset(
    """robust simple versatile lightweight fast accurate strong deep single joint dual hybrid
    compact sparse dense secure fair safe smooth exact approximate complete concise elegant"""
)


# "a task, referred to as Weakly-Supervised Anomaly Detection": what it is called says more
_CALLED_AFTER = re.compile(
    r"^([^,]{3,80})(?:,? referred to as|, called|, (?:named|termed|dubbed|coined)(?: as)?) "
    r"(?:the |an? )?"
    r"(?!(?:without|with|for|to|in|on|of|by|that|which|and|or|from)\b)(?=\S+ \S)"
)
# "model, the Recurrent Entity Network": a short head before the expansion of the name
_HEAD_THE = re.compile(r"^(?:[\w-]+ ){0,3}[\w-]+, the (?=[A-Z][\w-]* [\w-])")
_CALLED_ASIDE = re.compile(r", (?:called|named|termed|dubbed)(?: as)? [a-z][a-z-]+,(?= )")
_NAME_COMMA = re.compile(r"^([^,]{3,60}), (?=(?:for|in|on|with|of|to) )")
_FIRST = re.compile(r"(?<=\w\w \w)[^,]*?, the first\b.*$")


def _appositive(phrase: str, name: str | None) -> str:
    """The phrase without a bare head or a boast its appositive makes redundant: "approach,
    Task-Agnostic Morphology Evolution" -> the name; "a task, referred to as X" -> X; "Deep
    Concept Reasoner, the first interpretable model" -> "Deep Concept Reasoner"."""
    if m := _HEAD_COMMA.match(phrase):
        return phrase[m.end() :]
    if (m := _CALLED_AFTER.match(phrase)) and not (name and phrase.startswith(name, m.end())):
        # "called graph sampling (GS), for X": the comma was the name's
        return _NAME_COMMA.sub(r"\1 ", phrase[m.end() :], count=1)
    if m := _HEAD_THE.match(phrase):
        return phrase[m.end() :]
    phrase = phrase.replace(", referred to ", " ", 1)  # the name it was referred to as is out
    return _FIRST.sub(lambda m: m.group().split(", the first", 1)[0], phrase, count=1)


def _drop_head(m: re.Match[str]) -> str:
    word = m.group(1)
    if word in _FUNCTION or word.endswith(_ADJECTIVE_ENDS) or word in _ADJECTIVES:
        return m.group(0)
    return f" {word}"


def _stem(verb: str) -> str:
    """The verb of a third-person form: "discovers" -> "discover", "applies" -> "apply"."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def _gerund(verb: str) -> str:
    """ "learn" -> "learning", "make" -> "making", "map" -> "mapping"; "mitigating" stays
    ("an approach to mitigating X")."""
    if verb.endswith("ing") and len(verb) > 5:
        return verb
    if verb in _GERUND_DOUBLE:
        return verb + verb[-1] + "ing"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    return verb + "ing"


# Adverbs between "to" and its verb that do not end in -ly: "to further reduce X"
_TO_ADVERBS = _wordset("further also then both")
# Words after "to" that are no verb: an adjective's ending, or a noun that leads a field's name
_NOT_VERB_ENDS: tuple[str, ...] = ("ial", "ral", "nal", "cal", "tal", "ual", "tive", "sive")
_NOT_VERB_ENDS += ("ic", "ous", "ary", "ity", "ics", "ness", "ism")
_NOT_VERBS = _wordset("multi semi self non two three image video text object")
_OBJECT_OF = (" of", " on", " for", " to", " in", " with", " by", " from", " over", " and", " into")


def _drop_name(phrase: str, name: str) -> str:
    """Take the name out of the phrase: "X, a method for ..." -> "method for ...",
    "a method called X for ..." -> "method for ..."."""
    at = phrase.find(name)
    while at >= 0 and (
        at and phrase[at - 1].isalnum() or phrase[at + len(name) : at + len(name) + 1].isalnum()
    ):
        at = phrase.find(name, at + 1)  # "MAC" inside "ParMAC" is not the name
    if at < 0:
        return phrase
    head = phrase[:at].rstrip(" \"'“")
    if head.endswith(_OBJECT_OF):
        return phrase  # "power of GDNs on ...": the name is an object here, not the subject
    tail = phrase[at + len(name) :].lstrip("\"'”").removeprefix(" in short")
    for word in (
        " denoted as",  # before " as": "a method, denoted as X, that ..."
        " referred to as",
        " known as",
        " denoted",
        " called",
        " named",
        " termed",
        " dubbed",
        " coined",
        " namely",
        " call",
        " call it",
        " as",
    ):
        if head.endswith(word):
            head = head[: -len(word)].rstrip(" ,")
            break
    tail = _PAREN.sub("", tail, count=1) if tail.startswith((" (", "(")) else tail
    tail = tail.lstrip(" ,:;–—-(" if tail.count("(") > tail.count(")") else " ,:;–—-")
    for word in ("as ", "is ", "which is "):
        if tail.startswith(word):
            tail = tail[len(word) :]
    if len(head.split()) >= 1 and head.strip() not in ("", "a", "an", "the", "our"):
        return f"{head} {tail}".strip() if not tail.startswith(("a ", "an ", "the ")) else head
    return tail


# "a novel method called Source Prompt Disentangled Inversion": the naming head says nothing
_NAMING = re.compile(
    r"^(?:[A-Za-z-]+,? ){1,5}?(?:called|termed|named|dubbed|coined|(?:that|which) we (?:call|term|"
    r"name|dub)|we call)\s+(?=[A-Z\"'“])"
)
_QUOTED = re.compile(r"[\"'“]([^\"'”]{2,60})[\"'”]")
# "... avoids this constraint by learning X": the means says what the pointer does not; "by
# proposing X" says X
_PROPOSING = r"(?:propos|introduc|present|develop|design|devis)ing"
_BY_GERUND = re.compile(
    r"\b(?:this|these|those|such|them|that (?=(?:challenge|problem|issue|gap|limitation)s?\b))"
    rf"\b.*? by (?:{_PROPOSING} ([a-z]+ .*)|([a-z]+ing .*))$"
)
# "we address the challenges by proposing X": X
_THE_CHALLENGE_BY = re.compile(
    r"(?:the )?(?:challenge|problem|issue|limitation|gap)s? by "
    rf"(?:{_PROPOSING} ([A-Za-z][\w-]* .*)|([a-z]+ing .*))$"
)
# "a novel approach to the problem: Local Intrinsic Dimension estimation ...": the head says
# nothing, what follows the colon is the method
_HEAD_COLON = re.compile(
    r"^(?:(?:a|an|the|our) )?(?:(?:novel|new|simple|general|effective|principled)(?:,| and)? )*"
    + _HEADS
    # "a simple and effective solution to tackle this extreme domain gap: self-training X"
    + r"(?: (?:to|for) (?:(?:tackle|address|solve|overcome|close|bridge|handle|mitigate) )?"
    + r"(?:the|this|that|these) [\w -]{0,40}?)?: (?=[A-Z]|(?!(?:we|it|this|that|the|first) )[a-z])"
)
_USED_TO = re.compile(
    r"^([\w -]{3,60}?) (?:can|could|may) be (?:used|applied|leveraged|employed|adapted) to "
    r"([a-z]+) (.+)$"
)
# "to solve these PDE inverse problems": the pointer goes, the noun phrase stays
_POINTER_DET = re.compile(r" (?:these|those|such) (?!as\b|that\b)(?=[\w-]+ [\w-]+)")
# ", closely related to several used in practice,": an aside between a noun and its verb
_ASIDE = re.compile(r", (?:(?:[a-z]+ly|under|in|as|at|for|with|without|unlike|like) )[^,]{3,60},")

# an aside that ends inside a list of the people who introduced the term
_BY_NAMES = re.compile(r" by [A-Z][\w.-]*,$")
# "address this gap, and show that X": the pointer says nothing, what is shown is the contribution
_POINTER_THEN_SHOW = re.compile(
    r"^(?:this|these) [\w-]+(?: [\w-]+)?, and (?:show|prove|demonstrate) that "
    r"(?:it is possible to )?(?!it |they |this |these |we |our )"
)

# "graph matching, or learning vertex correspondence, between ...": another name for the term
_OR_ASIDE = re.compile(r"([^,]{3,80}), or [^,]{3,60},")


def _unname(phrase: str, name: str | None) -> str:
    """Drop a naming head: "a method called Expanded Name (X)" -> "Expanded Name";
    "a representation that we call 'unary form'" -> "unary form: representation"."""
    if name:
        phrase = phrase.replace(f" ({name})", "")
        if "(ab" in phrase or "(in short" in phrase:
            for lead in _SHORT_LEADS:  # "(abbr. RR-Net)"
                phrase = phrase.replace(f" {lead}{name})", "")
    head = phrase[:90]
    if not any(w in head for w in ("call", "term", "named", "dubbed", "coined")):
        return phrase
    m = _NAMING.match(phrase)
    if not m:
        return phrase
    rest = phrase[m.end() :]
    if name and rest.startswith(name):
        return phrase
    if q := _QUOTED.match(rest):
        kept = m.group().split()[:-1]
        while kept and kept[-1] in ("that", "which", "we"):
            kept.pop()
        lead = _LEAD.sub("", " ".join(kept), count=1)
        return f"{q.group(1).strip(' ,')}: {lead}{rest[q.end() :]}"
    return rest


# what taking a name out of the phrase can leave: empty brackets, a possessive without its owner
_LEFT_BEHIND = re.compile(r" ?\(\s*\)|(?:^| )[’']s\b")


def _compress(phrase: str, name: str | None) -> str:
    """A title-like phrase from the words after the contribution verb."""
    phrase = _IN_THIS_PAPER.sub("", _open(phrase).strip(" .!?"), count=1)
    if " this " in phrase:  # "an adversarial attack in this paper, the X attack"
        phrase = _THIS_PAPER_INSIDE.sub("", phrase, count=1)
    if m := _THAT_LEAD.match(phrase):  # "we prove here that X", "we show analytically that X"
        phrase = phrase[m.end() :]
    phrase = _unname(phrase, name)
    if " and " in phrase and (m := _POINTER_THEN_SHOW.match(phrase)):
        phrase = phrase[m.end() :]
    if name:
        phrase = _drop_name(phrase, name)
    if ", " in phrase:
        if (m := _ASIDE.search(phrase)) and _BY_NAMES.search(m.group()):
            phrase = phrase[: m.start()]  # ", as first introduced by Wu, Szepesvári, and György"
        else:
            phrase = _ASIDE.sub("", phrase, count=1)
        if ", or " in phrase and (m := _OR_ASIDE.match(phrase)):
            phrase = m.group(1) + phrase[m.end() :]  # "graph matching, or X, between A and B"
    if " (" in phrase or " [" in phrase:
        phrase = _PAREN.sub("", phrase)
    if " not " in phrase:
        phrase = _WITHOUT.sub(" without ", phrase)
    if " problem" in phrase or " task" in phrase or " challenge" in phrase:
        phrase = _TACKLE.sub(" for ", phrase, count=1)
    if ": " in phrase:
        means = phrase
        if " by " in phrase and (m := _BY_GERUND.search(phrase)):
            means = m.group(1) or m.group(2)  # "this challenge by proposing an approach: X"
        if m := _HEAD_COLON.match(means):
            phrase = means[m.end() :]
    if ", " in phrase:
        phrase = _CALLED_ASIDE.sub("", phrase, count=1)  # "an approach, called pepin, to X"
    if m := _CLAUSE.search(phrase, 12):
        head = phrase[: m.start()]
        if m.group() == " which" and head.endswith(_PREPOSITIONS) and len(head.split()) < 5:
            # "minimizing functions for which the gradient is costly": the clause says it all
            m = _CLAUSE.search(phrase, m.end())
            phrase = phrase[: m.start()] if m else phrase
        else:
            phrase = head
    if " by " in phrase and (m := _BY_GERUND.search(phrase) or _THE_CHALLENGE_BY.match(phrase)):
        phrase = m.group(1) or m.group(2)
    if " these " in phrase or " those " in phrase or " such " in phrase:
        phrase = _POINTER_DET.sub(" ", phrase)
    if (
        " be " in phrase
        and (m := _USED_TO.match(phrase))
        and m.group(2) not in _FUNCTION  # "applied to most networks": "to" is a preposition
        and (m.group(2)[-1] != "s" or m.group(2).endswith("ss"))  # "applied to images"
    ):
        # "diffusion models can be used to solve X" -> "solving X with diffusion models"
        phrase = f"{_gerund(m.group(2))} {m.group(3)} with {m.group(1)}"
    phrase = phrase.strip(" ,;:-–—\"'")
    phrase = _LEAD.sub("", phrase, count=1)
    if m := _HEAD_THAT.match(phrase):
        phrase = f"{_gerund(_stem(m.group(1) + 's'))} {phrase[m.end() :]}"
    phrase = _HEAD_LEAD.sub("", phrase, count=1)
    if ", " in phrase:
        phrase = _appositive(phrase, name)
    phrase = _HEAD_OF.sub("", phrase, count=1)
    if any(head in phrase for head in _HEAD_NAMES):
        phrase = _HEAD_INNER.sub(_drop_head, phrase, count=1)
    if phrase.startswith(("to ", "To ")):
        verb, _, rest = phrase[3:].partition(" ")
        if (verb.endswith("ly") or verb in _TO_ADVERBS) and rest:  # "to jointly learn X"
            head, _, tail = rest.partition(" ")
            if head.isalpha() and head.islower():
                phrase = f"{verb} {_gerund(head)} {tail}".strip()
        elif verb.isalpha() and verb.islower() and verb not in _FUNCTION:
            if verb.endswith(_NOT_VERB_ENDS) or verb in _NOT_VERBS:
                # "an approach to unsupervised domain adaptation": "to" is a preposition
                phrase = phrase[3:]
            else:  # "to solve X" -> "solving X"; "to this problem" has no verb to turn
                phrase = f"{_gerund(verb)} {rest}".strip()
    if "novel" in phrase or " new " in phrase or "simple" in phrase:
        phrase = _A_NOVEL.sub("an ", phrase)  # "a novel approach" -> "an approach", not "a ..."
        phrase = _NOVEL.sub(" ", phrase)
    if "(" in phrase or "’s" in phrase or "'s" in phrase:
        phrase = _LEFT_BEHIND.sub("", phrase)  # "Rank() of", "’s utility": a name taken out
    return phrase.strip(" ,;:-–—\"'")
