"""What a planner call can establish, and which planners there are (no unified-planning import: cheap).

``strips_int.analysis.rc`` reads verdicts and checks a planner's name at the door with
this module alone; unified-planning (about 1.5 s to import) is loaded only in
the child processes that convert and plan (:mod:`strips_int.planners.bounded`).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from strips_int.errors import StripsIntError, brief
from strips_int.model.task import GroundAction

FAST_DOWNWARD, PYPERPLAN = "fast-downward", "pyperplan"
#: The engines strips_int calls, with the module unified-planning loads each from.
PLANNERS = {FAST_DOWNWARD: "up_fast_downward", PYPERPLAN: "up_pyperplan"}
SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
#: How each proof of unsolvability is named in reports (definitions section 8).
BY_RELAXATION, BY_SEARCH = "relaxed reachability", "exhausted search"


@dataclass(frozen=True)
class PlanResult:
    """What one planner call established: plans, a proof of unsolvability, or nothing.

    ``seconds`` is wall time; ``cpu`` the CPU seconds of the call's process
    and the planner processes it ran (0 where nothing ran). ``limit`` names the
    phase the time limit stopped (``conversion``, ``planning``, ...), None when
    the call was not stopped.
    """

    status: str
    plans: tuple[tuple[GroundAction, ...], ...] = ()
    proof: str | None = None
    seconds: float = 0.0
    detail: str = ""
    limit: str | None = None
    cpu: float = 0.0

    @property
    def plan(self) -> tuple[GroundAction, ...] | None:
        """The first (for Fast Downward's anytime search: the longest) plan, or None."""
        return self.plans[0] if self.plans else None


def stopped(phase: str, seconds: float) -> PlanResult:
    """The answer of a call the time limit stopped in ``phase``: unknown, never a guess."""
    return PlanResult(UNKNOWN, seconds=seconds, detail=f"time limit reached in {phase}", limit=phase)


def available_planners() -> list[str]:
    """The engines of :data:`PLANNERS` installed here (found without importing them)."""
    return [name for name, module in PLANNERS.items() if importlib.util.find_spec(module) is not None]


def resolve_planner(name: str) -> str:
    """``auto`` is Fast Downward when installed, else pyperplan; a named engine must be installed."""
    found = available_planners()
    if name == "auto":
        if not found:
            raise StripsIntError("planner", None, "no planner installed: pip install up-fast-downward")
        return found[0]
    if name not in PLANNERS:
        raise StripsIntError("planner", None, f"unknown planner {brief(name)} (known: auto, {', '.join(PLANNERS)})")
    if name not in found:
        raise StripsIntError("planner", None, f"{name} is not installed: pip install up-{name}")
    return name
