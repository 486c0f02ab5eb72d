"""strips_int: who is helping whom in a multi-agent team.

Recorded games are lifted into STRIPS/PDDL; strips_int finds where one agent's
action made another's possible (giver -> receiver interdependences), sorts
them into constructive, looping and irrelevant, and counts triggers.

    >>> from strips_int import analyze
    >>> report = analyze("domains/sar.pddl", "examples/sar/kit-pass.trace.json")
    >>> report.counts["constructive"]
    1
"""

from .domain import Domain, load_domain, load_problem
from .errors import StripsIntError
from .report import Report, analyze, analyze_run
from .task import Fact, GroundAction, Problem, State
from .trace import Run, Step, Trace, execute, load_trace

__all__ = [
    "Domain",
    "Fact",
    "GroundAction",
    "Problem",
    "Report",
    "Run",
    "State",
    "Step",
    "StripsIntError",
    "Trace",
    "analyze",
    "analyze_run",
    "execute",
    "load_domain",
    "load_problem",
    "load_trace",
]
