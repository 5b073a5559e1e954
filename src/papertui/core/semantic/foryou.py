""" "For you": the reader's interest model, trained from their answers, and the rankings it gives.

A `Library` holds one `ForYou` (`library.foryou`) and delegates to it. The model is trained once
per annotations snapshot and set of negative keywords, and kept until either changes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papertui.core.corpus import Paper
from papertui.core.query.view import View
from papertui.core.semantic.seeds import add_seeds, seed_copies
from papertui.core.store import LIKED, SKIPPED, UNDECIDED, Annotations, Store, drafts

if TYPE_CHECKING:
    from papertui.core.query.planner import Planner
    from papertui.core.semantic.reading import SemanticReading
    from papertui.core.semantic.triage import InterestModel, Ranked

# "for you" explains the first this many papers it ranks (each costs a few microseconds).
WHY_LIMIT = 500
NOT_READY = "for you: not ready yet (unread papers first meanwhile)"
NOTHING_YET = "for you: nothing learned yet (like with +, bookmark or tag papers)"


def positive_ids(annotations: Annotations) -> set[str]:
    """Papers kept: bookmarked, noted, tagged or liked, and the seed papers (liked from a file):
    a seed that is also in the library opened later is a liked paper of it, never ranked."""
    liked = {pid for pid, v in annotations.feedback.items() if v == LIKED}
    seeds = {s.id for s in annotations.seeds}
    return (
        set(annotations.bookmarks) | set(annotations.notes) | set(annotations.tags) | liked | seeds
    )


def negative_ids(
    annotations: Annotations, positives: set[str], writing: Collection[str] | None = None
) -> set[str]:
    """Papers passed over: read (since the last reset) and not kept, or skipped. A paper with
    a note typed and not saved yet (a draft; `writing`: `drafts.pending()` when the caller has
    it) was read and not left: it is not passed over; nor is one whose answer was taken back
    (`UNDECIDED`)."""
    skipped = {pid for pid, v in annotations.feedback.items() if v == SKIPPED}
    read = {pid for pid, at in annotations.reads.items() if at > annotations.feedback_reset}
    writing = drafts.pending() if writing is None else writing
    return (read - positives - set(writing) - undecided_ids(annotations)) | (skipped - positives)


def undecided_ids(annotations: Annotations) -> set[str]:
    """Papers whose like or skip was taken back: ranked again, whether read or not."""
    return {pid for pid, v in annotations.feedback.items() if v == UNDECIDED}


def is_passed_over(annotations: Annotations, pid: str) -> bool:
    """Whether paper `pid` is among `negative_ids`, found without building the sets (the
    detail pane asks at every move). A seed's copy found by content is not known here."""
    kept = (
        pid in annotations.bookmarks
        or pid in annotations.notes
        or pid in annotations.tags
        or annotations.feedback.get(pid) == LIKED
        or any(s.id == pid for s in annotations.seeds)
    )
    if kept:
        return False
    if annotations.feedback.get(pid) == SKIPPED:
        return True
    if annotations.feedback.get(pid) == UNDECIDED:
        return False
    at = annotations.reads.get(pid)
    return at is not None and at > annotations.feedback_reset and drafts.load(pid) is None


def learned(kept: int, passed: int) -> str:
    """What the model learned from, in the reader's words: a paper only read for a moment and
    left is "passed over", not an answer the reader gave."""
    return f"learned from {kept} kept, {passed} passed over"


