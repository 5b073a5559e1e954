"""What a row of the list shows besides the title: its marker columns, tags and year (`RowLook`),
and short collection labels ("NeurIPS 2025" -> "NeurIPS25")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size

from papertui.core.text import safe_display

BOOKMARK = "★"
NOTE = "✎"
SELECTED = "●"
NEW = "+"
LIKED = "↑"  # "for you" learns from it: liked (+) or skipped (-)
SKIPPED = "↓"


@dataclass(frozen=True, slots=True)
class RowLook:
    """How a paper's row looks: its marker columns, whether it is unread, its tags."""

    markers: str
    unread: bool = False
    tags: str = ""
    suffix: str = ""  # dim year / venue after the title, when there is room


def short_labels(names: list[str], width: int = 10) -> dict[str, str]:
    """A short, distinct label per collection: "NeurIPS 2025" -> "NeurIPS25", "neurips2021"
    -> "neurips21" (the first word and the first number, a year as two digits), at most
    `width` cells. The numbers always survive the cut (a trial could not tell "neurips202"
    from "neurips203"). Names that would share a label get all their numbers ("daily
    2025-11-30" -> "dail251130"), then their other words' initials ("iclr-main" and
    "iclr-workshop" -> "iclrm", "iclrw"), then the numbers as written ("icml 1925" and "icml
    2025" -> "icml1925", "icml2025"), and last a count before the numbers. Padded to the
    widest label's cells."""
    parts = {n: _LABEL_PART.findall(safe_display(n)) for n in names}
    words = {n: [p for p in ps if not p.isdigit()] for n, ps in parts.items()}
    written = {n: [p for p in ps if p.isdigit()] for n, ps in parts.items()}
    years = {n: [_two_digit_year(p) for p in ps] for n, ps in written.items()}

    # each rule: the label's head (its words) and its numbers
    def plain(n: str) -> tuple[str, str]:
        return "".join(words[n][:1]), "".join(years[n][:1])

    def dated(n: str) -> tuple[str, str]:
        return "".join(words[n][:1]), "".join(years[n])

    def initialled(n: str, numbers: Callable[[str], tuple[str, str]] = dated) -> tuple[str, str]:
        initials = "".join(w[0] for w in words[n][1:])
        head, digits = numbers(n)
        room = width - cell_len(digits) - cell_len(initials)
        return _cut(head, max(room, 1)) + initials, digits

    def numbered(n: str) -> tuple[str, str]:  # with the initials, the numbers as written
        return initialled(n, lambda n: ("".join(words[n][:1]), "".join(written[n])))

    rules: list[Callable[[str], tuple[str, str]]] = [plain, dated, initialled, numbered]
    chosen = {n: plain(n) for n in names}
    for rule in rules[1:]:
        for n in _clashing({n: _labelled(*chosen[n], width) for n in names}):
            chosen[n] = rule(n)
    labels: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        head, numbers = chosen[name]
        head = head if head or numbers else "?"
        short = _labelled(head, numbers, width)
        count = 2
        while short in taken:  # the count goes before the numbers, never over them
            short = _labelled(head, numbers, width, str(count))
            count += 1
        taken.add(short)
        labels[name] = short
    cells = max((cell_len(v) for v in labels.values()), default=0)
    return {k: v + " " * (cells - cell_len(v)) for k, v in labels.items()}


_LABEL_PART = re.compile(r"[^\W\d_]+|\d+")


def _clashing(labels: dict[str, str]) -> set[str]:
    seen: dict[str, list[str]] = {}
    for name, label in labels.items():
        seen.setdefault(label, []).append(name)
    return {n for group in seen.values() if len(group) > 1 for n in group}


def _labelled(head: str, numbers: str, width: int, count: str = "") -> str:
    """`head` cut to leave room for the count and the numbers (the numbers' end if they fill
    the width)."""
    tail = count + numbers
    if cell_len(tail) >= width:
        return tail[-width:]
    return _cut(head, width - cell_len(tail)) + tail


def _cut(text: str, cells: int) -> str:
    """`text` cut to at most `cells` cells (a wide character is two)."""
    if cell_len(text) <= cells:
        return text
    out = set_cell_size(text, cells)
    return out.rstrip() if cell_len(out.rstrip()) < cell_len(out) else out


def _two_digit_year(number: str) -> str:
    return number[2:] if len(number) == 4 and number[:2] in ("19", "20") else number
