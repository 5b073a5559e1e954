"""What an action over the library has to say: the reader shows it as a toast."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    text: str = ""  # plain text; empty: nothing to say
    severity: str = "information"
    title: str = ""
    timeout: float | None = None
    relearn: bool = False  # what the user keeps changed: "for you" and "ask me" re-rank
    kind: str = ""  # a toast of this kind replaces the last one ("answer", "selection")

    @property
    def failed(self) -> bool:
        return self.severity == "error"
