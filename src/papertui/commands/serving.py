"""`papertui serve`: check the options, then hand over to the web server (loaded only now)."""

from __future__ import annotations

import argparse
import os

from papertui.cli_args import UsageError
from papertui.serve.options import ServeError, check_options


def reader_arguments(args: argparse.Namespace) -> list[str]:
    """The reader's command line for the corpus options given to serve, with absolute paths
    (the readers run in the server's directory, but a path must not depend on it)."""
    missing = [p for p in args.corpus if not os.path.exists(p)]
    if missing:
        raise UsageError(f"papertui serve: {missing[0]}: no such file or folder")
    argv = ["--format", args.input_format] if args.input_format else []
    paths = [os.path.abspath(p) for p in args.corpus]
    return argv + (["--", *paths] if paths else [])


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        options = check_options(
            args.host,
            args.port,
            args.token,
            args.token_file,
            args.public_url,
            reader_arguments(args),
        )
        from papertui.serve.server import run

        return run(options)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
