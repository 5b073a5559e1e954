"""Deterministic synthetic corpora in the native format, for benchmarks and scale tests.

Abstracts recombine sentences of the bundled collections and mutate their words with a Zipf-like
synthetic vocabulary, so that term frequencies look like real text (a few very common words, a
long tail of rare ones) and common words are not in every document. Some abstracts introduce a
named method, carry LaTeX or a URL. Lengths run from about 600 to 2,000 characters.

    python tests/bench/gen_corpus.py OUT_DIR --n 100000 [--files 10] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

from papertui.core.corpus import load_corpus
from papertui.core.system.paths import bundled_corpus_dir

_SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ne",
    "ru",
    "ta",
    "vo",
    "zi",
    "pre",
    "con",
    "tra",
    "gen",
    "lin",
    "mor",
    "qua",
    "spe",
    "dif",
    "gra",
    "ker",
    "net",
    "flo",
    "ten",
    "sor",
    "bay",
    "opt",
    "sta",
    "dyn",
]
_LATEX = [
    r"$\mathcal{O}(n^2)$",
    r"$\ell_1$",
    r"$x[i]$",
    r"92\%",
    r"$\alpha \in [0,1]$",
    r"$\mathbb{R}^d$",
    r"$O(\log n)$",
]


def _sentences() -> list[str]:
    corpus = load_corpus([bundled_corpus_dir()])
    out: list[str] = []
    for paper in corpus.papers:
        out += [s for s in re.split(r"(?<=[.!?])\s+", paper.abstract) if 40 <= len(s) <= 400]
    return out


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    ordered = sorted(words)
    rng.shuffle(ordered)  # rank (and so frequency) must not follow spelling
    return ordered


class Generator:
    def __init__(self, seed: int = 7, vocab: int = 60_000) -> None:
        self.rng = random.Random(seed)
        self.sentences = _sentences()
        self.vocab = _vocabulary(self.rng, vocab)
        # Zipf-like: the word at rank r is drawn with weight 1/r
        self.weights = [1.0 / (rank + 1) for rank in range(len(self.vocab))]
        self._cum: list[float] = []
        total = 0.0
        for w in self.weights:
            total += w
            self._cum.append(total)

    def word(self) -> str:
        return self.rng.choices(self.vocab, cum_weights=self._cum, k=1)[0]

    def method(self) -> str:
        rng = self.rng
        return (
            rng.choice(["", "Neo", "Deep", "Fast", "Meta"])
            + "".join(rng.choice(_SYLLABLES).capitalize() for _ in range(rng.randint(1, 2)))
            + rng.choice(["Net", "GCL", "Flow", "Former", "GAN", "Diff", "NN"])
        )

    def abstract(self) -> str:
        rng = self.rng
        parts: list[str] = []
        target = int(rng.triangular(600, 2000, 700))
        if rng.random() < 0.4:
            name = self.method()
            parts.append(
                f"We propose {name}, a {self.word()} {rng.choice(['model', 'method', 'framework'])}"
                f" for {self.word()} {self.word()}."
            )
        while sum(len(p) + 1 for p in parts) < target:
            words = rng.choice(self.sentences).split()
            for i in range(len(words)):  # mutate: rare words come from the Zipf vocabulary
                if rng.random() < 0.15:
                    words[i] = self.word()
            parts.append(" ".join(words))
        text = " ".join(parts)[:target].rsplit(" ", 1)[0]
        if rng.random() < 0.2:
            text += " " + rng.choice(_LATEX)
        if rng.random() < 0.15:
            text += f" Code: https://github.com/{self.word()}/{self.word()}."
        return text


def write_corpus(out: Path, n: int, files: int = 10, seed: int = 7) -> list[Path]:
    """Write `n` abstracts split over `files` native-format files; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    gen = Generator(seed)
    paths = []
    per = -(-n // files)
    written = 0
    for f in range(files):
        count = min(per, n - written)
        if count <= 0:
            break
        path = out / f"synthetic-{f:02d}.txt"
        with path.open("w", encoding="utf-8") as handle:
            handle.write(f"Synthetic collection {f}\n\n")
            for _ in range(count):
                handle.write(gen.abstract() + "\n\n")
        written += count
        paths.append(path)
    return paths


def append_abstracts(path: Path, n: int, seed: int = 99) -> None:
    gen = Generator(seed)
    with path.open("a", encoding="utf-8") as handle:
        for _ in range(n):
            handle.write(gen.abstract() + "\n\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    paths = write_corpus(args.out, args.n, args.files, args.seed)
    size = sum(p.stat().st_size for p in paths)
    print(f"wrote {args.n} abstracts in {len(paths)} files, {size / 1e6:.1f} MB, under {args.out}")


if __name__ == "__main__":
    main()
