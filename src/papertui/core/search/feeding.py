"""Feeding papers to an index writer: the fields each paper gives, and one segment written by a
forked child process while this process writes another."""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from whoosh import index as windex
from whoosh.codec.whoosh3 import W3Codec
from whoosh.support.charset import accent_map

from papertui.core.corpus import Paper
from papertui.core.search import cjk
from papertui.core.search.fastwriter import FastSegmentWriter
from papertui.core.search.highlight import _WORD
from papertui.core.search.schema import IndexCancelled
from papertui.core.system.lifeline import end_with_parent

# A fresh build's posting blocks are compressed at zlib level 1, not Whoosh's 3: compression was
# a tenth of the build, and the blocks decode the same (updates keep Whoosh's own level).
BUILD_CODEC_COMPRESSION = 1


def build_codec() -> W3Codec:
    return W3Codec(compression=BUILD_CODEC_COMPRESSION)


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
            paper._meta,
        ]
    )
    return hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=8).hexdigest()


def add_paper(writer, paper: Paper, vocab: Counter[str]) -> None:  # type: ignore[no-untyped-def]
    abstract = paper.abstract  # once: it may be decoded from the corpus cache on each access
    title = paper.title
    extra: dict[str, object] = {}
    if paper.authors:
        extra["author"] = " ; ".join(paper.authors)
    if paper.venue:
        extra["venue"] = paper.venue
    if paper.year:
        extra["year"] = paper.year
    if paper._meta:
        meta = paper.meta
        if meta.categories:
            extra["category"] = " ".join(meta.categories)
        if meta.status:
            extra["status"] = meta.status.replace(" ", "-")
        if meta.track:
            extra["track"] = meta.track
        if meta.translations:
            # searched with the paper's own title and abstract; stored are those alone
            extra["_stored_title"], extra["_stored_abstract"] = title, abstract
            title = "\n".join([title, *(t.title for t in meta.translations if t.title)])
            abstract = "\n".join([abstract, *(t.abstract for t in meta.translations if t.abstract)])
    writer.add_document(
        id=paper.id,
        fp=fingerprint(paper),
        collection=",".join(c.replace(",", " ").lower() for c in paper.collections),
        title=title,
        abstract=abstract,
        meta={
            "collections": list(paper.collections),
            "urls": list(paper.urls),
            "authors": list(paper.authors),
            "venue": paper.venue,
            "year": paper.year,
            "extra": paper._meta,
        },
        **extra,
    )
    split = getattr(writer, "words", {}).get("abstract")  # as the fast writer split them
    if split is not None:
        vocab.update(words_of(split))  # document frequencies, counted in C
        return
    low = abstract.lower()
    if not low.isascii():  # the words as the index holds them: accents folded
        low = low.translate(accent_map)
    vocab.update(set(cjk.words(low) if cjk.has_cjk(low) else _WORD.findall(low)))


def words_of(split: list[str]) -> set[str]:
    """The distinct words (`highlight._WORD`) of ASCII text the index split into words that
    may hold single dots ("e.g", "3.5"): those are the words between the dots."""
    found = set(split)
    for dotted in [w for w in found if "." in w]:
        found.discard(dotted)
        found.update(dotted.split("."))
    return found


class SegmentChild:
    """A forked process writing one segment of `papers` into the index at `directory`."""

    def __init__(self, directory: Path, papers: Sequence[Paper]) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe(duplex=False)
        self._process = context.Process(
            target=write_segment, args=(directory, papers, theirs, self._conn), daemon=True
        )
        self._process.start()
        theirs.close()

    def result(self, cancelled: Callable[[], bool] | None) -> tuple[object, Counter[str]]:
        """The segment and word counts the child wrote, once it has (cancellable meanwhile)."""
        while not self._conn.poll(0.2):
            if cancelled is not None and cancelled():
                raise IndexCancelled()
            if not self._process.is_alive() and not self._conn.poll():
                raise RuntimeError(f"index writer stopped (exit code {self._process.exitcode})")
        try:
            outcome = self._conn.recv()
        except EOFError:  # it ended without a word (killed)
            self._process.join()
            raise RuntimeError(
                f"index writer stopped (exit code {self._process.exitcode})"
            ) from None
        if isinstance(outcome, str):
            raise RuntimeError(f"index writer failed: {outcome}")
        segment, counts = outcome
        return segment, counts

    def stop(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._conn.close()


def write_segment(directory: Path, papers: Sequence[Paper], conn, parents) -> None:  # type: ignore[no-untyped-def]
    """In the forked child: write `papers` as one segment; send (segment, word counts) back,
    or the error's last line. It ends as soon as its parent has gone: a parent killed outright
    cannot stop it, and its segment is of use to nobody.

    `parents` is the parent's end of the pipe, inherited by the fork: closed here, so that if
    the parent dies the send fails at once instead of waiting forever for a reader (this
    process holding the other end). A terminate ends it at once: the parent's handler, which
    turns SIGTERM into an exit that cleans up, is not wanted here (its error report could
    block on a full pipe)."""
    parents.close()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_with_parent()
    try:
        ix = windex.open_dir(str(directory))
        writer = FastSegmentWriter(ix, _lk=False, compound=False, codec=build_codec())
        vocab: Counter[str] = Counter()
        with cancel_on_error(writer):
            for paper in papers:
                add_paper(writer, paper, vocab)
            segment = writer._finalize_segment()
        conn.send((segment, vocab))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises
        with contextlib.suppress(OSError):  # the parent is gone: nobody to tell
            conn.send(f"{type(exc).__name__}: {exc}")
    finally:
        conn.close()


@contextlib.contextmanager
def cancel_on_error(writer) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """A writer that fails or is interrupted leaves nothing behind in its segment."""
    try:
        yield
    except BaseException:
        writer.cancel()
        raise
