"""Choosing the phrase a title is made from: each sentence that states the contribution, and the
first sentence, compressed, then scored by how surely it states the contribution, how early it
comes, and how much of it the rest of the abstract keeps talking about."""

from __future__ import annotations

from bisect import bisect_left
from math import log

from papertui.core.titles.acronyms import _spelled_out
from papertui.core.titles.compress import _compress
from papertui.core.titles.cues import Cue, _fallback
from papertui.core.titles.judge import _antecedent, _bad
from papertui.core.titles.words import _FUNCTION, _HEAD_WORDS

CANDIDATES = 3  # contribution sentences compressed and scored, besides the first sentence

# Weights fitted on one half of the dev set (ICML) and checked on the other (CVPR): a sentence's
# cue weight counts once, every sentence before it costs one; a phrase whose words recur through
# the abstract is about the paper; a fragment, a phrase of one or two content words or a phrase
# the rules call bad loses; a long one (cut later) loses a little; a sentence that holds the
# method's name is the one that introduces it.
_PER_SENTENCE = -1.5
_RECUR_SHARE = 2.25
_RECUR_LOG = 1.5
_SHORT = -3.1
_LONG = 0.5
_BAD = -2.5
_VAGUE = -1.5  # "an improvement based on ...", "a method to ..."
_NAMED = 0.4
_FIRST = -2.0
# What the phrase itself may add at most, in practice (19 in 20 phrases score under 4): a sentence
# whose cue and place trail the best score by this much is not compressed at all
_BOUND = 4.0  # the first sentence's subject names the field more often than the paper


def _score(phrase: str, lower: str, name_in: bool, bad: bool, least: int = 0) -> float:
    """How well `phrase` says what the paper is about, apart from its sentence's cue and place."""
    words = phrase.lower().split()
    content = 0
    recur = 0
    mass = 0.0
    for word in words:
        if len(word) <= 3:
            continue
        word = word.strip(",;:")
        if word in _FUNCTION:
            continue
        content += 1
        if content > 10:
            continue
        count = lower.count(word[:-1] if word.endswith("s") else word)
        if count >= 2:
            recur += 1
        if count:
            mass += log(count)
    if content < least:
        return -99.0
    score = _NAMED if name_in else 0.0
    if content:
        score += (_RECUR_SHARE * recur + _RECUR_LOG * mass) / content
    if content < 3:
        score += _SHORT
    elif content > 8:
        score += _LONG
    if bad:
        score += _BAD
    if words[0] in _HEAD_WORDS:
        score += _VAGUE
    return score


def _choose(
    text: str,
    ends: list[int],
    cues: list[Cue],
    name: str | None,
    counts: dict[str, int],
    subject: str,
) -> tuple[str, bool]:
    """The best-scoring candidate phrase ("" when none is long enough to judge) and whether it
    reads badly. Candidates are compressed in the order of their cue and place, and only while
    they could still win."""
    lower = text.lower()
    best = -99.0
    phrase = ""
    phrase_bad = False
    ranked = sorted(
        (
            (weight + _PER_SENTENCE * bisect_left(ends, at), start, at, end)
            for weight, start, at, end in cues[:CANDIDATES]
        ),
        reverse=True,
    )
    for base, start, at, end in ranked:
        if base + _BOUND <= best:
            break
        candidate = _compress(text[at:end], name)
        if len(candidate) < 8:
            continue
        bad = _bad(candidate)
        if bad and (found := _antecedent(candidate, text, start, name)) and not _bad(found):
            candidate, bad = found, False  # "such a framework": the framework named before
        named = name is not None and name in text[start:end]
        score = base + _score(candidate, lower, named, bad)
        if score > best:
            best, phrase, phrase_bad = score, candidate, bad
    if best >= _FIRST + _BOUND:
        return phrase, phrase_bad
    # the first sentence's subject, when it reads as a title ("Graph neural networks have
    # become ..."); never a whole clause
    first = _fallback(text, ends, noun_phrase=True)
    if not first:
        first = subject
        if len(first) < 10:
            return phrase, phrase_bad
    initials = {w[:1].lower() for w in first.split()}  # a quick test before spelling out
    if any(
        n >= 2 and (t[0].lower() in initials or not t[0].isupper()) and _spelled_out(first, t)
        for t, n in counts.items()
    ):
        return phrase, phrase_bad  # "Graph neural networks (GNNs) have ...": the field
    if name:
        first = _compress(first, name)
    if len(first) >= 8:
        named = name is not None and name in text[: ends[0] if ends else len(text)]
        # a field's name alone ("Optimal transport") says too little
        bad = _bad(first)
        if _FIRST + _score(first, lower, named, bad, 3) > best:
            return first, bad
    return phrase, phrase_bad
