"""The fixture server's faults: one canned answer served instead of the normal one, and the
`--fault PATH=STATUS[:times]` words that arm them from its command line (`server.py`), so a
user can rehearse a failing source by hand."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

FAULT_HELP = (
    "answer PATH (/api/daily_papers, /rss/cs.LG, /api/query, /nips/nips2025.json, /notes) with "
    "STATUS, an HTTP code (429, 500, 403, 503...), 'truncate' (a body cut short) or 'slow' (the "
    "answer after --slow seconds), for the first `times` requests, then normally again "
    "(default: always); repeatable"
)


@dataclass
class Fault:
    """One canned answer, served instead of the normal one."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0  # seconds before answering (past a client's timeout)
    truncate: bool = False  # announce more bytes than are sent, then close
    then_normal: bool = (
        False  # after the delay, the normal answer (a slow server, not a broken one)
    )

    def describe(self) -> str:
        if self.then_normal:
            return f"slow: the answer after {self.delay:g} s"
        if self.truncate:
            return f"{self.status}, the body cut short"
        return str(self.status)


def parse_fault(text: str, slow_seconds: float) -> tuple[str, Fault, int | None]:
    """`PATH=STATUS[:times]` as (path, fault, times); times None: every request. Raises
    ValueError with one line naming what is wrong."""
    path, sep, spec = text.rpartition("=")
    if not sep or not path.startswith("/"):
        raise ValueError(
            f"--fault {text!r}: write PATH=STATUS[:times], the path starting with / "
            "(/api/daily_papers=429:2)"
        )
    what, _, count = spec.partition(":")
    times = None
    if count:
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"--fault {text!r}: times is a whole number from 1 ({count!r})")
        times = int(count)
    if what == "truncate":
        fault = Fault(200, {"Content-Type": "application/json"}, b'[{"title": "cut', truncate=True)
    elif what == "slow":
        fault = Fault(delay=slow_seconds, then_normal=True)
    elif what.isdigit() and 100 <= int(what) <= 599:
        fault = Fault(int(what), {"Content-Type": "text/plain"}, b"a rehearsed fault\n")
    else:
        raise ValueError(
            f"--fault {text!r}: STATUS is an HTTP code (429, 500, 503...), truncate or slow, "
            f"not {what!r}"
        )
    return path, fault, times


def fault_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fault", action="append", default=[], metavar="PATH=STATUS[:times]", help=FAULT_HELP
    )
    parser.add_argument(
        "--slow", type=float, default=5.0, metavar="S", help="a slow answer's wait (5)"
    )


def faults_of(
    args: argparse.Namespace, parser: argparse.ArgumentParser
) -> list[tuple[str, Fault, int | None]]:
    try:
        return [parse_fault(text, args.slow) for text in args.fault]
    except ValueError as exc:
        parser.error(str(exc))
