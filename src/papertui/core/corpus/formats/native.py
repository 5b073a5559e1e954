"""The native dump format: a name line, a blank line, then one abstract per paragraph.

Real dumps bend this: hard-wrapped paragraphs, runs of blank lines, whitespace-only lines, trailing
spaces, and dumps with no name line at all (then the file's name names the collection).
"""

from __future__ import annotations

import re
from pathlib import Path

from papertui.core.corpus.formats.base import CorpusError, ParsedFile, RawRecord, decode

# A name line is short; a long single-line first paragraph is an abstract, not a name, and so is
# a short one that reads as a sentence (many words, a full stop at the end).
MAX_NAME = 160
MAX_NAME_WORDS = 12
NAME_WORDS_SAID = 8  # a name line of more words is said in the load message


def _is_name(line: str) -> bool:
    if len(line) > MAX_NAME:
        return False
    return not (line.endswith(".") and len(line.split()) > MAX_NAME_WORDS)


def _reads_as_text(line: str) -> bool:
    """A name line that could be a short abstract: a sentence, or more words than a name."""
    return line.endswith(".") or len(line.split()) > NAME_WORDS_SAID


def _quoted(line: str) -> str:
    return f'"{line[:60]}…"' if len(line) > 60 else f'"{line}"'


# "NeurIPS 2025 论文列表", "ICML 2024 Paper List": the list is the collection, the venue names it
_LIST_WORDS = re.compile(
    r"[\s\-–—:|·]*(?:papers?\s+list|list\s+of\s+papers|论文列表|论文)\s*$", re.IGNORECASE
)


def collection_name(line: str) -> str:
    """A name line as the collection's name, without a trailing "paper list"."""
    return _LIST_WORDS.sub("", line).strip() or line


# A line that is empty or whitespace only ends a paragraph.
_BREAK = re.compile(r"\n(?:[^\S\n]*\n)+")


def paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs, each with its lines joined by single spaces."""
    result: list[str] = []
    for chunk in _BREAK.split(text):
        if "\n" in chunk:  # a hard-wrapped paragraph
            chunk = " ".join(s for s in (line.strip() for line in chunk.split("\n")) if s)
        else:
            chunk = chunk.strip()
        if chunk:
            result.append(chunk)
    return result


def parse_native(path: str, data: bytes) -> ParsedFile:
    warnings: list[str] = []
    if not data.strip():
        raise CorpusError(path, "empty file")
    text = decode(path, data, warnings, paragraphs=True)
    paras = paragraphs(text)
    if not paras:
        raise CorpusError(path, "empty file (only whitespace)")
    first_line = text.lstrip().split("\n", 1)[0].strip()
    has_name = paras[0] == first_line and _is_name(first_line) and len(paras) > 1
    if has_name:
        name, abstracts = collection_name(paras[0]), paras[1:]
        if _reads_as_text(paras[0]):  # perhaps an abstract: say what became of it
            warnings.append(
                f"{path}: its first paragraph ({_quoted(paras[0])}) is taken as the "
                "collection's name, not as an abstract"
            )
    else:
        name, abstracts = Path(path).stem, paras
    if not abstracts:
        raise CorpusError(path, "no abstracts after the collection name")
    return ParsedFile(
        path=path,
        collection=name,
        format="text",
        records=[RawRecord(abstract=a) for a in abstracts],
        warnings=warnings,
    )
