"""Where papertui keeps things. Computed on call, never at import, so tests can redirect them."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import platformdirs

APP_NAME = "papertui"


def data_dir() -> Path:
    """User data (bookmarks, notes): `PAPERTUI_DATA_DIR` or the platform's user data dir."""
    override = os.environ.get("PAPERTUI_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


def cache_dir() -> Path:
    """Rebuildable things (the search index): `PAPERTUI_CACHE_DIR` or the user cache dir."""
    override = os.environ.get("PAPERTUI_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME))


def config_dir() -> Path:
    """Settings: `PAPERTUI_CONFIG_DIR` or the platform's user config dir."""
    override = os.environ.get("PAPERTUI_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def store_path() -> Path:
    return data_dir() / "papertui.sqlite3"


def fetched_dir() -> Path:
    """Where `papertui fetch` writes what it fetched: `fetched/SOURCE/KEY.jsonl`, with its
    state (validators, complete days, the last digest) in `fetched/state.json`."""
    return data_dir() / "fetched"


def fetched_dumps() -> list[Path]:
    """Every fetched dump, by source then name: what `--fetched` adds to a command's paths."""
    root = fetched_dir()
    if not root.is_dir():
        return []
    return sorted(p for p in root.glob("*/*.jsonl") if not p.name.startswith("."))


def fetched_sources() -> list[Path]:
    """The folders of fetched dumps, one per source, that hold any: what `--fetched` adds to a
    command's paths (folders, not files, so that tomorrow's dump is read by the same reader
    and updates the same index)."""
    return sorted({p.parent for p in fetched_dumps()})


def bundled_corpus_dir() -> Path:
    """The default corpus: inside the installed package, or `assets/corpus` in a source checkout."""
    packaged = resources.files("papertui") / "corpus"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[4] / "assets" / "corpus"


def ensure_private_dir(path: Path) -> Path:
    """Create a directory readable only by its owner (user data is private)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path
