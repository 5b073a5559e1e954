"""`papertui note`: print a paper's note, set it, add to it or clear it, saying what it replaced.

The words after the ID are the note, so a corpus is named with `-c PATH` here; a word that names
an existing file or folder is refused (`note ID dump.txt` meant `-c dump.txt`), and `--text`
stores such a text on purpose.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from papertui.cli_args import UsageError
from papertui.commands.common import find_paper


def cmd_note(args: argparse.Namespace) -> int:
    text = note_text(args)
    library, paper = find_paper(args)
    old = library.marks.note(paper)
    if text is None:
        if old:
            print(old)
        return 0
    new = text
    if args.append and old:
        new = old + ("" if old.endswith("\n") else "\n") + text
    library.marks.set_note(paper, new)
    print(f"{_what_happened(old, new, args.append)} {paper.id}  {paper.title}")
    return 0


def note_text(args: argparse.Namespace) -> str | None:
    """The text the command line gives (None: print the note), checked before the library is
    opened: a mistake costs no corpus read."""
    words: list[str] = args.text
    if args.text_option is not None:
        if words:
            raise UsageError(
                f"papertui note: the note is given twice (TEXT {shlex.join(words)} and --text); "
                "give one of them"
            )
        text = str(args.text_option)
    elif not words:
        if args.append:
            raise UsageError("papertui note: --append needs the text to add (TEXT or --text)")
        return None
    elif words == ["-"]:
        text = sys.stdin.read()
    else:
        for word in words:
            if word and os.path.exists(word):
                raise UsageError(
                    f"papertui note: {word!r} is a file or folder, not a note: give a corpus "
                    f"as -c {shlex.quote(word)}, or store this text as the note on purpose "
                    f"with --text {shlex.quote(' '.join(words))}"
                )
        text = " ".join(words)
    if args.append and not text.strip():
        raise UsageError("papertui note: --append needs the text to add (this one is empty)")
    return text


def _what_happened(old: str, new: str, append: bool) -> str:
    """The first words of the line that confirms a change: a note replaced says how long it
    was (it is gone: the shell has no undo)."""
    if append and old:
        return "added to the note on"
    if not new.strip():
        return f"cleared a {len(old)}-character note on" if old.strip() else "no note to clear on"
    if old.strip() and old != new:
        return f"replaced a {len(old)}-character note on"
    return "saved note on"
