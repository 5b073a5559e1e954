"""One of two papertui instances writing at the same time.

    python two_writers.py cli CORPUS FIRST COUNT GO  # `papertui note` COUNT times (the CLI's code)
    python two_writers.py tui CORPUS FIRST COUNT GO  # the reader bookmarks COUNT papers

Each prints "ready" once it could start writing and waits until the file GO exists, so that the
two write at the same time; the CLI creates GO.done when it has finished, and the reader stops
there (or after COUNT changes), so both write for as long as the CLI takes. At the end each
prints "span FIRST LAST" (the times of its first and last change) and "done N" with the number
of changes made.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from papertui.cli import main as cli_main
from papertui.core.corpus import load_corpus

SPAN: list[float] = []  # the times of the first change and of the last


def wait_for(go: Path) -> None:
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.01)


def changed() -> None:
    now = time.time()
    SPAN[:] = [SPAN[0] if SPAN else now, now]


def run_cli(corpus: str, first: int, count: int, go: Path) -> int:
    papers = load_corpus([corpus]).papers
    wait_for(go)
    done = 0
    for paper in papers[first : first + count]:
        code = cli_main(["note", paper.id, f"note from the CLI on {paper.id}", "-c", corpus])
        if code != 0:
            raise SystemExit(f"cli note failed with {code}")
        changed()
        done += 1
    finished(go).touch()
    return done


def finished(go: Path) -> Path:
    return go.with_name(go.name + ".done")


def run_tui(corpus: str, first: int, count: int, go: Path) -> int:
    from papertui.ui.app import make_app

    done = 0

    async def drive() -> None:
        nonlocal done
        app = make_app([corpus], clipboard=lambda text: None)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.reader.paper_list.cursor = first
            wait_for(go)
            for _ in range(count):
                if finished(go).exists():
                    break
                paper = app.reader.current_paper
                assert paper is not None
                app.reader.action_toggle_bookmark()  # what the b key runs
                if not app.library.marks.is_bookmarked(paper):
                    raise SystemExit(f"bookmark on {paper.id} was not saved")
                changed()
                app.reader.paper_list.action_cursor_down()
                done += 1
                await pilot.pause()

    asyncio.run(drive())
    return done


if __name__ == "__main__":
    mode, corpus, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    made = (run_cli if mode == "cli" else run_tui)(corpus, first, count, Path(sys.argv[5]))
    print(f"span {SPAN[0]} {SPAN[1]}")
    print(f"done {made}")
