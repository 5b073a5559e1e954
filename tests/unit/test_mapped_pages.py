"""Reading every abstract of a large library (an index build, the vectors) does not keep the
mapped cache's pages in the process' resident memory: at a million papers they were 1.4 GB."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from papertui.core.corpus import cache_file as corpus_cache_file
from papertui.core.corpus.cache import CorpusLoader, file_cache_path

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def resident_kb(mapped: Path) -> int:
    """How much of the file `mapped` is resident in this process, in KB (/proc/self/smaps)."""
    total, inside = 0, False
    with open("/proc/self/smaps", encoding="utf-8") as handle:
        for line in handle:
            if line[0] in "0123456789abcdef" and "-" in line.split()[0]:
                inside = line.rstrip().endswith(str(mapped))
            elif inside and line.startswith("Rss:"):
                total += int(line.split()[1])
    return total


def from_cache(path: Path, text: str) -> tuple[list, Path]:  # type: ignore[type-arg]
    """`text` written to `path`, read once (its cache written), then read from that cache:
    the papers, abstracts mapped and not read, and the mapped cache file."""
    path.write_text(text, encoding="utf-8")
    cache = path.parent / "cache"
    CorpusLoader([path], None, cache).advance(parse=True)
    loader = CorpusLoader([path], None, cache)
    loader.advance(parse=False)
    return loader.corpus().papers, file_cache_path(cache, path, None)


def test_reading_every_abstract_keeps_few_pages(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(corpus_cache_file, "RELEASE_EVERY", 1 << 20)
    filler = " ".join(f"word{i}" for i in range(400))  # ~3.5 KB an abstract
    papers, mapped = from_cache(
        tmp_path / "big.txt", "Big\n\n" + "\n\n".join(f"Paper {n}: {filler}." for n in range(3000))
    )
    assert len(papers) == 3000
    assert sum(len(p.abstract) for p in papers) > 9_000_000  # every abstract read
    assert resident_kb(mapped) < 3 * 1024  # of a 9 MB file, about the last MB read


def test_reading_abstracts_far_apart_keeps_few_pages(tmp_path: Path, monkeypatch) -> None:
    # the topics read a sample spread over the whole file: each read far from the last faults
    # in the kernel's read-ahead too, which a count of the texts' own bytes never let go of
    monkeypatch.setattr(corpus_cache_file, "RELEASE_EVERY", 1 << 20)
    papers, mapped = from_cache(
        tmp_path / "many.txt",
        "Many\n\n" + "\n\n".join(f"Paper {n} " + "word " * 60 for n in range(40_000)),
    )
    for n in range(0, len(papers), 97):  # one abstract in 97: 400 reads across 12 MB
        assert papers[n].abstract.startswith(f"Paper {n} ")
    assert resident_kb(mapped) < 3 * 1024


def test_copying_and_searching_every_abstract_keeps_few_pages(tmp_path: Path, monkeypatch) -> None:
    # an added day rewrites the cache from the mapped one, and reconciling the store searches
    # every abstract for a few characters: at a million papers each left 1.3 GB resident
    monkeypatch.setattr(corpus_cache_file, "RELEASE_EVERY", 1 << 20)
    filler = " ".join(f"word{i}" for i in range(400))
    papers, mapped = from_cache(
        tmp_path / "big.txt",
        "Big\n\n" + "\n\n".join(f"Paper {n}: {filler} {{x}}." for n in range(3000)),
    )
    texts = papers[0]._store
    with open(tmp_path / "copy.bin", "wb") as out:
        texts.copy_to(out)
    assert (tmp_path / "copy.bin").stat().st_size > 9_000_000
    assert resident_kb(mapped) < 3 * 1024
    assert len(texts.numbers_containing("{}")) == 3000
    assert resident_kb(mapped) < 3 * 1024


def test_scoring_papers_from_the_mapped_vectors_keeps_few_pages(tmp_path: Path) -> None:
    # "more like this" reads the term rows of papers spread over the whole file, and triage
    # and the LSA prefilter read every row: at a million papers the reader kept 520 MB of them
    import numpy as np

    from papertui.core.semantic.vector_terms import Vocabulary
    from papertui.core.semantic.vectors import PaperVectors

    rng = np.random.default_rng(3)
    n, width, terms = 70_000, 64, 500  # LSA scores from two threads from 65,536 papers
    vocab = Vocabulary(words={}, width=1, keys=np.arange(terms), idf=np.ones(terms, np.float32))
    made = PaperVectors(
        [f"p{i}" for i in range(n)],
        vocab,
        rng.integers(0, terms, (n, width)).astype(np.uint16),
        rng.random((n, width)).astype(np.float16),
        rng.random((n, 32)).astype(np.float16),
        rng.random((terms, 32)).astype(np.float16),
    )
    made.save(tmp_path / "v")
    mapped = PaperVectors.load(tmp_path / "v")
    held = PaperVectors.load(tmp_path / "v", mmap=False)
    query = rng.random(terms).astype(np.float32)
    rows = np.arange(0, n, 2)
    unit = rng.random(32).astype(np.float32)
    unit /= np.linalg.norm(unit)
    files = [tmp_path / "v" / f"{name}.npy" for name in ("term_ids", "term_weights", "dense")]
    assert all(f.stat().st_size > 4_000_000 for f in files)
    for score, args in (
        ("term_scores_of", (query, rows)),
        ("term_scores", (query,)),
        ("dense_scores", (unit,)),
    ):
        found = getattr(mapped, score)(*args)
        assert np.array_equal(found, getattr(held, score)(*args)), score
        assert all(resident_kb(f) < 1024 for f in files), score  # of 4.5-9 MB files
    rows32 = np.asarray(made.dense, dtype=np.float32)
    lengths = np.linalg.norm(rows32, axis=1)
    assert np.allclose(mapped.dense_scores(unit), rows32 @ unit / lengths, rtol=1e-5)


def test_copying_reads_the_mapped_file_and_never_a_file_put_in_its_place(
    tmp_path: Path, monkeypatch
) -> None:
    # copying reads the cache file itself (a pass through the map faulted in every page: 4 s
    # at a million abstracts); a cache written again at the same path is another file, and
    # what was mapped is copied from the map instead
    papers, mapped = from_cache(
        tmp_path / "few.txt", "Few\n\n" + "\n\n".join(f"Paper {n}: café ∑ {n}." for n in range(50))
    )
    texts = papers[0]._store
    expected = "".join(p.abstract for p in papers).encode("utf-8")
    through_map: list[object] = []  # pages let go: only a copy through the map has any
    monkeypatch.setattr(corpus_cache_file, "release_pages", through_map.append)
    with open(tmp_path / "read.bin", "wb") as out:
        texts.copy_to(out)
    assert (tmp_path / "read.bin").read_bytes() == expected
    assert not through_map
    replacement = tmp_path / "other.bin"
    replacement.write_bytes(mapped.read_bytes().replace(b"Paper", b"Xaper"))
    replacement.replace(mapped)  # as a writer swaps a new cache in
    with open(tmp_path / "mapped.bin", "wb") as out:
        texts.copy_to(out)
    assert (tmp_path / "mapped.bin").read_bytes() == expected
    assert through_map
    with open(tmp_path / "titles.bin", "wb") as out:
        texts.copy_field(out, 0, 0, 50)  # derived titles: none stored
    assert (tmp_path / "titles.bin").read_bytes() == b""
