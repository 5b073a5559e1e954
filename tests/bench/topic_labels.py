"""Whether topic labels name fields: measured against what authors call their own papers.

    python tests/bench/topics.py label-quality KEYWORDS.csv|RECORDS.jsonl[.gz] [--sample N]

Topics are made from the abstracts alone; their labels are then compared with the papers' own
words, which the topics never saw:

  title words   for each label phrase, the share of its topic's papers whose real title holds
                the phrase (case and plurals folded); mean over every phrase. A field's name
                ("image editing", "causal discovery") is in many of its papers' titles; a
                generic word ("local", "advantage") is in few.
  title lift    the same share times log2 of how much more often the topic's titles hold the
                phrase than all titles do: a label both common in its topic's titles and
                particular to them (a generic word in every title scores near 0); mean.
  title prec    for each label phrase in three titles or more, the share of the titles holding
                it that belong to its topic: a field's name is particular to its papers; a
                modifier ("adversarial", "variational") is in the titles of several topics.
  keywords      (a CSV with author keywords) the share of label phrases that are some paper's
                author keyword: authors name fields.
  one word      the share of label phrases of a single word.

Also prints the lift of `topics.py lift` where keywords are given, and the labels.
"""

from __future__ import annotations

import ast
import csv
import gzip
import json
import math
import random
import re
import statistics
from pathlib import Path

import numpy as np

from papertui.core.semantic import topics as tp

_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def fold(text: str) -> str:
    """Lower case, one space, a plural's s dropped from each word."""
    words = _TOKEN.findall(text.lower())
    return " ".join(
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words
    )


def read(path: Path, sample: int) -> tuple[list[str], list[str], list[set[str]]]:
    """(abstracts, titles, author keywords) from a keywords CSV or a JSON-lines dump."""
    if path.suffix == ".csv":
        csv.field_size_limit(10**8)
        texts, titles, keywords = [], [], []
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                if not (row.get("Abstract") or "").strip():
                    continue
                try:
                    kws = ast.literal_eval(row.get("Keyword") or "[]")
                except (ValueError, SyntaxError):
                    kws = []
                texts.append(row["Abstract"])
                titles.append(row.get("Title") or "")
                keywords.append({fold(str(k)) for k in kws if str(k).strip()})
        return texts, titles, keywords
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        records = [json.loads(line) for line in fh if line.strip()]
    records = [r for r in records if r.get("abstract") and r.get("title")]
    if sample and len(records) > sample:
        records = random.Random(1).sample(records, sample)
    return [r["abstract"] for r in records], [r["title"] for r in records], []


def label_quality(
    model: tp.TopicModel, ids: list[str], titles: list[str], keywords: list[set[str]]
) -> dict[str, float]:
    title_of = {pid: f" {fold(t)} " for pid, t in zip(ids, titles, strict=True)}
    known = set().union(*keywords) if keywords else set()
    everyone = list(title_of.values())
    in_titles: list[float] = []
    telling: list[float] = []
    is_keyword: list[bool] = []
    single: list[bool] = []
    precise: list[float] = []
    for topic in model.topics:
        for phrase in topic.phrases:
            folded = fold(phrase)
            hits = sum(f" {folded} " in title_of[p] for p in topic.ids)
            share = hits / max(1, len(topic.ids))
            everywhere = sum(f" {folded} " in t for t in everyone)
            if everywhere >= 3:
                precise.append(hits / everywhere)
            overall = (everywhere + 0.5) / (len(everyone) + 1)
            in_titles.append(share)
            telling.append(share * math.log2(max(share, 1e-9) / overall) if share else 0.0)
            is_keyword.append(folded in known)
            single.append(" " not in folded)
    return {
        "title words": statistics.fmean(in_titles) if in_titles else 0.0,
        "title lift": statistics.fmean(telling) if telling else 0.0,
        "keywords": statistics.fmean(is_keyword) if is_keyword and known else float("nan"),
        "title prec": statistics.fmean(precise) if precise else float("nan"),
        "one word": statistics.fmean(single) if single else 0.0,
        "placed": float(np.mean(model.assignments >= 0)),
    }


def report(path: Path, sample: int, seeds: int = 3) -> None:
    texts, titles, keywords = read(path, sample)
    ids = [f"{i:08x}" for i in range(len(texts))]
    rows = []
    for seed in range(seeds):
        model = tp.compute_topics(texts, ids, seed=seed)
        rows.append(label_quality(model, ids, titles, keywords))
    print(f"{path.name}: {len(texts)} abstracts, {len(model.topics)} topics, {seeds} seeds")
    for key in rows[0]:
        vals = [r[key] for r in rows]
        print(f"  {key:<12} {statistics.median(vals):.3f}  ({' '.join(f'{v:.3f}' for v in vals)})")
    for topic in model.topics:
        print(f"  {topic.size:>5}  {topic.label}")


def blind_pairs(path: Path, sample: int, setting: str, out: Path, seed: int = 7) -> None:
    """Labels as they are against labels with one setting changed (`module.NAME=value` under
    papertui.core.semantic.topics), for every topic whose label differs, in a shuffled order:
    a file for a judge who does not know which is which, and its key beside it."""
    import importlib

    target, value = setting.split("=", 1)
    module_name, name = target.rsplit(".", 1)
    module = importlib.import_module(f"papertui.core.semantic.topics.{module_name}")
    texts, _, _ = read(path, sample)
    ids = [f"{i:08x}" for i in range(len(texts))]
    today = {tuple(t.ids): t.label for t in tp.compute_topics(texts, ids, seed=0).topics}
    kept = getattr(module, name)
    setattr(module, name, type(kept)(value))
    try:
        other = {tuple(t.ids): t.label for t in tp.compute_topics(texts, ids, seed=0).topics}
    finally:
        setattr(module, name, kept)
    rng = random.Random(seed)
    pairs, key = [], []
    for members, label in today.items():
        changed = other.get(members)
        if changed is None or changed == label:
            continue
        first_is_today = rng.random() < 0.5
        a, b = (label, changed) if first_is_today else (changed, label)
        starts = [texts[int(i, 16)][:160] for i in rng.sample(members, min(4, len(members)))]
        pairs.append({"papers": len(members), "A": a, "B": b, "abstracts begin": starts})
        key.append("today" if first_is_today else setting)
    out.write_text(json.dumps(pairs, indent=1), encoding="utf-8")
    key_file = out.with_suffix(".key.json")
    key_file.write_text(json.dumps(key), encoding="utf-8")
    print(f"{len(pairs)} of {len(today)} labels differ: {out} (key: {key_file})")