class ForYou:
    """The interest model of the reader whose answers `store` holds, trained on the vectors of
    `semantic`, and the views it ranks from the papers the library shows now."""

    def __init__(
        self,
        store: Store,
        semantic: SemanticReading,
        papers: Sequence[Paper],
        by_id: dict[str, int],
        planner: Planner,
    ) -> None:
        self._store = store
        self._semantic = semantic
        self._interest: tuple[tuple[object, ...], InterestModel] | None = None
        # seed id -> the id of the library's copy of it (None: not in the library), found by
        # content for the vectors it was found in: a .bib's abstract often differs from the
        # dump's in a word or its markup, so the ids differ
        self._copies: tuple[object, dict[str, str | None]] | None = None
        self.corpus_changed(papers, by_id, planner)

    def corpus_changed(
        self, papers: Sequence[Paper], by_id: dict[str, int], planner: Planner
    ) -> None:
        """The library shows `papers` now, queried by `planner`: retrain on next use."""
        self._papers = papers
        self._by_id = by_id
        self._planner = planner
        self.forget()

    def positives(
        self, annotations: Annotations, copies: dict[str, str | None] | None = None
    ) -> set[str]:
        """`positive_ids`, with the library's copy of a seed in place of the seed (`copies`:
        `_seed_copies(annotations)`, when the caller has it)."""
        if copies is None:
            copies = self._seed_copies(annotations)
        found = {seed: copy for seed, copy in copies.items() if copy is not None}
        return (positive_ids(annotations) - found.keys()) | set(found.values())

    def _seed_copies(self, annotations: Annotations) -> dict[str, str | None]:
        vectors = self._semantic.vectors()
        if vectors is None or not annotations.seeds:
            return {}
        if self._copies is None or self._copies[0] is not vectors:
            self._copies = (vectors, {})
        return seed_copies(vectors, annotations.seeds, self._by_id, self._copies[1])

    def forget(self) -> None:
        """Retrain on next use (the corpus or its vectors changed)."""
        self._interest = None

    def interest(self) -> InterestModel | None:
        """The reader's interest model, trained once per annotations snapshot, negative
        keywords and notes being typed (None until the vectors are built)."""
        vectors = self._semantic.vectors()
        if vectors is None:
            return None
        from papertui.core.system.settings import load_settings

        annotations = self._store.snapshot()
        phrases = tuple(load_settings().negative_keywords)
        key = (annotations, phrases, vectors, tuple(drafts.pending()))
        cached = self._interest
        if cached is not None and cached[0][0] is annotations and cached[0][1:] == key[1:]:
            return cached[1]
        from papertui.core.semantic.triage import train

        copies = self._seed_copies(annotations)
        positives = self.positives(annotations, copies)
        negatives = negative_ids(annotations, positives, key[3])
        papers, by_id = self._papers, self._by_id

        def text_of(pid: str) -> str:
            pos = by_id.get(pid)
            return "" if pos is None else f"{papers[pos].title} {papers[pos].abstract}"

        model = train(
            vectors,
            sorted(positives),
            sorted(negatives),
            [
                f"{s.title}. {s.abstract}"
                for s in annotations.seeds
                if s.id not in by_id and not copies[s.id]
            ],
            phrases,
            text_of,
        )
        self._interest = (key, model)
        return model

    def answers(self) -> int:
        """How many answers "for you" learns from: papers kept (bookmarked, noted, tagged or
        liked, seed texts among them) and papers passed over (read and not kept, or
        skipped)."""
        return sum(self.answer_counts())

    def answer_counts(self) -> tuple[int, int]:
        """(papers kept, papers passed over) that the model learns from."""
        annotations = self._store.snapshot()
        positives = self.positives(annotations)  # seeds are among them
        return len(positives), len(negative_ids(annotations, positives))

    def order(self, view: View, annotations: Annotations) -> None:
        """Unread papers not yet judged first, most interesting first; then the papers read,
        kept (bookmarked, noted, tagged), liked or skipped, in the view's order."""
        papers = self._papers
        if not view.indices:
            return  # "no papers match" says more than how the order works
        positives = self.positives(annotations)
        negatives = negative_ids(annotations, positives)
        judged = negatives | positives | (annotations.reads.keys() - undecided_ids(annotations))
        unread = [i for i in view.indices if papers[i].id not in judged]
        read = [i for i in view.indices if papers[i].id in judged]
        model = self.interest()
        if model is None:
            view.remarks.append(NOT_READY)
            view.indices = unread + read
            return
        if model.empty:
            view.remarks.append(NOTHING_YET)
            view.indices = unread + read
            return
        scores = model.scores()
        view.remarks.append(learned(len(positives), len(negatives)))
        position = model.vectors.position
        rows = {i: position(papers[i].id) for i in unread}
        ranked = sorted(unread, key=lambda i: (-_score(scores, rows[i]), i))
        for i in ranked[:WHY_LIMIT]:
            r = rows[i]
            if r is not None:
                view.scores[i] = float(scores[r])
                item = model.explain(r)  # the terms and negative phrases behind the score
                view.why[i] = self._why(item)
        view.indices = ranked + read

    def rank(self, limit: int = 50) -> View:
        """Unread papers not yet judged (liked, skipped, bookmarked, noted, tagged), most
        interesting first (the front of `Library.run_query("is:unread", sort="foryou")`), with
        `scores` and `why`; at most `limit`."""
        annotations = self._store.snapshot()
        view = self._planner.run("is:unread", annotations, depth=None)
        self.order(view, annotations)
        positives = self.positives(annotations)
        judged = negative_ids(annotations, positives) | positives
        papers = self._papers
        view.indices = [i for i in view.indices if papers[i].id not in judged][:limit]
        model = self.interest()
        if model is not None and not model.empty:  # the order explained only its top papers
            scores = model.scores()
            for i in view.indices:
                r = model.vectors.position(papers[i].id)
                if i not in view.why and r is not None:
                    view.scores[i] = float(scores[r])
                    view.why[i] = self._why(model.explain(r))
        return view

    def ask_me(self, limit: int = 50) -> View:
        """Unread papers the interest model is least sure about: answering them (like or
        skip) teaches it the most. The view's remarks say how many answers it learned from."""
        view = View(query="", indices=[])
        model = self.interest()
        if model is None:
            view.remarks.append("related-paper vectors not ready yet (being built or loaded)")
            return view
        if model.empty:
            view.remarks.append(NOTHING_YET)
            return view
        annotations = self._store.snapshot()
        for item in model.ask_order(limit, exclude=annotations.reads.keys()):
            pos = self._by_id.get(item.id)
            if pos is not None:
                view.indices.append(pos)
                view.scores[pos] = item.score
                view.why[pos] = self._why(item)
        view.remarks.append(learned(*self.answer_counts()))
        return view

    def _why(self, item: Ranked) -> str:
        """The terms behind a paper's score, and the liked paper it is nearest to."""
        pos = self._by_id.get(item.closest) if item.closest else None
        if pos is None:
            return item.why
        title = " ".join(self._papers[pos].title.split())
        near = f"near “{title[:57] + '…' if len(title) > 58 else title}”"
        return f"{item.why}; {near}" if item.why else near

    def add_seeds(self, path: str | Path, problems: list[str] | None = None) -> int:
        """Like the papers of a file: those of the library become liked papers, the others
        seed texts; returns how many. `problems` gets what could not be read in the file
        (broken entries, entries without an abstract)."""
        return add_seeds(path, self._store, self._papers, self._by_id, problems)

    def negative_keywords(self) -> list[str]:
        """Words and phrases whose papers sink in "for you" (settings.toml)."""
        from papertui.core.system.settings import load_settings

        return load_settings().negative_keywords

    def add_negative_keyword(self, text: str) -> str | None:
        """Rank papers with this phrase lower in "for you" (they stay in every search and
        list); saved in settings.toml. None, or the problem in one line."""
        from papertui.core.system.settings import add_negative_keyword

        return add_negative_keyword(text)

    def remove_negative_keyword(self, text: str) -> str | None:
        """Stop sinking papers with this phrase; None, or the problem in one line."""
        from papertui.core.system.settings import remove_negative_keyword

        return remove_negative_keyword(text)


def _score(scores: Any, row: int | None) -> float:
    return float("-inf") if row is None else float(scores[row])
