"""The BibTeX export: entries a reference manager and LaTeX read as they are meant."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from papertui.core.text.latex import MATH, escape_typography
from papertui.core.text.markdown_marks import DERIVED_REMARK

if TYPE_CHECKING:
    from papertui.core.export.entries import Entry


# & % # outside a LaTeX escape break the citing document ("58%" starts a comment there)
_LATEX_SPECIAL = re.compile(r"(?<!\\)([&%#])")


def _bib_value(text: str, latex: bool = True) -> str:
    """A braced BibTeX value. An unmatched brace would end the field early or swallow the next,
    so it is escaped; `latex`: escape & % # too, outside math (inside it, papertui's reader,
    like bibtexparser, keeps the text as written; not in a url, which \\url takes as written)."""
    spaced = text[-1:].isspace()
    text = " ".join(text.split())
    if spaced and text.endswith("\\"):
        text += " "  # "\\ " is a space, not a backslash
    if latex and ("&" in text or "%" in text or "#" in text):
        parts = MATH.split(text)
        text = "".join(p if i % 2 else _LATEX_SPECIAL.sub(r"\\\1", p) for i, p in enumerate(parts))
    text = _escape_unmatched(text)
    if "\\\\" in text:  # "\\{": a line break, then a brace BibTeX readers take as escaped
        text = _BREAK_BRACE.sub(r"\1 ", text)
    if text.endswith("\\"):  # a backslash would escape the closing brace
        odd = _escaped(text + "}", len(text))
        text = text[:-1] + "{\\textbackslash}" if odd else text + " "
    return "{" + text + "}"


_BREAK_BRACE = re.compile(r"((?<!\\)(?:\\\\)+)(?=[{}])")


def _escape_unmatched(text: str) -> str:
    """`text` with each brace that has no partner escaped (`\\{`); escaped braces count as
    text. Matched ones stay: they protect case and group LaTeX."""
    if "{" not in text and "}" not in text:
        return text
    opened: list[int] = []
    unmatched: set[int] = set()
    for i, ch in enumerate(text):
        if ch in "{}" and _escaped(text, i):
            continue
        if ch == "{":
            opened.append(i)
        elif ch == "}":
            if opened:
                opened.pop()
            else:
                unmatched.add(i)
    unmatched.update(opened)
    if not unmatched:
        return text
    return "".join("\\" + ch if i in unmatched else ch for i, ch in enumerate(text))


def _escaped(text: str, i: int) -> bool:
    """Whether the character at `i` follows an odd number of backslashes."""
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


_VERBATIM = frozenset(("url", "doi", "eprint"))  # taken as written by biblatex: no escapes
_DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_ARXIV_URL = re.compile(
    r"^https?://arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?$",
    re.IGNORECASE,
)


def _identifiers(urls: Sequence[str]) -> list[tuple[str, str]]:
    """doi and eprint (arXiv) fields from the paper's links, which citation styles print."""
    out: list[tuple[str, str]] = []
    for url in urls:
        doi, arxiv = _DOI_URL.match(url), _ARXIV_URL.match(url)
        if doi and not any(k == "doi" for k, _ in out):
            out.append(("doi", doi.group(1)))
        if arxiv and not any(k == "eprint" for k, _ in out):
            out += [("eprint", arxiv.group(1)), ("archiveprefix", "arXiv")]
    return out


_WORD = re.compile(r"(?<![\w\\])[\w][\w-]*")


def _cased(word: str) -> bool:
    """Whether lower-casing would break the word: a capital inside a part ("NeRF", "GANs",
    "iPhone", "ViT-B") or capitals with digits ("3D", "T5"); not "Self-Supervised"."""
    return any(
        any(c.isupper() for c in part[1:])
        or (part[:1].isupper() and any(c.isdigit() for c in part))
        or (part[:1].isdigit() and any(c.isupper() for c in part))
        for part in word.split("-")
    )


