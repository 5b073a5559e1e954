"""Regenerate the README screenshot: the reader itself saves it as SVG.

Usage: python scripts/make_screenshot.py [OUT.svg]   (uses throwaway data and cache dirs)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path


async def shoot(out: Path) -> None:
    from papertui.ui.app import make_app

    app = make_app(clipboard=lambda text: None)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        app.reader.search_bar.cursor_blink = False
        await pilot.press("slash", *"grph", "space", *"contrastive", "enter")
        await pilot.pause(0.2)  # the box searches after a pause in typing
        await app.workers.wait_for_complete()
        await pilot.press("j", "j", "b")
        await app.workers.wait_for_complete()
        app.clear_notifications()
        await pilot.pause(0.2)
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "assets/screenshot.svg").resolve()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PAPERTUI_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["PAPERTUI_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ["PAPERTUI_CONFIG_DIR"] = str(Path(tmp) / "config")
        asyncio.run(shoot(out))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
