"""The one atomic writer: the old file or the new one, never half of one, and never a
temporary file of another writer's."""

from __future__ import annotations

import os
import threading

import pytest

from papertui.core.system import atomic_file
from papertui.core.system.atomic_file import replace_text


def test_a_write_that_fails_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "settings.toml"
    target.write_text("theme = 'nord'\n")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_file.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        replace_text(target, "theme = 'gruvbox'\n" * 1000)
    assert target.read_text() == "theme = 'nord'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]


def test_writers_at_once_each_leave_a_whole_file(tmp_path):
    target = tmp_path / "dump.jsonl"
    texts = [f"{n}\n" * 20_000 for n in range(8)]
    threads = [threading.Thread(target=replace_text, args=(target, t)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert target.read_text() in texts  # one writer's whole text, not a mix of two
    assert os.listdir(tmp_path) == ["dump.jsonl"]


def test_keep_existing_never_replaces_a_file(tmp_path):
    target = tmp_path / "export.bib"
    replace_text(target, "@misc{a}\n", keep_existing=True)
    with pytest.raises(FileExistsError):
        replace_text(target, "@misc{b}\n", keep_existing=True)
    assert target.read_text() == "@misc{a}\n"
    assert os.listdir(tmp_path) == ["export.bib"]
