"""What a parsed query becomes before it runs: typo repair, prefix expansion, and a lone CJK
character searched in the pairs that hold it."""

from __future__ import annotations

import re
from collections.abc import Callable

from whoosh import query as wq
from whoosh.lang.porter import stem

from papertui.core.search import cjk
from papertui.core.search.schema import FIELDS
from papertui.core.search.vocabulary import Vocabulary

# A prefix query searches at most this many of the words it could stand for.
PREFIX_EXPANSIONS = 8
# A lone CJK character is searched in at most this many of the pairs holding it, the most used.
PAIRS_PER_CHARACTER = 64


class Repair:
    """One query's repairs, leaf by leaf (given to a Whoosh query's accept): wildcards too
    broad to run are dropped, unknown words replaced by near ones (`corrections` says which),
    and a lone CJK character stands for itself and the pairs that hold it (`around` gets
    those pairs)."""

    def __init__(
        self, words: Vocabulary, known: Callable[[str], bool], raw: dict[str, str]
    ) -> None:
        self._words = words
        self._known = known  # whether the index holds a term in the title or the abstract
        self._raw = raw  # stem -> the word as typed
        self.corrections: dict[str, str] = {}
        self.around: set[str] = set()

    def __call__(self, q: wq.Query) -> wq.Query:
        if isinstance(q, (wq.And, wq.Or)):
            kept = [c for c in q.subqueries if c is not wq.NullQuery]
            if len(kept) != len(q.subqueries):
                return type(q)(kept) if kept else wq.NullQuery
            return q
        if isinstance(q, wq.Every):
            return wq.NullQuery  # a bare `*` would rank the whole corpus on every keystroke
        if isinstance(q, (wq.Prefix, wq.Wildcard)):
            return self._wildcard(q)
        if not isinstance(q, wq.Term) or q.fieldname not in FIELDS:
            return q
        if len(q.text) == 1 and cjk.is_piece(q.text):
            # the index holds a CJK character alone only where it stands alone; elsewhere it
            # is in the pairs of its run
            pairs = self._words.pairs_with(q.text, PAIRS_PER_CHARACTER)
            self.around.update(pairs)
            terms = [wq.Term(q.fieldname, t) for t in (q.text, *pairs)]
            return wq.Or(terms) if pairs else q
        if not self._known(q.text):
            original = self._raw.get(q.text, q.text)
            near = self._words.nearest(original)
            if near:
                # only the word the status names is searched: "modle" finds "model" papers,
                # not also those of "mode"
                self.corrections[original] = near[0]
                return wq.Term(q.fieldname, stem(near[0]))
        return q

    def _wildcard(self, q: wq.Prefix | wq.Wildcard) -> wq.Query:
        literal = re.split(r"[*?]", q.text, maxsplit=1)[0]
        if len(literal) < 2 and not cjk.has_cjk(literal):
            return wq.NullQuery
        if isinstance(q, wq.Prefix) and q.fieldname in FIELDS:
            # the words people mean by "lear*": the most frequent indexed words that start
            # so, by their stems (the index holds "invert" for "invertible"); capped, as a
            # prefix matching hundreds of rare words would rank the whole corpus
            words = sorted(
                self._words.starting_with(literal.lower(), limit=5000),
                key=lambda w: -self._words.count(w),
            )[:PREFIX_EXPANSIONS]
            stems = sorted({w if cjk.is_piece(w) else stem(w) for w in words})
            return wq.Or([wq.Term(q.fieldname, s) for s in stems]) if stems else q
        return q
