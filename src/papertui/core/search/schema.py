"""The index's schema and its analyzers: how text becomes terms, for indexing and queries alike."""

from __future__ import annotations

import re
from collections.abc import Callable, Generator

from whoosh.analysis import (
    STOP_WORDS,
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    Token,
    Tokenizer,
)
from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.lang.porter import stem
from whoosh.support.charset import accent_map

from papertui.core.search.cjk import RUN, pieces

INDEX_VERSION = "31"  # bump when the schema, the derived fields (titles too) or the layout change
FIELDS = ("title", "abstract")
Progress = Callable[[int, int], None]


class IndexCancelled(Exception):
    """A build stopped because the caller asked it to (the app is quitting)."""


class FastStemAnalyzer(Tokenizer):
    """StemmingAnalyzer's output (words, lowercased, stop words out, Porter stems) in one pass,
    accents folded ("Gödel" is found by "godel", and "godel" is not "repaired" to "model"),
    and Chinese, Japanese and Korean runs as their character pairs (`cjk`).

    Whoosh chains a tokenizer and three filters through generators, which cost more than the
    stemming itself at 100,000 abstracts; fused, with a memo of stems, indexing is much faster.
    """

    _pattern = re.compile(r"\w+(\.?\w+)*", re.UNICODE)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))

    def __call__(  # type: ignore[no-untyped-def, override]
        self,
        value,
        positions=False,
        chars=False,
        keeporiginal=False,
        removestops=True,
        start_pos=0,
        start_char=0,
        tokenize=True,
        mode="",
        **kwargs,
    ):
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            token.original = token.text = value
            token.boost = 1.0
            if positions:
                token.pos = start_pos
            if chars:
                token.startchar, token.endchar = start_char, start_char + len(value)
            yield token
            return
        memo = _STEMS
        pos = start_pos
        for match in self._pattern.finditer(value):
            word = match.group().lower()
            if not word.isascii():
                if RUN.search(word) is not None:  # Chinese, Japanese or Korean: pairs
                    at = start_char + match.start()
                    pos = yield from _pieces(token, word, pos, at, keeporiginal)
                    continue
                word = word.translate(accent_map)
            if len(word) < 2 or word in STOP_WORDS:
                if not removestops:
                    token.stopped = True
                    token.text = word
                    token.boost = 1.0
                    yield token
                continue
            stemmed = memo.get(word)
            if stemmed is None:
                if len(memo) > 500_000:
                    memo.clear()
                stemmed = memo[word] = stem(word)
            token.text = stemmed
            token.stopped = False
            token.boost = 1.0
            if keeporiginal:
                token.original = word
            if positions:
                token.pos = pos
                pos += 1
            if chars:
                token.startchar = start_char + match.start()
                token.endchar = start_char + match.end()
            yield token


_STEMS: dict[str, str] = {}


def _pieces(
    token: Token, word: str, pos: int, start: int, keeporiginal: bool
) -> Generator[Token, None, int]:
    """The tokens of a word holding CJK characters (`cjk.pieces`): each run's character pairs
    as they are, the other parts as `FastStemAnalyzer` makes any word; the next position."""
    for text, begin, end, is_cjk in pieces(word):
        if not is_cjk:
            text = text.translate(accent_map)
            if len(text) < 2 or text in STOP_WORDS:
                if not token.removestops:
                    token.stopped = True
                    token.text = text
                    token.boost = 1.0
                    yield token
                continue
            stemmed = _STEMS.get(text)
            if stemmed is None:
                stemmed = _STEMS[text] = stem(text)
            if keeporiginal:
                token.original = text
            text = stemmed
        elif keeporiginal:
            token.original = text
        token.text = text
        token.stopped = False
        token.boost = 1.0
        if token.positions:
            token.pos = pos
            pos += 1
        if token.chars:
            token.startchar, token.endchar = start + begin, start + end
        yield token
    return pos


# names and venues: words, lowercased and folded ("Hervé" finds "Herve"), never stemmed
NAMES = RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)


def schema() -> Schema:
    analyzer = FastStemAnalyzer()
    return Schema(
        id=ID(stored=True, unique=True, sortable=True),
        fp=ID(),
        collection=KEYWORD(lowercase=True, commas=True),
        title=TEXT(analyzer=analyzer, field_boost=2.0, stored=True),
        abstract=TEXT(analyzer=analyzer, stored=True),
        author=TEXT(analyzer=NAMES),
        venue=TEXT(analyzer=NAMES),
        year=NUMERIC(int, bits=16, signed=False),
        # arXiv categories (cs.lg), a conference's decision (oral) and track (`paper_meta`)
        category=KEYWORD(lowercase=True),
        status=KEYWORD(lowercase=True),
        track=TEXT(analyzer=NAMES),
        meta=STORED(),
    )
