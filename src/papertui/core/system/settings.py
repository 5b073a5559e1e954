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

A bad setting is reported in one line and its default used; the file is never rewritten except
to remember the theme, the layout, the order, the negative keywords and the subscriptions added
from the reader or CLI.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

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
    theme = data.get("theme")
    if theme is not None:
        if isinstance(theme, str) and theme.strip():
            settings.theme = theme.strip()
        else:
            settings.problems.append(f"{path}: theme must be a theme name; using the default")
    defaults = data.get("default_paths", [])
    if isinstance(defaults, list) and all(isinstance(p, str) for p in defaults):
        settings.default_paths = [os.path.expanduser(p) for p in defaults]
    else:
        settings.problems.append(f"{path}: default_paths must be a list of paths; ignored")
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        settings.problems.append(f'{path}: [keys] must be a table of action = "key"; ignored')
        keys = {}
    for action, key in keys.items():
        if known_actions is not None and action not in known_actions:
            known = ", ".join(sorted(known_actions))
            settings.problems.append(f"{path}: unknown action {action!r} in [keys]; known: {known}")
        elif not isinstance(key, str) or not key.strip():
            settings.problems.append(f"{path}: key for {action!r} must be a key name; ignored")
        else:
            settings.keys[action] = key.strip()
    width = data.get("list_width", 66)
    if isinstance(width, int) and not isinstance(width, bool) and 20 <= width <= 90:
        settings.list_width = width
    else:
        settings.problems.append(f"{path}: list_width must be a whole number from 20 to 90")
    for name in ("list_only", "cursor_blink"):
        flag = data.get(name, getattr(settings, name))
        if isinstance(flag, bool):
            setattr(settings, name, flag)
        else:
            settings.problems.append(f"{path}: {name} must be true or false; ignored")
    sort = data.get("sort", "")
    if isinstance(sort, str):
        settings.sort = sort.strip()
    else:
        settings.problems.append(f"{path}: sort must be the name of an order; ignored")
    negative = data.get("negative_keywords", [])
    if isinstance(negative, list) and all(isinstance(k, str) for k in negative):
        settings.negative_keywords = [k.strip() for k in negative if k.strip()]
    else:
        settings.problems.append(f"{path}: negative_keywords must be a list of phrases; ignored")
    _read_fetch(data.get("fetch", {}), settings, path)
    unknown = set(data) - (set(Settings.__dataclass_fields__) - {"problems", "fetch_sources"})
    unknown.discard("fetch")
    if unknown:
        settings.problems.append(f"{path}: unknown setting(s) {', '.join(sorted(unknown))} ignored")
    return settings


def _read_fetch(table: object, settings: Settings, path: Path) -> None:
    """`[fetch] sources = [...]`: the subscriptions (checked when fetched)."""
    sources = table.get("sources", []) if isinstance(table, dict) else None
    if not isinstance(sources, list) or not all(isinstance(x, str) for x in sources):
        settings.problems.append(
            f'{path}: [fetch] sources must be a list such as ["hf", "arxiv:cs.LG"]; ignored'
        )
        return
    settings.fetch_sources = [x.strip() for x in sources if x.strip()]
    other = set(table) - {"sources"} if isinstance(table, dict) else set()
    if other:
        names = ", ".join(sorted(other))
        settings.problems.append(f"{path}: unknown setting(s) {names} in [fetch] ignored")


def remember_fetch_sources(sources: list[str]) -> str | None:
    """Write `[fetch] sources`, keeping everything else; None or why not."""
    path = settings_path()
    try:
        lines = path.read_text("utf-8").splitlines() if path.exists() else []
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    line = f"sources = {json.dumps(sources)}"
    header = next((i for i, x in enumerate(lines) if x.strip() == "[fetch]"), None)
    if header is None:
        lines += ["", "[fetch]", line] if lines else ["[fetch]", line]
    else:
        end = next(
            (i for i in range(header + 1, len(lines)) if lines[i].lstrip().startswith("[")),
            len(lines),
        )
        at = next(
            (i for i in range(header + 1, end) if lines[i].split("=", 1)[0].strip() == "sources"),
            None,
        )
        if at is None:
            lines.insert(header + 1, line)
        else:
            stop = at + 1
            if "[" in lines[at].split("=", 1)[1] and "]" not in lines[at].split("=", 1)[1]:
                while stop < end and "]" not in lines[stop - 1].split("#", 1)[0]:
                    stop += 1
            lines[at:stop] = [line]
    return _write(path, lines)


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
    path = settings_path()
    try:
        lines = path.read_text("utf-8").splitlines() if path.exists() else []
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    line = f"{name} = {json.dumps(value)}"
    for i, old in enumerate(lines):
        if old.split("=", 1)[0].strip() == name and not old.lstrip().startswith("#"):
            end = i + 1
            if "[" in old and "]" not in old:  # an array written over several lines
                while end < len(lines) and "]" not in lines[end - 1]:
                    end += 1
            lines[i:end] = [line]
            break
    else:
        lines.insert(0, line)  # top level: before any [table]
    return _write(path, lines)


def _write(path: Path, lines: list[str]) -> str | None:
    try:
        paths.ensure_private_dir(path.parent)
        replace_text(path, "\n".join(lines) + "\n")
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return None
