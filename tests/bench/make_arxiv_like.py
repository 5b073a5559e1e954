"""Write N records in the shape of the public arXiv metadata snapshot, made of real abstracts.

    python tests/bench/make_arxiv_like.py N OUT.jsonl [--pool RECORDS.jsonl.gz] [--seed 0]

The pool is a JSONL dump of real papers (`title`, `abstract`, `authors`, `year`; gzip or not),
by default `$PAPERTUI_BENCH_REAL`. The first records are the pool's papers as they are; past the
pool's size each record mixes the sentences of two abstracts (the first half of one, the second
half of another) and the title words of both, so every text is unique while the vocabulary and
the sentence statistics stay real; generated text alone flatters the index. Each record has the
snapshot's fields: `id` (new style, `YYMM.NNNNN`), `submitter`, `authors` (one string joined with
`, ` and ` and `), `title`, `comments`, `journal-ref`, `doi`, `report-no`, `categories` (space
separated), `license`, `abstract` (hard-wrapped with leading spaces, as the snapshot has it),
`versions`, `update_date` and `authors_parsed`. The output is written as it is made: a million
records take about four minutes and 1.9 GB.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

CATEGORIES = [
    "cs.LG", "cs.CV", "cs.CL", "cs.AI", "stat.ML", "cs.RO", "cs.IR", "cs.NE", "cs.CR", "eess.IV",
    "math.OC", "cs.SD", "q-bio.QM", "physics.comp-ph", "cs.DS", "cs.GT", "cs.HC", "cs.MA",
]  # fmt: skip
LICENSES = [
    "http://creativecommons.org/licenses/by/4.0/",
    "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
    None,
]
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def read_pool(path: Path) -> list[dict[str, object]]:
    opener = gzip.open if path.suffix == ".gz" else open
    pool = []
    with opener(path, "rt", encoding="utf-8") as f:  # type: ignore[operator]
        for line in f:
            record = json.loads(line)
            if record.get("abstract") and record.get("title"):
                pool.append(record)
    if not pool:
        sys.exit(f"{path}: no records with a title and an abstract")
    return pool


def author_list(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(a) for a in value if str(a).strip()]
    if isinstance(value, str):
        return [a.strip() for a in re.split(r",| and |;", value) if a.strip()]
    return []


def joined(names: list[str]) -> str:
    """The snapshot's one-string form: `A, B and C`."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def parsed(names: list[str]) -> list[list[str]]:
    out = []
    for name in names:
        parts = name.split()
        out.append([parts[-1], " ".join(parts[:-1]), ""] if parts else ["", "", ""])
    return out


def wrapped(abstract: str) -> str:
    """Hard-wrapped at 80 columns with two leading spaces, as the snapshot stores it."""
    lines = textwrap.wrap(abstract, width=78)
    return "".join("  " + line + "\n" for line in lines)


def mixed(a: dict[str, object], b: dict[str, object], rng: random.Random) -> dict[str, object]:
    first = SENTENCE.split(str(a["abstract"]))
    second = SENTENCE.split(str(b["abstract"]))
    cut_a = max(1, len(first) // 2)
    cut_b = len(second) // 2
    abstract = " ".join(first[:cut_a] + second[cut_b:])
    words_a = str(a["title"]).split()
    words_b = str(b["title"]).split()
    title = " ".join(words_a[: max(2, len(words_a) // 2)] + words_b[len(words_b) // 2 :])
    names = author_list(a.get("authors"))[:2] + author_list(b.get("authors"))[:2]
    year = rng.choice([a.get("year"), b.get("year")])
    return {"title": title, "abstract": abstract, "authors": names, "year": year}


def records(pool: list[dict[str, object]], n: int, seed: int) -> Iterator[dict[str, object]]:
    rng = random.Random(seed)
    serial: dict[str, int] = {}
    for i in range(n):
        # the pool as it is first, then mixtures: every text unique, the vocabulary real
        source = pool[i] if i < len(pool) else mixed(rng.choice(pool), rng.choice(pool), rng)
        year = int(source.get("year") or 2023)  # type: ignore[call-overload]
        month = rng.randint(1, 12)
        prefix = f"{year % 100:02d}{month:02d}"
        serial[prefix] = serial.get(prefix, 0) + 1
        arxiv_id = f"{prefix}.{serial[prefix]:05d}"
        names = author_list(source.get("authors")) or ["Anonymous"]
        cats = rng.sample(CATEGORIES, rng.choice([1, 1, 2, 3]))
        day = rng.randint(1, 28)
        created = f"Mon, {day:02d} Jan {year} 10:00:00 GMT"
        yield {
            "id": arxiv_id,
            "submitter": names[0],
            "authors": joined(names),
            "title": str(source["title"]),
            "comments": rng.choice([None, "12 pages, 4 figures", "Accepted at a conference"]),
            "journal-ref": None,
            "doi": None,
            "report-no": None,
            "categories": " ".join(cats),
            "license": rng.choice(LICENSES),
            "abstract": wrapped(str(source["abstract"])),
            "versions": [{"version": "v1", "created": created}],
            "update_date": f"{year}-{month:02d}-{day:02d}",
            "authors_parsed": parsed(names),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pool", type=Path, default=os.environ.get("PAPERTUI_BENCH_REAL"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.pool is None:
        sys.exit("name a pool of real papers with --pool or $PAPERTUI_BENCH_REAL")
    pool = read_pool(args.pool)
    tmp = args.out.with_name(args.out.name + ".part")
    with tmp.open("w", encoding="utf-8") as f:
        for record in records(pool, args.n, args.seed):
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    tmp.replace(args.out)
    print(f"{args.out}: {args.n} records ({args.out.stat().st_size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()
