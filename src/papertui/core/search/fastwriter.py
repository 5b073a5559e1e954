"""A faster writer for fresh segments: the same files, bytes for bytes, as Whoosh's own.

Whoosh's `SegmentWriter` puts every posting of a build (about 117 an abstract: 11.7 million
at 100,000 papers) through a chain of generators into a list of 5-tuples, sorts that list (or
spills it to disk in pickled runs and merges them), and then writes each posting with a
method call that also looks up its document's field length. At 100,000 abstracts that is most
of a build. This writer keeps the postings by field and term as they arrive (document numbers
in arrays, positions encoded once, most of them shared: a word seen once is the same bytes in
every document where it stands at the same place) and writes each term's blocks in bulk
through Whoosh's own block writer, so the index is read by the unchanged Whoosh reader.

`tests/unit/test_search_build.py` checks that the postings and terms files it writes are
identical to Whoosh's for the same papers, which holds the internals used here to the pinned
Whoosh (whoosh-reloaded 2.7.5).
"""

from __future__ import annotations

import re
from array import array
from pathlib import Path
from typing import Any

from whoosh import formats
from whoosh.analysis import STOP_WORDS
from whoosh.fields import ID
from whoosh.lang.porter import stem
from whoosh.support.charset import accent_map
from whoosh.writing import SegmentWriter

from papertui.core.search import cjk, dense, spill
from papertui.core.search.postings import (
    Pool,
    encode_positions,
    field_lengths,
    shared,
    write_postings,
)
from papertui.core.search.schema import NAMES, FastStemAnalyzer

# the analyzer's words (without its capturing group, so that findall returns whole words)
_ASCII_WORD = re.compile(r"\w+(?:\.?\w+)*")
# word -> its indexed term, "" for words the analyzer drops (stop words, single letters)
_TERMS: dict[str, str] = {}


def _term(word: str) -> str:
    if len(_TERMS) > 500_000:
        _TERMS.clear()
    if word.isascii():
        folded = word
    elif cjk.is_piece(word):  # a CJK pair or lone character: the term as it is
        _TERMS[word] = word
        return word
    else:
        folded = word.translate(accent_map)  # as the analyzer does
    term = "" if len(folded) < 2 or folded in STOP_WORDS else stem(folded)
    _TERMS[word] = term
    return term


