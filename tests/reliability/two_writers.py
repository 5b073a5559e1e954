"""One of two papertui instances writing at the same time.

    python two_writers.py cli CORPUS FIRST COUNT   # `papertui note` COUNT times (the CLI's code)
    python two_writers.py tui CORPUS FIRST COUNT   # the reader bookmarks COUNT papers

Prints "done N" with the number of changes made.
"""

from __future__ import annotations

import asyncio
import sys

from papertui.cli import main as cli_main
from papertui.core.corpus import load_corpus


def run_cli(corpus: str, first: int, count: int) -> int:
    papers = load_corpus([corpus]).papers
    done = 0
    for paper in papers[first : first + count]:
        code = cli_main(["note", paper.id, f"note from the CLI on {paper.id}", "-c", corpus])
        if code != 0:
            raise SystemExit(f"cli note failed with {code}")
        done += 1
    return done


def run_tui(corpus: str, first: int, count: int) -> int:
    from papertui.ui.app import make_app

    done = 0

    async def drive() -> None:
        nonlocal done
        app = make_app([corpus], clipboard=lambda text: None)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.reader.paper_list.cursor = first
            for _ in range(count):
                paper = app.reader.current_paper
                assert paper is not None
                app.reader.action_toggle_bookmark()  # what the b key runs
                if not app.library.marks.is_bookmarked(paper):
                    raise SystemExit(f"bookmark on {paper.id} was not saved")
                app.reader.paper_list.action_cursor_down()
                done += 1
                if done % 50 == 0:
                    await pilot.pause()

    asyncio.run(drive())
    return done


if __name__ == "__main__":
    mode, corpus, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    made = (run_cli if mode == "cli" else run_tui)(corpus, first, count)
    print(f"done {made}")
