"""The one module that speaks Whoosh: schema, building and updating the index, queries, highlights.

The index is a cache in the user cache dir. Each build or update is written into a fresh
generation directory and swapped in by rewriting a one-line pointer file, so a crash mid-build
leaves the previous generation usable. A missing, stale, corrupt or old-schema index is rebuilt.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from whoosh import index as windex
from whoosh import qparser
from whoosh import query as wq
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

from papertui.core.corpus import Paper, finish_titles

try:  # POSIX advisory locks: one writer per index, released by the kernel if it dies
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

INDEX_VERSION = "5"  # bump when the schema or the derived fields change
FIELDS = ("title", "abstract")
_WORD = re.compile(r"\w+")
_YEAR_RANGE = re.compile(r"\byear:(\d{4})\s*(?:-|\.\.)\s*(\d{4})\b")
_DANGLING_FIELD = re.compile(r"(?:^|(?<=\s))\w+:(?=\s|$)")
Progress = Callable[[int, int], None]


class IndexCancelled(Exception):
    """A build stopped because the caller asked it to (the app is quitting)."""


class FastStemAnalyzer(Tokenizer):
    """StemmingAnalyzer's output (words, lowercased, stop words out, Porter stems) in one pass.

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
# names and venues: words, lowercased and folded ("Hervé" finds "Herve"), never stemmed
_NAMES = RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)


def schema() -> Schema:
    analyzer = FastStemAnalyzer()
    return Schema(
        id=ID(stored=True, unique=True, sortable=True),
        fp=ID(),
        collection=KEYWORD(lowercase=True, commas=True),
        title=TEXT(analyzer=analyzer, field_boost=2.0, stored=True),
        abstract=TEXT(analyzer=analyzer, stored=True),
        author=TEXT(analyzer=_NAMES),
        venue=TEXT(analyzer=_NAMES),
        year=NUMERIC(int, bits=16, signed=False),
        meta=STORED(),
    )


def sources_key(sources: Sequence[str]) -> str:
    """One index per set of corpus files, so editing a file updates its own index."""
    joined = "\n".join(sorted(os.path.abspath(s) for s in sources))
    return hashlib.blake2b(joined.encode("utf-8", "replace"), digest_size=8).hexdigest()


# -- highlighting (pure, but it must stem exactly as the index does, so it lives here) -----------


@dataclass(slots=True)
class Highlighter:
    """Finds the words of a text that the query matched, for the detail pane."""

    stems: set[str] = field(default_factory=set)
    prefixes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.stems or self.prefixes)

    def spans(self, text: str) -> list[tuple[int, int]]:
        if not self:
            return []
        found = []
        for match in _WORD.finditer(text):
            word = match.group().lower()
            if stem(word) in self.stems or (self.prefixes and word.startswith(self.prefixes)):
                found.append(match.span())
        return found


# -- the index --------------------------------------------------------------------------------


@dataclass(slots=True)
class SearchResult:
    hits: list[tuple[str, float]]  # (paper id, score), best first
    highlighter: Highlighter
    corrections: dict[str, str]  # typed word -> word searched instead
    fallback: bool = False  # the query could not be parsed and was searched as plain words


