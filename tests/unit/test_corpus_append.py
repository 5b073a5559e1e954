"""Papers appended to a large JSONL file are read alone: the file's older lines are not parsed
again, and the papers, report, warnings and cache are those of reading the grown file whole.
A copy of an earlier paper completes it as a whole read would; whatever might read otherwise
(another text of an earlier arXiv paper, a broken line, older lines that changed) is read
whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loaded_corpus import loaded

from papertui.core.corpus import stream as corpus_stream


def record(n: int, **extra: object) -> str:
    fields = {
        "id": f"2401.{n:05d}",
        "title": f"Paper number {n}",
        "authors": "Ada Lovelace and Alan Turing",
        "abstract": f"We study problem {n} with a method. It works {'é' * (n % 3)}.",
    }
    fields.update(extra)
    return json.dumps(fields, ensure_ascii=n % 2 == 0)


def read(path: Path, cache: Path) -> tuple:
    """What the loader gives for `path` with the cache dir `cache`, and the cache file."""
    return loaded(path, cache)


def snapshot(path: Path, count: int) -> Path:
    """A file of `count` records, read once (its cache written in the dir "a" beside it)."""
    path.write_text("".join(record(n) + "\n" for n in range(count)), encoding="utf-8")
    read(path, path.parent / "a")
    return path


@pytest.fixture
def parsed_lines(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every file is streamed; counts the papers the stream reader makes."""
    monkeypatch.setattr(corpus_stream, "STREAM_FROM", 0)
    made: list[int] = []
    real = corpus_stream.SpilledTexts.take
    monkeypatch.setattr(
        corpus_stream.SpilledTexts, "take", lambda self, p: made.append(1) or real(self, p)
    )
    return made


def test_appended_papers_are_read_alone_and_the_result_is_the_whole_read(
    tmp_path: Path, parsed_lines: list[int]
) -> None:
    path = snapshot(tmp_path / "snapshot.json", 40)
    with path.open("a", encoding="utf-8") as handle:
        handle.write("".join(record(n) + "\n" for n in range(40, 45)))
    parsed_lines.clear()
    grown = read(path, tmp_path / "a")
    assert len(parsed_lines) == 5  # the five new papers, not the forty before them
    assert len(grown[0]) == 45 and grown[1][0][3] == 45
    assert grown == read(path, tmp_path / "b")  # a fresh read of the whole file


@pytest.mark.parametrize(
    "change",
    [
        "arxiv",  # another text of an arXiv id read before: an alias of that paper
        "broken",  # a broken line: its warning counts the file's lines
        "edited",  # a line before the old end changed
        "no newline",  # the old last line had no end: the append continues it
    ],
)
def test_whatever_might_read_otherwise_is_read_whole(
    tmp_path: Path, parsed_lines: list[int], change: str
) -> None:
    path = tmp_path / "dump.jsonl"
    old = "".join(record(n) + "\n" for n in range(20))
    path.write_text(old[:-1] if change == "no newline" else old, encoding="utf-8")
    read(path, tmp_path / "a")
    more = {
        "arxiv": record(50, id="2401.00004"),
        "broken": "{broken",
        "edited": record(51),
        "no newline": record(52),
    }[change]
    if change == "edited":
        path.write_text(old.replace("problem 2 ", "problem 2! ") + more + "\n", encoding="utf-8")
    else:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(more + "\n")
    parsed_lines.clear()
    grown = read(path, tmp_path / "a")
    assert len(parsed_lines) >= len(grown[0])  # every paper parsed again: read whole
    assert grown == read(path, tmp_path / "b")


