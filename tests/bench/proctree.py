"""Peak resident memory of every process a command starts: the command itself and each process
it starts in turn (the reader's indexing child, the segment writer that child forks, the
vectors-and-topics child), sampled from /proc while it runs.

Each process' peak is its kernel high-water mark (`VmHWM`), which only ever grows, so sampling
every `interval` seconds misses at most what a process adds in its last moments. Linux only.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Seen:
    """One process seen while sampling."""

    pid: int
    ppid: int
    command: list[str]
    first: float  # seconds since the run started
    last: float
    peak_mib: float = 0.0
    children: list[int] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return self.last - self.first


def _ppids() -> dict[int, int]:
    out: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        rest = stat[stat.rfind(b")") + 2 :].split()
        out[int(name)] = int(rest[1])
    return out


def _hwm_mib(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return [p.decode("utf-8", "replace") for p in handle.read().split(b"\0") if p]
    except OSError:
        return []


class Sampler:
    """Samples the process tree under `root` until `stop()`."""

    def __init__(self, root: int, interval: float = 0.1) -> None:
        self.root = root
        self.interval = interval
        self.started = time.perf_counter()
        self.seen: dict[int, Seen] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="proctree", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.is_set():
            self.sample()
            self._done.wait(self.interval)
        self.sample()

    def sample(self) -> None:
        now = time.perf_counter() - self.started
        parents = _ppids()
        tree = {self.root}
        grew = True
        while grew:  # every descendant of the root
            grew = False
            for pid, ppid in parents.items():
                if ppid in tree and pid not in tree:
                    tree.add(pid)
                    grew = True
        for pid in tree:
            hwm = _hwm_mib(pid)
            if hwm is None:
                continue
            seen = self.seen.get(pid)
            if seen is None:
                seen = self.seen[pid] = Seen(pid, parents.get(pid, 0), _cmdline(pid), now, now)
                if seen.ppid in self.seen:
                    self.seen[seen.ppid].children.append(pid)
            elif seen.command != (command := _cmdline(pid)) and command:
                # first seen between its fork and its exec: it had its parent's command line
                # and, counted as its own, the pages it shared with the parent
                seen.command, seen.peak_mib = command, 0.0
            seen.last = now
            seen.peak_mib = max(seen.peak_mib, hwm)

    def stop(self) -> list[Seen]:
        self._done.set()
        self._thread.join()
        return sorted(self.seen.values(), key=lambda s: s.first)


def role(seen: Seen, by_pid: dict[int, Seen]) -> str:
    """What a process is to papertui: the reader, the indexing child, the segment writer it
    forks (same command line as its parent), the helper that parses part of a large dump, the
    vectors-and-topics child, or another."""
    command = seen.command
    parent = by_pid.get(seen.ppid)
    if parent is not None and parent.command == command and "index" in command:
        return "segment writer (forked by the index build)"
    if "papertui.core.corpus.split" in command:
        return "parse helper (later part of a large dump)"
    if "papertui" in command and "index" in command:
        return "index build"
    if "papertui" in command and "semantic" in command:
        return "vectors and topics"
    return "other: " + " ".join(command[:3])


def run_sampled(
    command: list[str], env: dict[str, str], interval: float = 0.1, timeout: float = 7200
) -> tuple[float, str, list[Seen]]:
    """Run `command`, sampling its process tree: (seconds, stdout, every process seen)."""
    start = time.perf_counter()
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        sampler = Sampler(proc.pid, interval)
        try:
            out, err = proc.communicate(timeout=timeout)
        finally:
            seen = sampler.stop()
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"benchmark step failed: {' '.join(command[:5])}...\n{err[-3000:]}")
    return elapsed, out, seen
