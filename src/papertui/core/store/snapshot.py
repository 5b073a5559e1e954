"""What the store hands out to readers: frozen annotations, seeds, and the triage verdicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

LIKED, SKIPPED = 1, -1
# an answer taken back (U): neither liked nor passed over, even if read, until answered again
UNDECIDED = 0


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Seed:
    """An abstract the user gave as an example of what they want to read."""

    id: str
    title: str
    abstract: str
    source: str


@dataclass(frozen=True, slots=True)
class Annotations:
    """What the user made, frozen at one moment: safe to read from any thread while the store
    changes (a search worker filters with it while the UI toggles bookmarks)."""

    bookmarks: Mapping[str, float] = field(default_factory=_empty)  # id -> when bookmarked
    notes: Mapping[str, str] = field(default_factory=_empty)  # id -> note text
    noted_at: Mapping[str, float] = field(default_factory=_empty)  # id -> when last noted
    tags: Mapping[str, frozenset[str]] = field(default_factory=_empty)
    reads: Mapping[str, float] = field(default_factory=_empty)
    new: frozenset[str] = frozenset()  # added to a file since it was last opened (until read)
    feedback: Mapping[str, int] = field(default_factory=_empty)  # id -> LIKED or SKIPPED
    seeds: tuple[Seed, ...] = ()  # example abstracts from outside the library, oldest first
    # when "for you" was last reset: papers read before then no longer count as passed over
    feedback_reset: float = 0.0

    def tags_of(self, pid: str) -> list[str]:
        return sorted(self.tags.get(pid, ()), key=str.casefold)

    def is_new(self, pid: str) -> bool:
        return pid in self.new and pid not in self.reads

    def feedback_word(self, pid: str) -> str | None:
        return {LIKED: "liked", SKIPPED: "skipped"}.get(self.feedback.get(pid, 0))
