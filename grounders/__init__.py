"""Grounders: lift raw environment logs into a PDDL problem and a strips_int trace.

Installed as ``strips_int.grounders``.
"""

from pathlib import Path
from typing import Iterator, Sequence

from strips_int.domain import Domain, Problem
from strips_int.trace import Trace, load_trace

from . import overcooked, sar


def read_input(
    path: str | Path,
    domain: Domain,
    problem: Problem | None = None,
    layout: str | None = None,
    grid: str | Path | None = None,
    roles: Sequence[str] | None = None,
    ego_seat: str | None = None,
) -> Iterator[Trace]:
    """The traces in one input file: a strips-int trace, or a raw game a grounder recognizes."""
    # TEMPORARY (issue 20, until the registry of issue 12 lands): the lead replaces this with register().
    from .jaxmarl import GROUNDER as jaxmarl_grounder

    if jaxmarl_grounder.recognizes(Path(path)):
        for result in jaxmarl_grounder.read(Path(path), domain):
            if isinstance(result, Exception):
                raise result
            yield result
        return
    if overcooked.detect(Path(path)):
        yield from overcooked.read_traces(path, domain, layout=layout, grid=grid, roles=roles, ego_seat=ego_seat)
    elif sar.detect(Path(path)):
        yield sar.read_trace(path, domain)
    else:
        yield load_trace(path, domain, problem)
