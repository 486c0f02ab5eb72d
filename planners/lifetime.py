"""Child processes that end with their parent, and with them everything they started.

A worker, a layout's classification and its planner calls are children of children; a parent killed
outright (SIGKILL, the OOM killer) runs no cleanup, so each child asks the kernel for a signal when its
parent dies (Linux's ``prctl(PR_SET_PDEATHSIG)``, called through ctypes: no library wraps it without
more dependencies). A child that started processes of its own takes SIGTERM there and ends its whole
tree (:func:`end_tree_on_term`): unified-planning starts Fast Downward in a session of its own, out of
reach of a process-group kill, so the tree is found in /proc by parent pids. Elsewhere than Linux
(no death signal) the parent's pipe closing is what ends a child.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path
from types import FrameType

#: Linux's ``prctl`` option for the signal a process gets when its parent dies (<linux/prctl.h>).
PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int, signum: int = signal.SIGKILL) -> None:
    """Have this process get ``signum`` when process ``parent`` (which started it) dies: SIGKILL for a
    process that started none of its own, SIGTERM with :func:`end_tree_on_term` for one that did. A
    parent already gone (before the signal was asked for) ends this process now. The kernel sends it when
    the *thread* that started this process ends: strips_int starts its children from threads that live as
    long as the work (the main thread, a worker's)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def end_tree_on_term() -> None:
    """SIGTERM (the parent's death, :func:`end_with_parent`, or a user's ``kill``) ends this process and
    every process below it."""

    def end(signum: int, frame: FrameType | None) -> None:
        kill_tree(os.getpid(), itself=False)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, end)


def kill_tree(pid: int, itself: bool = True) -> None:
    """Kill every process below ``pid`` (and ``pid`` when ``itself``): each is stopped first (SIGSTOP: a
    stopped process starts no other) until no new one turns up, then all are killed."""
    frozen: set[int] = set()
    while new := ((({pid} if itself else set()) | descendants(pid)) - frozen):
        for child in new:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGSTOP)
        frozen |= new
    for child in frozen:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)


def descendants(pid: int) -> set[int]:
    """The processes below ``pid``, from /proc (none found where there is no /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])  # after "pid (command)": state, ppid
            parents.setdefault(parent, []).append(int(stat.parent.name))
    found, frontier = set(), [pid]
    while frontier:
        below = parents.get(frontier.pop(), [])
        frontier += [p for p in below if p not in found]
        found.update(below)
    return found
