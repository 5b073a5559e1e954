"""What every source module is given (the client, the options, the state, the time) and what it
gives back page by page, with the checks on an answer's body they share."""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from papertui.fetch.client import Answer, FetchFailed, PoliteClient, host_of, path_of
from papertui.fetch.state import FetchState

Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class FetchOptions:
    max: int = 200  # arxiv-query: at most this many papers
    since: dt.date | None = None  # arxiv-query: submitted on or after
    replacements: bool = False  # arxiv: replaced papers too
    all: bool = False  # venue: rejected and withdrawn papers too


@dataclass(slots=True)
class Page:
    """Records that arrived for the dump `key` (written even if a later page fails); with
    `complete`, the period this key covers is over and never needs asking for again."""

    key: str
    records: list[Record] = field(default_factory=list)
    complete: bool = False
    note: str = ""  # one line for the user ("unchanged since the last fetch")
    total: int | None = None  # how many the source says there are, when it says


@dataclass
class Context:
    client: PoliteClient
    options: FetchOptions
    state: FetchState
    now: dt.datetime  # UTC
    base: str  # the source's base URL
    status: Callable[[str], None] = lambda _text: None  # "page 3" while a source runs

    @property
    def stamp(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def json_body(answer: Answer) -> Any:
    """The answer as JSON; a body that is not is a failure naming the URL."""
    if not answer.body.strip():
        raise FetchFailed(f"{host_of(answer.url)} sent an empty answer to {path_of(answer.url)}")
    try:
        return json.loads(answer.body)
    except ValueError as exc:
        raise FetchFailed(
            f"{host_of(answer.url)} sent invalid JSON for {path_of(answer.url)} ({exc})"
        ) from None


def xml_body(answer: Answer) -> ET.Element:
    """The answer as XML, refusing DOCTYPEs and entities (an entity bomb) and cut-short
    documents."""
    head = answer.body[:4000]
    where = f"{host_of(answer.url)} sent"
    if not answer.body.strip():
        raise FetchFailed(f"{where} an empty answer to {path_of(answer.url)}")
    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
        raise FetchFailed(f"{where} XML with a DOCTYPE for {path_of(answer.url)}: not read")
    try:
        return ET.fromstring(answer.body)
    except ET.ParseError as exc:
        line, column = exc.position
        raise FetchFailed(
            f"{where} broken XML for {path_of(answer.url)} (line {line}, column {column})"
        ) from None
