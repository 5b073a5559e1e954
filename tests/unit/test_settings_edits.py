"""Settings the reader remembers are written through tomlkit: the user's comments, order and
layout stay, and a problem names the file and the key."""

from __future__ import annotations

from papertui.core.system.settings import (
    add_negative_keyword,
    load_settings,
    remember,
    remember_fetch_sources,
    settings_path,
)

MINE = """# my reading setup
theme = "nord"        # dark, for the evening

default_paths = [
    "~/papers/neurips.json",  # the big one
]

[keys]
toggle_bookmark = "x"  # x marks it
"""


def test_remembering_keeps_every_comment_and_the_order_of_the_file():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(MINE)
    assert remember("theme", "gruvbox") is None
    assert remember("list_width", 50) is None
    assert add_negative_keyword("quantum  computing") is None
    assert remember_fetch_sources(["hf", "arxiv:cs.LG"]) is None
    text = path.read_text()
    for kept in ("# my reading setup", "# dark, for the evening", "# the big one", "# x marks it"):
        assert kept in text
    assert text.index("theme") < text.index("[keys]") < text.index("[fetch]")
    settings = load_settings({"toggle_bookmark"})
    assert settings.problems == []
    assert (settings.theme, settings.list_width) == ("gruvbox", 50)
    assert settings.negative_keywords == ["quantum computing"]
    assert settings.fetch_sources == ["hf", "arxiv:cs.LG"]
    assert settings.keys == {"toggle_bookmark": "x"} and len(settings.default_paths) == 1


def test_a_bad_value_names_the_file_and_the_key_and_a_broken_file_is_not_rewritten():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('list_width = 5\n[fetch]\nsources = "hf"\n')
    problems = load_settings().problems
    assert problems == [
        f"{path}: list_width must be a whole number from 20 to 90",
        f'{path}: fetch.sources must be a list such as ["hf", "arxiv:cs.LG"]; ignored',
    ]
    path.write_text("theme = [\n")
    said = remember("theme", "nord")
    assert said is not None and str(path) in said and "not valid TOML" in said
    assert path.read_text() == "theme = [\n"
