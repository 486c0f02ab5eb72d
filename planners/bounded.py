"""Planner calls (and any bounded work) in child processes: in parallel, and stopped at a deadline, conversion
included.

Each call converts its problem to unified-planning and plans in a child
process of its own (:func:`solve_all`; :func:`run_all` runs any :class:`Bounded`
work so, such as the classification of a whole layout), which Fast Downward's processes are found below when it is
stopped (and whose CPU limit they inherit, as a backstop). The parent waits for the answers until the deadline,
then kills the groups still running and reports the phase each was stopped in
(``start-up``, ``conversion``, ``planning``; ``the queue`` for a call that
never got a CPU): unknown, never a guess. Results do not depend on ``jobs``:
the calls are independent and each runs alone in its process.

Children fork from this process, which imports unified-planning once for all
of them, where that is safe: no other thread and no JAX runtime (fork copies
their threads in a broken state). Else each child is a fresh interpreter
(``python -m strips_int.planners.bounded``, 1.5 s of imports per call):
multiprocessing's spawn and forkserver would first import the caller's main
module again in every child, which fails for a script read from stdin and
reruns a script without a main guard.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import math
import multiprocessing
import os
import pickle
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from strips_int.model.domain import Domain
from strips_int.errors import StripsIntError, brief, internal_error
from strips_int.model.task import Problem

from .lifetime import end_tree_on_term, end_with_parent, kill_tree
from .result import UNKNOWN, PlanResult, stopped

START_UP, CONVERSION, PLANNING, QUEUE = "start-up", "conversion", "planning", "the queue"
#: Imported once before the first forked child, so that each starts with unified-planning loaded.
PRELOAD = ("strips_int.planners.solve", "up_fast_downward", "up_pyperplan.engine")
#: A child's engine gets this much longer than the deadline: the parent, not the engine, says when time is up.
_GRACE = 5.0


class Bounded(Protocol):
    """Work for a child process of its own: picklable, with the modules to import before forking it."""

    preload: tuple[str, ...]

    def run(self, phase: Callable[[str], None], timeout: float) -> Any:
        """The answer (picklable); ``phase`` tells the parent what it is doing (named if it is stopped)."""
        ...


@dataclass(frozen=True)
class Call:
    """One planner call: ``problem`` in which only ``actors`` act, up to ``plans`` plans."""

    domain: Domain
    problem: Problem
    actors: tuple[str, ...]
    planner: str
    plans: int = 1
    preload: tuple[str, ...] = PRELOAD

    def run(self, phase: Callable[[str], None], timeout: float) -> PlanResult:
        """Convert, plan; any failure but a :class:`StripsIntError` is this call's unknown answer."""
        try:
            from .convert import to_unified_planning
            from .solve import solve

            phase(CONVERSION)
            task = to_unified_planning(self.domain, self.problem, self.actors)
            phase(PLANNING)
            return dataclasses.replace(solve(task, self.planner, timeout, self.plans), cpu=_cpu_seconds())
        except StripsIntError:
            raise
        except Exception as exc:  # noqa: BLE001 - the parent reports it as this call's unknown answer
            return PlanResult(UNKNOWN, detail=f"{self.planner} failed: {type(exc).__name__}: {brief(str(exc))}")


@dataclass(frozen=True)
class Partial:
    """What work has found on its way (a layout's problem once it is read), sent like a phase; kept with its
    :class:`Stopped` answer should the deadline stop it."""

    value: Any


@dataclass(frozen=True)
class Stopped:
    """The answer of work the deadline stopped: the phase it was in, how long it had run, and the last
    :class:`Partial` it sent (None: none)."""

    phase: str
    seconds: float
    partial: Any = None


@dataclass(frozen=True)
class _Failure:
    """A child's :class:`StripsIntError`, sent as its parts (it does not survive pickling: three-argument
    constructor)."""

    source: str
    where: str | None
    message: str


