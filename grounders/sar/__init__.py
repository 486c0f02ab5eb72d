"""Search and rescue (appendix D): a grid-world simulator, its episode logs, and their grounder.

    from strips_int import analyze, load_domain
    from strips_int.grounders.sar import lift_log, load_scenario, simulate
    domain = load_domain("domains/sar.pddl")
    log, unfinished = simulate(load_scenario("examples/sar/fire-door.scenario.json"))
    report = analyze(domain, lift_log(log, domain))
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from strips_int.errors import StripsIntError

from ..base import GAMES, START, TAGGED, BaseGrounder, Claim, Head, Option
from .tags import LOG_FORMAT, SCENARIO_FORMAT, detect, detect_head, kind_of

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.task import Problem
    from strips_int.model.trace import Trace

#: The public names by the module that defines them, imported on first use: the registry loads this
#: package for its options, and a SAR log needs neither the simulator nor networkx.
_WHERE = {
    **dict.fromkeys(("Log", "dump_log", "log_from_json", "read_log"), "formats"),
    **dict.fromkeys(("NEEDED_ACTIONS", "lift_log", "state_facts", "world_problem"), "lift"),
    **dict.fromkeys(("Scenario", "load_scenario", "scenario_from_json", "simulate"), "scenario"),
    **dict.fromkeys(("ACTIONS", "AgentState", "Grid", "State", "World"), "world"),
}

__all__ = ["GROUNDER", "LOG_FORMAT", "SCENARIO_FORMAT", "detect", "kind_of", "read_trace", "scenario_problem",
           *sorted(set(_WHERE) - {"NEEDED_ACTIONS"})]

def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)


def read_trace(path: str | Path, domain: Domain) -> Trace:
    """The trace of a SAR log file; a scenario is refused with the command that simulates it."""
    from strips_int.files import read_json

    from .formats import log_from_json
    from .lift import lift_log

    data = read_json(path)
    if kind_of(data) == "scenario":
        raise StripsIntError(str(path), None, "is a SAR scenario, not a log: simulate it first "
                             "(strips_int.grounders.sar.simulate writes its log)")
    return lift_log(log_from_json(data, str(path)), domain)


def scenario_problem(path: str | Path, domain: Domain) -> Problem:
    """The planning problem of a scenario's (or a log's) initial state: every victim to be treated."""
    from strips_int.files import read_json

    from .formats import log_from_json
    from .lift import world_problem
    from .scenario import scenario_from_json

    data = read_json(path)
    if kind_of(data) == "log":
        log = log_from_json(data, str(path))
        return world_problem(domain, log.world, log.states[0], log.scenario, log.source)
    scenario = scenario_from_json(data, str(path))
    return world_problem(domain, scenario.world, scenario.start, scenario.name, scenario.source)


class _Sar(BaseGrounder):
    """The SAR grounder (see :mod:`strips_int.grounders.base`): logs are games, scenarios start problems."""

    name = "sar"
    domain = "sar"
    commands = {"simulate": ("strips_int.grounders.sar.simulate", "run a SAR scenario and write its log")}
    options = (Option("--scenario", "scenario", "RC: a SAR scenario (or log) file, from its initial state (one or "
                      "more, or folders of .json files)", "FILE", use="start", names=True, suffixes=(".json",)),)

    @property
    def actions(self) -> frozenset[str]:
        from .lift import NEEDED_ACTIONS

        return NEEDED_ACTIONS

    def recognizes(self, head: Head) -> Claim | None:
        """Logs (games) and scenarios (start problems) by the format tag they name (:func:`.tags.detect_head`)."""
        kind = {"log": GAMES, "scenario": START}.get(detect_head(head) or "")
        return None if kind is None else Claim(kind, TAGGED)

    def read(self, path: Path, domain: Domain, **_: Any) -> Iterator[Trace | StripsIntError]:
        try:
            yield read_trace(path, domain)
        except StripsIntError as exc:
            yield exc

    def start_problem(self, name: str, domain: Domain, scenario: str | Path | None = None, **_: Any) -> Problem:
        """The problem of scenario file ``name`` (or ``scenario``): every victim to be treated."""
        return scenario_problem(scenario or name, domain)


GROUNDER = _Sar()