class SearchIndex:
    """An open, ready index generation. Use from one thread at a time."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._ix = windex.open_dir(str(directory))
        self._searcher = self._ix.searcher()
        self._parser = qparser.MultifieldParser(list(FIELDS), self._ix.schema)
        self._parser.remove_plugin_class(qparser.EveryPlugin)
        self._parser.add_plugin(qparser.PlusMinusPlugin())
        self._vocab: list[str] | None = None
        self._vocab_df: dict[str, int] = {}
        self._by_length: dict[int, list[str]] = {}
        self._ids = self._searcher.reader().column_reader("id")
        self._filter: wq.Query | None = None
        self._mask: wq.Query | None = None
        self.doc_count = self._searcher.doc_count()

    def close(self) -> None:
        self._searcher.close()
        self._ix.close()

    def apply_titles(self, papers: Sequence[Paper]) -> None:
        """Give papers the titles derived when the index was built (deriving costs seconds)."""
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
        }

    # vocabulary of unstemmed words, for typo correction
    def _load_vocab(self) -> list[str]:
        if self._vocab is None:
            try:
                data = json.loads((self.directory / "vocab.json").read_text("utf-8"))
            except (OSError, ValueError):
                data = {}
            self._vocab_df = data
            self._vocab = sorted(data)
            by_length: dict[int, list[str]] = {}
            for word in self._vocab:
                by_length.setdefault(len(word), []).append(word)
            self._by_length = by_length
        return self._vocab

    def expand_prefix(self, prefix: str, limit: int = 256) -> list[str]:
        """Indexed words that start with `prefix` (the index holds stems, so `invertib*` would
        otherwise miss "invertible", stored as "invert")."""
        vocab = self._load_vocab()
        start = bisect.bisect_left(vocab, prefix)
        found = []
        for word in vocab[start : start + limit]:
            if not word.startswith(prefix):
                break
            found.append(word)
        return found

    def _known(self, stemmed: str) -> bool:
        return any(self._searcher.doc_frequency(f, stemmed) > 0 for f in FIELDS)

    def correct(self, word: str) -> list[str]:
        """Indexed words within a small edit distance of `word`, most frequent first."""
        if len(word) < 3 or word.isdigit():
            return []
        self._load_vocab()
        limit = 1 if len(word) <= 4 else 2
        # only words whose length is within `limit` can be within `limit` edits
        pool = [
            w
            for n in range(len(word) - limit, len(word) + limit + 1)
            for w in self._by_length.get(n, ())
        ]
        found = process.extract(
            word, pool, scorer=Levenshtein.distance, score_cutoff=limit, limit=20
        )
        found.sort(key=lambda r: (r[1], -self._vocab_df.get(r[0], 0)))
        best = found[0][1] if found else 0
        return [w for w, d, _ in found if d == best][:4]

    def search(
        self,
        text: str,
        limit: int | None = None,
        only: Sequence[tuple[str, Sequence[str]]] = (),
        exclude: Sequence[tuple[str, Sequence[str]]] = (),
    ) -> SearchResult:
        """Run a full-text query. Never raises for any query string.

        `only` and `exclude` restrict the results to (or away from) papers whose `id` or
        `collection` is one of the given values; each (field, values) pair is one condition.
        """
        self._filter = _condition(only, wq.And)
        self._mask = _condition(exclude, wq.Or)
        text = _DANGLING_FIELD.sub(" ", text)  # "title:" while the user is still typing
        text = _YEAR_RANGE.sub(r"year:[\1 TO \2]", text)
        raw_words = {stem(w.lower()): w.lower() for w in _WORD.findall(text)}
        corrections: dict[str, str] = {}
        fallback = False
        try:
            parsed = self._parser.parse(text)
            parsed = parsed.accept(lambda q: self._repair(q, raw_words, corrections))
            parsed = self._boost_adjacent(parsed)
            hits = self._run(parsed, limit)
        except Exception:  # noqa: BLE001 - some strings make every Whoosh parser raise
            fallback = True
            corrections.clear()
            parsed = self._plain(text, raw_words, corrections)
            try:
                hits = self._run(parsed, limit)
            except Exception:  # noqa: BLE001
                hits = []
        return SearchResult(hits, self._highlighter(parsed), corrections, fallback)

    def _run(self, q: wq.Query, limit: int | None) -> list[tuple[str, float]]:
        if q is wq.NullQuery or self._filter is wq.NullQuery:
            return []
        results = self._searcher.search(q, limit=limit, filter=self._filter, mask=self._mask)
        ids = self._ids  # a column: no stored document (with its abstract) is read per hit
        return [(ids[docnum], float(score or 0.0)) for score, docnum in results.top_n]

    def _repair(self, q: wq.Query, raw: dict[str, str], corrections: dict[str, str]) -> wq.Query:
        """Leaf by leaf: drop wildcards too broad to run, replace unknown words by near ones."""
        if isinstance(q, (wq.And, wq.Or)):
            kept = [c for c in q.subqueries if c is not wq.NullQuery]
            if len(kept) != len(q.subqueries):
                return type(q)(kept) if kept else wq.NullQuery
            return q
        if isinstance(q, wq.Every):
            return wq.NullQuery  # a bare `*` would rank the whole corpus on every keystroke
        if isinstance(q, (wq.Prefix, wq.Wildcard)):
            literal = re.split(r"[*?]", q.text, maxsplit=1)[0]
            if len(literal) < 2:
                return wq.NullQuery
            if isinstance(q, wq.Prefix) and q.fieldname in FIELDS:
                # the words people mean by "lear*": the most frequent indexed words that start
                # so, by their stems (the index holds "invert" for "invertible"); capped, as a
                # prefix matching hundreds of rare words would rank the whole corpus
                words = sorted(
                    self.expand_prefix(literal.lower(), limit=5000),
                    key=lambda w: -self._vocab_df.get(w, 0),
                )[:PREFIX_EXPANSIONS]
                stems = sorted({stem(w) for w in words})
                return wq.Or([wq.Term(q.fieldname, s) for s in stems]) if stems else q
            return q
        if isinstance(q, wq.Term) and q.fieldname in FIELDS and not self._known(q.text):
            original = raw.get(q.text, q.text)
            near = self.correct(original)
            if near:
                corrections[original] = near[0]
                near_stems = sorted({stem(w) for w in near})
                return wq.Or([wq.Term(q.fieldname, s) for s in near_stems])
        return q

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

    def _plain(self, text: str, raw: dict[str, str], corrections: dict[str, str]) -> wq.Query:
        """Every word of the query, as plain required terms, with typo repair."""
        analyzer = self._ix.schema["abstract"].analyzer
        clauses = []
        for token in analyzer(text):
            word = token.text
            per_field = [self._repair(wq.Term(f, word), raw, corrections) for f in FIELDS]
            clauses.append(wq.Or(per_field))
        return wq.And(clauses) if clauses else wq.NullQuery

    @staticmethod
    def _highlighter(q: wq.Query) -> Highlighter:
        stems: set[str] = set()
        prefixes: list[str] = []
        if q is wq.NullQuery:
            return Highlighter()
        for leaf in q.leaves() if not q.is_leaf() else [q]:
            if isinstance(leaf, wq.Phrase):
                stems.update(leaf.words)
            elif isinstance(leaf, (wq.Prefix, wq.Wildcard)):
                literal = re.split(r"[*?]", leaf.text, maxsplit=1)[0]
                if literal:
                    prefixes.append(literal.lower())
            elif isinstance(leaf, wq.Term) and isinstance(leaf.text, str):
                stems.add(leaf.text)
        # leaves under a Not are not matches; drop them
        for node in _nots(q):
            for leaf in node.leaves() if not node.is_leaf() else [node]:
                if isinstance(leaf, wq.Term) and isinstance(leaf.text, str):
                    stems.discard(leaf.text)
        return Highlighter(stems, tuple(prefixes))


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


def _nots(q: wq.Query) -> Iterator[wq.Query]:
    if isinstance(q, wq.Not):
        yield q.query
    if isinstance(q, wq.AndNot):
        yield q.b
    for child in q.children():
        yield from _nots(child)


# -- building, updating, opening -----------------------------------------------------------------

# A prefix query searches at most this many of the words it could stand for.
PREFIX_EXPANSIONS = 8
# Up to this many papers, query words that stand together rank higher (costs a phrase match).
BOOST_UP_TO = 20_000
# Below this many papers a single process indexes faster than starting helpers.
PARALLEL_FROM = 5000
Stats = dict[str, list[int]]  # source path -> [size, mtime_ns]


def source_stats(sources: Sequence[str]) -> Stats:
    """What the corpus files look like on disk: if unchanged, the index is current."""
    stats: Stats = {}
    for source in sources:
        path = Path(source)
        files = sorted(path.iterdir()) if path.is_dir() else [path]
        for f in files:
            with contextlib.suppress(OSError):
                st = f.stat()
                stats[str(f.resolve())] = [st.st_size, st.st_mtime_ns]
    return stats


def fingerprint(paper: Paper) -> str:
    """Changes when anything indexed about a paper changes (derived titles follow the abstract)."""
    key = "\x1f".join(
        [
            paper.id,
            *paper.collections,
            paper.title if paper.has_real_title else "",
            *paper.authors,
            paper.venue,
            str(paper.year or ""),
        ]
    )
    return hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=8).hexdigest()


def corpus_digest(papers: Sequence[Paper]) -> str:
    h = hashlib.blake2b(INDEX_VERSION.encode(), digest_size=16)
    for fp in sorted(fingerprint(p) for p in papers):
        h.update(fp.encode())
    return h.hexdigest()


@dataclass(slots=True)
class IndexReport:
    how: str  # "reused", "updated" or "built"
    papers: int
    seconds: float
    size_bytes: int
    directory: Path


class IndexStore:
    """The generations of one corpus' index under the cache dir, and the pointer to the current."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def pointer(self) -> Path:
        return self.root / "current"

    def current_dir(self) -> Path | None:
        try:
            name = self.pointer.read_text("utf-8").strip()
        except OSError:
            return None
        path = self.root / name
        return path if name and path.is_dir() else None

    def meta(self) -> dict[str, object] | None:
        directory = self.current_dir()
        if directory is None:
            return None
        try:
            meta = json.loads((directory / "meta.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return meta if isinstance(meta, dict) and meta.get("version") == INDEX_VERSION else None

    def open_if_unchanged(self, sources: Sequence[str]) -> SearchIndex | None:
        """The index, without reading the corpus, when no corpus file changed since it was built."""
        meta = self.meta()
        if meta is None or meta.get("sources") != source_stats(sources):
            return None
        directory = self.current_dir()
        try:
            return SearchIndex(directory) if directory is not None else None
        except Exception:  # noqa: BLE001 - damaged: the full path rebuilds it
            return None

    def open_if_current(self, digest: str) -> SearchIndex | None:
        """The index if it exists, is readable and matches `digest`; else None."""
        meta = self.meta()
        directory = self.current_dir()
        if meta is None or directory is None or meta.get("digest") != digest:
            return None
        try:
            return SearchIndex(directory)
        except Exception:  # noqa: BLE001 - any damage means: rebuild
            return None

    @contextlib.contextmanager
    def _writer_lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            yield
            return
        with open(self.root / ".lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # waits while another papertui builds
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def ensure(
        self,
        papers: Sequence[Paper],
        sources: Sequence[str] = (),
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> tuple[SearchIndex, IndexReport]:
        """Open the index for `papers`, updating or rebuilding it as needed."""
        started = time.perf_counter()
        digest = corpus_digest(papers)
        found = self.open_if_current(digest)
        if found is None:
            with self._writer_lock():
                found = self.open_if_current(digest)  # another process may have built it
                if found is None:
                    directory, how = self._write(papers, sources, digest, progress, cancelled)
                    found = SearchIndex(directory)
                    return found, self._report(found, how, len(papers), started)
        found.apply_titles(papers)
        return found, self._report(found, "reused", len(papers), started)

    @staticmethod
    def _report(index: SearchIndex, how: str, count: int, started: float) -> IndexReport:
        size = sum(f.stat().st_size for f in index.directory.iterdir() if f.is_file())
        return IndexReport(how, count, time.perf_counter() - started, size, index.directory)

    def _write(
        self,
        papers: Sequence[Paper],
        sources: Sequence[str],
        digest: str,
        progress: Progress | None,
        cancelled: Callable[[], bool] | None,
    ) -> tuple[Path, str]:
        stats = source_stats(sources)
        # titles are indexed, so they must be final first: the first tenth of the progress bar
        finish_titles(papers, _share(progress, 0.0, 0.1))
        progress = _share(progress, 0.1, 0.9)
        previous = self.current_dir()
        fresh = self.root / f"gen-{time.time_ns()}-{os.getpid()}"
        try:
            how = "built"
            if previous is not None and self._can_update(previous):
                shutil.copytree(previous, fresh)
                if _update(fresh, papers, progress, cancelled):
                    how = "updated"
                else:
                    shutil.rmtree(fresh, ignore_errors=True)
            if how == "built":
                _build(fresh, papers, progress, cancelled)
            titles = {p.id: p.title for p in papers}
            (fresh / "titles.json").write_text(json.dumps(titles, ensure_ascii=False), "utf-8")
            meta = {
                "version": INDEX_VERSION,
                "digest": digest,
                "papers": len(papers),
                "sources": stats,
            }
            (fresh / "meta.json").write_text(json.dumps(meta), "utf-8")
            tmp = self.root / f".current-{os.getpid()}"
            tmp.write_text(fresh.name, "utf-8")
            os.replace(tmp, self.pointer)  # the swap: atomic, so readers see old or new
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
        self._prune(keep=fresh)
        return fresh, how

    @staticmethod
    def _can_update(directory: Path) -> bool:
        try:
            meta = json.loads((directory / "meta.json").read_text("utf-8"))
            return meta.get("version") == INDEX_VERSION and windex.exists_in(str(directory))
        except Exception:  # noqa: BLE001
            return False

    def _prune(self, keep: Path) -> None:
        for child in self.root.iterdir():
            if child.is_dir() and child.name.startswith("gen-") and child != keep:
                shutil.rmtree(child, ignore_errors=True)


@contextlib.contextmanager
def _estimated_progress(progress: Progress | None, total: int, seconds: float) -> Iterator[None]:
    """Move the bar along an estimate while a step that reports nothing runs (up to 99%)."""
    if progress is None or seconds <= 0.5:
        yield
        return
    done = threading.Event()

    def tick() -> None:
        start = time.perf_counter()
        while not done.wait(0.5):
            share = min(0.99, (time.perf_counter() - start) / seconds)
            progress(int(total * share), total)

    thread = threading.Thread(target=tick, name="papertui-index-estimate", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _share(progress: Progress | None, start: float, part: float) -> Progress | None:
    """Report one phase of the work as its share of a single progress bar."""
    if progress is None:
        return None
    report = progress

    def scaled(done: int, total: int) -> None:
        report(int(total * start + done * part), total)

    return scaled


def _add(writer, paper: Paper, vocab: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    extra: dict[str, object] = {}
    if paper.authors:
        extra["author"] = " ; ".join(paper.authors)
    if paper.venue:
        extra["venue"] = paper.venue
    if paper.year:
        extra["year"] = paper.year
    writer.add_document(
        id=paper.id,
        fp=fingerprint(paper),
        collection=",".join(c.replace(",", " ").lower() for c in paper.collections),
        title=paper.title,
        abstract=paper.abstract,
        meta={
            "collections": list(paper.collections),
            "urls": list(paper.urls),
            "authors": list(paper.authors),
            "venue": paper.venue,
            "year": paper.year,
        },
        **extra,
    )
    for word in set(_WORD.findall(paper.abstract.lower())):
        vocab[word] = vocab.get(word, 0) + 1


def _tick(i: int, total: int, progress: Progress | None, cancelled: Callable[[], bool] | None):  # type: ignore[no-untyped-def]
    if i % 200 == 0:
        if cancelled is not None and cancelled():
            raise IndexCancelled()
        if progress is not None:
            progress(i, total)


def _writer(ix, count: int):  # type: ignore[no-untyped-def]
    procs = min(2, os.cpu_count() or 1)
    if count >= PARALLEL_FROM and procs > 1:
        # one segment per process, not merged: merging would cost what the second core saved
        return ix.writer(procs=procs, limitmb=1024, multisegment=True)
    return ix.writer(limitmb=128)


def _build(
    directory: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> None:
    directory.mkdir(parents=True)
    ix = windex.create_in(str(directory), schema())
    vocab: dict[str, int] = {}
    writer = _writer(ix, len(papers))
    total = len(papers)
    # The helpers sort and write their postings only at commit, about 1.4 times as long as
    # feeding them took: feeding is the first 40% of the bar, the commit the rest.
    feeding = _share(progress, 0.0, 0.4)
    started = time.perf_counter()
    try:
        with _cancel_on_error(writer):
            for i, paper in enumerate(papers):
                _tick(i, total, feeding, cancelled)
                _add(writer, paper, vocab)
            expected = 1.4 * (time.perf_counter() - started)
            with _estimated_progress(_share(progress, 0.4, 0.6), total, expected):
                writer.commit()
        if progress is not None:
            progress(total, total)
    finally:
        ix.close()
    _save_vocab(directory, vocab)


@contextlib.contextmanager
def _cancel_on_error(writer) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """A writer that fails or is interrupted leaves nothing behind in its segment."""
    try:
        yield
    except BaseException:
        writer.cancel()
        raise


def _save_vocab(directory: Path, vocab: dict[str, int]) -> None:
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), "utf-8")


def _update(
    directory: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> bool:
    """Add new papers, drop gone or changed ones, in place (in a copy). False: rebuild instead."""
    ix = windex.open_dir(str(directory))
    try:
        with ix.reader() as reader:
            indexed = {t.decode("utf-8") for t in reader.lexicon("fp")}
            indexed_ids = {t.decode("utf-8") for t in reader.lexicon("id")}
        wanted = {fingerprint(p): p for p in papers}
        added = [p for fp, p in wanted.items() if fp not in indexed]
        wanted_ids = {p.id for p in papers}
        changed = {p.id for p in added} & indexed_ids
        removed = [pid for pid in indexed_ids if pid not in wanted_ids] + sorted(changed)
        if len(added) + len(removed) > max(1000, len(papers) // 2):
            return False
        try:
            vocab = json.loads((directory / "vocab.json").read_text("utf-8"))
        except (OSError, ValueError):
            return False
        writer = ix.writer(limitmb=128)
        with _cancel_on_error(writer):
            for pid in removed:
                writer.delete_by_term("id", pid)
            for i, paper in enumerate(added):
                _tick(i, len(added), progress, cancelled)
                _add(writer, paper, vocab)
            writer.commit()
    finally:
        ix.close()
    _save_vocab(directory, vocab)
    return True
