"""What fetching reads from users and servers never raises anything but its own one-line errors:
source names, Daily Papers listings, arXiv feed items, Retry-After headers, stored metadata."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papertui.core.corpus.paper_meta import PaperMeta
from papertui.fetch import arxiv_feed, hf
from papertui.fetch.client import retry_after
from papertui.fetch.specs import SpecError, hf_period, parse_spec, period_end

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(st.text(max_size=40))
def test_any_source_name_is_read_or_refused_in_one_line(text):
    try:
        spec = parse_spec(text)
    except SpecError as exc:
        assert "\n" not in str(exc)
    else:
        assert spec.source in ("hf", "arxiv", "arxiv-query", "venue", "openreview")


@pytest.mark.parametrize(
    "text,period",
    [
        ("hf", ("date", "")),
        ("hf:today", ("date", "")),
        ("hf:2025-09-08", ("date", "2025-09-08")),
        ("hf:2025-W36", ("week", "2025-W36")),
        ("hf:2025-09", ("month", "2025-09")),
    ],
)
def test_hf_periods(text, period):
    assert hf_period(parse_spec(text).arg) == period


def test_periods_end_when_the_next_begins():
    utc = dt.UTC
    assert period_end("date", "2025-09-08") == dt.datetime(2025, 9, 9, tzinfo=utc)
    assert period_end("week", "2025-W36") == dt.datetime(2025, 9, 8, tzinfo=utc)
    assert period_end("month", "2025-12") == dt.datetime(2026, 1, 1, tzinfo=utc)


@given(st.dictionaries(st.text(max_size=10), _json, max_size=6) | _json)
def test_any_daily_papers_item_gives_a_record_or_none(item):
    found = hf.record(item, "2025-09-08")
    assert found is None or found["abstract"]


@given(
    st.dictionaries(
        st.sampled_from(["title", "description", "guid", "link", "category"]),
        st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=60),
    )
)
def test_any_feed_item_gives_a_record_or_none(fields):
    item = ET.Element("item")
    for name, value in fields.items():
        ET.SubElement(item, name).text = value
    found = arxiv_feed.record(item, "2025-09-08", "new")
    assert found is None or (found["abstract"] and "Announce Type" not in found["abstract"][:30])


def test_feed_item_abstract_and_id():
    item = ET.fromstring(
        "<item><title>T</title><description>arXiv:2509.01234v2 Announce Type: cross\n"
        "Abstract: We study things.</description><guid>oai:arXiv.org:2509.01234v2</guid>"
        "<category>cs.LG</category><category>stat.ML</category></item>"
    )
    found = arxiv_feed.record(item, "2025-09-08", "cross")
    assert found is not None
    assert (found["abstract"], found["arxiv_id"]) == ("We study things.", "2509.01234")
    assert found["categories"] == ["cs.LG", "stat.ML"]


@given(st.text(max_size=40))
def test_any_retry_after_is_seconds_or_none(value):
    wait = retry_after(value)
    assert wait is None or wait >= 0


def test_retry_after_as_seconds_and_as_a_date():
    assert retry_after("7") == 7.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # past: at once
    assert retry_after("") is None


@given(st.text(max_size=80))
def test_any_stored_metadata_decodes(text):
    PaperMeta.decode(text)
