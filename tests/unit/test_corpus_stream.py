"""A large JSONL dump read a line at a time into the corpus cache gives what reading it whole
gives: the same papers, report, warnings and errors, and the same cache file, byte for byte;
files that need the whole-file reader (invalid UTF-8, gzip) are left to it."""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loaded_corpus import loaded

from papertui.core.corpus import split as corpus_split
from papertui.core.corpus import stream as corpus_stream
from papertui.core.corpus.formats.base import CorpusError


def record(n: int, **extra: object) -> str:
    fields = {
        "id": f"2401.{n:05d}",
        "title": f"Paper number {n}",
        "authors": "Ada Lovelace, Alan Turing and Grace Hopper",
        "categories": "cs.LG stat.ML",
        "abstract": f"  We study problem {n} with a method.\n  It works well: {'é' * (n % 3)}.",
    }
    fields.update(extra)
    return json.dumps(fields, ensure_ascii=n % 2 == 0)


LINES = [
    "\ufeff" + record(1),
    record(2),
    "",
    "   ",
    record(3, title=""),  # a derived title
    record(4),
    record(4),  # the same abstract twice: one paper, a duplicate counted
    record(5),
    '{"title": "no abstract here"}',
    "[1, 2, 3]",
    "{broken json",
    record(6, id="2401.00005"),  # the same arXiv id, another text: an alias
    record(7) + "\r",
    record(8) + "\r" + record(9),  # a lone CR ends a line, as the whole-file reader reads it
    '"just a string"',
    record(10),
]


def read(path: Path, cache: Path, stream: bool, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setattr(corpus_stream, "STREAM_FROM", 0 if stream else 1 << 62)
    return loaded(path, cache)


def test_a_streamed_dump_is_the_dump_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dump.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    taken: list[int] = []
    real = corpus_stream.SpilledTexts.take
    monkeypatch.setattr(
        corpus_stream.SpilledTexts, "take", lambda self, p: taken.append(1) or real(self, p)
    )
    streamed = read(path, tmp_path / "a", True, monkeypatch)
    assert taken, "the dump was not streamed"
    whole = read(path, tmp_path / "b", False, monkeypatch)
    assert len(taken) == len(whole[0]) == 9
    assert streamed == whole
    assert whole[1][0][4] == {
        "no abstract": 1, "not a record": 2, "broken JSON line": 1, "duplicate": 2,
    }  # fmt: skip
    assert "line 11" in whole[2][0]  # the broken line, counted as the whole file counts it
    assert not [p for p in (tmp_path / "a").iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\n\n",
        b"{broken\n[not json\n",
        b'{"title": "only a title"}\n',
        b'{"abstract": "\xff bad byte here"}\n',  # invalid UTF-8: the whole-file reader's warning
    ],
)
def test_files_without_papers_or_needing_repair_read_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_bytes(content)
    assert read(path, tmp_path / "a", True, monkeypatch) == read(
        path, tmp_path / "b", False, monkeypatch
    )


def test_only_plain_jsonl_files_are_streamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus_stream, "STREAM_FROM", 0)
    lines = (record(1) + "\n" + record(2) + "\n").encode()
    cases = {
        "a.jsonl": (lines, True),
        "snapshot.json": (lines, True),  # the arXiv snapshot's name
        "list.json": (b"[" + record(1).encode() + b"]", False),
        "packed.jsonl": (gzip.compress(lines), False),
        "papers.bib": (lines, False),
    }
    for name, (content, expected) in cases.items():
        (tmp_path / name).write_bytes(content)
        assert corpus_stream.streamable(tmp_path / name, None) is expected, name
    assert corpus_stream.streamable(tmp_path / "a.jsonl", "csv") is False


def test_a_file_with_no_papers_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"{broken\n")
    with pytest.raises(CorpusError, match=r"empty\.jsonl.*no readable JSON line \(first error"):
        corpus_stream.read_streamed(path, tmp_path)


line = st.one_of(
    st.integers(0, 30).map(record),
    st.integers(0, 30).map(lambda n: record(n, id="2401.00007")),
    st.sampled_from(["", " ", "{", "[]", '{"abstract": ""}', "null", "\r", "\t{}"]),
    st.text(max_size=20),
)


