"""Answers in each source's documented shape (see docs/fetch.md), generated from a seed: Hugging
Face Daily Papers JSON, arXiv's RSS feed and search API Atom, Paper Copilot's paper lists and
OpenReview API v2 notes. The test server and the hand-run fixture server serve these."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from xml.sax.saxutils import escape

_TOPICS = [
    "graph neural networks",
    "diffusion models",
    "reinforcement learning",
    "protein structure prediction",
    "large language models",
    "optimal transport",
    "federated learning",
    "speech recognition",
    "3D scene reconstruction",
    "causal inference",
    "time series forecasting",
    "code generation",
]
_VERBS = ["propose", "introduce", "study", "present", "analyse"]
_CLAIMS = [
    "improves accuracy on standard benchmarks",
    "scales to millions of examples",
    "reduces training cost by half",
    "is robust to distribution shift",
    "matches larger models with fewer parameters",
    "comes with convergence guarantees",
]
_NAMES = [
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Emmy Noether",
    "Kurt Gödel",
    "Hervé Jégou",
]
_CATEGORIES = ["cs.LG", "cs.CV", "cs.CL", "stat.ML", "cs.AI", "q-bio.BM"]


@dataclass(frozen=True)
class FakePaper:
    arxiv: str
    title: str
    abstract: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]
    upvotes: int
    published: str  # arXiv date, ISO


def papers(count: int, seed: int = 7, start: int = 1) -> list[FakePaper]:
    """`count` distinct papers with arXiv ids 2509.{start:05d} on."""
    rng = random.Random(seed * 100_003 + start)
    out = []
    for n in range(start, start + count):
        topic = rng.choice(_TOPICS)
        name = "".join(rng.choice("ABCDEFGHKLMNPRSTVXZ") for _ in range(rng.randint(3, 6)))
        claim, other = rng.sample(_CLAIMS, 2)
        abstract = (
            f"We {rng.choice(_VERBS)} {name}, a method for {topic} that {claim}. "
            f"Unlike prior work on {rng.choice(_TOPICS)}, {name} {other}. "
            f"Experiments on {rng.randint(3, 12)} datasets (paper {n}) confirm it."
        )
        cats = tuple(rng.sample(_CATEGORIES, rng.randint(1, 3)))
        out.append(
            FakePaper(
                arxiv=f"2509.{n:05d}",
                title=f"{name}: {topic.capitalize()} that {claim}",
                abstract=abstract,
                authors=tuple(rng.sample(_NAMES, rng.randint(1, 3))),
                categories=cats,
                upvotes=rng.randint(0, 200),
                published=f"2025-09-{1 + n % 28:02d}T17:59:00Z",
            )
        )
    return out


def hf_page(items: list[tuple[FakePaper, str]]) -> bytes:
    """`GET /api/daily_papers` answer: an array of listings (paper, the day it was listed),
    upvotes inside `paper`."""
    return json.dumps(
        [
            {
                "title": p.title,
                "summary": p.abstract,
                "publishedAt": f"{listed}T13:00:00.000Z",
                "numComments": 1,
                "submittedBy": {"name": "someone"},
                "isAuthorParticipating": False,
                "paper": {
                    "id": p.arxiv,
                    "title": p.title,
                    "summary": p.abstract,
                    "authors": [{"name": a, "hidden": False} for a in p.authors],
                    "publishedAt": p.published,
                    "upvotes": p.upvotes,
                    "discussionId": "x" + p.arxiv,
                    "githubRepo": f"https://github.com/example/{p.arxiv}",
                },
            }
            for p, listed in items
        ]
    ).encode()


def arxiv_rss(items: list[tuple[FakePaper, str]], cats: str, day: str) -> bytes:
    """`GET /rss/CATS`: RSS 2.0, one item per announcement (paper, announce type)."""
    rows = []
    for p, kind in items:
        rows.append(
            f"""<item>
 <title>{escape(p.title)}</title>
 <link>https://arxiv.org/abs/{p.arxiv}</link>
 <description>arXiv:{p.arxiv}v1 Announce Type: {kind}
