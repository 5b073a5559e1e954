"""Choosing the paper's own name among the words offered for it, and spelling it as the paper
spells it."""

from __future__ import annotations

import re

from papertui.core.titles.name_words import _VERSION


def _pick(scores: dict[str, float], background: set[str], text: str) -> str | None:
    """The best-scored name (a name repeated through the text counts more), or None when none
    is sure enough. `background`: names of fields and earlier work, dropped unless the paper
    plainly introduces them."""
    for token in background:
        if scores.get(token, 0.0) < 6.0:  # only "called X" or "we propose X, a" outweighs it
            scores.pop(token, None)
    if not scores:
        return None
    ranked = {t: s + min(text.count(t), 6) * 0.5 for t, s in scores.items()}
    token = max(ranked, key=ranked.__getitem__)
    if ranked[token] < 3.0:
        return None
    for other, score in scores.items():
        if score >= 7.0 and other.startswith(token) and _VERSION.fullmatch(other, len(token)):
            token = other  # "MAIR was introduced ... we propose MAIR++": the paper's is the new one
    if "-" in token and f" {(joined := token.replace('-', ''))}" in text:
        return joined  # "Div-Clust" broken at a line end, "DivClust" elsewhere
    return _own_case(token, text)


def _own_case(token: str, text: str) -> str:
    """ "FEDGA" where the abstract also writes "FedGA": the mixed case is the name's own (the
    capitals were emphasis, or a heading's style)."""
    if len(token) < 4 or not token.isupper():
        return token
    for m in re.finditer(re.escape(token), text, re.IGNORECASE):
        variant = m.group()
        if (
            variant != token
            and variant[0].isupper()
            and sum(c.islower() for c in variant) >= 2  # "FedGS"; not "BYOp", "bHMC"
            and any(c.isupper() for c in variant[1:])
            and not text[m.end() : m.end() + 1].isalnum()
            and not text[m.start() - 1 : m.start()].isalnum()
        ):
            return variant
    return token
