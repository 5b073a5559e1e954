"""Derive a scannable title from an untitled abstract.

Dumps carry no titles. The most recognisable handle of a paper is the method it introduces
("CaliGCL", "QHNet"), so we look for the sentence that introduces a name and pair the name with a
few words of what it is. Otherwise the first sentence, cut at a word boundary.
"""

from __future__ import annotations

import re

from papertui.core.text import cut_words, normalise_ws

MAX_TITLE = 80

# A method name: a token with an inner capital (CaliGCL, NoProp, QHNet) or at least two capitals
# in a row (GRAPE, HDFE, M-FAC). Capitals that only start hyphenated words (Dual-Conditional) do not
# count, so ordinary capitalised phrases are not taken for names.
_NAME = r"(?:[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z])[A-Za-z0-9]*(?:[-+][A-Za-z0-9+]+)*\+*)"
_VERB = r"(?:propose|introduce|present|develop|design|call|name|term|dub|coin)(?:s|d|ed)?"
_CUT = re.compile(r"[.;:!?](?:\s|$)|\s(?:which|that|where|whose|to|by)\s")

# "we propose CaliGCL, a GCL model for ..." / "This work introduces DADAO: the first ..."
_INTRO_NAME = re.compile(r"\b" + _VERB + r"\s+(?:our\s+|the\s+)?(" + _NAME + r")\b(?!-)(.*)")
# "a novel normalizing flow model called Circulant-Diagonal Flow (CDFlow)"
_NAMED = re.compile(
    r"\b(?:propose[sd]?|introduce[sd]?|present(?:s|ed)?|develop(?:s|ed)?)\s+(.{3,120}?),?\s+"
    r"(?:called|named|termed|dubbed|coined)\s+(?:as\s+)?(?:[A-Z][\w-]*\s+){0,4}?\(?("
    + _NAME
    + r")\)?"
)
# "... a unified framework ..., termed CanonicalFusion" (description before the name)
_TERMED = re.compile(
    r"(?:^|\s)(?:a|an)\s+(.{3,120}?),?\s+(?:called|named|termed|dubbed|coined)\s+(" + _NAME + r")\b"
)
# "We propose Hyper-Dimensional Function Encoding (HDFE)."
_EXPANDED = re.compile(
    r"\b" + _VERB + r"\s+(?:a\s+|an\s+|the\s+)?((?:[A-Z][\w-]*\s+){1,6}?)\((" + _NAME + r")\)"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_LEAD = re.compile(
    r"^(?:,\s*)?(?:(?:a|an|the)\s+)?(?:(?:novel|new)\s+)?(?:(?:and|or)\s+)?", re.IGNORECASE
)


def _describe(rest: str) -> str:
    """The words after a name that say what it is: ", a GCL model for ..." -> "GCL model for"."""
    rest = rest.strip()
    if rest.startswith("("):  # an expansion in parentheses: "GRAPE (Group ...), a unified ..."
        close = rest.find(")")
        if close != -1:
            rest = rest[close + 1 :].strip()
    if not rest or rest[0] not in ",:–—-":
        return ""
    rest = rest.lstrip(",:–—- ")
    match = _CUT.search(rest)
    if match and match.start() >= 12:
        rest = rest[: match.start()]
    return _LEAD.sub("", rest).strip(" ,")


def _titled(name: str, description: str) -> str | None:
    description = normalise_ws(description)
    if not description:
        return None  # a bare acronym says less than the first sentence does
    return cut_words(f"{name}: {description}", MAX_TITLE)


_TRIGGER = re.compile(r"propose|introduce|present|develop|design|call|name|term|dub|coin")


def method_title(abstract: str) -> str | None:
    """The "Name: what it is" title when the abstract introduces a named method."""
    head = abstract[:2500]
    if not _TRIGGER.search(head):
        return None
    for sentence in _SENTENCE_END.split(head):
        if not _TRIGGER.search(sentence):
            continue
        title: str | None = None
        if match := _NAMED.search(sentence):
            title = _titled(match.group(2), _LEAD.sub("", match.group(1)))
        elif match := _EXPANDED.search(sentence):
            title = _titled(match.group(2), match.group(1))
        elif match := _TERMED.search(sentence):
            title = _titled(match.group(2), _LEAD.sub("", match.group(1)))
        elif (match := _INTRO_NAME.search(sentence)) and not match.group(1).isdigit():
            title = _titled(match.group(1), _describe(match.group(2)))
        if title:
            return title
    return None


def first_sentence_title(abstract: str) -> str:
    text = normalise_ws(abstract[:600])  # the first sentence is all we need
    sentence = _SENTENCE_END.split(text, maxsplit=1)[0]
    return cut_words(sentence.rstrip("."), MAX_TITLE)


def derive_title(abstract: str) -> str:
    """A title of at most 80 characters a person can scan in a list."""
    return method_title(abstract) or first_sentence_title(abstract) or "(empty abstract)"
