"""Vectors and topics for one library, cached on disk beside its index and kept current.

The cache lives in ``<index cache>/semantic/<corpus digest>/`` (``vectors/`` and ``topics/``),
with ``latest.json`` naming the newest complete one. Opening a library whose digest is cached
memory-maps the vectors (a separate CLI process per `papertui similar` stays fast). When the
corpus changed, the newest cache is extended: papers added since get vectors from the old
vocabulary (`PaperVectors.add`) and their nearest topic (`TopicModel.extend`); the result is
saved under the new digest. When too much changed (`REBUILD_SHARE` of the papers new or gone)
everything is built afresh.

numpy and scipy are imported only by the modules this one loads on first use.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from papertui.core.corpus import Paper
    from papertui.core.semantic.topics import TopicModel
    from papertui.core.semantic.vectors import PaperVectors

Progress = Callable[[int, int], None]

# An old cache is extended, not rebuilt, while at most this share of the papers is new or gone.
REBUILD_SHARE = 0.2
# Share of the work each step takes (measured at 100k: vectors ~25 s, topics ~35 s).
VECTOR_SHARE = 0.4


class SemanticCancelled(Exception):
    """The build was cancelled (the reader quit or the corpus changed)."""


def blas_one_thread() -> contextlib.AbstractContextManager[object]:
    """BLAS on one thread (the machine's other core belongs to the reader)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")


def paper_text(paper: Paper) -> str:
    """The text topics are made from: a real title and the abstract."""
    return f"{paper.title}. {paper.abstract}" if paper.has_real_title else paper.abstract


class SemanticCache:
    """The vectors and topics of one library's papers (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.vectors: PaperVectors | None = None
        self.topics: TopicModel | None = None
        self.digest: str | None = None
        self.state = "topics: not built"
        # the papers' ids, in order, when the caller has them: loaded vectors and topics for
        # these papers keep this list instead of their own copies
        self.known_ids: list[str] | None = None

    @property
    def ready(self) -> bool:
        return self.vectors is not None and self.topics is not None

    def load(self, digest: str) -> bool:
        """Open the cache made for `digest`, if there is one (fast: memory maps)."""
        if self.ready and self.digest == digest:
            return True
        loaded = self._read(self.root / digest)
        if loaded is None:
            return False
        self.vectors, self.topics = loaded
        self.digest = digest
        self.state = ""
        return True

    def _read(self, where: Path) -> tuple[PaperVectors, TopicModel] | None:
        from papertui.core.semantic.topics import TopicModel
        from papertui.core.semantic.vectors import PaperVectors

        try:
            vectors = PaperVectors.load(where / "vectors", known_ids=self.known_ids)
        except ValueError:
            return None
        topics = TopicModel.load(where / "topics", known_ids=vectors.ids)
        if topics is None:
            return None
        return vectors, topics

    def ensure(
        self,
        digest: str,
        papers: Sequence[Paper],
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> str:
        """Load, extend or build the cache for `papers` (whose corpus digest is `digest`).

        Returns how: "reused", "extended" or "built". Raises SemanticCancelled when
        `cancelled()` turns true; the cache on disk is then left as it was.
        """
        if self.load(digest):
            return "reused"

        def report(done: float) -> None:
            if cancelled is not None and cancelled():
                raise SemanticCancelled()
            if progress is not None:
                progress(int(done), 1000)

        try:
            with blas_one_thread():
                how = self._extend(digest, papers, report) or self._build(digest, papers, report)
        except SemanticCancelled:
            self.state = "topics: not built" if not self.ready else ""
            raise
        report(1000)
        self.state = ""
        return how

    def _build(self, digest: str, papers: Sequence[Paper], report: Callable[[float], None]) -> str:
        """Vectors and topics from scratch, the papers' texts read as they are needed (a
        million abstracts are never all in memory), the vectors written as they are made."""
        from papertui.core.semantic.topics.streamed import topics_of_library
        from papertui.core.semantic.vector_build import build

        ids = [p.id for p in papers]
        self.state = "topics: computing 0%"

        def vec_progress(done: int, total: int) -> None:
            share = VECTOR_SHARE * done / max(total, 1)
            self.state = f"topics: computing {int(100 * share)}%"
            report(1000 * share)

        def topic_progress(done: int, total: int) -> None:
            share = VECTOR_SHARE + (1 - VECTOR_SHARE) * done / max(total, 1)
            self.state = f"topics: computing {int(100 * share)}%"
            report(1000 * share)

        tmp = self._fresh()
        try:
            vectors = build(
                ids,
                ((p.title if p.has_real_title else "", p.abstract) for p in papers),
                progress=vec_progress,
                directory=tmp / "vectors",
            )
            topics = topics_of_library(
                ids, lambda i: paper_text(papers[i]), progress=topic_progress
            )
            self._save(digest, vectors, topics, tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return "built"

    def _extend(
        self, digest: str, papers: Sequence[Paper], report: Callable[[float], None]
    ) -> str | None:
        """Extend the newest cache to `papers`, or None when there is none or it is too old."""
        latest = self._latest()
        if latest is None or latest == digest:
            return None
        loaded = self._read(self.root / latest)
        if loaded is None:
            return None
        vectors, topics = loaded
        have = set(vectors.ids)
        fresh = [p for p in papers if p.id not in have]
        current = {p.id for p in papers}
        gone = sum(1 for pid in vectors.ids if pid not in current)
        if (len(fresh) + gone) > REBUILD_SHARE * max(len(papers), 1):
            return None
        self.state = "topics: adding new papers"
        report(100)
        tmp = self._fresh()
        try:
            added = [(p.id, p.title if p.has_real_title else "", p.abstract) for p in fresh]
            vectors = vectors.add_into(tmp / "vectors", added)
            report(500)
            topics = topics.extend([p.id for p in fresh], [paper_text(p) for p in fresh])
            self._save(digest, vectors, topics, tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return "extended"

    def _latest(self) -> str | None:
        try:
            data = json.loads((self.root / "latest.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        found = data.get("digest") if isinstance(data, dict) else None
        return found if isinstance(found, str) else None

    def _fresh(self) -> Path:
        """A new directory to build in, named after this process; those of processes that
        ended without cleaning up (killed mid-build: hundreds of MB at a million papers) go."""
        self.root.mkdir(parents=True, exist_ok=True)
        for old in self.root.glob(".build-*"):
            pid = old.name.split("-")[1]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(old, ignore_errors=True)
        return Path(tempfile.mkdtemp(prefix=f".build-{os.getpid()}-", dir=self.root))

    def _save(
        self, digest: str, vectors: PaperVectors, topics: TopicModel, tmp: Path | None = None
    ) -> None:
        """Write into a fresh directory (`tmp`: one the vectors were written into already)
        and rename it into place, then drop older caches."""
        if tmp is None:
            tmp = self._fresh()
            vectors.save(tmp / "vectors")
        try:
            topics.save(tmp / "topics")
            target = self.root / digest
            if target.exists():
                shutil.rmtree(target, ignore_errors=True)
            tmp.rename(target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        pointer = self.root / f".latest-{os.getpid()}.json"
        pointer.write_text(json.dumps({"digest": digest}), "utf-8")
        os.replace(pointer, self.root / "latest.json")
        for old in self.root.iterdir():
            if old.is_dir() and old.name != digest and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
        loaded = self._read(self.root / digest)  # memory-mapped, as a later process sees it
        self.vectors, self.topics = loaded if loaded is not None else (vectors, topics)
        self.digest = digest


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