def _protect_case(title: str) -> str:
    """Braces around acronyms and names, so a style that lower-cases titles keeps them."""
    if "{" in title or "}" in title:
        return title  # braced already, or unbalanced: _bib_value escapes it as it is
    parts = MATH.split(title)  # math at the odd positions: kept as written, never braced
    for i in range(0, len(parts), 2):
        parts[i] = _WORD.sub(
            lambda m: "{" + m.group() + "}" if _cased(m.group()) else m.group(), parts[i]
        )
    return "".join(parts)


def to_bibtex(entries: Sequence[Entry]) -> str:
    chunks = []
    used: set[str] = set()
    for e in entries:
        fields = [("title", _protect_case(escape_typography(e.title)))]
        if e.authors:
            fields.append(("author", " and ".join(e.authors)))
        if e.year:
            fields.append(("year", str(e.year)))
        kind, own_key = _own_entry(e)
        if e.venue:  # in the field of the entry's type: journal, booktitle, howpublished
            fields.append((_OWN_KINDS[kind], e.venue))
        fields.append(("abstract", e.abstract))
        if e.urls:  # the paper's own link; the abstract holds the others
            fields.append(("url", next((u for u in e.urls if u not in e.abstract), e.urls[0])))
        fields.extend(_identifiers(e.urls))
        if not e.venue:  # where a @misc entry comes from; a venue says it for the others
            fields.append(("howpublished", ", ".join(e.collections)))
        if e.note.strip():
            fields.append(("note", e.note))
        if e.tags:
            fields.append(("keywords", ", ".join(e.tags)))
        if e.title_derived:
            fields.append(("addendum", DERIVED_REMARK))
        lines = (f"  {name} = {_bib_value(value, name not in _VERBATIM)}" for name, value in fields)
        body = ",\n".join(lines)
        key = own_key if own_key and own_key not in used else _cite_key(e, used)
        used.add(key)
        chunks.append(f"@{kind}{{{key},\n{body}\n}}\n")
    return "\n".join(chunks)


# entry types kept from the file a paper was read from; the venue goes in their own field
_OWN_KINDS = {
    "article": "journal",
    "inproceedings": "booktitle",
    "conference": "booktitle",
    "incollection": "booktitle",
    "misc": "howpublished",
}


def _own_entry(e: Entry) -> tuple[str, str]:
    """(entry type, cite key) for `e`: those of the BibTeX entry it was read from, so that a
    document citing the user's own keys still compiles; else @inproceedings when the venue is
    known (booktitle means nothing to @misc), @misc without one, and no key of its own."""
    kind, _, key = e.cite.partition(" ")
    if kind not in _OWN_KINDS:
        kind = "inproceedings" if e.venue else "misc"
    return kind, key


_KEY_STOP = frozenset(
    ("a", "an", "the", "on", "of", "for", "in", "to", "and", "with", "from", "towards", "via")
)


def _cite_key(e: Entry, used: set[str]) -> str:
    """A key a reader can type, as reference managers make it: first author's last name, year,
    first title word ("smith2024diffusion"); "papertui" and the id when there is no author.
    Keys are unique within one export (b, c, ... appended)."""

    def ascii_word(text: str) -> str:
        folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
        return re.sub(r"[^A-Za-z0-9]", "", folded).lower()

    first = e.authors[0] if e.authors else ""
    names = first.replace(",", " ").split()  # "Last, First" or "First Last"
    if names:
        last = ascii_word(names[0] if "," in first else names[-1])
        words = [w for w in (ascii_word(w) for w in e.title.split()) if w and w not in _KEY_STOP]
        base = f"{last}{e.year or ''}{words[0] if words else ''}"
    else:
        base = ""
    if not base or not base[0].isalpha():
        base = "papertui" + re.sub(r"[^A-Za-z0-9]", "", e.id)
    key, n = base, 1
    while key in used:
        n += 1
        key = base + chr(ord("a") + n - 1) if n <= 26 else f"{base}{n}"
    used.add(key)
    return key
