"""Search and rescue (appendix D): a grid-world simulator, its episode logs, and their grounder.

    from strips_int import analyze, load_domain
    from strips_int.grounders.sar import lift_log, load_scenario, simulate
    domain = load_domain("domains/sar.pddl")
    log, unfinished = simulate(load_scenario("examples/sar/fire-door.scenario.json"))
    report = analyze(domain, lift_log(log, domain))
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from strips_int.domain import Domain
from strips_int.errors import StripsIntError
from strips_int.task import Problem
from strips_int.trace import Trace

from strips_int.files import read_json

from .formats import LOG_FORMAT, SCENARIO_FORMAT, Log, detect, dump_log, kind_of, log_from_json, read_log
from ..base import Option
from .lift import NEEDED_ACTIONS, lift_log, state_facts, world_problem
from .scenario import Scenario, load_scenario, scenario_from_json, simulate
from .world import ACTIONS, AgentState, Grid, State, World

__all__ = ["ACTIONS", "GROUNDER", "LOG_FORMAT", "SCENARIO_FORMAT", "AgentState", "Grid", "Log", "Scenario", "State", "World",
           "detect", "dump_log", "lift_log", "load_scenario", "log_from_json", "read_log", "read_trace",
           "scenario_from_json", "scenario_problem", "simulate", "state_facts", "world_problem"]


def read_trace(path: str | Path, domain: Domain) -> Trace:
    """The trace of a SAR log file; a scenario is refused with the command that simulates it."""
    data = read_json(path)
    if kind_of(data) == "scenario":
        raise StripsIntError(str(path), None, "is a SAR scenario, not a log: simulate it first with "
                             f"python -m strips_int.grounders.sar.simulate {path} --out LOG.json")
    return lift_log(log_from_json(data, str(path)), domain)


def scenario_problem(path: str | Path, domain: Domain) -> Problem:
    """The planning problem of a scenario's (or a log's) initial state: every victim to be treated."""
    data = read_json(path)
    if kind_of(data) == "log":
        log = log_from_json(data, str(path))
        return world_problem(domain, log.world, log.states[0], log.scenario, log.source)
    scenario = scenario_from_json(data, str(path))
    return world_problem(domain, scenario.world, scenario.start, scenario.name, scenario.source)


class _Sar:
    """The SAR grounder (see :mod:`strips_int.grounders.base`): logs are games, scenarios start problems."""

    name = "sar"
    domain = "sar"
    actions = NEEDED_ACTIONS
    options = (Option("--scenario", "scenario", "RC: a SAR scenario (or log) file, from its initial state", "FILE"),)

    def recognizes(self, path: Path) -> bool:
        return detect(path) is not None

    def read(self, path: Path, domain: Domain, **_: Any) -> Iterator[Trace | StripsIntError]:
        try:
            yield read_trace(path, domain)
        except StripsIntError as exc:
            yield exc

    def start_problem(self, name: str, domain: Domain, scenario: str | Path | None = None, **_: Any) -> Problem:
        """The problem of scenario file ``name`` (or ``scenario``): every victim to be treated."""
        return scenario_problem(scenario or name, domain)


GROUNDER = _Sar()