@dataclass(frozen=True)
class Died:
    """The answer of work whose process ended without one (killed, out of memory): its exit code."""

    exit_code: int | None


@dataclass
class _Child:
    """A running call: its process, the pipe it answers on, its folder, and the phase it last reported."""

    index: int
    pid: int
    reap: Callable[[], int | None]  # waits for the process and gives its exit code
    receive: Connection
    folder: str
    started: float
    phase: str = START_UP
    partial: Any = None

    def end(self) -> int | None:
        """Reap the child, remove its folder; its exit code."""
        code = self.reap()
        self.receive.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        return code

    def stop(self) -> None:
        """Kill the child and every process below it (:func:`~.lifetime.kill_tree`: unified-planning starts
        Fast Downward in a session of its own, out of reach of a process-group kill), then end it."""
        kill_tree(self.pid)
        self.end()


def solve_all(calls: Sequence[Call], deadline: float, jobs: int | None = None) -> list[PlanResult]:
    """Each planner call's answer, in order, by at most ``jobs`` child processes at once (default: one per
    CPU this process may use), all ended by ``deadline`` (a ``time.monotonic()`` instant): a call
    stopped there is unknown, with the phase it was in. A child's :class:`StripsIntError` (a type the
    planner cannot take, a plan step that does not ground) is raised here once every child has ended.
    """
    return [_planner_answer(answer) for answer in run_all(calls, deadline, jobs)]


def _planner_answer(answer: PlanResult | Stopped | Died) -> PlanResult:
    if isinstance(answer, Stopped):
        return stopped(answer.phase, answer.seconds)
    if isinstance(answer, Died):
        return PlanResult(UNKNOWN, detail=f"the planner process died (exit code {answer.exit_code})")
    return answer


def run_all(works: Sequence[Bounded], deadline: float, jobs: int | None = None, grace: float = 0.0) -> list[Any]:
    """Each work's answer, in order, by at most ``jobs`` child processes at once (default: one per CPU),
    :class:`Stopped` for work still running ``grace`` seconds after ``deadline`` (work that keeps the
    deadline itself gets that long to answer), :class:`Died` for work whose process died. A child's
    :class:`StripsIntError` is raised here once every child has ended."""
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    launch = _fork if fork_is_safe() else _fresh_interpreter
    pending = list(range(len(works)))
    running: dict[Connection, _Child] = {}
    results: dict[int, Any] = {}
    error: StripsIntError | None = None
    end = deadline + grace
    try:
        while (pending or running) and time.monotonic() < end:
            while pending and len(running) < max(jobs, 1):
                index = pending.pop(0)
                folder = tempfile.mkdtemp(prefix="strips-int-plan-")
                timeout = max(deadline - time.monotonic(), 0.0) + _GRACE
                pid, reap, receive = launch(works[index], timeout, folder)
                running[receive] = _Child(index, pid, reap, receive, folder, time.monotonic())
            for receive in wait(list(running), timeout=max(end - time.monotonic(), 0)):
                child = running[receive]
                try:
                    message = receive.recv()
                except EOFError:  # the child died without an answer (killed, out of memory)
                    del running[receive]
                    results[child.index] = Died(child.end())
                    continue
                if _news(child, message):
                    continue
                del running[receive]
                child.end()
                if isinstance(message, _Failure):
                    error = error or StripsIntError(message.source, message.where, message.message)
                results[child.index] = message
    finally:
        for child in running.values():
            late = None
            with contextlib.suppress(EOFError, OSError):  # what was sent just before the end: phases, an answer
                while late is None and child.receive.poll(0):
                    message = child.receive.recv()
                    late = None if _news(child, message) or isinstance(message, _Failure) else message
            child.stop()
            results[child.index] = Stopped(child.phase, time.monotonic() - child.started, child.partial) \
                if late is None else late
    if error is not None:
        raise error
    unstarted = QUEUE if len(pending) < len(works) else START_UP
    return [results[i] if i in results else Stopped(unstarted, 0.0) for i in range(len(works))]


