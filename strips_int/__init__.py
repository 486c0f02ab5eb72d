"""strips_int: who is helping whom in a multi-agent team.

Recorded games are lifted into STRIPS/PDDL; strips_int finds where one agent's
action made another's possible (giver -> receiver interdependencies), sorts
them into constructive, looping and irrelevant, and counts triggers.

    >>> from strips_int import analyze
    >>> report = analyze("sar", "examples/sar/kit-pass.trace.json")
    >>> report.counts["constructive"]
    1

Names are imported on first use, so ``import strips_int`` and the command
lines' ``--help`` stay fast.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_WHERE = {
    "StripsIntError": "errors", "ArgumentError": "errors",
    "Domain": "model.domain", "load_domain": "model.domain", "load_problem": "model.problem",
    "Fact": "model.task", "GroundAction": "model.task", "Problem": "model.task", "State": "model.task",
    "Step": "model.trace", "Trace": "model.trace", "load_trace": "model.trace_file",
    "Run": "model.execution", "execute": "model.execution",
    "Report": "analysis.report", "analyze_run": "analysis.report", "required_cooperation": "analysis.rc",
    "reports_frame": "analysis.report",
    "analyze": "batch.games", "analyze_games": "batch.games", "read_games": "batch.games",
    "evaluate_games": "batch.evaluate",
}

__all__ = ["__version__", *sorted(_WHERE)]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'strips_int' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)


def __dir__() -> list[str]:
    return __all__
