"""Scoring plain word queries from arrays: each term's postings read once, block by block, into
numpy arrays with their BM25F scores, and whole queries scored over every paper at once.

Whoosh walks a tree of matchers posting by posting in Python: at 100,000 abstracts a query of
three or four common words ("show models consistently", "lear*" standing for eight words)
costs hundreds of milliseconds. The same hits and scores come from adding up per-term score
arrays, which also keep: the most frequent words come back in every other query.

Only queries of words (terms, their OR and AND, any nesting) are scored here, with the index's
BM25F weighting; anything else (phrases, ranges, NOT, boosts) goes to Whoosh. The scores are
Whoosh's own (the same formula on the same float64 values), summed in another order, so two
papers whose scores differ only in the last bit may swap places.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from whoosh import query as wq
from whoosh import scoring
from whoosh.codec import whoosh3
from whoosh.matching.wrappers import FilterMatcher
from whoosh.util.numeric import byte_to_length

from papertui.core.search.dense import DenseReader, path_for
from papertui.core.search.lengths import WholeColumn
from papertui.core.search.stopping import check_stop

# Until numpy is loaded (by an earlier query, or the semantic features), a query is scored
# from arrays only if its words have this many postings: below, Whoosh answers in less time
# than importing numpy takes (~0.1 s), which a one-shot `papertui search` would pay.
COLD_FROM = 50_000
# Terms whose arrays are kept (the most recently used), and only terms this common: rarer
# ones are cheap to read again.
KEEP_TERMS = 256
KEEP_FROM_DF = 500
# ... and at most this many bytes of them: at a million papers a common word's arrays take
# 7 MB, and 256 of them would double the reader's memory.
KEEP_BYTES = 96 * 2**20
# Blocks of postings (128 each, ~0.1 ms) read between two checks that the search is still wanted.
STOP_EVERY = 64

if TYPE_CHECKING:
    import numpy as np

    _Arrays = tuple[np.ndarray, np.ndarray]  # global document numbers (ascending), scores
else:
    np = None  # imported on the first query (`_numpy`), not on the way to the first paint


def _numpy() -> None:
    global np
    if np is None:
        import numpy

        np = numpy


class ArrayScorer:
    """Answers word queries against one open searcher (one index generation)."""

    def __init__(self, searcher: Any) -> None:
        self._searcher = searcher
        self._count = searcher.doc_count_all()
        self._leaves = [(s.reader(), offset) for s, offset in searcher.leaf_searchers()]
        self._lengths: dict[str, np.ndarray] = {}
        self._deletions: dict[int, np.ndarray] = {}  # id(leaf reader) -> its deleted papers
        self._dense: dict[int, DenseReader | None] = {}  # id(leaf reader) -> its common words
        self._kept: OrderedDict[tuple[str, str], _Arrays] = OrderedDict()
        self._kept_bytes = 0
        weighting = searcher.weighting
        self.usable = type(weighting) is scoring.BM25F

    def handles(self, q: wq.Query) -> bool:
        """Whether `q` is words only (terms under AND and OR), all with no boost."""
        if not self.usable:
            return False
        if type(q) in (wq.And, wq.Or):
            return q.boost == 1.0 and bool(q.subqueries) and all(map(self.handles, q.subqueries))
        return type(q) is wq.Term and q.boost == 1.0 and isinstance(q.text, str)

    def worth(self, q: wq.Query) -> bool:
        """Whether to score `q` from arrays: it is words only, and numpy is loaded or the
        query is large enough to pay for loading it."""
        if not self.handles(q):
            return False
        if "numpy" in sys.modules:
            return True
        searcher = self._searcher
        postings = sum(searcher.doc_frequency(t.fieldname, t.text) for t in q.leaves())
        return postings >= COLD_FROM

    def search(
        self,
        q: wq.Query,
        limit: int | None,
        allowed: wq.Query | None = None,
        excluded: wq.Query | None = None,
    ) -> tuple[list[tuple[int, float]], int]:
        """(document number, score) of the best `limit` hits (all: None), best first, ties
        by document number, as Whoosh's collector orders them; and how many papers match."""
        _numpy()
        matched, scores = self._evaluate(q)
        if allowed is not None:
            matched &= self._matching(allowed)
        if excluded is not None:
            matched &= ~self._matching(excluded)
        docs = np.flatnonzero(matched)
        total = len(docs)
        if not total:
            return [], 0
        found = scores[docs]
        if limit is not None and len(docs) > limit:
            # the limit-th best score; everything above it, and its ties, go on to the sort
            cut = np.partition(found, len(found) - limit)[len(found) - limit]
            keep = found >= cut
            docs, found = docs[keep], found[keep]
        order = np.lexsort((docs, -found))
        if limit is not None:
            order = order[:limit]
        hits = [(int(d), float(s)) for d, s in zip(docs[order], found[order], strict=True)]
        return hits, total

    def first_live(self, limit: int | None) -> list[int]:
        """The first `limit` (None: all) papers not deleted, by document number."""
        found: list[int] = []
        for reader, offset in self._leaves:
            deleted = reader.deleted_docs_set if reader.has_deletions() else frozenset()
            for docnum in range(reader.doc_count_all()):
                if limit is not None and len(found) >= limit:
                    return found
                if docnum not in deleted:
                    found.append(docnum + offset)
        return found

    def admitted(
        self, limit: int | None, allowed: wq.Query | None, excluded: wq.Query | None
    ) -> tuple[list[int], int]:
        """The first `limit` (None: all) papers the conditions admit, by document number, and
        how many they admit."""
        _numpy()
        matched = np.ones(self._count, dtype=bool)
        for reader, offset in self._leaves:
            deleted = self._deleted(reader)
            if deleted is not None:
                matched[offset : offset + reader.doc_count_all()] &= ~deleted
        if allowed is not None:
            matched &= self._matching(allowed)
        if excluded is not None:
            matched &= ~self._matching(excluded)
        docs = np.flatnonzero(matched)
        return docs[:limit].tolist(), len(docs)

    def _evaluate(self, q: wq.Query) -> tuple[np.ndarray, np.ndarray]:
        """Which papers `q` matches, and their scores (0 where it does not)."""
        if type(q) is wq.Term:
            docs, term_scores = self.term(q.fieldname, q.text)
            matched = np.zeros(self._count, dtype=bool)
            matched[docs] = True
            scores = np.zeros(self._count)
            scores[docs] = term_scores
            return matched, scores
        parts = [self._evaluate(child) for child in q.subqueries]
        matched, scores = parts[0]
        for more, more_scores in parts[1:]:
            if type(q) is wq.And:
                matched &= more
            else:
                matched |= more
            scores += more_scores
        return matched, scores

    def _matching(self, q: wq.Query) -> np.ndarray:
        """Which papers `q` matches (a filter: its scores are not needed)."""
        if type(q) is wq.Or and all(type(c) is wq.Term for c in q.subqueries):
            # a list of ids or collections: one array of their documents, not one per value
            matched = np.zeros(self._count, dtype=bool)
            for term in q.subqueries:
                matched[self._postings(term.fieldname, term.text)[0]] = True
            return matched
        if type(q) is wq.Term:
            matched = np.zeros(self._count, dtype=bool)
            matched[self._postings(q.fieldname, q.text)[0]] = True
            return matched
        parts = [self._matching(child) for child in q.subqueries]
        for more in parts[1:]:
            if type(q) is wq.And:
                parts[0] &= more
            else:
                parts[0] |= more
        return parts[0]

    def term(self, fieldname: str, text: str) -> _Arrays:
        """The documents holding a term and each one's score for it."""
        _numpy()
        key = (fieldname, text)
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        check_stop()
        docs, weights = self._postings(fieldname, text)
        if not len(docs):
            return docs, weights
        scorer = self._searcher.weighting.scorer(self._searcher, fieldname, text)
        if isinstance(scorer, scoring.BM25FScorer):
            lengths = self._field_lengths(fieldname)[docs]
            idf, k1, b, avgfl = scorer.idf, scorer.K1, scorer.B, scorer.avgfl
            # whoosh.scoring.bm25, term for term
            scores = idf * ((weights * (k1 + 1)) / (weights + k1 * ((1 - b) + b * lengths / avgfl)))
        else:
            scores = np.zeros(len(docs))
        found = (docs, scores)
        size = docs.nbytes + scores.nbytes
        if len(docs) >= KEEP_FROM_DF and size <= KEEP_BYTES:
            self._kept[key] = found
            self._kept_bytes += size
            while len(self._kept) > KEEP_TERMS or self._kept_bytes > KEEP_BYTES:
                _key, (old_docs, old_scores) = self._kept.popitem(last=False)
                self._kept_bytes -= old_docs.nbytes + old_scores.nbytes
        return found

    def _postings(self, fieldname: str, text: str) -> tuple[np.ndarray, np.ndarray]:
        ids: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        for reader, offset in self._leaves:
            if (fieldname, text) not in reader:
                continue
            common = self._common_words(reader)
            found = common.postings(fieldname, text) if common is not None else None
            if found is None:
                found = _read_postings(reader.postings(fieldname, text))
            leaf_ids, leaf_weights = found
            deleted = self._deleted(reader)
            if deleted is not None and len(leaf_ids):
                live = ~deleted[leaf_ids]
                leaf_ids, leaf_weights = leaf_ids[live], leaf_weights[live]
            ids.append(leaf_ids + offset)
            weights.append(leaf_weights)
        if not ids:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        return np.concatenate(ids), np.concatenate(weights)

    def _common_words(self, reader: Any) -> DenseReader | None:
        """The segment's common words as plain arrays (`dense.py`), if it has them."""
        key = id(reader)
        if key not in self._dense:
            folder = getattr(reader.storage(), "folder", None)
            segment = reader.segment()
            self._dense[key] = (
                DenseReader.open(path_for(folder, segment.segment_id()))
                if folder is not None and segment is not None
                else None
            )
        return self._dense[key]

    def _deleted(self, reader: Any) -> np.ndarray | None:
        """A segment's deleted papers as a mask over its document numbers, None when it has
        none (kept: a generation's deletions never change)."""
        if not reader.has_deletions():
            return None
        key = id(reader)
        found = self._deletions.get(key)
        if found is None:
            ids = reader.deleted_docs_set
            found = np.zeros(reader.doc_count_all(), dtype=bool)
            found[np.fromiter(ids, np.int64, len(ids))] = True
            self._deletions[key] = found
        return found

    def _field_lengths(self, fieldname: str) -> np.ndarray:
        """Every document's length of the field as BM25 reads it (`doc_field_length`, 1 when
        none is stored)."""
        found = self._lengths.get(fieldname)
        if found is None:
            table = np.array([1.0] + [float(byte_to_length(b)) for b in range(1, 256)])
            parts = []
            for reader, _offset in self._leaves:
                count = reader.doc_count_all()
                column = reader._perdoc._cached_reader(
                    whoosh3._lenfield(fieldname), whoosh3.LENGTHS_COLUMN
                )
                if column is None:
                    parts.append(np.ones(count))
                elif isinstance(column, WholeColumn):  # the column in memory: one copy
                    parts.append(table[np.frombuffer(column.codes(), np.uint8, count)])
                else:
                    codes = np.fromiter((column[d] for d in range(count)), np.uint8, count)
                    parts.append(table[codes])
            found = self._lengths[fieldname] = np.concatenate(parts) if parts else np.ones(0)
        return found


