"""Queries against an open index: parsing, typo repair, prefix expansion, filters and similar
papers (the words a query matched are found by `highlight`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from whoosh import index as windex
from whoosh import query as wq
from whoosh.idsets import SortedIntSet
from whoosh.lang.porter import stem

from papertui.core.corpus import Paper
from papertui.core.search import lengths
from papertui.core.search.answers import _INDEX_ERRORS, SearchFailed, SearchResult, _why
from papertui.core.search.arrays import ArrayScorer
from papertui.core.search.highlight import _WORD, Highlighter, highlighter_for
from papertui.core.search.parsing import EVERYTHING, parse
from papertui.core.search.repair import Repair
from papertui.core.search.schema import FIELDS
from papertui.core.search.stopping import SearchStopped
from papertui.core.search.vocabulary import Vocabulary

_YEAR_RANGE = re.compile(r"\byear:(\d{4})\s*(?:-|\.\.)\s*(\d{4})\b")
# A query of this many alternative words or more (a prefix's words in both fields) is scored
# from preloaded arrays; fewer (one word in two fields) are scored by Whoosh's matchers, whose
# block-quality skipping then wins (at 100k: "training" 86 ms vs 189 ms preloaded, "lear*"
# 413 ms preloaded vs 656 ms).
PRELOAD_FROM = 6
# Up to this many papers, query words that stand together rank higher (costs a phrase match).
BOOST_UP_TO = 20_000


# -- the index --------------------------------------------------------------------------------


class SearchIndex:
    """An open, ready index generation. Use from one thread at a time."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        lengths.install()  # here, where an index is opened: importing papertui patches nothing
        self._ix = windex.open_dir(str(directory))
        self._searcher = self._ix.searcher()
        self._words = Vocabulary(directory / "vocab.json")
        self._ids = self._searcher.reader().column_reader("id")
        self._arrays = ArrayScorer(self._searcher)
        self._filter: wq.Query | None = None
        self._mask: wq.Query | None = None
        self.doc_count = self._searcher.doc_count()

    def close(self) -> None:
        self._searcher.close()
        self._ix.close()

    def apply_titles(self, papers: Sequence[Paper]) -> None:
        """Give papers the titles derived when the index was built (deriving costs seconds)."""
        if all(paper.title_known for paper in papers):
            return  # real titles, or given already: skip reading 10 MB of JSON
        try:
            titles = json.loads((self.directory / "titles.json").read_text("utf-8"))
        except (OSError, ValueError):
            return
        for paper in papers:
            if not paper.title_known:
                title = titles.get(paper.id)
                if title:
                    paper.title = title

    def similar(self, ids: Sequence[str], limit: int) -> list[tuple[str, float]]:
        """Papers sharing the most distinctive terms of the papers `ids` (not those papers)."""
        docnums = [
            n for n in (self._searcher.document_number(id=pid) for pid in ids) if n is not None
        ]
        if not docnums:
            return []
        terms = self._searcher.key_terms(docnums, "abstract", numterms=25)
        if not terms:
            return []
        q = wq.Or([wq.Term("abstract", term, boost=weight) for term, weight in terms])
        exclude = wq.Or([wq.Term("id", pid) for pid in ids])
        results = self._searcher.search(q, limit=limit, mask=exclude)
        return [(self._ids[docnum], float(score or 0.0)) for score, docnum in results.top_n]

    def stored(self, pid: str) -> dict[str, object] | None:
        """What the index keeps of a paper: id, title, abstract, collections, urls."""
        fields = self._searcher.document(id=pid)
        if fields is None:
            return None
        meta = fields.get("meta") or {}
        return {
            "id": fields["id"],
            "title": fields.get("title", ""),
            "abstract": fields.get("abstract", ""),
            "collections": list(meta.get("collections", [])),
            "urls": list(meta.get("urls", [])),
            "authors": list(meta.get("authors", [])),
            "venue": meta.get("venue", ""),
            "year": meta.get("year"),
            "extra": meta.get("extra", ""),
        }

    def titles_in_file_order(self, ids: Iterable[str]) -> list[tuple[str, str]]:
        """(id, title) of the papers `ids` that the index holds, in the library's order."""
        searcher = self._searcher
        found = [(n, pid) for pid in ids if (n := searcher.document_number(id=pid)) is not None]
        return [(pid, searcher.stored_fields(n).get("title", "")) for n, pid in sorted(found)]

    def _known(self, stemmed: str) -> bool:
        return any(self._searcher.doc_frequency(f, stemmed) > 0 for f in FIELDS)

    def correct(self, word: str) -> list[str]:
        """Indexed words near `word`, nearest and then most frequent first (see
        `Vocabulary.nearest`)."""
        return self._words.nearest(word)

    def search(
        self,
        text: str,
        limit: int | None = None,
        only: Sequence[tuple[str, Sequence[str]]] = (),
        exclude: Sequence[tuple[str, Sequence[str]]] = (),
    ) -> SearchResult:
        """Run a full-text query. Never raises for any query string; raises `SearchFailed` when
        the index itself cannot be read.

        `only` and `exclude` restrict the results to (or away from) papers whose `id` or
        `collection` is one of the given values; each (field, values) pair is one condition.
        """
        self._filter = _condition(only, wq.And)
        self._mask = _condition(exclude, wq.Or)
        text = _YEAR_RANGE.sub(r"year:\1-\2", text)  # "year:2021 - 2023" is one range
        raw_words = {stem(w.lower()): w.lower() for w in _WORD.findall(text)}
        repair = Repair(self._words, self._known, raw_words)
        fallback = False
        try:
            built = parse(text)
            if built is None or built is EVERYTHING:  # no word it keeps: no constraint
                return self._everything(limit)
            parsed = built if isinstance(built, wq.Query) else wq.NullQuery
            parsed = parsed.accept(repair)
            parsed = self._boost_adjacent(parsed)
            hits, matched = self._run(parsed, limit)
        except _INDEX_ERRORS as exc:
            raise SearchFailed(_why(exc)) from exc
        except SearchStopped:
            raise
        except Exception:  # noqa: BLE001 - some strings make every Whoosh parser raise
            # (or the query it parses to raise when run): search the words as typed
            fallback = True
            repair = Repair(self._words, self._known, raw_words)
            try:
                parsed = self._plain(text, repair)
                hits, matched = self._run(parsed, limit)
            except SearchStopped:
                raise
            except Exception as exc:
                # plain words always run on a sound index: what failed is the index itself
                raise SearchFailed(_why(exc)) from exc
        lit = highlighter_for(parsed, repair.around)
        return SearchResult(hits, lit, repair.corrections, fallback, matched)

    def _everything(self, limit: int | None) -> SearchResult:
        """Every paper the conditions admit, in file order. Typing a first letter asks for
        this: Whoosh would match and count every paper (over a second at a million), while
        the first `limit` are all the list shows."""
        if self._filter is wq.NullQuery:
            return SearchResult([], Highlighter(), {}, False, 0)
        conditions = [c for c in (self._filter, self._mask) if c is not None]
        arrays = self._arrays
        if not conditions:
            docs, total = arrays.first_live(limit), self.doc_count
        elif all(map(arrays.handles, conditions)):
            docs, total = arrays.admitted(limit, self._filter, self._mask)
        else:
            results = self._searcher.search(
                wq.Every(), limit=limit, filter=self._filter, mask=self._mask
            )
            docs, total = [docnum for _score, docnum in results.top_n], len(results)
        hits = [(self._ids[docnum], 0.0) for docnum in docs]
        return SearchResult(hits, Highlighter(), {}, False, total)

    def _run(self, q: wq.Query, limit: int | None) -> tuple[list[tuple[str, float]], int | None]:
        """The best `limit` hits, and how many papers match when that is known exactly."""
        if q is wq.NullQuery or self._filter is wq.NullQuery:
            return [], 0
        ids = self._ids  # a column: no stored document (with its abstract) is read per hit
        arrays = self._arrays
        conditions = [c for c in (self._filter, self._mask) if c is not None]
        if arrays.worth(q) and all(map(arrays.handles, conditions)):
            found, count = arrays.search(q, limit, self._filter, self._mask)
            return [(ids[docnum], score) for docnum, score in found], count
        if _alternatives_only(q) and len(list(q.leaves())) >= PRELOAD_FROM:
            _preload(q)
        allowed, masked = self._docs_of(self._filter), self._docs_of(self._mask)
        if allowed is not None and not allowed:
            return [], 0  # (Whoosh takes an empty set of allowed papers for no condition)
        results = self._searcher.search(q, limit=limit, filter=allowed, mask=masked)
        # when the best `limit` were found by skipping, every match is counted all the same:
        # the status line says how many papers match, not how many were ranked
        exact = results.has_exact_length()
        total = len(results) if exact else self._count(q, allowed, masked)
        return [(ids[docnum], float(score or 0.0)) for score, docnum in results.top_n], total

    def _count(self, q: wq.Query, allowed: SortedIntSet | None, masked: SortedIntSet | None) -> int:
        """How many papers `q` matches within the conditions, unscored."""
        docs = self._searcher.docs_for_query(q)
        if allowed is None and masked is None:
            return sum(1 for _ in docs)
        return sum(
            1
            for d in docs
            if (allowed is None or d in allowed) and (masked is None or d not in masked)
        )

    def _docs_of(self, condition: wq.Query | None) -> SortedIntSet | None:
        """A filter's papers as a sorted array: Whoosh makes a bit set of them, and asks whether
        it is empty (a scan up to its first paper) for every hit (a tag of 200 papers among a
        million: 0.3 s added to a search)."""
        if condition is None:
            return None
        return SortedIntSet(self._searcher.docs_for_query(condition))

    def _boost_adjacent(self, q: wq.Query) -> wq.Query:
        """Rank papers where plain query words stand together ("graph contrastive") higher."""
        if not isinstance(q, wq.And):
            return q
        words: list[str] = []
        for clause in q.children():
            terms = [t for t in clause.leaves()] if isinstance(clause, wq.Or) else []
            texts = {t.text for t in terms if isinstance(t, wq.Term)}
            if len(texts) != 1 or len(terms) != len(FIELDS) or not isinstance(clause, wq.Or):
                return q
            words.append(texts.pop())
        if len(words) < 2:
            return q
        if self.doc_count > BOOST_UP_TO:
            return q  # matching positions in every hit costs more than it gains at this size
        near = [wq.Phrase(f, words, slop=2, boost=2.0) for f in FIELDS]
        return wq.AndMaybe(q, wq.Or(near))

    def _plain(self, text: str, repair: Repair) -> wq.Query:
        """Every word of the query, as plain required terms, with typo repair."""
        analyzer = self._ix.schema["abstract"].analyzer
        clauses = []
        for token in analyzer(text):
            word = token.text
            per_field = [repair(wq.Term(f, word)) for f in FIELDS]
            clauses.append(wq.Or(per_field))
        return wq.And(clauses) if clauses else wq.NullQuery


def _condition(pairs: Sequence[tuple[str, Sequence[str]]], combine: type) -> wq.Query | None:
    """Whoosh filter for (field, allowed values) pairs; NullQuery when one allows nothing."""
    if not pairs:
        return None
    parts = []
    for fieldname, values in pairs:
        if not values:
            if combine is wq.And:
                return wq.NullQuery  # a condition nothing satisfies: no results at all
            continue
        parts.append(wq.Or([wq.Term(fieldname, v) for v in values]))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else combine(parts)


def _alternatives_only(q: wq.Query) -> bool:
    """A query of alternative words only (one word typed: its fields, its corrections or the
    words its prefix stands for)."""
    if isinstance(q, wq.Or):
        return all(_alternatives_only(c) for c in q.subqueries)
    return isinstance(q, wq.Term)


def _preload(q: wq.Query) -> None:
    """Score such a query by reading each word's postings once into an array, as Whoosh does
    for small indexes: at 100,000 papers, walking a tree of union matchers over eight common
    words costs 2-3 times as much, for the same hits and scores."""
    if isinstance(q, wq.Or):
        q.matcher_type = wq.Or.ARRAY_MATCHER
        for child in q.subqueries:
            _preload(child)
