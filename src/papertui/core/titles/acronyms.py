"""Acronyms and the words that spell them out: "deep diffusion-based generative replay (DDGR)"."""

from __future__ import annotations


def _expands(words: list[str], acronym: str) -> bool:
    return _expansion(words, acronym) > 0


def _in_order(letters: str, text: str) -> bool:
    at = 0
    for c in letters:
        at = text.find(c, at) + 1
        if not at:
            return False
    return True


def _expansion(words: list[str], acronym: str) -> int:
    """How many of the last few `words` spell out `acronym` (0: none): "deep diffusion-based
    generative replay" -> DDGR (the initials of words and hyphen parts, in order); "decomposed-
    uncertainty-guided matting" -> dugMatting (its first letter and its capitals)."""
    letters = "".join(c for i, c in enumerate(acronym) if c.isupper() or i == 0).lower()
    if len(letters) < 2 or not words:
        return 0
    first = letters[0]
    initials = ""
    for k in range(1, min(len(words), len(letters) + 2) + 1):
        word = words[-k]
        if "-" in word:
            initials = "".join(part[:1] for part in word.split("-") if part).lower() + initials
        else:
            initials = word[:1].lower() + initials
        if word[:1].lower() == first and _in_order(letters, initials):
            return k
    # An acronym's letters may come from inside the words: "time derivative graph diffusion
    # (TIDE)", "Pessimistic ASsortment opTimizAtion (PASTA)": every letter in order, the first
    # starting the first word
    chars = "".join(c for c in acronym if c.isalnum()).lower()
    if len(chars) < 3 or not acronym[1:].replace("-", "").isupper():
        return 0
    joined = ""
    for k in range(1, min(len(words), len(chars) + 3) + 1):
        word = words[-k].lower()
        joined = f"{word} {joined}" if joined else word
        if k >= 2 and word[:1] == chars[0] and _in_order(chars, joined):
            return k
    return 0


def _spelled_out(phrase: str, acronym: str) -> str:
    """The run of the phrase's words whose initials are exactly the acronym's capitals ("graph
    neural networks" for GNNs, "neural radiance fields" for NeRF), or ""."""
    letters = "".join(c for c in acronym if c.isupper()).lower()
    if len(letters) < 2 or acronym[:1].islower():
        return ""
    words = phrase.split()
    k = len(letters)
    for i in range(len(words) - k + 1):
        if words[i][:1].lower() == letters[0]:
            run = words[i : i + k]
            if "".join(w[:1] for w in run).lower() == letters and run[-1][-1:].isalnum():
                return " ".join(run)
    return ""


def _hyphen_spelled(phrase: str, acronym: str) -> bool:
    """Whether a run of the phrase's words holding a hyphen spells the acronym by its words'
    and hyphen parts' initials ("out-of-distribution" for OOD, "semi-supervised learning" for
    SSL, "deep Q-network" for DQN)."""
    letters = "".join(c for c in acronym if c.isupper()).lower()
    if len(letters) < 2 or "-" not in phrase:
        return False
    words = phrase.split()
    for i, word in enumerate(words):
        if word[:1].lower() != letters[0]:
            continue
        initials, hyphen = "", False
        for later in words[i:]:
            hyphen = hyphen or "-" in later
            initials += "".join(p[0] for p in later.split("-") if p).lower()
            if initials == letters:
                if hyphen:
                    return True
                break
            if not letters.startswith(initials):
                break
    return False
