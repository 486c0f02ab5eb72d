"""Planner calls in child processes: in parallel, and stopped at a deadline, conversion included.

Each call converts its problem to unified-planning and plans in a child
process of its own, which leads a process group so that Fast Downward's own
processes end with it. The parent waits for the answers until the deadline,
then kills the groups still running and reports the phase each was stopped in
(``start-up``, ``conversion``, ``planning``; ``the queue`` for a call that
never got a CPU): unknown, never a guess. Results do not depend on ``jobs``:
the calls are independent and each runs alone in its process.

Children fork from a forkserver that imported unified-planning once: not from
the caller (fork copies a JAX runtime's threads in a broken state) and not
spawned (1.5 s of imports per call).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import resource
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Sequence

from strips_int.domain import Domain
from strips_int.errors import StripsIntError, brief
from strips_int.task import Problem

from .result import UNKNOWN, PlanResult, stopped

START_UP, CONVERSION, PLANNING, QUEUE = "start-up", "conversion", "planning", "the queue"
#: Imported once by the forkserver, so that a child starts with unified-planning loaded (missing ones are skipped).
_PRELOAD = ["strips_int.planners.bounded", "strips_int.planners.solve", "up_fast_downward", "up_pyperplan.engine"]
#: A child's engine gets this much longer than the deadline: the parent, not the engine, says when time is up.
_GRACE = 5.0


@dataclass(frozen=True)
class Call:
    """One planner call: ``problem`` in which only ``actors`` act, up to ``plans`` plans."""

    domain: Domain
    problem: Problem
    actors: tuple[str, ...]
    planner: str
    plans: int = 1


def solve_all(calls: Sequence[Call], deadline: float, jobs: int = 1) -> list[PlanResult]:
    """Each call's answer, in order, by at most ``jobs`` child processes at once, all ended by ``deadline``.

    ``deadline`` is a ``time.monotonic()`` instant. A child's
    :class:`StripsIntError` (a type the planner cannot take, a plan step that
    does not ground) is raised here once every child has ended.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    pending = list(range(len(calls)))
    running: dict[Connection, _Child] = {}
    results: dict[int, PlanResult] = {}
    error: StripsIntError | None = None
    try:
        while (pending or running) and time.monotonic() < deadline:
            while pending and len(running) < max(jobs, 1):
                child = _start(context, pending.pop(0), calls, deadline)
                running[child.receive] = child
            for receive in wait(list(running), timeout=max(deadline - time.monotonic(), 0)):
                child = running[receive]
                message = _receive(child)
                if isinstance(message, str):
                    child.phase = message
                    continue
                del running[receive]
                child.end()
                if isinstance(message, StripsIntError):
                    error = error or message
                    message = PlanResult(UNKNOWN, detail=str(message))
                results[child.index] = message
    finally:
        for child in running.values():
            child.end()
            results[child.index] = stopped(child.phase, time.monotonic() - child.started)
    if error is not None:
        raise error
    return [results.get(i) or stopped(QUEUE, 0.0) for i in range(len(calls))]


@dataclass
class _Child:
    """A running call: its process, the pipe it answers on, and the phase it last reported."""

    index: int
    process: Any
    receive: Connection
    folder: str
    started: float
    phase: str = START_UP

    def end(self) -> None:
        """Kill the child's process group (Fast Downward with it) unless it is gone, reap it, remove its folder."""
        if self.process.exitcode is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):  # not yet its own group leader
                self.process.kill()
        self.process.join()
        self.receive.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _start(context: Any, index: int, calls: Sequence[Call], deadline: float) -> _Child:
    receive, send = context.Pipe(duplex=False)
    timeout = max(deadline - time.monotonic(), 0.0) + _GRACE
    folder = tempfile.mkdtemp(prefix="strips-int-plan-")
    process = context.Process(target=_run, args=(calls[index], timeout, folder, send), daemon=True)
    process.start()
    send.close()
    return _Child(index, process, receive, folder, time.monotonic())


def _receive(child: _Child) -> str | PlanResult | StripsIntError:
    """The child's next message: a phase, its answer, its error; a child that died is an unknown answer."""
    try:
        message = child.receive.recv()
    except EOFError:
        child.process.join()
        return PlanResult(UNKNOWN, detail=f"the planner process died (exit code {child.process.exitcode})")
    if isinstance(message, tuple):  # StripsIntError does not survive pickling (three-argument constructor)
        return StripsIntError(*message)
    return message


def _cpu_seconds() -> float:
    """CPU seconds of this process and its ended children (Fast Downward's translator and search)."""
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def _run(call: Call, timeout: float, folder: str, send: Connection) -> None:
    """In the child: convert, plan, send the phases and the answer.

    The child works in ``folder``, its temporary files there too: Fast Downward
    writes its translation (``output.sas``) into the working folder, and calls
    side by side would read each other's; the parent removes the folder, even
    after killing the child.
    """
    os.setpgid(0, 0)
    os.chdir(folder)
    tempfile.tempdir = folder  # unified-planning's PDDL files and plans
    from .convert import to_unified_planning
    from .solve import solve

    answer: Any
    try:
        send.send(CONVERSION)
        task = to_unified_planning(call.domain, call.problem, call.actors)
        send.send(PLANNING)
        answer = dataclasses.replace(solve(task, call.planner, timeout, call.plans), cpu=_cpu_seconds())
    except StripsIntError as exc:
        answer = (exc.source, exc.where, exc.message)
    except Exception as exc:  # noqa: BLE001 - the parent reports it as this call's unknown answer
        answer = PlanResult(UNKNOWN, detail=f"{call.planner} failed: {type(exc).__name__}: {brief(str(exc))}")
    send.send(answer)
    send.close()
