"""What a contribution phrase may open with: the words right after the cue verb are sometimes not
the object yet ("we propose, analyze and evaluate X", "we bridge this gap through X", "we study
the following problem: X"). Each rule gives the phrase from where its object starts."""

from __future__ import annotations

import re

# "we propose and analyze X", "this paper proposes, analyzes, and characterizes X": more verbs
# before the object (only where the phrase opens with the list: it follows the cue verb)
_VERB_LIST = re.compile(r"^,?(?: [a-z]+,)* (?:and|or) [a-z]+ (?:(?:that|how|whether) )?")
# "we bridge this gap through a study of X" / "the gap between X and Y by ..."
_GAP = re.compile(
    r"^ ?(?:the|this|that|these|those|an?|such an?)(?: [\w-]+)? gaps?\b,?"
    r"(?: (between|in|through|via|by|with|using)\b)?"
)
_BY_MEANS = re.compile(r",? (?:by|through|via|with|using) [a-z]+ing\b")
# "we study the following problem: X"
_FOLLOWING = re.compile(r"^ ?(?:the )?following\b")


def _open(phrase: str) -> str:
    """The phrase from where its object starts: "" when it names nothing ("this gap.")."""
    if phrase.startswith((",", " and ", " or ")) and (m := _VERB_LIST.match(phrase)):
        phrase = phrase[m.end() :]
    if "gap" in phrase[:30] and (m := _GAP.match(phrase)):
        joint = m.group(1)
        rest = phrase[m.end() :]
        if joint in ("between", "in"):
            if by := _BY_MEANS.search(rest):
                rest = rest[: by.start()]
            return f"bridging the gap {joint}{rest}"
        if joint:
            return rest
        # "this gap, and show that X": the rule for what is shown takes it
        return phrase if rest.startswith(" and ") else ""
    if "following" in phrase[:15] and _FOLLOWING.match(phrase):
        colon = phrase.find(": ")
        return phrase[colon + 2 :] if colon > 0 else ""
    return phrase