line = st.one_of(
    st.integers(0, 25).map(record),
    st.integers(0, 25).map(lambda n: record(n, id="2401.00007")),
    st.sampled_from(["", " ", "{", '{"abstract": ""}', "null", "\r"]),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    old=st.lists(line, min_size=1, max_size=10),
    new=st.lists(line, min_size=1, max_size=6),
    ending=st.sampled_from(["\n", "\r\n", ""]),
)
def test_any_append_reads_as_the_grown_file_read_whole(
    tmp_path_factory: pytest.TempPathFactory,
    parsed_lines: list[int],
    old: list[str],
    new: list[str],
    ending: str,
) -> None:
    where = tmp_path_factory.mktemp("dump")
    path = where / "dump.jsonl"
    path.write_text("\n".join(old) + ending, encoding="utf-8")
    read(path, where / "a")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(new) + "\n")
    grown, whole = read(path, where / "a"), read(path, where / "b")
    assert grown[:4] == whole[:4]
    if whole[0]:  # (a file that now gives no paper leaves its stale cache unused)
        assert grown[4] == whole[4]


def test_skipped_records_among_the_appended_lines_are_still_read_alone(
    tmp_path: Path, parsed_lines: list[int]
) -> None:
    # an update that repeats one of its own abstracts, or holds a record without one, is read
    # alone (at a million papers a whole read takes minutes) and counted as a whole read counts
    path = tmp_path / "snapshot.jsonl"
    path.write_text(
        "".join(record(n) + "\n" for n in range(30)) + '{"abstract": ""}\n' + record(3) + "\n",
        encoding="utf-8",
    )
    read(path, tmp_path / "a")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("".join(f"{line}\n" for line in (record(40), '{"abstract": ""}', record(40))))
        handle.write(record(41) + "\n")
    parsed_lines.clear()
    grown = read(path, tmp_path / "a")
    assert len(parsed_lines) == 2  # the two new papers
    whole = read(path, tmp_path / "b")
    assert grown == whole
    assert grown[1][0][4] == {"no abstract": 2, "duplicate": 2}


def test_a_copy_of_an_earlier_paper_completes_it_and_is_still_read_alone(
    tmp_path: Path, parsed_lines: list[int]
) -> None:
    # a day's update that repeats papers already in the file (a benchmark's 10,000 records held
    # 16): at a million papers the whole read this used to cost took four minutes
    path = snapshot(tmp_path / "snapshot.jsonl", 30)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(record(40) + "\n")
        handle.write(record(3, url="https://example.org/p3", venue="ICML", year=2024) + "\n")
        handle.write(record(41) + "\n" + record(3) + "\n")
    parsed_lines.clear()
    grown = read(path, tmp_path / "a")
    assert len(parsed_lines) == 3  # the two new papers and the copy, not the thirty before
    assert grown == read(path, tmp_path / "b")  # papers, counts and cache: the whole read's
    papers, files = grown[0], grown[1]
    assert len(papers) == 32 and files[0][3] == 32 and files[0][4] == {"duplicate": 2}
    third = papers[3]
    assert "https://example.org/p3" in third[5]  # the copy's link joined the earlier paper


variant = st.builds(
    lambda n, extra: record(n, **extra),
    st.integers(0, 12),
    st.fixed_dictionaries(
        {},
        optional={
            "url": st.sampled_from(["https://example.org/a", "https://example.org/b"]),
            "venue": st.sampled_from(["ICML", "NeurIPS"]),
            "year": st.sampled_from([2023, 2024]),
            "title": st.sampled_from(["", "Another title"]),
            "categories": st.sampled_from(["cs.LG", "cs.CL stat.ML"]),
        },
    ),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(old=st.lists(variant, min_size=1, max_size=8), new=st.lists(variant, min_size=1, max_size=6))
def test_appended_copies_of_earlier_papers_read_as_the_whole_file(
    tmp_path_factory: pytest.TempPathFactory,
    parsed_lines: list[int],
    old: list[str],
    new: list[str],
) -> None:
    # copies with more or other fields than the earlier paper: joined as a whole read joins them
    where = tmp_path_factory.mktemp("dump")
    path = where / "dump.jsonl"
    path.write_text("".join(line + "\n" for line in old), encoding="utf-8")
    read(path, where / "a")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in new))
    parsed_lines.clear()
    grown = read(path, where / "a")
    assert len(parsed_lines) <= len(new)  # read alone
    assert grown == read(path, where / "b")
