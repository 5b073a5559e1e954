"""A process that writes bookmarks and notes as fast as it can, acknowledging each on stdout.

    python store_writer.py DB_PATH FIRST [--notes]

Each line "k" on stdout means: the change for number k has been written and the call returned.
"""

from __future__ import annotations

import sys
from pathlib import Path

from papertui.core.corpus import Paper
from papertui.core.store import Store


def paper(k: int) -> Paper:
    return Paper(f"{k:012x}", f"abstract number {k}", ["crash"], "crash.txt")


def main() -> None:
    store = Store(Path(sys.argv[1]))
    k = int(sys.argv[2])
    while True:
        p = paper(k)
        if k % 2:
            store.set_note(p, f"note {k}\n" + "x" * (k % 300))
        else:
            store.set_bookmark(p, True)
        print(k, flush=True)
        k += 1


if __name__ == "__main__":
    main()
