"""Bookmarks and notes in SQLite: persistence, damage and read-only data dirs."""

from __future__ import annotations

import os
import stat

import pytest

from papertui.core import paths
from papertui.core.corpus import load_corpus
from papertui.core.store import Store, StoreError


@pytest.fixture
def papers(write_corpus):
    return load_corpus([write_corpus("S\n\nFirst paper.\n\nSecond paper.")]).papers


def test_changes_survive_reopening(papers):
    store = Store(paths.store_path())
    store.set_bookmark(papers[0], True)
    store.set_note(papers[1], "line one\nline two")
    store.close()
    again = Store(paths.store_path())
    assert again.is_bookmarked(papers[0].id) and not again.is_bookmarked(papers[1].id)
    assert again.note(papers[1].id) == "line one\nline two"
    saved = again.saved_papers([papers[1].id])
    assert saved[papers[1].id].abstract == "Second paper."


def test_second_instance_sees_changes_after_refresh(papers):
    one, two = Store(paths.store_path()), Store(paths.store_path())
    one.set_bookmark(papers[0], True)
    two.set_note(papers[0], "from two")
    one.refresh()
    two.refresh()
    assert one.note(papers[0].id) == "from two" and two.is_bookmarked(papers[0].id)


def test_empty_note_removes_it(papers):
    store = Store(paths.store_path())
    store.set_note(papers[0], "x")
    store.set_note(papers[0], "   ")
    assert store.note(papers[0].id) == "" and papers[0].id not in store.notes


def test_data_file_is_private(papers):
    store = Store(paths.store_path())
    store.set_bookmark(papers[0], True)
    assert stat.S_IMODE(os.stat(paths.store_path()).st_mode) == 0o600


def test_corrupt_file_is_moved_aside_not_deleted(papers):
    target = paths.store_path()
    target.parent.mkdir(parents=True)
    target.write_bytes(b"this is not a database" * 100)
    store = Store(target)
    assert store.moved_aside is not None and store.moved_aside.exists()
    assert store.moved_aside.read_bytes().startswith(b"this is not a database")
    store.set_bookmark(papers[0], True)  # the fresh store works
    assert Store(target).is_bookmarked(papers[0].id)


def test_full_disk_reports_why_and_keeps_old_state(papers):
    store = Store(paths.store_path())
    store.set_note(papers[0], "kept")
    assert store._conn is not None
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")  # no room for one more page
    with pytest.raises(StoreError, match="disk is full"):
        store.set_note(papers[1], "x" * 100_000)
    assert store.note(papers[0].id) == "kept" and store.note(papers[1].id) == ""


def test_unusable_data_dir_reports_why(papers, tmp_path):
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    store = Store(blocker / "papertui.sqlite3")
    assert store.unavailable
    with pytest.raises(StoreError, match="not saved"):
        store.set_note(papers[0], "my words")
