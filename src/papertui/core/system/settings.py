"""Settings in a TOML file in the user config dir: theme, key overrides, default corpus paths.

    theme = "nord"                                  # any Textual theme; the reader remembers yours
    list_width = 66                                 # % of the width for the list (< and >)
    list_only = false                               # the list takes the whole width (z)
    cursor_blink = false                            # a steady text cursor (default: blinks)
    sort = "foryou"                                 # the order the reader starts in (s)
    default_paths = ["~/papers/neurips-2025.json"]  # what opens when no PATH is given
    negative_keywords = ["quantum", "medical imaging"]  # "for you" ranks these lower
    [keys]
    toggle_bookmark = "x"                           # action = key(s), comma separated
    [fetch]
    sources = ["hf", "arxiv:cs.LG+cs.CV"]           # what `papertui daily` and R fetch

Each setting is declared once (`DECLARED`: its name, what it must be, how to read it); a bad
one is reported in one line naming the file and the key, and its default used. The file is
changed only to remember the theme, the layout, the order, the negative keywords and the
subscriptions added from the reader or CLI, through tomlkit: the user's comments and layout
stay.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from papertui.core.system import paths
from papertui.core.system.atomic_file import replace_text


@dataclass(slots=True)
class Settings:
    theme: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    default_paths: list[str] = field(default_factory=list)
    list_width: int = 66
    list_only: bool = False
    cursor_blink: bool = True
    sort: str = ""  # the reader's order (checked against the reader's names by the app)
    negative_keywords: list[str] = field(default_factory=list)
    fetch_sources: list[str] = field(default_factory=list)  # [fetch] sources: subscriptions
    problems: list[str] = field(default_factory=list)  # one line each, for the user


@dataclass(frozen=True, slots=True)
class Declared:
    """One setting: where it is in the file, the attribute it sets, what a good value is (as the
    problem says it), and how a good value is read (None: not good)."""

    key: str  # "name", or "table.name"
    attribute: str
    must_be: str
    read: Callable[[Any], Any]


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _order(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _width(value: Any) -> int | None:
    good = isinstance(value, int) and not isinstance(value, bool) and 20 <= value <= 90
    return value if good else None


def _strings(value: Any) -> list[str] | None:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        return None
    return [x.strip() for x in value if x.strip()]


def _paths(value: Any) -> list[str] | None:
    found = _strings(value)
    return None if found is None else [os.path.expanduser(p) for p in found]


DECLARED = [
    Declared("theme", "theme", "a theme name; using the default", _text),
    Declared("default_paths", "default_paths", "a list of paths; ignored", _paths),
    Declared("list_width", "list_width", "a whole number from 20 to 90", _width),
    Declared("list_only", "list_only", "true or false; ignored", _flag),
    Declared("cursor_blink", "cursor_blink", "true or false; ignored", _flag),
    Declared("sort", "sort", "the name of an order; ignored", _order),
    Declared("negative_keywords", "negative_keywords", "a list of phrases; ignored", _strings),
    Declared(
        "fetch.sources", "fetch_sources", 'a list such as ["hf", "arxiv:cs.LG"]; ignored', _strings
    ),
]
TABLES = {"keys", "fetch"}


def settings_path() -> Path:
    return paths.config_dir() / "settings.toml"


def load_settings(known_actions: set[str] | None = None) -> Settings:
    path = settings_path()
    settings = Settings()
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return settings
    except (OSError, UnicodeDecodeError) as exc:
        settings.problems.append(f"{path}: cannot be read ({exc}); using the defaults")
        return settings
    except tomllib.TOMLDecodeError as exc:
        settings.problems.append(f"{path}: not valid TOML ({exc}); using the defaults")
        return settings
    for declared in DECLARED:
        table, _, name = declared.key.rpartition(".")
        holder = data.get(table, {}) if table else data
        if not isinstance(holder, dict) or name not in holder:
            continue
        value = declared.read(holder[name])
        if value is None:
            settings.problems.append(f"{path}: {declared.key} must be {declared.must_be}")
        else:
            setattr(settings, declared.attribute, value)
    _read_keys(data.get("keys", {}), settings, path, known_actions)
    _unknown(data, settings, path)
    return settings


def _read_keys(
    keys: object, settings: Settings, path: Path, known_actions: set[str] | None
) -> None:
    if not isinstance(keys, dict):
        settings.problems.append(f'{path}: [keys] must be a table of action = "key"; ignored')
        return
    for action, key in keys.items():
        if known_actions is not None and action not in known_actions:
            known = ", ".join(sorted(known_actions))
            settings.problems.append(f"{path}: unknown action {action!r} in [keys]; known: {known}")
        elif not isinstance(key, str) or not key.strip():
            settings.problems.append(f"{path}: key for {action!r} must be a key name; ignored")
        else:
            settings.keys[action] = key.strip()


def _unknown(data: dict[str, Any], settings: Settings, path: Path) -> None:
    """Keys the declaration does not know, said once per table."""
    known = {d.key for d in DECLARED}
    top = {k for k in data if k not in known and k not in TABLES}
    if top:
        settings.problems.append(f"{path}: unknown setting(s) {', '.join(sorted(top))} ignored")
    fetch = data.get("fetch", {})
    if not isinstance(fetch, dict):
        settings.problems.append(f"{path}: [fetch] must be a table; ignored")
        return
    other = {k for k in fetch if f"fetch.{k}" not in known}
    if other:
        names = ", ".join(sorted(other))
        settings.problems.append(f"{path}: unknown setting(s) {names} in [fetch] ignored")


def remember_fetch_sources(sources: list[str]) -> str | None:
    """Write `[fetch] sources`, keeping everything else; None or why not."""
    return _edit(
        lambda doc: doc.setdefault("fetch", tomlkit.table()).__setitem__("sources", sources)
    )


def add_negative_keyword(text: str) -> str | None:
    """Add a phrase to `negative_keywords` (kept once, any case); None or why not."""
    phrase = " ".join(text.split())
    if not phrase:
        return "a negative keyword cannot be empty"
    current = load_settings().negative_keywords
    if any(k.casefold() == phrase.casefold() for k in current):
        return None
    return remember("negative_keywords", [*current, phrase])


def remove_negative_keyword(text: str) -> str | None:
    """Take a phrase out of `negative_keywords` (any case); None or why not."""
    phrase = " ".join(text.split())
    current = load_settings().negative_keywords
    kept = [k for k in current if k.casefold() != phrase.casefold()]
    if len(kept) == len(current):
        listed = ", ".join(repr(k) for k in current) or "none yet"
        return f"{phrase!r} is not a negative keyword (they are: {listed})"
    return remember("negative_keywords", kept)


def remember(name: str, value: str | int | bool | list[str]) -> str | None:
    """Write one top-level setting, keeping everything else; None or why not."""
    return _edit(lambda doc: doc.__setitem__(name, value))


def _edit(change: Callable[[tomlkit.TOMLDocument], object]) -> str | None:
    """Change the settings file through tomlkit (the user's comments and layout kept) and
    write it atomically; None, or why not in one line."""
    path = settings_path()
    try:
        text = path.read_text("utf-8") if path.exists() else ""
        doc = tomlkit.parse(text)
        change(doc)
        paths.ensure_private_dir(path.parent)
        replace_text(path, tomlkit.dumps(doc))
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    except (TOMLKitError, UnicodeDecodeError) as exc:
        return f"{path}: not valid TOML ({exc}); not changed"
    return None
