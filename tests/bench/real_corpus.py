"""A large benchmark corpus from real abstracts: a JSONL dump of real papers, repeated with light
changes until it holds N papers, written as one JSONL file per venue (as a real dump comes).

    python tests/bench/real_corpus.py RECORDS.jsonl[.gz] OUT_DIR [--n 100000]

The records file is given (or named by `PAPERTUI_BENCH_REAL`); nothing here knows where it is.
Each record needs `abstract`; `title`, `authors`, `venue` and `year` are kept when present.
Copy k > 0 of a paper changes a little so that its id differs while its words stay real: its
sentences are rotated by k and one sentence says "(variant k)", and its title says so too.
Nothing is written into the repository: the corpus lives wherever OUT_DIR points.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
from pathlib import Path

ENV = "PAPERTUI_BENCH_REAL"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def find_records(given: str | None) -> Path | None:
    """The real records file: the argument, else `$PAPERTUI_BENCH_REAL`, else None."""
    chosen = given or os.environ.get(ENV)
    return Path(chosen) if chosen else None


def read_records(path: Path) -> list[dict[str, object]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        records = [json.loads(line) for line in handle if line.strip()]
    return [r for r in records if isinstance(r, dict) and str(r.get("abstract", "")).strip()]


def _variant(record: dict[str, object], k: int) -> dict[str, object]:
    if k == 0:
        return record
    sentences = _SENTENCE.split(str(record["abstract"]).strip())
    shift = k % len(sentences)
    sentences = sentences[shift:] + sentences[:shift]
    sentences[-1] = sentences[-1] + f" (variant {k})"
    out = dict(record)
    out["abstract"] = " ".join(sentences)
    if record.get("title"):
        out["title"] = f"{record['title']} (variant {k})"
    return out


def write_real_corpus(records_file: Path, out_dir: Path, n: int) -> int:
    """Write `n` papers made from `records_file` into `out_dir`, one file per venue and copy
    round; returns the bytes written."""
    records = read_records(records_file)
    out_dir.mkdir(parents=True, exist_ok=True)
    handles: dict[str, object] = {}
    written = 0
    try:
        for i in range(n):
            k, record = divmod(i, len(records))
            paper = _variant(records[record], k)
            venue = re.sub(r"\W+", "-", str(paper.get("venue") or "misc")).strip("-").lower()
            name = f"{venue}-{k}.jsonl"
            handle = handles.get(name)
            if handle is None:
                handle = handles[name] = (out_dir / name).open("w", encoding="utf-8")
            line = json.dumps(paper, ensure_ascii=False) + "\n"
            handle.write(line)  # type: ignore[attr-defined]
            written += len(line.encode("utf-8"))
    finally:
        for handle in handles.values():
            handle.close()  # type: ignore[attr-defined]
    return written


def append_records(records_file: Path, path: Path, n: int, round_: int = 1000) -> None:
    """Append `n` more papers (copies of round `round_`, so new ids) to the JSONL file `path`."""
    records = read_records(records_file)
    with path.open("a", encoding="utf-8") as handle:
        for i in range(n):
            paper = _variant(records[i % len(records)], round_ + i // len(records))
            handle.write(json.dumps(paper, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", help=f"real records (.jsonl[.gz]); else ${ENV}")
    parser.add_argument("out", type=Path)
    parser.add_argument("--n", type=int, default=100_000)
    args = parser.parse_args()
    records = find_records(args.records)
    if records is None:
        raise SystemExit(f"give the records file or set {ENV}")
    size = write_real_corpus(records, args.out, args.n)
    print(f"{args.n} papers, {size / 1e6:.1f} MB in {args.out}")


if __name__ == "__main__":
    main()
