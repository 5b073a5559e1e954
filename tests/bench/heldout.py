"""The held-out sets the quality figures are checked on: papers of venues and years the rules
were not fitted on, chosen by a fixed, seeded rule so that anyone gets the same records.

    python tests/bench/heldout.py RECORDS.jsonl.gz OUT.jsonl [--n 6000] [--seed 28]
        [--exclude ICML:2023,CVPR:2023] [--venues AAAI,IJCAI]

From the records (one JSON object a line, with `title`, `abstract`, `venue` and `year`), drops
every record of an excluded venue and year (by default the two the title rules are fitted on,
ICML 2023 and CVPR 2023), keeps only the given venues when `--venues` is set, draws `--n` of the
rest with `random.Random(seed).sample` over their positions, and writes them in file order to
OUT.jsonl (outside the repository: the data is not ours to copy). Prints what it kept, per venue
and year. `score_titles.py OUT.jsonl` and `tests/bench/titles.py OUT.jsonl --by venue` then score
the derived titles on it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter
from pathlib import Path


def read(path: Path) -> list[dict[str, object]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        return [json.loads(line) for line in handle if line.strip()]


def choose(
    records: list[dict[str, object]],
    n: int,
    seed: int,
    exclude: set[tuple[str, str]],
    venues: set[str] | None = None,
) -> list[dict[str, object]]:
    """`n` records drawn by the seed from those not excluded, in their order in the file."""
    pool = [
        i
        for i, r in enumerate(records)
        if (str(r.get("venue")), str(r.get("year"))) not in exclude
        and (venues is None or str(r.get("venue")) in venues)
        and str(r.get("abstract", "")).strip()
        and str(r.get("title", "")).strip()
    ]
    picked = sorted(random.Random(seed).sample(pool, min(n, len(pool))))
    return [records[i] for i in picked]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--exclude", default="ICML:2023,CVPR:2023", help="VENUE:YEAR,...")
    ap.add_argument("--venues", default="", help="keep only these venues (comma-separated)")
    args = ap.parse_args()
    exclude = {tuple(x.split(":", 1)) for x in args.exclude.split(",") if ":" in x}
    venues = set(args.venues.split(",")) if args.venues else None
    chosen = choose(read(args.records), args.n, args.seed, exclude, venues)  # type: ignore[arg-type]
    with open(args.out, "w", encoding="utf-8") as out:
        for record in chosen:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    kept = Counter(f"{r.get('venue')} {r.get('year')}" for r in chosen)
    listed = ", ".join(f"{k} {v}" for k, v in sorted(kept.items()))
    print(f"{len(chosen)} records to {args.out}: {listed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
