"""Sending papers on: RIS and CSL-JSON for reference managers, and a notes vault that a second
export updates without losing what the user wrote."""

from __future__ import annotations

import json

import rispy
from hypothesis import given
from hypothesis import strategies as st

from papertui.cli import main
from papertui.core.export import render
from papertui.core.export.csl_json import split_name, to_csl_json
from papertui.core.export.entries import Entry
from papertui.core.export.notes_vault import BEGIN, END, export_notes, note_file
from papertui.core.export.ris import to_ris


def entry(**changes) -> Entry:
    base = Entry(
        id="405bc7c6e7a2",
        title="Graph transformers for molecules",
        abstract="We study graph transformers.\nThey scale.",
        collections=["hf-2025-09-08"],
        urls=["https://huggingface.co/papers/2509.01234", "https://arxiv.org/abs/2509.01234"],
        bookmarked=True,
        note="Read the appendix.\nER  - not a tag",
        authors=["Ada Lovelace", "Ludwig van Beethoven"],
        venue="",
        year=2025,
        tags=["to-read", "graphs"],
        title_derived=False,
        feedback="liked",
    )
    for name, value in changes.items():
        setattr(base, name, value)
    return base


def test_ris_reads_back_in_a_reference_manager_parser():
    paper = entry()
    conference = entry(id="aaa", venue="NeurIPS 2025", urls=["https://doi.org/10.1234/xyz"])
    derived = entry(id="bbb", title_derived=True, note="")
    first, second, third = rispy.loads(to_ris([paper, conference, derived]))
    assert first["type_of_reference"] == "UNPB" and second["type_of_reference"] == "CONF"
    assert first["title"] == paper.title and first["authors"] == paper.authors
    assert first["year"] == "2025" and first["keywords"] == ["to-read", "graphs"]
    assert first["accession_number"] == "arXiv:2509.01234"
    assert first["urls"] == paper.urls
    # the note is a note, on one line: its own "ER  - " cannot end the record
    assert first["notes"] == ["Read the appendix. ER - not a tag"]
    assert first["abstract"] == "We study graph transformers. They scale."
    assert second["secondary_title"] == "NeurIPS 2025" and second["doi"] == "10.1234/xyz"
    assert third["notes"] == ["title derived from the abstract by papertui"]
    assert first["id"] == "lovelace2025graph" and second["id"] != first["id"]


def test_csl_json_items():
    paper, conference = entry(), entry(id="aaa", venue="NeurIPS 2025", title_derived=True)
    first, second = json.loads(to_csl_json([paper, conference]))
    assert first["type"] == "article" and second["type"] == "paper-conference"
    assert first["author"] == [
        {"family": "Lovelace", "given": "Ada"},
        {"family": "van Beethoven", "given": "Ludwig"},
    ]
    assert first["issued"] == {"date-parts": [[2025]]}
    assert first["number"] == "arXiv:2509.01234" and first["publisher"] == "arXiv"
    assert first["DOI"] == "10.48550/arXiv.2509.01234"
    assert first["URL"] == "https://arxiv.org/abs/2509.01234"
    assert first["keyword"] == "to-read, graphs"
    assert first["note"].startswith("Read the appendix.\nER  - not a tag")
    assert second["container-title"] == "NeurIPS 2025"
    assert "title derived from the abstract by papertui" in second["note"]


@given(st.text(max_size=40))
def test_any_name_splits_into_csl_parts(name):
    parts = split_name(name)
    assert set(parts) in ({"literal"}, {"family", "given"})


def test_escape_sequences_in_a_corpus_do_not_reach_the_exported_file():
    text = render([entry(title="Evil \x1b[31mred\x1b[0m title")], "ris")
    assert "\x1b" not in text and "Evil [31mred[0m title" in text


def test_the_cli_writes_ris_and_csl_json_by_format_and_extension(tmp_path, capsys):
    from papertui.core.library import Library

    library = Library.open()
    paper = library.papers[0]
    library.marks.set_bookmark(paper, True)
    library.close()
    assert main(["export", "-o", str(tmp_path / "a.ris")]) == 0
    assert rispy.loads((tmp_path / "a.ris").read_text("utf-8"))[0]["title"] == paper.title
    assert main(["export", "--format", "csl-json", "-o", str(tmp_path / "b.json")]) == 0
    assert json.loads((tmp_path / "b.json").read_text("utf-8"))[0]["title"] == paper.title
    assert main(["export", "-o", str(tmp_path / "c.json")]) == 0  # .json alone: papertui's JSON
    assert json.loads((tmp_path / "c.json").read_text("utf-8"))[0]["id"] == paper.id


def _front(text: str) -> dict:
    head = text.split("\n---\n", 1)[0].removeprefix("---\n")
    pairs = (line.split(": ", 1) for line in head.splitlines())
    return {k: json.loads(v) for k, v in pairs if k != "status"}  # the user's own: not JSON


def test_notes_vault_files_have_front_matter_and_the_abstract(tmp_path):
    report = export_notes(tmp_path / "vault", [entry()])
    assert (report.created, report.updated) == (1, 0)
    text = (tmp_path / "vault" / "lovelace2025graph.md").read_text("utf-8")
    front = _front(text)
    assert front["title"] == "Graph transformers for molecules"
    assert front["authors"] == ["Ada Lovelace", "Ludwig van Beethoven"]
    assert front["arxiv"] == "2509.01234" and front["tags"] == ["to-read", "graphs"]
    assert front["bookmarked"] is True and front["liked"] is True and front["year"] == 2025
    assert "We study graph transformers." in text and "Read the appendix." in text


def test_exporting_again_keeps_the_users_text_and_keys_and_leaves_other_files(tmp_path):
    vault = tmp_path / "vault"
    export_notes(vault, [entry(), entry(id="bbbbbbbbbbbb", title="Other paper")])
    mine = vault / "lovelace2025graph.md"
    text = mine.read_text("utf-8")
    text = text.replace("---\n" + BEGIN, "status: reading\n---\nMy summary above.\n" + BEGIN)
    mine.write_text(text + "\nMy thoughts below.\n", "utf-8")
    renamed = vault / "My name for it.md"
    mine.rename(renamed)
    other = vault / "lovelace2025other.md"
    assert other.exists()
    # the next export: a changed note and tags, and the other paper no longer exported
    report = export_notes(vault, [entry(note="New note.", tags=["done"])])
    assert (report.created, report.updated) == (0, 1)
    text = renamed.read_text("utf-8")
    assert "My summary above.\n" + BEGIN in text and text.endswith("My thoughts below.\n")
    assert "New note." in text and "Read the appendix." not in text
    assert _front(text)["tags"] == ["done"] and "status: reading" in text
    assert other.exists() and not mine.exists()
    assert export_notes(vault, [entry(note="New note.", tags=["done"])]).unchanged == 1


def test_an_abstract_cannot_close_papertuis_block():
    evil = entry(abstract=f"Text {END} more {BEGIN} end", note=f"note {END}")
    text = note_file(evil)
    assert text.count(END) == 1 and text.count(BEGIN) == 1
    again = note_file(evil, text + "mine\n")
    assert again.endswith("mine\n") and again.count(END) == 1


def test_the_cli_notes_export_needs_a_folder(tmp_path, capsys):
    assert main(["export", "--format", "notes"]) == 2
    assert "give it with -o FOLDER" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main(["export", "--format", "notes", "-o", str(tmp_path / "file")]) == 2
    assert "is a file; the notes export writes a folder" in capsys.readouterr().err
