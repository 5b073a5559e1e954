"""Damaged or unwritable user data and indexes: the reader starts, says what happened, and
keeps every word the user typed."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import Static, TextArea

from papertui.cli import main
from papertui.core.library import Library
from papertui.core.system import paths
from papertui.ui.app import make_app
from papertui.ui.screens.note_editor import NoteEditor

from notices import toasts
from workers import workers_done


def _good_store_then(damage: str) -> Path:
    library = Library.open(None)
    library.marks.set_note(library.papers[0], "precious words")
    library.close()
    db = paths.store_path()
    for side in ("-wal", "-shm"):
        Path(str(db) + side).unlink(missing_ok=True)
    data = db.read_bytes()
    if damage == "truncated":
        db.write_bytes(data[: len(data) // 3])
    else:
        db.write_bytes(b"\x00garbage" * 512)
    return db


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_cli_moves_a_damaged_store_aside_and_says_where(capsys, damage):
    db = _good_store_then(damage)
    before = db.read_bytes()
    assert main(["list"]) == 0
    err = capsys.readouterr().err
    moved = [
        p
        for p in db.parent.iterdir()
        if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))
    ]
    assert len(moved) == 1 and moved[0].read_bytes() == before  # kept, never deleted
    assert str(moved[0]) in err and "damaged" in err
    assert main(["bookmark", Library.open(None).papers[0].id]) == 0  # a fresh store works


async def test_reader_starts_on_a_damaged_store_and_says_so():
    _good_store_then("garbage")
    app = make_app(clipboard=lambda t: None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        messages = toasts(app)
        assert any("damaged" in m and ".corrupt-" in m for m in messages)
        await pilot.press("b")
        assert app.library.marks.is_bookmarked(app.reader.current_paper)


def test_data_files_are_private():
    library = Library.open(None)
    library.marks.set_bookmark(library.papers[0], True)
    db = paths.store_path()
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    for f in [db, Path(str(db) + "-wal"), Path(str(db) + "-shm")]:
        if f.exists():
            assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0, f
    library.close()


@pytest.fixture
def unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A data dir that really refuses writes: read-only mode, and immutable when we are root
    (root ignores permission bits, but not the immutable attribute)."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    folder.chmod(0o555)
    immutable = False
    probe = folder / "probe"
    try:
        probe.touch()
    except OSError:
        pass
    else:
        probe.unlink()
        immutable = subprocess.run(["chattr", "+i", str(folder)], check=False).returncode == 0
    try:
        (folder / "probe").touch()
    except OSError:
        pass
    else:
        pytest.fail("could not make a directory unwritable on this machine")
    monkeypatch.setenv("PAPERTUI_DATA_DIR", str(folder / "papertui"))
    yield folder
    if immutable:
        subprocess.run(["chattr", "-i", str(folder)], check=False)
    folder.chmod(0o755)


def test_read_only_data_dir_cli_explains(capsys, unwritable):
    pid = Library.open(None).papers[0].id
    assert main(["bookmark", pid]) == 2
    err = capsys.readouterr().err
    assert "not saved" in err and str(unwritable) in err and "Traceback" not in err
    assert main(["list"]) == 0 and main(["search", "caligcl"]) == 0  # reading still works


async def test_read_only_data_dir_keeps_browsing_and_every_typed_word(unwritable):
    app = make_app(clipboard=lambda t: None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await workers_done(app)
        assert any("cannot be saved" in t for t in toasts(app))
        await pilot.press("j", "b")
        await pilot.pause()
        assert any("not saved" in t for t in toasts(app))
        await pilot.press("n", *"kept", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)  # the editor stays, with the text
        assert app.screen.query_one(TextArea).text == "kept"
        assert "not saved" in str(app.screen.query_one("#note-error", Static).render())
        await pilot.press("escape", "y")  # the user chose to drop it
        app.reader.search_bar.value = "caligcl"
        await pilot.pause(0.1)  # the box searches after a pause in typing
        await workers_done(app)
        await pilot.pause()
        assert len(app.reader.paper_list.rows) == 1  # search still works


async def test_note_editor_keeps_text_when_the_disk_is_full(full_disk):
    app = make_app(clipboard=lambda t: None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        full_disk()
        await pilot.press("n")
        app.screen.query_one(TextArea).text = "a long note " * 5000
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert "disk is full" in str(app.screen.query_one("#note-error", Static).render())
        assert app.screen.query_one(TextArea).text == "a long note " * 5000


def test_index_from_an_older_schema_is_rebuilt(write_corpus):
    path = write_corpus("C\n\nalpha beta.\n\ngamma delta.")
    library = Library.open([path])
    library.indexing.ensure()
    meta_file = library.index_store.current_dir() / "meta.json"
    library.close()
    meta = json.loads(meta_file.read_text())
    meta["version"] = "0"
    meta_file.write_text(json.dumps(meta))
    library = Library.open([path])
    assert library.indexing.ensure().how == "built"
    assert len(library.run_query("gamma").indices) == 1


def test_index_build_killed_midway_leaves_a_usable_index(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from gen_corpus import write_corpus

    from papertui.core.search.building import PARALLEL_FROM

    folder = tmp_path / "big"
    write_corpus(folder, PARALLEL_FROM, files=2, seed=4)  # the build forks a segment writer
    assert main(["index", str(folder)]) == 0  # a good index to fall back on
    store_root = Library.open([folder]).index_store
    good = store_root.current_dir()
    with (folder / "synthetic-00.txt").open("a", encoding="utf-8") as handle:
        handle.write("\n\n" + "\n\n".join(f"Fresh abstract {k} on kernels." for k in range(1500)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "papertui", "index", "--progress-json", str(folder)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # kill it once it is writing
        if '"done"' in line and json.loads(line)["done"] > 1000:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.2)
    assert store_root.current_dir() == good  # the pointer never moved
    library = Library.open([folder])
    report = library.indexing.ensure()  # no crash, no stale results
    assert report.how in ("built", "updated")
    assert len(library.run_query("fresh kernels", depth=None).indices) >= 1500


def test_an_index_that_will_not_open_is_built_again_and_said_in_the_debug_log(write_corpus):
    path = write_corpus("C\n\nalpha beta.\n\ngamma delta.")
    library = Library.open([path])
    library.indexing.ensure()
    current = library.index_store.current_dir()
    library.close()
    log = paths.cache_dir() / "papertui.log"
    assert not log.exists()  # an index that opens says nothing
    for toc in current.glob("*.toc"):
        toc.write_bytes(b"\x80\x04not a table of contents" * 20)
    library = Library.open([path])
    assert library.indexing.ensure().how == "built"
    assert len(library.run_query("gamma").indices) == 1
    said = log.read_text("utf-8")
    assert f"the index in {current} would not open; building it again" in said
    assert "Traceback" in said  # with where it failed, for a bug report
