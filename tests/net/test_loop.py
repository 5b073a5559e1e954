"""The morning loop from the command line: subscribe, fetch, read with --fetched, digest."""

from __future__ import annotations

import json
import re

from papertui.cli import main
from papertui.core.system.settings import load_settings, settings_path

from conftest import LAST_DAY
from shapes import STATUSES


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_subscribe_and_unsubscribe_keep_the_rest_of_the_settings(server, capsys):
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text('theme = "nord"\n[keys]\ntoggle_bookmark = "x"\n', "utf-8")
    assert run(capsys, "fetch", "--subscribe", "hf", "--subscribe", "arxiv:cs.LG")[0] == 0
    assert run(capsys, "fetch", "--subscribe", "venue:iclr2025")[0] == 0
    settings = load_settings()
    assert settings.fetch_sources == ["hf", "arxiv:cs.LG", "venue:iclr2025"]
    assert settings.theme == "nord" and settings.keys == {"toggle_bookmark": "x"}
    assert not settings.problems and not server.seen  # subscribing fetches nothing
    assert run(capsys, "fetch", "--subscribe=-arxiv:cs.LG")[0] == 0
    assert load_settings().fetch_sources == ["hf", "venue:iclr2025"]
    code, _, err = run(capsys, "fetch", "--subscribe", "venue:iclr")
    assert code == 2 and "a venue is a conference and a year" in err


def test_fetch_without_sources_fetches_the_subscriptions(server, capsys):
    code, _, err = run(capsys, "fetch")
    assert code == 2 and "papertui fetch --subscribe hf" in err
    run(capsys, "fetch", "--subscribe", f"hf:{LAST_DAY}", "--subscribe", "venue:nips2025")
    code, out, _ = run(capsys, "fetch")
    assert code == 0 and f"hf:{LAST_DAY}: 20 papers, 20 new" in out and "venue:nips2025" in out


def test_daily_without_subscriptions_says_how_to_add_them(server, capsys):
    code, _, err = run(capsys, "daily")
    assert code == 2 and "no subscriptions yet" in err and not server.seen


def test_fetched_papers_join_any_command(server, capsys):
    code, _, err = run(capsys, "search", "graph", "--fetched")
    assert code == 2 and "nothing fetched yet" in err
    run(capsys, "fetch", f"hf:{LAST_DAY}", "venue:nips2025")
    code, out, _ = run(capsys, "search", "status:oral", "--fetched", "--json", "--limit", "100")
    records = json.loads(out)
    assert code == 0 and records and {r["status"] for r in records} == {"Oral"}
    code, out, _ = run(capsys, "list", "--fetched", "--json")
    accepted = sum(s not in ("Reject", "Withdraw") for s in (STATUSES * 9)[:60])
    assert len(json.loads(out)) == 20 + accepted
    paper = json.loads(out)[0]["id"]
    assert run(capsys, "bookmark", paper, "--fetched")[0] == 0


def test_digest_lists_what_was_fetched_since_the_last_one(server, capsys):
    run(capsys, "fetch", f"hf:{LAST_DAY}")
    code, out, _ = run(capsys, "digest", "--limit", "5")
    assert code == 0
    assert out.startswith("# papertui digest, ") and "20 papers fetched so far" in out
    assert out.count("\n## ") == 5
    # most upvoted first while "for you" knows nothing
    votes = sorted((p.upvotes for p in server.sources.day(LAST_DAY)), reverse=True)
    assert f"· {votes[0]} upvotes" in out.split("\n## 2.")[0]
    code, out, _ = run(capsys, "digest")
    assert code == 0 and "0 papers fetched since" in out
    # the last digest's time to the second, with its zone: no microseconds
    assert re.search(r"fetched since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.\n", out), out
    run(capsys, "fetch", "hf:2025-09-07")
    code, out, _ = run(capsys, "digest", "--format", "json")
    records = json.loads(out)
    assert code == 0 and len(records) == 20 and {r["listed"] for r in records} == {"2025-09-07"}


def test_digest_since_a_date_and_bad_dates(server, capsys):
    run(capsys, "fetch", f"hf:{LAST_DAY}")
    code, out, _ = run(capsys, "digest", "--since", "2000-01-01", "--format", "json")
    assert code == 0 and len(json.loads(out)) == 20
    code, _, err = run(capsys, "digest", "--since", "yesterday")
    assert code == 2 and "neither 'last' nor a date" in err