def _news(child: _Child, message: Any) -> bool:
    """Whether ``message`` was news on the way (a phase, a :class:`Partial`: kept in ``child``), not the answer."""
    if isinstance(message, str):
        child.phase = message
    elif isinstance(message, Partial):
        child.partial = message.value
    else:
        return False
    return True


def fork_is_safe() -> bool:
    """Whether :func:`run_all`'s children are forked from this process (they share its loaded code and its
    state, such as grounders registered at run time), not fresh interpreters: no other thread, no JAX."""
    return hasattr(os, "fork") and threading.active_count() == 1 and "jax" not in sys.modules


def _fork(work: Bounded, timeout: float, folder: str) -> tuple[int, Callable[[], int | None], Connection]:
    """A child forked from this process (multiprocessing flushes and closes what fork must), the work's
    modules imported first (here, once for every child)."""
    for name in work.preload:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    # not a daemon: work may start children of its own (a layout's classification its planner calls), which
    # multiprocessing forbids daemons; run_all ends every child it started either way
    process = context.Process(target=_run, args=(work, timeout, folder, send, os.getpid()), daemon=False)
    process.start()
    send.close()
    return process.pid, lambda: (process.join(), process.exitcode)[1], receive


def _fresh_interpreter(work: Bounded, timeout: float, folder: str
                       ) -> tuple[int, Callable[[], int | None], Connection]:
    """A child ``python -m strips_int.planners.bounded`` in a session of its own, the work handed over in its folder."""
    Path(folder, "call.pickle").write_bytes(pickle.dumps(work))
    read, write = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "strips_int.planners.bounded", str(write), folder, str(timeout),
                                str(os.getpid())],
                               pass_fds=(write,), stdin=subprocess.DEVNULL, start_new_session=True)
    os.close(write)
    return process.pid, process.wait, Connection(read, writable=False)


def _cpu_seconds() -> float:
    """CPU seconds of this process and its ended children (Fast Downward's translator and search)."""
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def _run(work: Bounded, timeout: float, folder: str, send: Connection, parent: int) -> None:
    """In the child: run the work, send its phases and its answer.

    The child ends with its ``parent`` however that dies, with every process it started (SIGKILL of
    ``rc --jobs 2`` left a layout's classification starting Fast Downward searches for a minute): the
    parent's death is a SIGTERM here, which ends the child's tree (:mod:`.lifetime`). Ctrl-C reaches the
    whole process group: the parent handles it and stops its children, so the child ignores it. The child
    works in ``folder``, its temporary files there too: Fast Downward writes its translation
    (``output.sas``) into the working folder, and calls side by side would read each other's; the parent
    removes the folder, even after killing the child.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_tree_on_term()
    end_with_parent(parent, signal.SIGTERM)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)  # a backstop where the parent cannot see the tree
    limit = math.ceil(timeout + _GRACE)
    resource.setrlimit(resource.RLIMIT_CPU, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    os.chdir(folder)
    tempfile.tempdir = folder  # unified-planning's PDDL files and plans
    answer: Any
    try:
        answer = work.run(send.send, timeout)
    except Exception as exc:  # noqa: BLE001 - a bug in the work is raised in the parent as an internal error
        error = internal_error("", None, exc)
        answer = _Failure(error.source, error.where, error.message)
    send.send(answer)
    send.close()


if __name__ == "__main__":  # a fresh interpreter's child: python -m strips_int.planners.bounded FD FOLDER TIMEOUT PARENT
    from strips_int.planners import bounded  # the module by its name: what it sends (_Failure) is unpickled there

    _fd, _folder, _timeout, _parent = sys.argv[1:]
    bounded._run(pickle.loads(Path(_folder, "call.pickle").read_bytes()), float(_timeout), _folder,
                 Connection(int(_fd), readable=False), int(_parent))
