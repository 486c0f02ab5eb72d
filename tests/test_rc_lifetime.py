"""``rc`` killed or interrupted leaves no process behind: its workers, each layout's classification, the
planner calls and the Fast Downward searches they started end with it (issue 37: SIGKILL or SIGINT of
``rc --jobs 2`` left a classification starting searches 60-90 s later). Every process the run starts
inherits a mark in its environment, so each is found in /proc however it was reparented, even one that
unified-planning started in a session of its own."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, default_sigint

#: Seconds a test waits for the searches to start, and then for the last process to end: hang guards
#: far above what they take on an idle machine (under 3 s and 1 s).
START, END = 90.0, 180.0


def marked(mark: str) -> dict[int, str]:
    """The processes whose environment holds ``mark``, with their command lines."""
    found = {}
    for process in Path("/proc").glob("[0-9]*"):
        try:
            if mark.encode() in (process / "environ").read_bytes():
                found[int(process.name)] = (process / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError):  # ended meanwhile, or not ours
            pass
    return found


def searching(processes: dict[int, str]) -> bool:
    return any("downward" in command and "strips_int" not in command for command in processes.values())


ARGS = {
    "table": ["--all-layouts", "--soups", "30", "--jobs", "2"],  # workers, classifications, searches
    "one problem on the planner path": ["--layout", "cramped_room", "--soups", "30", "--search", "planner",
                                        "--jobs", "2"],  # planner calls, Fast Downward in sessions of its own
}


@pytest.mark.parametrize("run, how", [("table", "SIGKILL of rc"), ("table", "Ctrl-C"), ("table", "SIGINT of rc alone"),
                                      ("one problem on the planner path", "SIGKILL of rc"),
                                      ("one problem on the planner path", "Ctrl-C")])
def test_nothing_outlives_a_killed_or_interrupted_rc(tmp_path, run, how):
    mark = f"STRIPS_INT_TEST_RUN={tmp_path.name}-{os.getpid()}"
    name, value = mark.split("=")
    command = [sys.executable, "-m", "strips_int.rc", *ARGS[run], "--timeout", "120", "--out", str(tmp_path / "t.md")]
    rc = subprocess.Popen(command, env={**os.environ, name: value}, cwd=ROOT, start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=default_sigint)
    try:
        waited = time.monotonic() + START
        while not searching(marked(mark)) and time.monotonic() < waited and rc.poll() is None:
            time.sleep(0.1)
        assert searching(marked(mark)), "no Fast Downward search started"
        if how == "SIGKILL of rc":
            rc.kill()
        elif how == "Ctrl-C":
            os.killpg(rc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole foreground group
        else:
            rc.send_signal(signal.SIGINT)
        rc.wait(timeout=END)
        waited = time.monotonic() + END
        while (left := marked(mark)) and time.monotonic() < waited:
            time.sleep(0.1)
        assert not left, f"outlived rc: {left}"
    finally:
        for pid in marked(mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if rc.poll() is None:
            rc.kill()
            rc.wait()
