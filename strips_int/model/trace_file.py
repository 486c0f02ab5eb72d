"""Reading a trace from a file: ``strips-int-trace/1`` JSON or a plan file, told apart by content (definitions section 1).

Its own module because both readers are below it: :mod:`.trace` (the JSON format) and :mod:`.plan`
(plan files, which build on the trace's steps).
"""

from __future__ import annotations

from pathlib import Path

from strips_int.errors import StripsIntError, path_argument
from strips_int.files import decode, parse_json, read_bytes

from .domain import Domain, domain_argument
from .pddl import defines
from .plan import HEAD_BYTES, is_plan, trace_from_plan
from .problem import problem_argument
from .task import Problem
from .trace import Trace, trace_from_dict


def load_trace(path: str | Path, domain: Domain, problem: Problem | str | Path | None = None) -> Trace:
    """Read a trace file: ``strips-int-trace/1`` JSON, or a plan file (:mod:`.plan`), told apart by content;
    ``problem`` (a Problem or a path) overrides the trace's own, or is the plan's.

    Parameters:
        path: a ``strips-int-trace/1`` JSON file or a plan file.
        domain: the domain the trace is of.
        problem: the problem to use instead of the trace's own (a plan's, when it has none beside it).

    Returns:
        The trace: its problem and ground steps.
    """
    path = path_argument("load_trace", "path", path)
    domain_argument("load_trace", domain)
    problem = problem_argument("load_trace", problem)
    source = str(path)
    data = read_bytes(path)
    kind = defines(data[:HEAD_BYTES])
    if kind is not None:
        raise StripsIntError(source, None, f"is a PDDL {kind}, not a trace or a plan"
                             + (": a problem is given with the trace or plan it is the problem of" if kind == "problem"
                                else ": a domain is given first, before the traces"))
    if is_plan(data):
        return trace_from_plan(decode(data, source), domain, problem, Path(path))
    return trace_from_dict(parse_json(data, source), domain, source, problem, base=Path(path).parent)
