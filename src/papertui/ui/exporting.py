"""The reader's export flow: choose what, format and file; ask before overwriting; say where."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from papertui.core.corpus import Paper
from papertui.core.export import ExportError, ExportExists, export_to
from papertui.core.text import counted, safe_display
from papertui.ui.screens.confirm import ConfirmScreen
from papertui.ui.screens.export import ExportScreen

if TYPE_CHECKING:
    from papertui.ui.screens.reader import ReaderScreen


class Exporting:
    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.library = reader.library

    def choices(self) -> list[tuple[Text, str]]:
        """What can be exported, labelled as plain text (a tag may look like markup)."""
        return [(Text(safe_display(label)), value) for label, value in self._choices()]

    def _choices(self) -> list[tuple[str, str]]:
        selected = self.reader.paper_list.selected
        found = [("bookmarked, annotated and liked papers", "bookmarks")]
        if selected:  # what E acts on when papers are selected: offered first
            n = len(selected)
            what = "the selected paper" if n == 1 else f"the {n} selected papers"
            found.insert(0, (what, "selection"))
        found.append((f"the current results ({len(self.reader.view.indices)})", "results"))
        found += [(f"tag #{tag}", f"tag:{tag}") for tag in self.library.marks.all_tags()]
        return found

    def open_dialog(self, path: str = "papertui-export.bib", problem: str = "") -> None:
        self.reader.app.push_screen(ExportScreen(self.choices(), path, problem), self._chosen)

    def _chosen(self, answer: tuple[str, str, str] | None) -> None:
        if answer is not None:
            self._write(*answer)

    def _papers(self, what: str) -> list[Paper] | None:
        library = self.library
        if what == "selection":
            return [library.papers[i] for i in sorted(self.reader.paper_list.selected)]
        if what == "results":
            return [library.papers[i] for i in self.reader.view.indices]
        if what.startswith("tag:"):
            return library.marks.tagged(what[4:])
        return None  # the bookmarked, annotated and liked papers

    def _write(self, what: str, fmt: str, name: str, overwrite: bool = False) -> None:
        entries = self.library.entries(self._papers(what))
        if not entries:  # an empty file helps nobody, and would overwrite a good one
            nothing = "Nothing to export there: bookmark, note or tag papers first (b, n, t)"
            if what != "bookmarks":
                nothing = "Nothing to export there: it holds no papers"
            self.open_dialog(name, nothing + ", or choose other papers above.")
            return
        try:
            target = export_to(name, entries, fmt, overwrite=overwrite)
        except ExportExists as exc:

            def answer(yes: bool | None) -> None:
                if yes:
                    self._write(what, fmt, name, overwrite=True)
                else:
                    self.open_dialog(name, "Not overwritten: choose another name.")

            question = f"{safe_display(str(exc.path))} exists. Overwrite it?"
            self.reader.app.push_screen(ConfirmScreen(question), answer)
            return
        except ExportError as exc:
            self.open_dialog(name, safe_display(str(exc)))
            return
        shown = safe_display(str(target))
        self.reader.notify(f"Exported {counted(len(entries), 'paper')} to {shown}", timeout=8)
