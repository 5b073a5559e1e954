"""Reading every abstract of a large library (an index build, the vectors) does not keep the
mapped cache's pages in the process' resident memory: at a million papers they were 1.4 GB."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from papertui.core import corpus_cache_file
from papertui.core.corpus_cache import CorpusLoader, file_cache_path

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


def test_reading_every_abstract_keeps_few_pages(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(corpus_cache_file, "RELEASE_EVERY", 1 << 20)
    path = tmp_path / "big.txt"
    filler = " ".join(f"word{i}" for i in range(400))  # ~3.5 KB an abstract
    path.write_text(
        "Big\n\n" + "\n\n".join(f"Paper {n}: {filler}." for n in range(3000)), encoding="utf-8"
    )
    cache = tmp_path / "cache"
    CorpusLoader([path], None, cache).advance(parse=True)  # writes the cache
    loader = CorpusLoader([path], None, cache)
    loader.advance(parse=False)  # from the cache: abstracts mapped, not read
    papers = loader.corpus().papers
    assert len(papers) == 3000
    mapped = file_cache_path(cache, path, None)
    assert sum(len(p.abstract) for p in papers) > 9_000_000  # every abstract read
    assert resident_kb(mapped) < 3 * 1024  # of a 9 MB file, about the last MB read
