"""papertui's debug log, `papertui.log` in the cache dir: what went wrong in a way the user was
not told of, because papertui recovered (an index that would not open was built again). Kept
small: rotated at 1 MB, two old files kept."""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import threading

from papertui.core.system import paths

NAME = "papertui.log"
_lock = threading.Lock()


def _logger() -> logging.Logger:
    logger = logging.getLogger("papertui")
    with _lock:
        folder = paths.cache_dir()
        target = str(folder / NAME)
        if not any(getattr(h, "baseFilename", None) == target for h in logger.handlers):
            for handler in list(logger.handlers):  # the cache dir moved (tests, settings)
                logger.removeHandler(handler)
                handler.close()
            folder.mkdir(parents=True, exist_ok=True)
            handler = logging.handlers.RotatingFileHandler(
                target, maxBytes=1_000_000, backupCount=2, encoding="utf-8"
            )
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
            logger.addHandler(handler)
            logger.setLevel(logging.DEBUG)
            logger.propagate = False
    return logger


def recovered(what: str, error: BaseException) -> None:
    """Say in the debug log that `what` failed with `error` (its traceback kept) and that
    papertui went on without it. Never raises: a log that cannot be written is no reason to
    stop."""
    with contextlib.suppress(Exception):  # the log is a help, not a duty
        _logger().debug("%s: %s: %s", what, type(error).__name__, error, exc_info=error)
