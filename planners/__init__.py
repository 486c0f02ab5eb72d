"""Planner integration: our problems in unified-planning, solved by Fast Downward or pyperplan.

Installed as ``strips_int.planners``; :mod:`strips_int.rc` builds the
required-cooperation verdicts on it.
"""

from .convert import UPTask, to_unified_planning
from .solve import (
    BY_RELAXATION,
    BY_SEARCH,
    PLANNERS,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    PlanResult,
    available_planners,
    resolve_planner,
    solve,
)

__all__ = [
    "BY_RELAXATION",
    "BY_SEARCH",
    "PLANNERS",
    "SOLVED",
    "UNKNOWN",
    "UNSOLVABLE",
    "PlanResult",
    "UPTask",
    "available_planners",
    "resolve_planner",
    "solve",
    "to_unified_planning",
]
