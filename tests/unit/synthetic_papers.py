"""Small synthetic libraries for the "for you" tests: papers made of chosen words plus filler,
shuffled, with ids that say which group a paper is in."""

from __future__ import annotations

import random

from papertui.core.semantic.vector_build import build
from papertui.core.semantic.vectors import PaperVectors

# a field's words (reinforcement learning), shared by the tests that need one
RL_WORDS = [
    "reinforcement",
    "policy",
    "reward",
    "agent",
    "environment",
    "exploration",
    "bandit",
    "atari",
]


class SyntheticPapers:
    def __init__(self, rng: random.Random, filler: list[str], filler_words: int = 8) -> None:
        self.rng = rng
        self.filler = filler
        self.filler_words = filler_words
        self.ids: list[str] = []
        self.texts: list[tuple[str, str]] = []

    def paper(self, pid: str, words: list[str]) -> None:
        body = words + self.rng.choices(self.filler, k=self.filler_words)
        self.rng.shuffle(body)
        self.ids.append(pid)
        self.texts.append(("", " ".join(body) + "."))

    def vectors(self) -> PaperVectors:
        return build(self.ids, self.texts)
