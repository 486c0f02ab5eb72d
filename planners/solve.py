"""Calling a planner through unified-planning, with a time limit, and reading its answer honestly.

Fast Downward (``up-fast-downward``, LAMA-first; the LAMA-2011 anytime
configuration for several plans) is the default engine; pyperplan is the
fallback, after UP's grounding and negative-condition compilers since it only
takes plain STRIPS. Only a proof counts as unsolvable: Fast Downward proves it
by exhausting the search space; a timeout, a memory limit or an incomplete
search is ``unknown``. Pyperplan never proves unsolvability, and UP offers it no
time limit, so it runs in a forked child process that is stopped at the limit.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from dataclasses import dataclass
from typing import Iterator

import unified_planning.model as upm
from unified_planning.engines import CompilationKind, PlanGenerationResultStatus as Status
from unified_planning.engines.results import PlanGenerationResult
from unified_planning.environment import get_environment
from unified_planning.exceptions import UPException

from strips_int.errors import StripsIntError
from strips_int.task import GroundAction

from .convert import UPTask

FAST_DOWNWARD, PYPERPLAN = "fast-downward", "pyperplan"
PLANNERS = (FAST_DOWNWARD, PYPERPLAN)
SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
#: How each proof of unsolvability is named in reports (SPEC section 8).
BY_RELAXATION, BY_SEARCH = "relaxed reachability", "exhausted search"

_SOLVED = (Status.SOLVED_SATISFICING, Status.SOLVED_OPTIMALLY)
_PLANNED = _SOLVED + (Status.INTERMEDIATE,)  # an anytime search's plans before its last


@dataclass(frozen=True)
class PlanResult:
    """What one planner call established: plans, a proof of unsolvability, or nothing."""

    status: str
    plans: tuple[tuple[GroundAction, ...], ...] = ()
    proof: str | None = None
    seconds: float = 0.0
    detail: str = ""

    @property
    def plan(self) -> tuple[GroundAction, ...] | None:
        """The first (for Fast Downward's anytime search: the longest) plan, or None."""
        return self.plans[0] if self.plans else None


def available_planners() -> list[str]:
    """The engines of :data:`PLANNERS` that unified-planning can load here."""
    installed = set(get_environment().factory.engines)
    return [name for name in PLANNERS if name in installed]


def resolve_planner(name: str) -> str:
    """``auto`` is Fast Downward when installed, else pyperplan; a named engine must be installed."""
    found = available_planners()
    if name == "auto":
        if not found:
            raise StripsIntError("planner", None, "no planner installed: pip install up-fast-downward")
        return found[0]
    if name not in PLANNERS:
        raise StripsIntError("planner", None, f"unknown planner {name!r} (known: auto, {', '.join(PLANNERS)})")
    if name not in found:
        raise StripsIntError("planner", None, f"{name} is not installed: pip install up-{name}")
    return name


def solve(task: UPTask, problem: upm.Problem, planner: str, timeout: float, plans: int = 1) -> PlanResult:
    """Up to ``plans`` plans of ``problem`` (a clone of ``task.joint``), within ``timeout`` seconds."""
    start = time.perf_counter()
    try:
        if planner == PYPERPLAN:
            result = _pyperplan(task, problem, timeout)
        elif plans > 1:
            result = _anytime(task, problem, timeout, plans)
        else:
            with _quiet(task), task.env.factory.OneshotPlanner(name=FAST_DOWNWARD) as engine:
                answer = engine.solve(problem, timeout=timeout)
            result = _read(task, [answer])
    except UPException as exc:
        result = PlanResult(UNKNOWN, detail=f"{planner} failed: {exc}")
    return PlanResult(result.status, result.plans, result.proof, time.perf_counter() - start,
                      f"{planner}: {result.detail}")


@contextlib.contextmanager
def _quiet(task: UPTask) -> Iterator[None]:
    """No engine credits on stdout (they would break ``--json``); UP's setting is restored after."""
    before = task.env.credits_stream
    task.env.credits_stream = None
    try:
        yield
    finally:
        task.env.credits_stream = before


def _read(task: UPTask, answers: list[PlanGenerationResult]) -> PlanResult:
    """Plans (distinct, in the order found) from the engine's answers, else what the last answer proves."""
    found: list[tuple[GroundAction, ...]] = []
    for answer in answers:
        if answer.status in _PLANNED and answer.plan is not None:
            plan = tuple(task.ground(a) for a in answer.plan.actions)
            if plan not in found:
                found.append(plan)
    last = answers[-1].status if answers else Status.TIMEOUT
    if found:
        return PlanResult(SOLVED, tuple(found), detail=f"{len(found)} plan(s)")
    if last == Status.UNSOLVABLE_PROVEN:
        return PlanResult(UNSOLVABLE, proof=BY_SEARCH, detail="search space exhausted")
    return PlanResult(UNKNOWN, detail=last.name.lower())


def _anytime(task: UPTask, problem: upm.Problem, timeout: float, plans: int) -> PlanResult:
    """Fast Downward's anytime search: each plan it reports is shorter than the one before."""
    answers = []
    with _quiet(task), task.env.factory.AnytimePlanner(name=FAST_DOWNWARD) as engine:
        for answer in engine.get_solutions(problem, timeout=timeout):
            answers.append(answer)
            if len(_read(task, answers).plans) >= plans:
                break
    return _read(task, answers)


def _pyperplan(task: UPTask, problem: upm.Problem, timeout: float) -> PlanResult:
    """Pyperplan on the grounded, negation-free problem, in a child stopped after ``timeout``."""
    kinds = [CompilationKind.GROUNDING, CompilationKind.NEGATIVE_CONDITIONS_REMOVING]
    names = ["up_grounder", "up_negative_conditions_remover"]
    with task.env.factory.Compiler(names=names, compilation_kinds=kinds) as compiler:
        compiled = compiler.compile(problem)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def run() -> None:
        try:
            with _quiet(task), task.env.factory.OneshotPlanner(name=PYPERPLAN) as engine:
                answer = engine.solve(compiled.problem)
            steps = None
            if answer.plan is not None:
                lifted = [compiled.map_back_action_instance(a) for a in answer.plan.actions]
                steps = [(a.action.name, tuple(str(p.object().name) for p in a.actual_parameters)) for a in lifted]
            send.send((answer.status.name.lower(), steps))
        except Exception as exc:  # noqa: BLE001 - the parent reports it; a child must not die silently
            send.send((f"pyperplan failed: {exc}", None))

    child = context.Process(target=run, daemon=True)
    child.start()
    ready = receive.poll(timeout)
    if not ready:
        child.kill()
        child.join()
        return PlanResult(UNKNOWN, detail="timeout")
    status, steps = receive.recv()
    child.join()
    if steps is not None:
        plan = tuple(task.ground_named(name, args) for name, args in steps)
        return PlanResult(SOLVED, (plan,), detail="1 plan")
    return PlanResult(UNKNOWN, detail=f"{status} (pyperplan proves no unsolvability)")
