"""Acronyms and the words that spell them out: "deep diffusion-based generative replay (DDGR)"."""

from __future__ import annotations


def _expands(words: list[str], acronym: str) -> bool:
    return _expansion(words, acronym) > 0


def _expansion(words: list[str], acronym: str) -> int:
    """How many of the last few `words` spell out `acronym` (0: none): "deep diffusion-based
    generative replay" -> DDGR (the initials of words and hyphen parts, in order); "decomposed-
    uncertainty-guided matting" -> dugMatting (its first letter and its capitals)."""
    letters = [c.lower() for i, c in enumerate(acronym) if c.isupper() or i == 0]
    if len(letters) < 2 or not words:
        return 0
    for k in range(1, min(len(words), len(letters) + 2) + 1):
        if words[-k][:1].lower() != letters[0]:
            continue
        initials = "".join(part[:1].lower() for w in words[-k:] for part in w.split("-") if part)
        it = iter(initials)
        if all(c in it for c in letters):
            return k
    # An acronym's letters may come from inside the words: "time derivative graph diffusion
    # (TIDE)", "Pessimistic ASsortment opTimizAtion (PASTA)": every letter in order, the first
    # starting the first word
    chars = [c.lower() for c in acronym if c.isalnum()]
    if len(chars) < 3 or not acronym[1:].replace("-", "").isupper():
        return 0
    for k in range(2, min(len(words), len(chars) + 3) + 1):
        span = words[-k:]
        if span[0][:1].lower() != chars[0]:
            continue
        joined = " ".join(span).lower()
        at = 0
        for c in chars:
            at = joined.find(c, at) + 1
            if not at:
                break
        else:
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
