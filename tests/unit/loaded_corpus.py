"""What the corpus loader gives for one file, as tests compare two ways of reading it."""

from __future__ import annotations

from pathlib import Path

from papertui.core.corpus.cache import CorpusLoader, file_cache_path


def loaded(path: Path, cache: Path) -> tuple:  # type: ignore[type-arg]
    """The papers (every field a user sees), reports, warnings and errors of `path` read with
    the cache dir `cache`, and the bytes of the cache file written (b"" for none)."""
    loader = CorpusLoader([path], None, cache)
    loader.advance(parse=True)
    corpus = loader.corpus()
    papers = [
        (p.id, p.abstract, p.title, p.has_real_title, p.authors, p.urls, p._meta, p.collections)
        for p in corpus.papers
    ]
    files = [(f.path, f.format, f.collection, f.papers, f.skipped) for f in corpus.files]
    blob = file_cache_path(cache, path, None)
    return (
        papers,
        files,
        corpus.warnings,
        corpus.errors,
        blob.read_bytes() if blob.exists() else b"",
    )
