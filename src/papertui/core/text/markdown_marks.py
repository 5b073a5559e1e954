"""The marks papertui's Markdown export leaves so that reading it back gives the same papers.

`export.markdown` writes them and `formats.markdown` reads them; this module is all the two
share, so that neither imports the other and the writer and reader cannot drift apart.
"""

from __future__ import annotations

import json
import re
from typing import Any

DERIVED_REMARK = "title derived from the abstract by papertui"

# what leads a line that Markdown would read as a heading, list, quote, emphasis or comment:
# escaped in an export's abstract, and unescaped when papertui reads the export back
MARKUP_START = r"[#*>+\-_<`=|~]|\d+[.)]\s"
_MARKUP_LINE = re.compile(rf"^(?={MARKUP_START})", re.M)
_ESCAPED_LINE = re.compile(rf"^\\(?={MARKUP_START})", re.M)

# the export's first line, and each paper's last (its collections and id)
EXPORT_HEAD = re.compile(r"# papertui export \(\d+ papers?\)\s*\n")
ID_LINE = re.compile(r"^\*.* · id [0-9a-f]+\*$")
_HIDDEN = re.compile(r"^<!-- papertui (\{.*\}) -->$")


def export_head(count: int) -> str:
    """The export's first line: what `EXPORT_HEAD` recognises."""
    return f"# papertui export ({count} paper{'s' if count != 1 else ''})\n"


def id_line(collections: list[str], pid: str) -> str:
    """A paper's last line in the export: what `ID_LINE` recognises."""
    return f"*{', '.join(collections)} · id {pid}*"


def escape_markup(text: str) -> str:
    """`text` with a backslash before each line that starts like Markdown markup."""
    return _MARKUP_LINE.sub("\\\\", text)


def unescape_markup(text: str) -> str:
    """The inverse of `escape_markup`."""
    return _ESCAPED_LINE.sub("", text)


def hidden_comment(meta: dict[str, Any]) -> str:
    """An HTML comment holding `meta` as JSON: invisible when the Markdown is rendered."""
    # "--" cannot occur in an HTML comment: JSON's escape keeps it out
    text = json.dumps(meta, ensure_ascii=False).replace("--", "-\\u002d")
    return f"<!-- papertui {text} -->"


def read_hidden_comment(line: str) -> dict[str, Any] | None:
    """What `hidden_comment` wrote on `line`, or None when the line is not one."""
    found = _HIDDEN.match(line)
    if not found:
        return None
    try:
        meta = json.loads(found.group(1))
    except ValueError:
        return None
    return meta if isinstance(meta, dict) else None
