"""Running `papertui serve` for a test: a subprocess on 127.0.0.1 with a free port and its own
data dirs, the processes it started, the papertui CLI on the same data, and what a tab drew."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

# without the networking flags Chromium reaches out to the internet on its own
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

TOPICS = [
    "graph neural networks for molecule property prediction",
    "contrastive pretraining of speech encoders",
    "zebrafish larva tracking with optical flow",
    "sparse attention for long document summarisation",
    "reinforcement learning for warehouse robots",
    "diffusion models for protein backbone design",
    "federated learning under label noise",
    "causal discovery from irregular time series",
    "quantised transformers on microcontrollers",
    "retrieval augmented question answering over tables",
    "uncertainty estimation for weather forecasts",
    "program synthesis from input output examples",
]
LINK = "http://127.0.0.1:9/paper-three"  # the discard port: nothing answers, nothing leaves


def write_corpus(folder: Path) -> Path:
    """Twelve abstracts, one topic each; the third (zebrafish) carries a link."""
    paragraphs = []
    for i, topic in enumerate(TOPICS):
        text = (
            f"We study {topic}. Our method improves on strong baselines in {i + 3} settings "
            f"and we release code for {topic.split()[0]} research."
        )
        paragraphs.append(text + (f" Code: {LINK}" if i == 2 else ""))
    path = folder / "served.txt"
    path.write_text("Served test papers\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    return path


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        if (found := shutil.which(name)) is not None:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def data_env(base: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PAPERTUI_DATA_DIR"] = str(base / "data")
    env["PAPERTUI_CACHE_DIR"] = str(base / "cache")
    env["PAPERTUI_CONFIG_DIR"] = str(base / "config")
    return env


class Served:
    """`papertui serve --port 0 ARGS` until stop(); `url` carries the token, `base` not."""

    def __init__(self, env: dict[str, str], *args: str, cwd: Path | None = None) -> None:
        self.env = env
        command = [sys.executable, "-m", "papertui", "serve", "--port", "0", *args]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=cwd,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.url = self._address()
        self.base, _, self.token = self.url.partition("/?token=")
        self.port = int(self.base.rsplit(":", 1)[1])

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)

    def _address(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None:
                    break
                continue
            if found := re.search(r"open (http://\S+)", line):
                return found.group(1)
        self.process.kill()
        raise AssertionError(f"papertui serve printed no address: {''.join(self.output)!r}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def descendants(self) -> set[int]:
        """Every process the server started, and theirs (readers, builders)."""
        children: dict[int, list[int]] = {}
        for pid, stat in _stats().items():
            children.setdefault(int(stat[1]), []).append(pid)
        found: set[int] = set()
        todo = [self.pid]
        while todo:
            for child in children.get(todo.pop(), []):
                found.add(child)
                todo.append(child)
        return found

    def wait_for_readers(self, count: int, timeout: float = 20) -> set[int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            readers = self.descendants()
            if len(readers) >= count:
                return readers
            time.sleep(0.1)
        raise AssertionError(f"{count} readers did not start; have {self.descendants()}")

    def stop(self, signum: int = signal.SIGINT, timeout: float = 10) -> float:
        """Send `signum`; the seconds until the server exited."""
        start = time.monotonic()
        self.process.send_signal(signum)
        self.process.wait(timeout)
        return time.monotonic() - start

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "papertui", *args],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=60,
        )


def _stats() -> dict[int, list[str]]:
    """pid -> the fields of /proc/PID/stat after the command name (state, ppid, pgrp, sid)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            stats[int(entry)] = text.rsplit(")", 1)[1].split()
    return stats


def running(pids: set[int], sessions: set[int]) -> set[int]:
    """Those of `pids`, and any process in one of the `sessions`, still running (a zombie has
    ended: only its exit status is left for a parent to collect)."""
    return {
        pid
        for pid, stat in _stats().items()
        if stat[0] != "Z" and (pid in pids or int(stat[3]) in sessions)
    }


def until_gone(pids: set[int], sessions: set[int], timeout: float) -> set[int]:
    deadline = time.monotonic() + timeout
    while (left := running(pids, sessions)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


CSI = re.compile(r"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>78]")


def screen_text(frames: list[bytes]) -> str:
    """What a reader sent its tab, with the terminal's control sequences taken out: the words
    it drew, in the order it drew them."""
    return CSI.sub("\n", b"".join(frames).decode("utf-8", "replace"))
