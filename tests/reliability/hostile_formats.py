"""Hostile papers in every input shape papertui reads, for checking that what it writes reads
back the same: LaTeX that readers decode differently (TeX quotes, dashes, ties, `\\cite`, math
with % and braces), Markdown and HTML-comment syntax, spreadsheet formulas, control characters,
and authors, venues and titles that look like each other's separators.

`write_hostile_formats(folder, seed)` writes a text dump (derived titles), a BibTeX file, a JSON
list and a CSV file; the random part is seeded, so a failure names a corpus that can be made
again."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

from hostile import ENTRIES

# Pieces of abstracts as dumps carry them: each is put into sentences at random.
FRAGMENTS = [
    "the ``view'' of the model",
    "a ``quoted,'' phrase and ''closing'' quotes",
    "a range 1--2 and a dash---like this",
    "roughly ~50% of the data and Fig.~3",
    "the page http://www.cis.upenn.edu/~user/code/ holds the code",
    "as proposed in \\cite{Gregor10, smith2020deep}, which",
    "shown by \\citet{a} and \\ref{fig:1}",
    "accuracy of $75.1%$ on CIFAR10 and $3\\%$ fewer errors",
    "the set $\\{x_i\\}$ and $\\mathfrak{S}$ in the plane",
    "an unmatched { brace and } another",
    'Herv\\\'e and G\\"odel and {\\"U}ber and \\c{c}a',
    "\\emph{emphasised} and \\textbf{bold} and {\\sc Small Caps}",
    "58% of cases & 7 # items",
    "$\\alpha$-loss beats $\\beta$-loss",
    "the cost is \\$5 per \\_item",
    "# not a heading",
    "## Abstract not a heading either",
    "**Note:** not a label",
    "- not a list item",
    "1. not a numbered item",
    "> not a quote",
    "<!-- not a comment --> and -->",
    "=SUM(A1:A9) is not a formula",
    "@handle and +1 and -1",
    "tabs\tinside\tthe text",
    "\x1b[31mred\x1b[0m escape",
    "a bell\x07here and a form\x0cfeed",
    "emoji 🧪 and CJK 中文 and RTL \u202eevil\u202c",
    "e\u0301 decomposed and é composed",
    "zero\u200bwidth",
    "braces {{double}} and a backslash \\ alone",
    "a trailing backslash \\",
]

TITLES = [
    "=cmd|' /C calc'!A0",
    "@ CREPE: Can Models Reason?",
    "-1 Is Not a Formula",
    "+Plus Start",
    "## A Title With Hashes",
    "**Bold** Title <!-- x -->",
    "A Title With {Braces} and 50% & #1",
    "``Quoted'' Title -- With Dash~Tie",
    "Herv\\'e's {NeRF}: $\\alpha$-Nets",
    "'Apostrophe First",
    "Title, With Comma; and Semicolon",
]

AUTHORS = [
    ["Lovelace, Ada", "Turing, Alan"],
    ["Anonymous"],
    ["Zoë Ångström", "José Núñez", "李 雷"],
    ["=Formula Person", "-Dash Person", "@At Person"],
    [f"Author{i} Person" for i in range(11)],
    ["O'Brien, Conan", "Jean-Luc Picard"],
]

VENUES = ["NeurIPS", "Transactions on Pattern Analysis", "ICLR 2024 oral", "=HYPERLINK(x)", ""]


def _abstract(rng: random.Random, n: int) -> str:
    parts = rng.sample(FRAGMENTS, 3)
    words = " ".join(rng.choice(("graph", "kernel", "transport", "model")) for _ in range(6))
    return f"We propose Method{n} for {words}: {parts[0]}. Then {parts[1]}; {parts[2]}."


def write_hostile_formats(folder: Path, seed: int = 0, n: int = 40) -> list[Path]:
    """Write the hostile files into `folder`; returns their paths."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    dump = ["Hostile LaTeX dump", ""]
    dump += [_abstract(rng, i) + "\n" for i in range(n)]
    # the reader's own hostile entries but the NUL one (a NUL makes a text file binary)
    dump += [text + "\n" for _, text in ENTRIES if "\x00" not in text]
    text_path = folder / "latex-dump.txt"
    text_path.write_text("\n".join(dump), encoding="utf-8")

    records = []
    for i in range(n):
        records.append(
            {
                "title": rng.choice(TITLES) + f" {i}",
                # a NUL is fine in JSON text (escaped), not in a text file (binary)
                "abstract": _abstract(rng, 100 + i) + (" NUL\x00here." if i % 7 == 0 else ""),
                "authors": rng.choice(AUTHORS),
                "venue": rng.choice(VENUES),
                "year": rng.choice([2021, 2024, None]),
                # one paper's own link (an arXiv id names one paper: two with one id are one)
                "url": rng.choice(
                    [
                        f"https://arxiv.org/abs/2401.{12345 + i}",
                        f"https://x.org/a_b%20c?q={i}&r=2",
                        "",
                    ]
                ),
            }
        )
    json_path = folder / "hostile.json"
    json_path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")

    csv_path = folder / "hostile.csv"
    with open(csv_path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Title", "Abstract", "Authors", "Venue", "Year"])
        for i in range(n):
            writer.writerow(
                [
                    rng.choice(TITLES) + f" csv {i}",
                    _abstract(rng, 200 + i),
                    "; ".join(rng.choice(AUTHORS)),
                    rng.choice(VENUES),
                    rng.choice(["2022", ""]),
                ]
            )

    bib = []
    for i in range(n):
        kind = rng.choice(["article", "inproceedings", "misc"])
        field = {"article": "journal", "inproceedings": "booktitle", "misc": "howpublished"}[kind]
        venue = rng.choice(["NeurIPS", "Trans.\\ on Pattern Analysis", "Proc. {IEEE}"])
        title = rng.choice(TITLES).replace("%", "\\%").replace("&", "\\&").replace("#", "\\#")
        abstract = _abstract(rng, 300 + i).replace("%", "\\%").replace("&", "\\&")
        abstract = abstract.replace("#", "\\#").replace("{ brace", "\\{ brace")
        abstract = abstract.replace("} another", "\\} another").replace("\\ alone", " alone")
        abstract = abstract.replace("trailing backslash \\", "trailing backslash")
        bib.append(
            f"@{kind}{{key{i},\n  title = {{{title} {i}}},\n"
            f'  author = {{Herv\\\'e Dupont and M{{\\"u}}ller, J{{\\"o}}rg}},\n'
            f"  {field} = {{{venue}}},\n  year = {{{2020 + i % 5}}},\n"
            f"  abstract = {{{abstract}}}\n}}\n"
        )
    bib_path = folder / "hostile.bib"
    bib_path.write_text("\n".join(bib), encoding="utf-8")
    return [text_path, json_path, csv_path, bib_path]
