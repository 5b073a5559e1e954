"""A paper's identity from its text: the stable id every copy of one abstract shares, and the
links its text holds."""

from __future__ import annotations

import hashlib
import re

from papertui.core.text import identity_text
from papertui.core.text.latex import has_latex

ID_LENGTH = 12

# a link ends at a space, a bracket, a quote or a control character (an escape sequence's ESC)
_URL = re.compile(r"https?://[^\s<>\"'`\]\[{}|\\^\x00-\x1f\x7f-\x9f]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?)]}'\"*"


def paper_id(abstract: str) -> str:
    """A short, stable id: the abstract's hash after control-character, LaTeX, Unicode and
    whitespace normalisation (`identity_text`), so a BibTeX copy and a text dump's copy of one
    abstract share it, and so does the copy an export gives back."""
    text = abstract
    # Plain ASCII with single spaces, no control characters and no LaTeX is already normal:
    # skip the work (isprintable is false for tabs, newlines and every other ASCII space but
    # " " and for every control character).
    if not (
        text.isascii()
        and text.isprintable()
        and "  " not in text
        and text.strip(" ") == text
        and not has_latex(text)
    ):
        text = identity_text(text)
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
    return digest.hexdigest()[:ID_LENGTH]


def extract_urls(text: str) -> tuple[str, ...]:
    """http(s) URLs in order of appearance, without trailing punctuation, each once."""
    if "://" not in text:
        return ()  # most abstracts: skip the regex
    seen: dict[str, None] = {}
    for match in _URL.finditer(text):
        url = match.group()
        while url and url[-1] in _URL_TRAIL:
            # keep a closing parenthesis that closes one opened inside the URL (wiki links)
            if url[-1] == ")" and url.count("(") >= url.count(")"):
                break
            url = url[:-1]
        if len(url) > len("https://"):
            seen.setdefault(url, None)
    return tuple(seen)
