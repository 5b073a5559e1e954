"""Child processes end with the program that started them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from papertui.core.system import lifeline

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# A parent that starts a child watching it, says the child's pid, then waits to be killed.
PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]])
print(child.pid, flush=True)
time.sleep(60)
"""
# The child: ends itself once its parent is gone, else would run for a minute.
CHILD = """
import time
from papertui.core.system.lifeline import end_with_parent
end_with_parent()
time.sleep(60)
"""


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.02)
    return False


def test_a_child_ends_once_its_parent_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, CHILD], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    time.sleep(0.5)  # the child is watching by now
    assert not _gone(child, 0)
    parent.kill()  # SIGKILL: the parent can stop nothing
    parent.wait()
    try:
        assert _gone(child, 1.0)
    finally:
        if not _gone(child, 0):
            os.kill(child, 9)


def test_stop_children_ends_the_running_ones_and_forgets_the_finished():
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], text=True)
    with lifeline.tracked(slow):
        started = time.monotonic()
        lifeline.stop_children(wait=1.0)
        assert slow.poll() is not None and time.monotonic() - started < 1.0
    quick = subprocess.Popen([sys.executable, "-c", "pass"], text=True)
    with lifeline.tracked(quick):
        quick.wait()
    started = time.monotonic()
    lifeline.stop_children(wait=1.0)  # nothing running: nothing to wait for
    assert time.monotonic() - started < 0.5