Abstract: {escape(p.abstract)}</description>
 <guid isPermaLink="false">oai:arXiv.org:{p.arxiv}v1</guid>
 {"".join(f"<category>{c}</category>" for c in p.categories)}
 <pubDate>Mon, 08 Sep 2025 00:00:00 -0400</pubDate>
 <arxiv:announce_type>{kind}</arxiv:announce_type>
 <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
 <dc:creator>{escape(", ".join(p.authors))}</dc:creator>
</item>"""
        )
    return f"""<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/"
 version="2.0">
<channel>
 <title>{cats} updates on arXiv.org</title>
 <link>http://rss.arxiv.org/rss/{cats}</link>
 <description>{cats} updates on the arXiv.org e-print archive.</description>
 <language>en-us</language>
 <lastBuildDate>{day}</lastBuildDate>
 <pubDate>{day}</pubDate>
 <skipDays><day>Saturday</day><day>Sunday</day></skipDays>
 {"".join(rows)}
</channel>
</rss>""".encode()


def arxiv_atom(items: list[FakePaper], total: int, start: int, query: str = "all:x") -> bytes:
    """`GET /api/query`: an Atom feed with opensearch totals, arXiv's namespace per entry."""
    entries = []
    for p in items:
        authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in p.authors)
        cats = "".join(
            f'<category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in p.categories
        )
        entries.append(
            f"""<entry>
 <id>http://arxiv.org/abs/{p.arxiv}v1</id>
 <updated>{p.published}</updated>
 <published>{p.published}</published>
 <title>{escape(p.title)}</title>
 <summary>  {escape(p.abstract)}
</summary>
 {authors}
 <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages</arxiv:comment>
 <link href="http://arxiv.org/abs/{p.arxiv}v1" rel="alternate" type="text/html"/>
 <link title="pdf" href="http://arxiv.org/pdf/{p.arxiv}v1" rel="related" type="application/pdf"/>
 <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="{p.categories[0]}" scheme="http://arxiv.org/schemas/atom"/>
 {cats}
</entry>"""
        )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
 <link href="http://arxiv.org/api/query?search_query={escape(query)}" rel="self"
  type="application/atom+xml"/>
 <title type="html">ArXiv Query: search_query={escape(query)}</title>
 <id>http://arxiv.org/api/x</id>
 <updated>2025-09-08T00:00:00-04:00</updated>
 <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}</opensearch:totalResults>
 <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{start}</opensearch:startIndex>
 <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{len(items)}</opensearch:itemsPerPage>
 {"".join(entries)}
</feed>""".encode()


STATUSES = ["Oral", "Spotlight", "Poster", "Poster", "Poster", "Reject", "Withdraw"]


def papercopilot(items: list[FakePaper]) -> bytes:
    """`GET /{conf}/{conf}{year}.json`: flat records; fields vary by file, parse defensively."""
    rows = []
    for n, p in enumerate(items):
        rows.append(
            {
                "id": f"forum{n}",
                "title": p.title,
                "abstract": p.abstract,
                "author": "; ".join(p.authors) if n % 2 else ", ".join(p.authors),
                "status": STATUSES[n % len(STATUSES)],
                "track": "main" if n % 5 else "Datasets & Benchmarks",
                "site": f"https://openreview.net/forum?id=forum{n}",
                "keywords": "learning;graphs",
                "rating": "5;6;6",
                "rating_avg": [5.67, 0.47] if n % 3 else 6.5,
            }
        )
    return json.dumps(rows).encode()


def openreview_notes(items: list[FakePaper], venue_id: str) -> bytes:
    """`GET /notes?content.venueid=...`: API v2 notes, every content value wrapped."""
    kinds = ["oral", "spotlight", "poster"]
    notes = [
        {
            "id": f"note{n}",
            "forum": f"note{n}",
            "content": {
                "title": {"value": p.title},
                "abstract": {"value": p.abstract},
                "authors": {"value": list(p.authors)},
                "keywords": {"value": ["learning"]},
                "venue": {"value": f"NeurIPS 2025 {kinds[n % 3]}"},
                "venueid": {"value": venue_id},
                "pdf": {"value": f"/pdf/note{n}.pdf"},
            },
        }
        for n, p in enumerate(items)
    ]
    return json.dumps({"notes": notes, "count": len(notes)}).encode()