def _read_postings(matcher: Any) -> tuple[np.ndarray, np.ndarray]:
    """A segment's postings of a term, deleted papers included: a segment with deletions is
    read in blocks like any other's and its deleted papers masked out after (one by one, a
    million papers' most common word took over a second)."""
    if type(matcher) is FilterMatcher and matcher._exclude:
        matcher = matcher.child
    if type(matcher) is whoosh3.W3LeafMatcher:
        return _read_blocks(matcher)
    return _read_each(matcher)  # inlined postings (a rare word): one by one


def _read_blocks(matcher: Any) -> tuple[np.ndarray, np.ndarray]:
    """A leaf matcher's postings, a block (up to 128) at a time, decoded with numpy (Whoosh's
    own decoding, a generator per posting, was a fifth of a common word's time)."""
    ids: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    blocks = 0
    while matcher.is_active():
        blocks += 1
        if not blocks % STOP_EVERY:
            check_stop()
        if matcher._data is None:
            matcher._read_data()
        raw_ids, raw_weights = matcher._data[0], matcher._data[1]
        block = np.asarray(raw_ids, dtype=np.int64)
        ids.append(block if matcher._byteids else np.cumsum(block))
        count = len(block)
        if raw_weights is None:
            weights.append(np.ones(count))
        elif isinstance(raw_weights, float):
            weights.append(np.full(count, raw_weights))
        else:
            weights.append(np.asarray(raw_weights, dtype=np.float64))
        matcher._next_block()
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    return np.concatenate(ids), np.concatenate(weights)


def _read_each(matcher: Any) -> tuple[np.ndarray, np.ndarray]:
    ids, weights = [], []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    return np.array(ids, dtype=np.int64), np.array(weights, dtype=np.float64)