def random_dump(factory: pytest.TempPathFactory, lines: list[str], ending: str) -> Path:
    path = factory.mktemp("dump") / "dump.jsonl"
    path.write_text("\n".join(lines) + ending, encoding="utf-8", errors="surrogatepass")
    return path


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(line, max_size=12), ending=st.sampled_from(["\n", "\r\n", ""]))
def test_any_jsonl_streams_as_it_reads_whole(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    ending: str,
) -> None:
    path = random_dump(tmp_path_factory, lines, ending)
    where = path.parent

    def outcome(stream: bool, cache: str) -> object:
        try:
            return read(path, where / cache, stream, monkeypatch)
        except UnicodeEncodeError:
            return "unencodable"

    assert outcome(True, "a") == outcome(False, "b")


def split_read(monkeypatch: pytest.MonkeyPatch, share: float) -> list[int]:
    """Read dumps from now on with a helper process for all but `share` of each; returns the
    list that counts the frames the helpers send (two records a frame)."""
    monkeypatch.setattr(corpus_split, "SPLIT_FROM", 0)
    monkeypatch.setattr(corpus_split, "OWN_SHARE", share)
    monkeypatch.setattr(corpus_split, "FRAME", 2)
    frames: list[int] = []
    real = corpus_split.Helper.frames

    def counted(self: corpus_split.Helper) -> Iterator:  # type: ignore[type-arg]
        for frame in real(self):
            frames.append(len(frame[0]))
            yield frame

    monkeypatch.setattr(corpus_split.Helper, "frames", counted)
    return frames


@pytest.mark.parametrize("share", [0.0, 0.4, 0.9])
def test_a_dump_read_by_two_processes_is_the_dump_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    path = tmp_path / "dump.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    whole = read(path, tmp_path / "a", False, monkeypatch)
    frames = split_read(monkeypatch, share)
    assert read(path, tmp_path / "b", True, monkeypatch) == whole
    assert frames, "no helper read a part"
    assert sum(frames) < 13  # the helper read only the part after the cut
    assert not [p for p in (tmp_path / "b").iterdir() if p.name.startswith(".")]


def test_a_helper_that_stops_early_leaves_the_rest_to_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper killed after its first frame (out of memory, a signal): the records it sent
    are kept and the rest of the file is read by the process that started it."""
    path = tmp_path / "dump.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    whole = read(path, tmp_path / "a", False, monkeypatch)
    frames = split_read(monkeypatch, 0.0)
    dying = tmp_path / "dying.py"
    dying.write_text(
        "import os, sys\n"
        "from papertui.core.corpus import split_child\n"
        "class Report:\n"
        "    def write(self, data):\n"
        "        sys.stdout.buffer.write(data)\n"
        "        sys.stdout.flush()\n"
        "        os._exit(9)\n"
        "    def flush(self):\n"
        "        pass\n"
        "path, split, end, fd, frame = sys.argv[1:]\n"
        "with os.fdopen(int(fd), 'wb') as out:\n"
        "    split_child.run_helper(path, int(split), int(end), out, Report(), int(frame))\n"
    )
    real = corpus_split.command
    monkeypatch.setattr(
        corpus_split, "command", lambda *a: [sys.executable, str(dying), *real(*a)[3:]]
    )
    assert read(path, tmp_path / "b", True, monkeypatch) == whole
    assert frames == [2]  # one frame came, then the helper was gone


def test_a_helper_that_cannot_start_leaves_the_whole_file_to_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dump.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    whole = read(path, tmp_path / "a", False, monkeypatch)
    frames = split_read(monkeypatch, 0.0)
    monkeypatch.setattr(corpus_split, "command", lambda *a: [str(tmp_path / "no-such-program")])
    assert read(path, tmp_path / "b", True, monkeypatch) == whole
    assert frames == []
    assert not [p for p in (tmp_path / "b").iterdir() if p.name.startswith(".")]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(line, max_size=12),
    ending=st.sampled_from(["\n", "\r\n", ""]),
    share=st.floats(0.0, 1.0),
)
def test_any_jsonl_read_by_two_processes_reads_as_whole(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    ending: str,
    share: float,
) -> None:
    path = random_dump(tmp_path_factory, lines, ending)
    where = path.parent

    def outcome(cache: str, split: bool) -> object:
        with monkeypatch.context() as patched:
            if split:
                split_read(patched, share)
            try:
                return read(path, where / cache, True, patched)
            except UnicodeEncodeError:
                return "unencodable"

    assert outcome("a", True) == outcome("b", False)
