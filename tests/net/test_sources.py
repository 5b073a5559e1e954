"""Each source against the local server: what is asked for, what is kept, and that a second
fetch downloads nothing it already has."""

from __future__ import annotations

import json

import pytest

from papertui.cli import main
from papertui.core.library import Library
from papertui.core.system import paths

from conftest import LAST_DAY
from server import Sources


def fetch(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["fetch", *args])
    out, err = capsys.readouterr()
    return code, out, err


def dump(source: str, key: str) -> list[dict]:
    path = paths.fetched_dir() / source / f"{key}.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def fetched_library() -> Library:
    library = Library.open([str(p) for p in paths.fetched_dumps()])
    library.indexing.ensure()
    return library


def test_hf_day_is_paged_until_a_short_page_and_keeps_its_fields(server, capsys):
    server.sources = Sources(per_day=120, last_day=LAST_DAY)
    code, out, err = fetch(capsys, f"hf:{LAST_DAY}")
    assert code == 0, err
    asked = server.requests_to("/api/daily_papers")
    assert [(r.query["p"], r.query["limit"], r.query["date"]) for r in asked] == [
        ("0", "50", LAST_DAY),
        ("1", "50", LAST_DAY),
        ("2", "50", LAST_DAY),
    ]
    records = dump("hf", f"hf-{LAST_DAY}")
    assert len(records) == 120 and "120 papers, 120 new" in out
    first = records[0]
    expected = server.sources.day(LAST_DAY)[0]
    assert first["title"] == expected.title and first["abstract"] == expected.abstract
    assert first["authors"] == list(expected.authors)
    assert first["arxiv_id"] == expected.arxiv and first["upvotes"] == expected.upvotes
    assert first["listed"] == LAST_DAY
    assert first["url"] == f"https://huggingface.co/papers/{expected.arxiv}"


def test_a_complete_day_is_never_asked_for_again(server, capsys):
    assert fetch(capsys, f"hf:{LAST_DAY}")[0] == 0
    before = len(server.seen)
    code, out, _err = fetch(capsys, f"hf:{LAST_DAY}")
    assert code == 0 and len(server.seen) == before  # no request at all
    assert "complete since the last fetch" in out


def test_hf_alone_is_today_and_yesterday_and_today_is_asked_again_conditionally(server, capsys):
    server.sources = Sources(per_day=20)  # the days served end today
    today, yesterday = server.sources.days[-1], server.sources.days[-2]
    assert fetch(capsys, "hf")[0] == 0
    assert [r.query["date"] for r in server.requests_to("/api/daily_papers")] == [yesterday, today]
    code, out, _ = fetch(capsys, "hf")
    again = server.requests_to("/api/daily_papers")[2:]
    assert code == 0 and [r.query["date"] for r in again] == [today]  # yesterday is complete
    assert again[0].headers.get("If-None-Match", "").startswith('"')
    assert f"{today}: unchanged since the last fetch" in out
    assert len(dump("hf", f"hf-{today}")) == 20  # kept as it was


def test_every_request_names_papertui_and_its_version(server, capsys):
    from papertui import __version__

    fetch(capsys, f"hf:{LAST_DAY}", "arxiv:cs.LG", "venue:nips2025")
    agents = {r.headers.get("User-Agent", "") for r in server.seen}
    assert agents and all(a.startswith(f"papertui/{__version__} ") for a in agents)


def test_arxiv_feed_keeps_new_and_cross_and_replacements_on_request(server, capsys):
    code, out, _ = fetch(capsys, "arxiv:cs.LG+cs.CV")
    assert code == 0
    assert server.requests_to("/rss/cs.LG+cs.CV")
    kinds = {r["announce_type"] for r in dump("arxiv", f"arxiv-cs.LG+cs.CV-{LAST_DAY}")}
    assert kinds == {"new", "cross"} and "replaced papers left out" in out
    server.sources.version += 1  # a new day's feed
    assert fetch(capsys, "arxiv:cs.LG+cs.CV", "--replacements")[0] == 0
    kinds = {r["announce_type"] for r in dump("arxiv", f"arxiv-cs.LG+cs.CV-{LAST_DAY}")}
    assert kinds == {"new", "cross", "replace"}
    record = dump("arxiv", f"arxiv-cs.LG+cs.CV-{LAST_DAY}")[-1]
    assert record["categories"] and record["authors"] and "Announce" not in record["abstract"]


def test_hf_and_arxiv_copies_are_one_paper_with_both_links(server, capsys):
    assert fetch(capsys, f"hf:{LAST_DAY}", "arxiv:cs.LG")[0] == 0
    library = fetched_library()
    shared = server.sources.day(LAST_DAY)[0]
    found = [p for p in library.papers if p.meta.arxiv == shared.arxiv]
    assert len(found) == 1
    paper = found[0]
    assert f"https://huggingface.co/papers/{shared.arxiv}" in paper.urls
    assert f"https://arxiv.org/abs/{shared.arxiv}" in paper.urls
    assert paper.meta.upvotes == shared.upvotes and paper.meta.categories == shared.categories
    category = shared.categories[0]
    hits = library.run_query(f"category:{category}", depth=None).indices
    assert library.by_id[paper.id] in hits


