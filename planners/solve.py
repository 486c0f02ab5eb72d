"""Calling a planner through unified-planning and reading its answer honestly, in this process.

Fast Downward (``up-fast-downward``, LAMA-first; the LAMA-2011 anytime
configuration for several plans) is the default engine; pyperplan is the
fallback, after UP's grounding and negative-condition compilers since it only
takes plain STRIPS. Only a proof counts as unsolvable: Fast Downward proves it
by exhausting the search space; a timeout, a memory limit or an incomplete
search is ``unknown``. Pyperplan never proves unsolvability, and UP offers it
no time limit: :mod:`strips_int.planners.bounded` runs every call in a child
process stopped at the deadline.
"""

from __future__ import annotations

import contextlib
import time
from typing import Iterator

from unified_planning.engines import CompilationKind, PlanGenerationResultStatus as Status
from unified_planning.engines.results import PlanGenerationResult
from unified_planning.exceptions import UPException

from strips_int.model.task import GroundAction

from .convert import UPTask
from .result import BY_SEARCH, FAST_DOWNWARD, PYPERPLAN, SOLVED, UNKNOWN, UNSOLVABLE, PlanResult

_SOLVED = (Status.SOLVED_SATISFICING, Status.SOLVED_OPTIMALLY)
_PLANNED = _SOLVED + (Status.INTERMEDIATE,)  # an anytime search's plans before its last


def solve(task: UPTask, planner: str, timeout: float, plans: int = 1) -> PlanResult:
    """Up to ``plans`` plans of ``task.up``; Fast Downward stops itself after ``timeout`` seconds."""
    start = time.perf_counter()
    try:
        if planner == PYPERPLAN:
            result = _pyperplan(task)
        elif plans > 1:
            result = _anytime(task, timeout, plans)
        else:
            with _quiet(task), task.env.factory.OneshotPlanner(name=FAST_DOWNWARD) as engine:
                answer = engine.solve(task.up, timeout=timeout)
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


def _anytime(task: UPTask, timeout: float, plans: int) -> PlanResult:
    """Fast Downward's anytime search: each plan it reports is shorter than the one before."""
    answers = []
    with _quiet(task), task.env.factory.AnytimePlanner(name=FAST_DOWNWARD) as engine:
        for answer in engine.get_solutions(task.up, timeout=timeout):
            answers.append(answer)
            if len(_read(task, answers).plans) >= plans:
                break
    return _read(task, answers)


def _pyperplan(task: UPTask) -> PlanResult:
    """Pyperplan on the grounded, negation-free problem (no time limit of its own)."""
    kinds = [CompilationKind.GROUNDING, CompilationKind.NEGATIVE_CONDITIONS_REMOVING]
    names = ["up_grounder", "up_negative_conditions_remover"]
    with task.env.factory.Compiler(names=names, compilation_kinds=kinds) as compiler:
        compiled = compiler.compile(task.up)
    with _quiet(task), task.env.factory.OneshotPlanner(name=PYPERPLAN) as engine:
        answer = engine.solve(compiled.problem)
    if answer.plan is None:
        return PlanResult(UNKNOWN, detail=f"{answer.status.name.lower()} (pyperplan proves no unsolvability)")
    plan = tuple(task.ground(compiled.map_back_action_instance(a)) for a in answer.plan.actions)
    return PlanResult(SOLVED, (plan,), detail="1 plan")
