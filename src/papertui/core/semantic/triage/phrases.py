"""Negative phrases: which papers hold a phrase the reader wants less of."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping

import numpy as np

from papertui.core.semantic.vectors import PaperVectors, stem

# a paper's text by its id (a callable or a mapping), to match phrases in its words
TextOf = Callable[[str], str] | Mapping[str, str]


def matching_rows(v: PaperVectors, phrase: str, text_of: TextOf | None) -> list[int]:
    """Positions of papers containing `phrase` (in their text if known, else their terms)."""
    if text_of is not None:
        get = text_of.get if isinstance(text_of, Mapping) else text_of
        forms = [word_forms(w) for w in phrase.split()]
        words = ("(?:" + "|".join(map(re.escape, f)) + ")" for f in forms)
        rx = re.compile(r"(?<!\w)" + r"\W+".join(words) + r"(?!\w)", re.I)
        # each word's forms share a beginning: a paper without it in its lower-cased text
        # cannot match (a substring test is five times faster than the regex)
        starts = [os.path.commonprefix(f) for f in forms]
        found = []
        for r, pid in enumerate(v.ids):
            text = get(pid) or ""
            low = text.lower()
            if all(b in low for b in starts) and rx.search(text):
                found.append(r)
        return found
    ((cols, _),) = v.vocab.columns([phrase])
    if not len(cols):
        return []
    # a multi-word phrase is matched by its bigrams when it has any, else by all its words
    bigrams = [c for c in cols if int(v.vocab.keys[c]) >= v.vocab.width]
    need = np.asarray(bigrams or list(cols), dtype=np.int64)
    out: list[int] = []
    step = 16384
    for s in range(0, len(v), step):
        ids = np.asarray(v.term_ids[s : s + step]).astype(np.int64)
        has = np.ones(len(ids), dtype=bool)
        for c in need:
            has &= (ids == c).any(axis=1)
        out.extend(int(x) + s for x in np.flatnonzero(has))
    return out


def word_forms(word: str) -> list[str]:
    """`word` in the singular and plural, as the vectors' stemmer takes them ("molecules"
    also finds "molecule", "policy" "policies"), lower-case, longest first."""
    base = stem(word.lower())
    forms = {word.lower(), base, base + "s", base + "es"}
    if base.endswith("y"):
        forms.add(base[:-1] + "ies")
    return sorted(forms, key=lambda f: (-len(f), f))