class FastSegmentWriter(SegmentWriter):  # type: ignore[misc]
    """A `SegmentWriter` for adding documents to a new segment (not for deleting or merging)."""

    def __init__(self, ix: Any, **kwargs: Any) -> None:
        super().__init__(ix, **kwargs)
        self.pool = Pool()
        self._fast = {
            name: field
            for name, field in self.schema.items()
            if isinstance(field.analyzer, FastStemAnalyzer)
            and type(field.format) is formats.Positions
            and not field.vector
            and not field.separate_spelling()
        }
        # names (authors, venues): words lowercased, never stemmed; ASCII ones split here
        self._names = {
            name
            for name, field in self.schema.items()
            if field.analyzer is NAMES
            and type(field.format) is formats.Positions
            and not field.vector
            and not field.separate_spelling()
        }
        # what Whoosh makes of a value of the other fields, by field and value: a year or a
        # list of categories repeats in thousands of papers (ids, fingerprints and author
        # lists hardly ever do: kept, those of a million papers were 100 MB a writer)
        self._repeating = {
            name
            for name, field in self.schema.items()
            if not isinstance(field, ID) and name not in self._names
        }
        self._indexed: dict[tuple[str, object], list[tuple[bytes, int, float, bytes]]] = {}
        # the words of the document's ASCII text fields as they were split, by field
        self.words: dict[str, list[str]] = {}
        self._runs: spill.Runs | None = None  # postings spilled to disk, if any
        self._unspilled = 0  # papers whose postings are in the pool

    def add_document(self, **fields: Any) -> None:
        self._add_document(**fields)
        self._unspilled += 1
        if self._unspilled >= spill.SPILL_DOCS:  # keep the pool at a few thousand papers
            if self._runs is None:
                self._runs = spill.Runs(Path(self.storage.folder))
            self._runs.spill(self.pool.terms)
            self._unspilled = 0

    def cancel(self) -> None:
        self._drop_runs()
        super().cancel()

    def _drop_runs(self) -> None:
        if self._runs is not None:
            self._runs.close()
            self._runs = None

    def _add_document(self, **fields: Any) -> None:
        fast = self._fast
        stored: dict[str, Any] = {}  # values stored instead of those indexed, by field
        if any(k.startswith("_") for k in fields):
            stored = {k[8:]: v for k, v in fields.items() if k.startswith("_stored_")}
            if len(stored) < sum(k.startswith("_") for k in fields):  # boosts: Whoosh's writer
                super().add_document(**fields)
                return
            fields = {k: v for k, v in fields.items() if not k.startswith("_")}
        if not fast.keys() & fields.keys():
            super().add_document(**fields)
            return
        self._check_state()
        self._check_fields(self.schema, list(fields))
        perdoc = self.perdocwriter
        docnum = self.docnum
        perdoc.start_doc(docnum)
        self.words.clear()
        try:
            for fieldname in sorted(fields):
                value = fields[fieldname]
                if value is None:
                    continue
                field = self.schema[fieldname]
                if fieldname in fast:
                    length = self._add_text(fieldname, field, docnum, value)
                elif fieldname in self._names and isinstance(value, str) and value.isascii():
                    length = self._add_names(fieldname, field, docnum, value)
                else:
                    length = self._add_generic(fieldname, field, docnum, value)
                kept = stored.get(fieldname, value)  # as Whoosh's writer takes "_stored_"
                perdoc.add_field(fieldname, field, kept if field.stored else None, length)
                column = field.column_type
                if column and kept is not None:
                    perdoc.add_column_value(fieldname, column, field.to_column_value(kept))
        except Exception:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        self._added = True
        self.docnum += 1

    def _add_text(self, fieldname: str, field: Any, docnum: int, value: str) -> int:
        """Positions of the stemmed words of `value`, as the field's analyzer and its
        Positions format give them, added straight to the pool."""
        if not isinstance(value, str):
            raise ValueError(f"{value!r} is not unicode")
        if value.isascii():  # lowercasing first changes no word's extent
            words = self.words[fieldname] = _ASCII_WORD.findall(value.lower())
        else:
            words = [m.group().lower() for m in FastStemAnalyzer._pattern.finditer(value)]
            if cjk.RUN.search(value) is not None:  # each CJK run as its pairs (`cjk.pieces`)
                words = [p[0] for w in words for p in cjk.pieces(w)]
        memo = _TERMS
        poses: dict[str, list[int]] = {}
        pos = 0
        for word in words:
            stemmed = memo.get(word)
            if stemmed is None:
                stemmed = _term(word)
            if not stemmed:
                continue  # a stop word or a single letter
            found = poses.get(stemmed)
            if found is None:
                poses[stemmed] = [pos]
            else:
                found.append(pos)
            pos += 1
        self._pool_positions(fieldname, field, docnum, poses)
        return pos

    def _add_names(self, fieldname: str, field: Any, docnum: int, value: str) -> int:
        """The positions of the words of an ASCII `value` in a field analysed by `NAMES`
        (every word a term, lowercased: folding accents changes no ASCII letter)."""
        words = self.words[fieldname] = _ASCII_WORD.findall(value.lower())
        poses: dict[str, list[int]] = {}
        for pos, word in enumerate(words):
            found = poses.get(word)
            if found is None:
                poses[word] = [pos]
            else:
                found.append(pos)
        self._pool_positions(fieldname, field, docnum, poses)
        return len(words)

    def _pool_positions(
        self, fieldname: str, field: Any, docnum: int, poses: dict[str, list[int]]
    ) -> None:
        """Add one document's terms with their positions (as Whoosh's Positions format
        encodes them) to the pool."""
        if not poses:
            return
        terms = self.pool.field(fieldname)
        boost = field.format.field_boost
        for word, positions in poses.items():
            tbytes = word.encode("utf-8")
            postings = terms.get(tbytes)
            if postings is None:
                postings = terms[tbytes] = (array("I"), array("d"), [])
            postings[0].append(docnum)
            postings[1].append(len(positions) * boost)
            postings[2].append(encode_positions(positions))

    def _add_generic(self, fieldname: str, field: Any, docnum: int, value: Any) -> int:
        if not field.indexed:
            return 0
        items = None
        key = (fieldname, value)
        repeats = fieldname in self._repeating and isinstance(value, str | int)
        if repeats:
            items = self._indexed.get(key)
        if items is None:
            items = list(field.index(value))
            if repeats:
                if len(self._indexed) > 20_000:
                    self._indexed.clear()
                self._indexed[key] = items
        if not items:
            return 0
        terms = self.pool.field(fieldname)
        length = 0
        for tbytes, freq, weight, vbytes in items:
            length += freq
            postings = terms.get(tbytes)
            if postings is None:
                postings = terms[tbytes] = (array("I"), array("d"), [])
            postings[0].append(docnum)
            postings[1].append(weight)
            # a value of its own, as Whoosh's gives: a block pickles a repeated object as a
            # reference to the first, which would be other bytes than Whoosh's
            postings[2].append(bytes(memoryview(vbytes)) if vbytes else b"")
        return length if field.scorable else 0

    def _flush_segment(self) -> None:
        self.perdocwriter.close()
        pdr = self.per_document_reader() if self.codec.length_stats else None
        runs = self._runs or spill.Runs(Path(self.storage.folder))
        common = dense.DenseWriter(
            dense.path_for(self.storage.folder, self.newsegment.segment_id())
        )
        try:
            fw = self.fieldwriter
            current = None
            lengths: list[int] = []
            for fieldname, tbytes, postings in runs.merged(self.pool.terms, shared):
                if fieldname != current:
                    if current is not None:
                        fw.finish_field()
                    current = fieldname
                    lengths = field_lengths(pdr, fieldname, self.docnum)
                    fw.start_field(fieldname, self.schema[fieldname])
                fw.start_term(tbytes)
                write_postings(fw._postwriter, postings, lengths)
                fw.finish_term()
                common.add(fieldname, tbytes, postings[0], postings[1])
            if current is not None:
                fw.finish_field()
            fw.close()
            common.close()
        except BaseException:
            common.cancel()
            raise
        finally:
            self._drop_runs()
            if pdr is not None:
                pdr.close()
