"""The words and shapes around a method's name: what introduces one ("called X", "we propose X,
a ..."), what it stands beside ("the X framework"), and what a name looks like."""

from __future__ import annotations

import re

from papertui.core.titles.words import _wordset

# Name-shaped: an inner capital (NoProp, LiDAR), two capitals in a row (GRAPE) or a digit before
# a capital (3D). "Dual-Conditional" is not: its capitals only start words.
# (written so the engine never backtracks: a capital after the first character, with only
# lower-case letters or digits between)
_SHAPE = re.compile(r"(?:[A-Za-z0-9][a-z0-9]*-){0,2}[A-Za-z0-9][a-z0-9]*[A-Z]|[A-Z]-[A-Z]")

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
        "contribute offer describe"
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
    r"[^ A-Za-z0-9+@-]|[A-Z]?-[A-Z0-9]|(?:[a-z0-9]*+-)++[A-Za-z0-9][a-z0-9]*+[A-Z])"
    r"[A-Za-z0-9]*+(?:[-+@][A-Za-z0-9]++)*+\+*"
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
# A lower-case name with a hyphen or a digit, introduced plainly: "we present sketch-rnn, a ..."
# (matched at the words before each ", a" the scan finds)
_PLAIN_NAME = re.compile(
    r" (?:propose|present|introduce|release|develop|design)(?:s|d|ed)? "
    r"([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z]+[0-9][a-z0-9]*)$"
)

# "Relation Reasoning Network (abbr. RR-Net)": the short form after a word that says so
_SHORT_LEADS = ("(abbr. ", "(abbrev. ", "(abbreviated as ", "(abbreviated: ", "(in short: ")
