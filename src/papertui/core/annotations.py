"""An immutable snapshot of what the user made: bookmarks, notes, read state, tags, feedback.

Queries run in a worker thread while the UI thread changes the store; each query reads one
snapshot, so nothing it iterates changes under it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from papertui.core.store import Store


@dataclass(frozen=True, slots=True)
class Annotations:
    bookmarks: Mapping[str, float] = field(
        default_factory=lambda: MappingProxyType({})
    )  # id -> when bookmarked
    notes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # id -> text
    noted_at: Mapping[str, float] = field(
        default_factory=lambda: MappingProxyType({})
    )  # id -> note last changed
    reads: Mapping[str, float] = field(
        default_factory=lambda: MappingProxyType({})
    )  # id -> when read
    tags: Mapping[str, frozenset[str]] = field(
        default_factory=lambda: MappingProxyType({})
    )  # id -> its tags
    new: frozenset[str] = frozenset()  # added to a file since it was last opened
    feedback: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({})
    )  # id -> +1 liked, -1 skipped
    by_tag: Mapping[str, frozenset[str]] = field(
        default_factory=lambda: MappingProxyType({})
    )  # casefold -> ids

    @classmethod
    def of(cls, store: Store, new: frozenset[str] | set[str] = frozenset()) -> Annotations:
        """Copy the store's state under its lock."""
        with store._lock:
            bookmarks = dict(store.bookmarks)
            notes = dict(store.notes)
            noted_at = dict(store.noted_at)
            reads = dict(store.reads)
            tags = {pid: frozenset(t) for pid, t in store.tags.items()}
            feedback = dict(getattr(store, "feedback", {}))
        by_tag: dict[str, set[str]] = {}
        for pid, names in tags.items():
            for name in names:
                by_tag.setdefault(name.casefold(), set()).add(pid)
        return cls(
            bookmarks=MappingProxyType(bookmarks),
            notes=MappingProxyType(notes),
            noted_at=MappingProxyType({p: t for p, t in noted_at.items() if p in notes}),
            reads=MappingProxyType(reads),
            tags=MappingProxyType(tags),
            new=frozenset(new),
            feedback=MappingProxyType(feedback),
            by_tag=MappingProxyType({k: frozenset(v) for k, v in by_tag.items()}),
        )

    @property
    def new_unread(self) -> frozenset[str]:
        """New papers stay new until read."""
        return frozenset(pid for pid in self.new if pid not in self.reads)

    def all_tags(self) -> list[str]:
        return sorted({t for names in self.tags.values() for t in names}, key=str.casefold)

    def tags_of(self, pid: str) -> list[str]:
        return sorted(self.tags.get(pid, ()), key=str.casefold)
