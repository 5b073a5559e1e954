"""A paper as a JSON record: one shape for `list`, `search` (both paths), `similar` and `rank`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from papertui.core.corpus.paper_meta import PaperMeta
from papertui.core.store import Annotations

if TYPE_CHECKING:  # `papertui search` answered from the index loads no corpus code
    from papertui.core.corpus import Paper


def paper_record(
    paper: Paper | Mapping[str, Any], annotations: Annotations, score: float | None = None
) -> dict[str, object]:
    """`paper` is a loaded Paper or the fields the index stores of one (when the corpus was not
    read); the user's annotations come from `annotations` either way."""
    if isinstance(paper, Mapping):
        pid, title, abstract = str(paper["id"]), str(paper["title"]), str(paper["abstract"])
        collections = [str(c) for c in paper.get("collections", [])]
        urls = [str(u) for u in paper.get("urls", [])]
        authors = [str(a) for a in paper.get("authors", [])]
        venue, year = str(paper.get("venue", "") or ""), paper.get("year")
        derived = not paper.get("has_real_title", False)
        meta = PaperMeta.decode(str(paper.get("extra", "") or ""))
    else:
        pid, title, abstract = paper.id, paper.title, paper.abstract
        collections, urls = list(paper.collections), list(paper.urls)
        authors, venue, year = list(paper.authors), paper.venue, paper.year
        derived = not paper.has_real_title
        meta = paper.meta
    record: dict[str, object] = {
        "id": pid,
        "title": title,
        "title_derived": derived,
        "collection": collections[0] if collections else "",
        "collections": collections,
        "abstract": abstract,
        "urls": urls,
        "authors": authors,
        "venue": venue,
        "year": year,
        "bookmarked": pid in annotations.bookmarks,
        "note": annotations.notes.get(pid, ""),
        "read": pid in annotations.reads,
        "new": annotations.is_new(pid),
        "feedback": annotations.feedback_word(pid),
        "tags": annotations.tags_of(pid),
    }
    record.update(meta.as_record())  # arXiv id, categories, upvotes, decision: when known
    if score is not None:
        record["score"] = round(float(score), 4)
    return record
