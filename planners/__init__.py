"""Planner integration: our problems in unified-planning, solved by Fast Downward or pyperplan.

Installed as ``strips_int.planners``; :mod:`strips_int.analysis.rc` builds the
required-cooperation verdicts on it. Importing this package is cheap: the
names that need unified-planning (``solve``, ``to_unified_planning``,
``UPTask``) load it when first used.
"""

from importlib import import_module
from typing import Any

from .bounded import Call, solve_all
from .result import (
    BY_RELAXATION,
    BY_SEARCH,
    FAST_DOWNWARD,
    PLANNERS,
    PYPERPLAN,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    PlanResult,
    available_planners,
    resolve_planner,
)

_LAZY = {"solve": ".solve", "to_unified_planning": ".convert", "UPTask": ".convert"}

__all__ = [
    "BY_RELAXATION",
    "BY_SEARCH",
    "FAST_DOWNWARD",
    "PLANNERS",
    "PYPERPLAN",
    "SOLVED",
    "UNKNOWN",
    "UNSOLVABLE",
    "Call",
    "PlanResult",
    "UPTask",
    "available_planners",
    "resolve_planner",
    "solve",
    "solve_all",
    "to_unified_planning",
]


def __getattr__(name: str) -> Any:
    """``solve``, ``to_unified_planning`` and ``UPTask``, imported with unified-planning on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_LAZY[name], __name__), name)