def test_arxiv_query_pages_newest_first_up_to_max_then_only_what_is_new(server, capsys):
    code, out, _ = fetch(capsys, "arxiv-query:cat:cs.LG AND ti:graph", "--max", "230")
    assert code == 0
    asked = server.requests_to("/api/query")
    assert [(r.query["start"], r.query["max_results"]) for r in asked] == [
        ("0", "100"),
        ("100", "100"),
        ("200", "30"),
    ]
    assert {r.query["sortBy"] for r in asked} == {"submittedDate"}
    assert asked[0].query["search_query"] == "cat:cs.LG AND ti:graph"
    records = dump("arxiv-query", "arxiv-query-cat_cs.LG_AND_ti_graph")
    assert len(records) == 230 and records[0]["arxiv_id"] == "2509.50000"
    # nothing new since: one page shows it, and paging stops
    fetch(capsys, "arxiv-query:cat:cs.LG AND ti:graph", "--max", "230")
    assert len(server.requests_to("/api/query")) == 4


def test_arxiv_query_since_asks_the_api_to_filter(server, capsys):
    code, _, _ = fetch(capsys, "arxiv-query:all:x", "--since", "2025-09-20", "--max", "50")
    assert code == 0
    query = server.requests_to("/api/query")[0].query["search_query"]
    assert query == "(all:x) AND submittedDate:[202509200000 TO 299912312359]"
    kept = dump("arxiv-query", "arxiv-query-all_x")
    assert kept and all(r["published"] >= "2025-09-20" for r in kept)


def test_venue_keeps_decisions_and_leaves_out_rejections_unless_all(server, capsys):
    code, out, _ = fetch(capsys, "venue:nips2025")
    assert code == 0 and "left out Reject" in out
    records = dump("venue", "venue-nips2025")
    assert {r["status"] for r in records} == {"Oral", "Spotlight", "Poster"}
    assert {r["track"] for r in records} == {"main", "Datasets & Benchmarks"}
    assert all(r["venue"] == "NeurIPS 2025" and r["year"] == 2025 for r in records)
    library = fetched_library()
    orals = library.run_query("status:oral", depth=None).indices
    assert orals and all(library.papers[i].meta.status == "Oral" for i in orals)
    assert library.run_query("track:datasets", depth=None).indices
    assert library.papers[0].meta.rating is not None
    library.close()
    server.sources.version += 1
    fetch(capsys, "venue:nips2025", "--all")
    assert {"Reject", "Withdraw"} <= {r["status"] for r in dump("venue", "venue-nips2025")}


def test_an_unknown_venue_list_says_what_names_look_like(server, capsys):
    code, _, err = fetch(capsys, "venue:nips2031")
    assert code == 3
    assert "has no list nips/nips2031.json (404)" in err and err.count("\n") == 1


def test_openreview_without_a_login_says_exactly_what_to_set(server, capsys):
    code, _, err = fetch(capsys, "openreview:NeurIPS.cc/2025/Conference")
    assert code == 3 and not server.seen  # nothing asked
    assert "set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD (or OPENREVIEW_TOKEN)" in err


def test_openreview_logs_in_and_reads_every_accepted_paper(server, capsys, monkeypatch):
    monkeypatch.setenv("OPENREVIEW_USERNAME", "ada@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "secret")
    code, out, err = fetch(capsys, "openreview:NeurIPS.cc/2025/Conference")
    assert code == 0, err
    login, notes = server.seen[0], server.seen[1]
    assert (login.method, login.path) == ("POST", "/login")
    assert notes.headers["Authorization"] == "Bearer t0ken"
    assert notes.query["content.venueid"] == "NeurIPS.cc/2025/Conference"
    records = dump("openreview", "openreview-NeurIPS.cc_2025_Conference")
    assert len(records) == 60
    assert {r["status"] for r in records} == {"Oral", "Spotlight", "Poster"}
    assert records[0]["venue"] == "NeurIPS 2025" and records[0]["track"] == "main"


def test_openreview_token_refused_is_one_line(server, capsys, monkeypatch):
    monkeypatch.setenv("OPENREVIEW_TOKEN", "stale")
    code, _, err = fetch(capsys, "openreview:NeurIPS.cc/2025/Conference")
    assert code == 3 and "refused the token (403)" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "source", ["bogus", "hf:2025-13-01", "hf:2025-W60", "arxiv:CS LG", "venue:neurips", "hf:"]
)
def test_a_bad_source_is_bad_input_and_nothing_is_fetched(server, capsys, source):
    code, _, err = fetch(capsys, f"hf:{LAST_DAY}", source)
    assert code == 2 and not server.seen
    assert err.startswith("papertui fetch: ") and err.count("\n") == 1
