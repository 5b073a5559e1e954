"""Bookmarks and notes in SQLite: persistence, damage and read-only data dirs."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading

import pytest

from papertui.core.corpus import load_corpus
from papertui.core.store import LIKED, SKIPPED, Store, StoreError
from papertui.core.system import paths


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


def test_full_disk_reports_why_and_keeps_old_state(papers, full_disk):
    store = Store(paths.store_path())
    store.set_note(papers[0], "kept")
    full_disk()  # no room for one more page
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


def test_deleting_a_note_forgets_when_it_was_written(papers):
    store = Store(paths.store_path())
    store.set_note(papers[0], "x")
    store.set_note(papers[0], "")
    assert papers[0].id not in store.noted_at  # "recently noted" must not sort it first
    assert papers[0].id not in store.snapshot().noted_at


def test_refresh_reports_a_store_it_cannot_read(papers):
    store = Store(paths.store_path())
    store.set_bookmark(papers[0], True)
    other = sqlite3.connect(paths.store_path())
    other.execute("DROP TABLE notes")
    other.commit()
    other.close()
    with pytest.raises(StoreError, match="could not reload") as caught:
        store.refresh()
    assert "\n" not in str(caught.value)
    assert store.is_bookmarked(papers[0].id)  # what was read before is still shown


def test_snapshot_is_safe_while_another_thread_writes(papers):
    store = Store(paths.store_path())
    errors: list[BaseException] = []
    done = threading.Event()

    def writer() -> None:
        try:
            for k in range(150):
                store.set_bookmark(papers[k % 2], k % 3 != 0)
                store.set_tag([papers[k % 2]], f"t{k % 7}", k % 2 == 0)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    seen = 0
    while not done.is_set() or seen == 0:
        snap = store.snapshot()
        for pid, tags in snap.tags.items():  # iterating while the writer changes the store
            assert isinstance(tags, frozenset) and pid
            seen += 1 + sum(1 for _ in tags)
        seen += sum(1 for _ in snap.bookmarks)
        with pytest.raises(TypeError):
            snap.bookmarks["x"] = 1.0  # type: ignore[index]
    thread.join()
    assert not errors
    final = store.snapshot()
    assert dict(final.bookmarks) == store.bookmarks and dict(final.tags) == store.tags


def test_feedback_is_kept_reset_and_survives_reopening(papers):
    store = Store(paths.store_path())
    store.set_feedback([papers[0]], LIKED)
    store.set_feedback([papers[1]], SKIPPED)
    again = Store(paths.store_path())
    assert again.snapshot().feedback_word(papers[0].id) == "liked"
    assert again.snapshot().feedback_word(papers[1].id) == "skipped"
    again.set_feedback([papers[1]], None)
    assert papers[1].id not in again.snapshot().feedback
    again.reset_feedback()
    assert Store(paths.store_path()).snapshot().feedback == {}
    with pytest.raises(ValueError):
        again.set_feedback([papers[0]], 2)


def test_saved_copy_keeps_the_metadata(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{a, title = {Real Title}, author = {Ada Lovelace and Alan Turing},"
        " booktitle = {NeurIPS}, year = {2023}, url = {https://x.org/a},"
        " abstract = {An abstract with a real title.}}",
        "utf-8",
    )
    (paper,) = load_corpus([bib]).papers
    store = Store(paths.store_path())
    store.set_bookmark(paper, True)
    saved = Store(paths.store_path()).saved_papers([paper.id])[paper.id]
    assert saved.authors == ["Ada Lovelace", "Alan Turing"] and saved.venue == "NeurIPS"
    assert saved.year == 2023 and saved.has_real_title is True and saved.title == "Real Title"
    assert saved.urls == ["https://x.org/a"] and saved.source == str(bib)


# A store as papertui wrote it before schema 2 (ids computed without decoding LaTeX).
_V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE papers (id TEXT PRIMARY KEY, title TEXT NOT NULL, abstract TEXT NOT NULL,
                     collections TEXT NOT NULL, urls TEXT NOT NULL);
CREATE TABLE bookmarks (id TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE reads (id TEXT PRIMARY KEY, read_at REAL NOT NULL);
CREATE TABLE tags (id TEXT NOT NULL, tag TEXT NOT NULL, added REAL NOT NULL,
                   PRIMARY KEY (id, tag));
CREATE TABLE sources (path TEXT PRIMARY KEY, first_opened REAL NOT NULL);
CREATE TABLE seen (source TEXT NOT NULL, id TEXT NOT NULL, first_seen REAL NOT NULL,
                   PRIMARY KEY (source, id));
INSERT INTO meta VALUES ('schema', '1');
"""

