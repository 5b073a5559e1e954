"""What fetching remembers between runs, beside the dumps: each URL's validators (for conditional
requests), which periods are complete (never asked for again), which papers were fetched before
and when (so `new` and `fetched_at` mean the first time), and when the last digest ran."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from papertui.core.system import paths
from papertui.core.system.atomic_file import replace_text


def fetched_dir() -> Path:
    return paths.fetched_dir()


def write_atomically(path: Path, text: str) -> None:
    """Write `path` so a reader sees the old file or the new one, never half of one."""
    paths.ensure_private_dir(path.parent)
    replace_text(path, text)


@dataclass
class FetchState:
    validators: dict[str, dict[str, str]] = field(default_factory=dict)
    complete: dict[str, str] = field(default_factory=dict)  # "hf/hf-2025-09-08" -> when
    last_digest: str = ""
    problems: list[str] = field(default_factory=list)

    @classmethod
    def load(cls) -> FetchState:
        path = fetched_dir() / "state.json"
        state = cls()
        try:
            data = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return state
        except (OSError, ValueError) as exc:
            # only an optimisation is lost: the next fetch asks again in full
            state.problems.append(f"{path}: unreadable ({exc}); starting afresh")
            return state
        if isinstance(data, dict):
            state.validators = _dict(data.get("validators"))
            state.complete = {str(k): str(v) for k, v in _dict(data.get("complete")).items()}
            state.last_digest = str(data.get("last_digest") or "")
        return state

    def save(self) -> None:
        """Write the state, joined with what another fetch may have written meanwhile."""
        other = FetchState.load()
        self.validators = {**other.validators, **self.validators}
        self.complete = {**other.complete, **self.complete}
        self.last_digest = max(self.last_digest, other.last_digest)
        data = {
            "validators": self.validators,
            "complete": self.complete,
            "last_digest": self.last_digest,
        }
        write_atomically(fetched_dir() / "state.json", json.dumps(data, indent=1) + "\n")


def _dict(value: object) -> dict:  # type: ignore[type-arg]
    return value if isinstance(value, dict) else {}


class KnownPapers:
    """Every paper fetched before, by papertui id and by arXiv id, with when it was first
    fetched: the file known.tsv in the fetched folder, one line a paper, appended to."""

    def __init__(self) -> None:
        self.path = fetched_dir() / "known.tsv"
        self.first: dict[str, str] = {}  # id or "arxiv:ID" -> first fetched (ISO)
        with contextlib.suppress(FileNotFoundError, OSError):
            for line in self.path.read_text("utf-8", errors="replace").splitlines():
                pid, _, rest = line.partition("\t")
                arxiv, _, when = rest.partition("\t")
                if pid and when:
                    self.first.setdefault(pid, when)
                    if arxiv:
                        self.first.setdefault("arxiv:" + arxiv, when)
        self._fresh: list[str] = []

    def first_fetched(self, pid: str, arxiv: str) -> str | None:
        return self.first.get(pid) or (self.first.get("arxiv:" + arxiv) if arxiv else None)

    def add(self, pid: str, arxiv: str, when: str) -> None:
        if self.first_fetched(pid, arxiv) is not None and pid in self.first:
            return
        self.first.setdefault(pid, when)
        if arxiv:
            self.first.setdefault("arxiv:" + arxiv, when)
        self._fresh.append(f"{pid}\t{arxiv}\t{when}\n")

    def save(self) -> None:
        if not self._fresh:
            return
        paths.ensure_private_dir(self.path.parent)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.writelines(self._fresh)
        self._fresh = []
