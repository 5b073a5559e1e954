"""A corpus built to attack the reader: markup, escape sequences, control characters, broken
encodings, giant paragraphs and search syntax. Every planted escape sequence carries the marker
PWNED, so a test can tell it from the reader's own output."""

from __future__ import annotations

from pathlib import Path

MARKER = b"PWNED"

ENTRIES: list[tuple[str, str]] = [
    (
        "markup",
        "[bold red]x[/] [link=file:///etc/passwd]y[/link] [@click=app.quit]z[/] stray [/] end",
    ),
    ("latex markup", "Indices $x[i]$ and $[0,1]$ and [b]bold?[/b] in a formula."),
    ("ansi", "Clear \x1b[2J\x1b[H home \x1b[31mred\x1b[0m move \x1b[10;10H PWNED-ansi text."),
    ("osc title", "Title \x1b]0;PWNED-title\x07 and \x1b]2;PWNED-title2\x1b\\ set."),
    ("osc 52", "Clipboard write \x1b]52;c;UFdORUQ=\x07 PWNED-clip here."),
    ("osc 8", "Link \x1b]8;;http://evil.example/PWNED\x1b\\click me\x1b]8;;\x1b\\ done."),
    ("queries", "Answer me \x1b[6n \x1b[c \x1b[>c \x1bP$qPWNED\x1b\\ \x1b]10;?\x07 PWNED-query."),
    ("u2028", "Line\u2028separator and paragraph\u2029separator inside one abstract."),
    ("bidi", "Right to left \u202eevil txt\u202c and \u2066isolate\u2069 marks."),
    ("zero width", "Zero\u200bwidth\u200cjoiners\u200dand\ufeffBOM inside."),
    ("combining", "Combining e\u0301\u0301\u0301 Z\u0324\u0354\u0367\u0311a\u0308\u0356 marks."),
    ("emoji", "Emoji 🧪🔬 👩‍🔬 family 👨‍👩‍👧‍👦 flag 🇯🇵 and keycap 1️⃣ in text."),
    ("cjk", "这是一个没有空格的中文段落用于测试换行和宽度计算" * 40),
    ("whoosh syntax", 'title:x AND (OR NOT "unbalanced * ? ~2 ^3 [a TO b] {x} abstract: -'),
    ("duplicate", "This exact abstract appears twice in the dump."),
    ("duplicate", "This exact abstract appears twice in the dump."),
    (
        "c0 c1",
        "Controls "
        + "".join(chr(c) for c in range(1, 32) if c not in (9, 10, 13))
        + "\x7f"
        + "".join(chr(c) for c in range(0x80, 0xA0))
        + " end of controls.",
    ),
    ("long word", "Unbroken " + "a" * 20_000 + " word."),
    ("huge paragraph", "Huge paragraph " + "lorem ipsum dolor sit amet " * 7_500 + "end."),
    # past the first 8 KB: a NUL there makes the file binary (git's rule), here it is text
    ("nul", "Before\x00after a NUL byte in the text."),
]


def hostile_bytes() -> bytes:
    """The main hostile dump: BOM, mixed line endings, invalid UTF-8, every entry above."""
    parts = [b"\xef\xbb\xbfHostile [bold]collection[/] \x1b]0;PWNED-name\x07\r\n\r\n"]
    endings = [b"\n", b"\r\n", b"\r"]
    for i, (_, text) in enumerate(ENTRIES):
        ending = endings[i % 3]
        parts.append(text.encode("utf-8") + ending + ending)
    parts.append(b"Invalid UTF-8 \xff\xfe here \xc3\x28 and there.\n")
    return b"".join(parts)


def long_first_line_bytes() -> bytes:
    """A dump whose first line is 60 KB: no name line, one giant first abstract."""
    return ("First line " * 6_000).encode() + b"\n\nA normal abstract after it.\n"


def write_hostile(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hostile.txt").write_bytes(hostile_bytes())
    (folder / "longline.txt").write_bytes(long_first_line_bytes())
    return folder
