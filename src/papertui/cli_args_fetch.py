"""The arguments of the morning loop's commands (fetch, daily, digest) and `--fetched`, described
here and listed in `cli_args.COMMANDS` with the others."""

from __future__ import annotations

import argparse

SOURCES_HELP = (
    "hf (today and yesterday), hf:2025-09-08, hf:2025-W36, hf:2025-09, arxiv:cs.LG+cs.CV, "
    "arxiv-query:QUERY, venue:iclr2025, openreview:NeurIPS.cc/2025/Conference"
)


def fetched_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--fetched",
        action="store_true",
        help="add every paper papertui fetch has fetched (alone when no PATH is given)",
    )


def fetch_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "sources",
        nargs="*",
        metavar="SOURCE",
        help=f"what to fetch (default: the subscriptions): {SOURCES_HELP}",
    )
    p.add_argument("--json", action="store_true", help="print the fetched papers as list --json")
    p.add_argument(
        "--max",
        type=int,
        default=200,
        metavar="N",
        help="arxiv-query: at most N papers, newest first (200)",
    )
    p.add_argument("--since", metavar="DATE", help="arxiv-query: papers submitted on or after DATE")
    p.add_argument(
        "--replacements", action="store_true", help="arxiv: replaced papers too, not only new"
    )
    p.add_argument("--all", action="store_true", help="venue: rejected and withdrawn papers too")
    p.add_argument(
        "--subscribe",
        action="append",
        default=[],
        metavar="SOURCE",
        help="add SOURCE to the subscriptions that daily and the reader's R fetch (repeatable; "
        "--subscribe -SOURCE removes one)",
    )


def daily_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-fetch", action="store_true", help="open what was fetched before, fetching nothing"
    )


def digest_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--since",
        default="last",
        metavar="last|DATE",
        help="papers fetched since the last digest (default) or since DATE",
    )
    p.add_argument("--limit", type=int, default=30, metavar="N", help="at most N papers (30)")
    p.add_argument("--format", choices=("md", "json"), default="md", help="md (default) or json")
