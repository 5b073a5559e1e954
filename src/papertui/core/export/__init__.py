"""Plain, diff-able copies of what the user kept: one module per output format.

`entries` decides what is exported (everything the user made of each paper), `rendering` picks
the format's writer (`markdown`, `json_list`, `csv_table`, `bibtex`), `writing` puts the file in
place, `names` fits a file name to its format. Importing this package loads neither the corpus
nor the store: the command line reads `FORMATS` from it at start-up. It may import `store`,
`corpus`, `text` and `system`; the library above uses it, input formats never do.
"""

from __future__ import annotations

from papertui.core.export.markdown import byline, paper_markdown
from papertui.core.export.rendering import BY_EXTENSION, FORMATS, SUFFIXES, render
from papertui.core.export.writing import ExportError, ExportExists, export_to, write_export

__all__ = [
    "BY_EXTENSION",
    "FORMATS",
    "SUFFIXES",
    "ExportError",
    "ExportExists",
    "byline",
    "export_to",
    "paper_markdown",
    "render",
    "write_export",
]
