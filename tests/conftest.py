"""Every test runs with its own data, cache and config dirs and in its own working dir: the real
user directories and the checkout are never touched (an export's default name is relative)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PAPERTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def write_corpus(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write a corpus file from text or bytes and return its path."""

    def write(content: str | bytes, name: str = "dump.txt") -> Path:
        path = tmp_path / "corpora" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8", newline="")
        else:
            path.write_bytes(content)
        return path

    return write


@pytest.fixture(scope="module")
def bundled_library(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The bundled collections, indexed once per test module, on their own temp dirs."""
    from papertui.core.library import Library
    from papertui.core.paths import bundled_corpus_dir

    mp = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("bundled")
    mp.setenv("PAPERTUI_DATA_DIR", str(base / "data"))
    mp.setenv("PAPERTUI_CACHE_DIR", str(base / "cache"))
    library = Library.open([bundled_corpus_dir()])
    library.indexing.ensure()
    yield library
    library.close()
    mp.undo()