LATEX = r"We thank Herv\'e for {GCL}, a model that calibrates biases in 92\% of cases."


def _v1_store(rows: list[tuple[str, str, str]]) -> None:
    """A schema-1 store with these (id, title, abstract) papers bookmarked, noted and tagged."""
    db = paths.store_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db)
    conn.executescript(_V1_SCHEMA)
    for pid, title, abstract in rows:
        conn.execute(
            "INSERT INTO papers VALUES (?, ?, ?, ?, ?)", (pid, title, abstract, '["C"]', "[]")
        )
        conn.execute("INSERT INTO bookmarks VALUES (?, 1.0)", (pid,))
        conn.execute("INSERT INTO notes VALUES (?, 'my note', 2.0)", (pid,))
        conn.execute("INSERT INTO tags VALUES (?, 'keep', 3.0)", (pid,))
        conn.execute("INSERT INTO reads VALUES (?, 4.0)", (pid,))
    conn.commit()
    conn.close()


def test_schema_1_store_is_migrated_and_latex_ids_move_with_their_rows():
    from papertui.core.corpus import paper_id
    from papertui.core.store import _v1_id
    from papertui.core.titles import derive_title

    old = _v1_id(LATEX)
    plain = "A plain abstract without any markup at all."
    assert old != paper_id(LATEX) and _v1_id(plain) == paper_id(plain)
    _v1_store([(old, "Some title", LATEX), (paper_id(plain), derive_title(plain), plain)])
    store = Store(paths.store_path())
    new = paper_id(LATEX)
    assert store.unavailable is None
    assert (
        store.is_bookmarked(new) and store.note(new) == "my note" and not store.is_bookmarked(old)
    )
    assert store.tags[new] == {"keep"} and new in store.reads
    assert store.current_id(old) == new  # the old id stays findable
    saved = store.saved_papers([new, paper_id(plain)])
    assert saved[new].abstract == LATEX and saved[new].has_real_title is None  # unknown
    assert saved[paper_id(plain)].has_real_title is False  # it was the derived title
    assert saved[paper_id(plain)].authors == [] and saved[paper_id(plain)].year is None
    store.close()
    assert Store(paths.store_path()).is_bookmarked(new)  # opening again changes nothing


@pytest.mark.parametrize("cached", [False, True])
def test_reconcile_moves_rows_without_a_saved_copy_and_fills_in_metadata(
    write_corpus, tmp_path, cached
):
    from papertui.core.corpus.cache import load_corpus_cached
    from papertui.core.store import _v1_id

    path = write_corpus(f"C\n\n{LATEX}\n\nAnother abstract.")
    if cached:  # abstracts in the mapped cache file, as on every warm start
        load_corpus_cached([path], None, tmp_path / "c")
        latex, other = load_corpus_cached([path], None, tmp_path / "c")[0].papers
        assert isinstance(latex._abstract, int)
    else:
        latex, other = load_corpus([path]).papers
    _v1_store([(other.id, "Old", other.abstract)])
    conn = sqlite3.connect(paths.store_path())
    conn.execute("INSERT INTO reads VALUES (?, 5.0)", (_v1_id(LATEX),))  # read: no saved copy
    conn.commit()
    conn.close()
    store = Store(paths.store_path())
    assert latex.id not in store.reads
    assert store.reconcile([latex, other]) == 1
    assert latex.id in store.reads
    assert store.saved_papers([other.id])[other.id].has_real_title is False
    assert store.reconcile([latex, other]) == 0


def test_reconcile_checks_old_ids_again_only_when_the_orphan_rows_change(write_corpus, monkeypatch):
    from papertui.core.store import _v1_id
    from papertui.core.store import reconcile as store_module  # where reconcile finds _v1_id

    path = write_corpus(f"C\n\n{LATEX}\n\nAnother abstract.")
    latex, other = load_corpus([path]).papers
    store = Store(paths.store_path())
    store.set_read(["0123456789ab"], True)  # read in another corpus: an orphan here
    assert store.reconcile([latex, other]) == 0
    real_v1 = store_module._v1_id

    def counted(text: str) -> str:
        calls.append(text)
        return real_v1(text)

    calls: list[str] = []
    monkeypatch.setattr(store_module, "_v1_id", counted)
    assert store.reconcile([latex, other]) == 0 and calls == []  # checked already
    conn = sqlite3.connect(paths.store_path())
    conn.execute("INSERT INTO reads VALUES (?, 5.0)", (_v1_id(LATEX),))  # an older papertui's
    conn.commit()
    conn.close()
    assert store.reconcile([latex, other]) == 1 and latex.id in store.reads
    store.close()
