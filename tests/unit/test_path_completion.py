"""Tab in a path prompt completes as a shell does."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papertui.core.system.path_completion import complete_path


def make_tree(root) -> None:  # type: ignore[no-untyped-def]
    (root / "papers").mkdir()
    (root / "papers" / "neurips-2025.bib").write_text("x")
    (root / "papers" / "neurips-2024.json").write_text("x")
    (root / "papers" / "icml.txt").write_text("x")
    (root / "papers" / ".hidden.bib").write_text("x")
    (root / "notes.md").write_text("x")


def test_completes_one_entry_a_folder_with_its_slash_and_a_shared_prefix(tmp_path, monkeypatch):
    make_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert complete_path("pap") == "papers" + os.sep
    assert complete_path("papers/ic") == "papers/icml.txt"
    assert complete_path("papers/n") == "papers/neurips-202"  # two match: what they share
    assert complete_path("papers/neurips-202") is None  # nothing longer to say
    assert complete_path("papers/icml.txt") is None  # already complete
    assert complete_path(str(tmp_path / "no")) == str(tmp_path / "notes.md")  # absolute


def test_dot_files_only_when_asked_and_nothing_for_missing_folders(tmp_path, monkeypatch):
    make_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert complete_path("papers/.h") == "papers/.hidden.bib"
    assert complete_path("papers/") is None  # three entries share nothing
    assert complete_path("missing/x") is None
    assert complete_path("") is None


def test_home_is_expanded_but_kept_as_typed(tmp_path, monkeypatch):
    make_tree(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert complete_path("~/no") == "~/notes.md"


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=40))
def test_any_text_completes_to_a_longer_path_or_nothing(text):
    done = complete_path(text)
    assert done is None or (done.startswith(text) and len(done) > len(text))
