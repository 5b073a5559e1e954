"""A record's title and abstract in other languages.

Dumps carry them two ways: fields named for their language (`title_zh`, `abstract_zh`, as the
Hugging Face zh-TW Daily Papers dumps have them; `summary_ja`, `title_zh-TW`), and an object
of them (`"translations": {"zh": {"title": ..., "abstract": ...}}`, or a list of such objects
with a `lang`). Field names arrive lowercased.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from papertui.core.corpus.paper_meta import Translation
from papertui.core.text import normalise_ws, strip_controls
from papertui.core.text.latex import plain_text

# ISO 639-1: a field's suffix names a language only if it is one of these; a value that reads
# as no text (`title_id` holding an id, `abstract_no` a number) is left out by `_text`
_ISO_639_1 = (
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv "
    "cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr "
    "ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw "
    "ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv "
    "ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr "
    "ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi "
    "yo za zh zu"
)
_LANGUAGES = frozenset(_ISO_639_1.split())
# the names of the languages dumps translate into most, for the detail pane's headings
_NAMES = {
    "ar": "Arabic", "de": "German", "en": "English", "es": "Spanish", "fa": "Persian",
    "fr": "French", "he": "Hebrew", "hi": "Hindi", "id": "Indonesian", "it": "Italian",
    "ja": "Japanese", "ko": "Korean", "nl": "Dutch", "pl": "Polish", "pt": "Portuguese",
    "ru": "Russian", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian", "vi": "Vietnamese",
    "zh": "Chinese",
}  # fmt: skip
_FIELD = re.compile(r"(title|abstract|summary)_([a-z]{2})(?:[-_]([a-z]{2}|[a-z]{4}))?")
_CODE = re.compile(r"([a-z]{2,3})(?:[-_]([a-z0-9]{2,8}))*", re.IGNORECASE)
_PREFIXES = ("title_", "abstract_", "summary_")
TRANSLATIONS = "translations"


def language(code: str) -> str:
    """A language code as BCP 47 writes it: "zh_tw" -> "zh-TW", "zh-hant" -> "zh-Hant"."""
    head, *rest = re.split(r"[-_]", code.strip())
    parts = [head.lower()]
    for part in rest:
        parts.append(part.upper() if len(part) == 2 else part.title() if len(part) == 4 else part)
    return "-".join(parts)


def language_name(code: str) -> str:
    """A heading for a language code: "Chinese (zh-TW)", "Japanese (ja)"; an unknown code as
    it is."""
    name = _NAMES.get(code.partition("-")[0].lower())
    return f"{name} ({code})" if name else code


def has_translations(fields: Mapping[str, Any]) -> bool:
    """Whether a record may hold translations (cheap: most records have no such field)."""
    return TRANSLATIONS in fields or any(k.startswith(_PREFIXES) for k in fields)


def translations_of(fields: Mapping[str, Any]) -> tuple[Translation, ...]:
    """The record's translations, one a language, in the order the record gives them."""
    found: dict[str, list[str]] = {}  # language -> [title, abstract]
    for key, value in fields.items():
        match = _FIELD.fullmatch(key) if key.startswith(_PREFIXES) else None
        if match is None or match.group(2) not in _LANGUAGES:
            continue
        lang = language(match.group(2) + (f"-{match.group(3)}" if match.group(3) else ""))
        slot = 0 if match.group(1) == "title" else 1
        text = _text(value, title=slot == 0)
        if text and not found.setdefault(lang, ["", ""])[slot]:
            found[lang][slot] = text
    for lang, title, abstract in _object(fields.get(TRANSLATIONS)):
        have = found.setdefault(lang, ["", ""])
        have[0], have[1] = have[0] or title, have[1] or abstract
    return tuple(Translation(lang, t, a) for lang, (t, a) in found.items() if t or a)


def _object(value: Any) -> list[tuple[str, str, str]]:
    """(language, title, abstract) from a `translations` object: {"zh": {...}} (or {"zh":
    "the abstract"}), or a list of {"lang" (or "language", "code"), "title", "abstract"}."""
    items: list[tuple[Any, Any]] = []
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                code = next((item[k] for k in ("lang", "language", "code") if k in item), None)
                items.append((code, item))
    found = []
    for code, inner in items:
        if not isinstance(code, str) or not _CODE.fullmatch(code.strip()):
            continue
        if isinstance(inner, Mapping):
            low = {str(k).lower(): v for k, v in inner.items()}
            title = _text(low.get("title"), title=True)
            abstract = _text(next((low[k] for k in ("abstract", "summary") if k in low), None))
        else:
            title, abstract = "", _text(inner)
        if title or abstract:
            found.append((language(code), title, abstract))
    return found


def _text(value: Any, title: bool = False) -> str:
    """A translated title (LaTeX decoded, as titles are) or abstract as a paper keeps it; ""
    for what reads as no text (no space and no letter beyond ASCII: an id, a number)."""
    if isinstance(value, Mapping) and "value" in value:  # OpenReview wraps every value
        value = value["value"]
    if not isinstance(value, str):
        return ""
    text = normalise_ws(strip_controls(plain_text(value) if title else value))
    if " " not in text and all(c.isascii() or not c.isalpha() for c in text):
        return ""
    return text
