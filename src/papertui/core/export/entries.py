"""What to export: one entry per paper with everything the user made of it.

Decided over plain inputs (papers, the store's saved copies and an `Annotations` snapshot), so
every export path carries the same fields: tags, notes, feedback, read state, and whether a
title was derived from the abstract.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from papertui.core.corpus import Paper
from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.store import LIKED, Annotations, SavedPaper


@dataclass(slots=True)
class Entry:
    id: str
    title: str
    abstract: str
    collections: list[str]
    urls: list[str]
    bookmarked: bool
    note: str
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    tags: list[str] = field(default_factory=list)
    title_derived: bool | None = False  # None: saved by an older papertui, not known
    feedback: str | None = None  # "liked", "skipped" or None
    read: bool = False
    cite: str = ""  # "type key" of the BibTeX entry the paper was read from (BibTeX keeps it)
    # its title and abstract in other languages, as JSON records give them: {"zh": {"title",
    # "abstract"}} (the JSON export alone writes them, and only when there are some)
    translations: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, paper: Paper, bookmarked: bool, note: str) -> Entry:
        """An entry without tags, feedback or read state: prefer `entry_for`."""
        return cls(
            paper.id,
            paper.title,
            paper.abstract,
            list(paper.collections),
            list(paper.urls),
            bookmarked,
            note,
            list(paper.authors),
            paper.venue,
            paper.year,
            title_derived=not paper.has_real_title,
        )


def entry_for(paper: Paper | SavedPaper, annotations: Annotations) -> Entry:
    """One paper (from the corpus, or the store's copy) with everything the user made of it."""
    pid = paper.id
    if isinstance(paper, Paper):
        derived: bool | None = not paper.has_real_title
    else:
        derived = None if paper.has_real_title is None else not paper.has_real_title
    return Entry(
        id=pid,
        title=paper.title,
        abstract=paper.abstract,
        collections=list(paper.collections),
        urls=list(paper.urls),
        bookmarked=pid in annotations.bookmarks,
        note=annotations.notes.get(pid, ""),
        authors=list(paper.authors),
        venue=paper.venue,
        year=paper.year,
        tags=annotations.tags_of(pid),
        title_derived=derived,
        feedback=annotations.feedback_word(pid),
        read=pid in annotations.reads,
        cite=paper.cite if isinstance(paper, Paper) else "",
        translations=translations_of(paper) if isinstance(paper, Paper) else {},
    )


def translations_of(paper: Paper) -> dict[str, dict[str, str]]:
    """The paper's translations as JSON records give them ({} for most papers: cheap)."""
    if not paper._meta:
        return {}
    found = PaperMeta.translations_of(paper._meta)
    return PaperMeta(translations=found).as_record().get("translations", {}) if found else {}


def entries_for(papers: Iterable[Paper], annotations: Annotations) -> list[Entry]:
    """Entries for chosen papers (a selection, the results, a tag), in the order given."""
    return [entry_for(p, annotations) for p in papers]


def annotated_ids(annotations: Annotations) -> list[str]:
    """Every paper the user bookmarked, noted, tagged or liked: bookmarks oldest first, then
    the other noted papers oldest first, then the other tagged ones, then the other liked ones
    (a trial's 18 likes were left out of its export)."""
    ids = sorted(annotations.bookmarks, key=lambda pid: (annotations.bookmarks[pid], pid))
    taken = set(ids)
    noted = sorted(
        (pid for pid in annotations.notes if pid not in taken),
        key=lambda pid: (annotations.noted_at.get(pid, 0.0), pid),
    )
    taken.update(noted)
    tagged = sorted(pid for pid in annotations.tags if pid not in taken)
    taken.update(tagged)
    liked = sorted(
        pid for pid, v in annotations.feedback.items() if v == LIKED and pid not in taken
    )
    return ids + noted + tagged + liked


def annotated_entries(
    ids: Sequence[str],
    papers: Mapping[str, Paper],
    saved: Mapping[str, SavedPaper],
    annotations: Annotations,
) -> list[Entry]:
    """Entries for `ids` (see `annotated_ids`): from the corpus when it holds the paper, else
    from the store's saved copy (authors, venue and year included); ids in neither are left
    out."""
    entries = []
    for pid in ids:
        paper: Paper | SavedPaper | None = papers.get(pid) or saved.get(pid)
        if paper is not None:
            entries.append(entry_for(paper, annotations))
    return entries
