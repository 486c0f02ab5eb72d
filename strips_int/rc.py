"""Required cooperation (SPEC section 8): can any single agent reach the goal alone?

``required_cooperation`` plans each agent's projection and the joint problem
with a real planner (``strips_int.planners``) and explains every agent that
cannot do it alone from delete-relaxed reachability:

* **capability**: an action schema reserved for other agents' types is
  necessary for the team's goal, or (when there are alternatives) the goal
  becomes relaxed-reachable once the agent may also use those schemas;
* **reach**: it has the schemas but cannot meet their preconditions;
* **other**: relaxed-reachable, yet the planner proves it unsolvable (in
  Overcooked: a partner's body in the way, which the relaxation ignores).

A goal that is relaxed-unreachable needs no planner call: that is the proof.
The candidate joint plan is executed and analysed like a recorded trace.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from strips_int.grounders.overcooked import Layout, get_layout, known_layouts, load_grid
from strips_int.grounders.overcooked.lift import layout_problem, makeable_recipes
from strips_int.grounders.sar import scenario_problem
from strips_int.planners import (
    BY_RELAXATION,
    PLANNERS,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    PlanResult,
    resolve_planner,
    solve,
    to_unified_planning,
)

from .domain import Domain, load_domain, load_problem, packaged_domain
from .errors import StripsIntError
from .reachability import Reachable, relaxed_reachable
from .report import Report, analyze, format_interdependence
from .stats import markdown_table
from .task import Fact, GroundAction, Problem, format_fact
from .trace import Step, Trace

RC, NON_RC = "RC", "non-RC"
CAPABILITY, REACH, OTHER = "capability", "reach", "other"
IDLE, ABSENT = "idle", "absent"


@dataclass(frozen=True)
class Why:
    """Why an agent cannot reach the goal alone, from relaxed reachability."""

    reason: str
    unreachable_goals: tuple[Fact, ...] = ()
    first_missing: tuple[Fact, ...] = ()
    missing_actions: tuple[str, ...] = ()

    def describe(self) -> str:
        parts = [self.reason]
        if self.missing_actions:
            parts.append(f"needs {', '.join(self.missing_actions)} of another agent type")
        if self.unreachable_goals:
            parts.append(f"cannot reach {' '.join(format_fact(f) for f in self.unreachable_goals)}")
        if self.first_missing:
            shown = self.first_missing[:4]
            more = f" and {len(self.first_missing) - len(shown)} more" if len(self.first_missing) > len(shown) else ""
            parts.append(f"first cannot get {' '.join(format_fact(f) for f in shown)}{more}")
        return "; ".join(parts)


@dataclass(frozen=True)
class AgentResult:
    """One agent's projection: solvable alone (True / False / None = unknown), witness plan, reason."""

    agent: str
    solvable_alone: bool | None
    search: PlanResult
    why: Why | None


@dataclass(frozen=True)
class RCResult:
    """The verdict on one problem, each agent's projection, and the analysed joint plans."""

    problem: Problem
    verdict: str
    planner: str
    others: str
    agents: Mapping[str, AgentResult]
    joint: PlanResult
    reports: tuple[Report, ...]
    seconds: float

    @property
    def reason(self) -> str | None:
        """The reasons of the agents that cannot do it alone, joined (``reach``, ``capability/reach``)."""
        found = sorted({a.why.reason for a in self.agents.values() if a.why is not None})
        return "/".join(found) if self.verdict == RC and found else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``python -m strips_int.rc --json``)."""

        def plan(steps: tuple[GroundAction, ...] | None) -> list[str] | None:
            return None if steps is None else [str(a) for a in steps]

        agents = {}
        for name, result in self.agents.items():
            agents[name] = {
                "solvable_alone": result.solvable_alone,
                "reason": result.why.reason if result.why else None,
                "why": result.why.describe() if result.why else None,
                "unreachable_goals": [format_fact(f) for f in result.why.unreachable_goals] if result.why else [],
                "first_missing": [format_fact(f) for f in result.why.first_missing] if result.why else [],
                "missing_actions": list(result.why.missing_actions) if result.why else [],
                "proof": result.search.proof,
                "plan": plan(result.search.plan),
                "plan_length": len(result.search.plan) if result.search.plan is not None else None,
                "seconds": round(result.search.seconds, 3),
                "planner": result.search.detail,
            }
        return {
            "problem": self.problem.name,
            "source": self.problem.source,
            "verdict": self.verdict,
            "reason": self.reason,
            "planner": self.planner,
            "others": self.others,
            "agents": agents,
            "joint_plan": plan(self.joint.plan),
            "joint_proof": self.joint.proof,
            "joint_detail": self.joint.detail,
            "counts": self.reports[0].counts if self.reports else None,
            "interdependencies": self.reports[0].to_dict()["interdependencies"] if self.reports else [],
            "plans": [
                {"plan": plan(tuple(s.action for s in r.steps)), "counts": r.counts} for r in self.reports
            ],
            "seconds": round(self.seconds, 3),
        }


def required_cooperation(
    domain: Domain,
    problem: Problem,
    planner: str = "auto",
    timeout: float = 60.0,
    others: str = IDLE,
    plans: int = 1,
) -> RCResult:
    """Classify ``problem`` as RC / non-RC / unsolvable / unknown (SPEC section 8).

    ``others`` is ``idle`` (the other agents stay where they are) or ``absent``
    (initial facts naming them are dropped). ``timeout`` bounds each planner
    call; ``plans`` asks for up to that many joint plans.
    """
    if others not in (IDLE, ABSENT):
        raise ValueError(f"others must be {IDLE!r} or {ABSENT!r}, not {others!r}")
    start = time.perf_counter()
    planner = resolve_planner(planner)
    task = to_unified_planning(domain, problem)
    team = relaxed_reachable(domain, problem)
    bodies = {a: _body_facts(domain, problem, a) for a in task.agents} if others == ABSENT else {}
    agents = {}
    for agent in task.agents:
        alone = _without(problem, {a: facts for a, facts in bodies.items() if a != agent})
        mine = relaxed_reachable(domain, alone, actors=[agent])
        if not _goal_reached(mine, problem.goal):
            search = PlanResult(UNSOLVABLE, proof=BY_RELAXATION, detail="relaxed reachability")
        else:
            search = solve(task, task.projection([agent], alone.init), planner, timeout)
        why = None
        if search.status == UNSOLVABLE:
            why = explain(domain, problem, alone, agent, team, mine)
        solvable = {SOLVED: True, UNSOLVABLE: False}.get(search.status)
        agents[agent] = AgentResult(agent, solvable, search, why)
    if not _goal_reached(team, problem.goal):
        joint = PlanResult(UNSOLVABLE, proof=BY_RELAXATION, detail="relaxed reachability")
    else:
        joint = solve(task, task.joint, planner, timeout, plans)
    verdict = _verdict([a.solvable_alone for a in agents.values()], joint.status)
    reports = tuple(analyze(domain, plan_trace(problem, plan, f"{problem.source} joint plan {i + 1}"))
                    for i, plan in enumerate(joint.plans))
    for report in reports:  # executing a plan validates it step by step; the goal is checked here
        if report.achieved != problem.goal:
            raise StripsIntError(report.source, None, f"the planner's plan misses the goal facts "
                                 f"{' '.join(format_fact(f) for f in sorted(problem.goal - report.achieved))}")
    return RCResult(problem, verdict, planner, others, agents, joint, reports, time.perf_counter() - start)


def _verdict(alone: list[bool | None], joint: str) -> str:
    if any(result is True for result in alone):
        return NON_RC
    if joint == UNSOLVABLE:
        return UNSOLVABLE
    if joint == SOLVED and all(result is False for result in alone):
        return RC
    return UNKNOWN


def _goal_reached(reachable: Reachable, goal: frozenset[Fact]) -> bool:
    return all(reachable.canonical(fact) in reachable.facts for fact in goal)


def _without(problem: Problem, absent: Mapping[str, frozenset[Fact]]) -> Problem:
    """``problem`` without the initial facts that name the ``absent`` agents or that their bodies hold."""
    if not absent:
        return problem
    held = frozenset().union(*absent.values())
    return dataclasses.replace(
        problem, init=frozenset(f for f in problem.init if absent.keys().isdisjoint(f[1:]) and f not in held))


def _body_facts(domain: Domain, problem: Problem, agent: str) -> frozenset[Fact]:
    """What an agent's body holds (``--others absent`` drops it with the agent's own facts).

    These are the delete effects of its navigation actions from its initial
    place that do not name it (Overcooked's ``(occupied ?cell)``).
    """
    reach = relaxed_reachable(domain, problem, actors=[agent])
    start = {reach.canonical(f) for f in problem.init}
    leaving = {
        fact
        for action in reach.actions
        if action.actor == agent and domain.is_navigation(domain.schemas[action.name]) and action.pre <= start
        for fact in action.delete
    }
    return frozenset(f for f in problem.init if agent not in f[1:] and reach.canonical(f) in leaving)


def explain(domain: Domain, team_problem: Problem, problem: Problem, agent: str, team: Reachable,
            mine: Reachable) -> Why:
    """Capability, reach or other, with the goal facts and first facts the agent cannot get.

    ``team_problem`` is the whole problem (``team`` its relaxed reachability),
    ``problem`` the agent's projection (``mine``). Capability: an action type
    the agent lacks is necessary for the team's goal, or, when there are
    alternatives, the goal is relaxed-reachable once it may use them all.
    """
    missing_goals = tuple(sorted(f for f in problem.goal if mine.canonical(f) not in mine.facts))
    if not missing_goals:
        return Why(OTHER)
    others = set(problem.objects) - {agent}
    others = {o for o in others if domain.is_agent_type(problem.objects[o])}
    gettable = {  # facts the agent cannot make but the team can, made from facts it has or others'
        fact
        for action in team.actions
        if all(f in mine.facts or not others.isdisjoint(f[1:]) for f in action.pre)
        for fact in action.add
        if fact not in mine.facts and others.isdisjoint(fact[1:]) and fact[0] not in domain.ignore_predicates
    }
    wanted = {f for action in team.actions if action.actor == agent for f in action.pre}
    first = sorted(gettable & wanted or gettable)
    lacking = _lacking_schemas(domain, problem.objects[agent])
    necessary = [  # action types the team cannot reach the goal without
        name for name in lacking
        if not _goal_reached(relaxed_reachable(_without_schema(domain, name), team_problem), problem.goal)
    ]
    if necessary:
        return Why(CAPABILITY, missing_goals, tuple(first), tuple(necessary))
    if lacking and _goal_reached(relaxed_reachable(_widened(domain, lacking), problem, actors=[agent]), problem.goal):
        return Why(CAPABILITY, missing_goals, tuple(first), tuple(lacking))
    return Why(REACH, missing_goals, tuple(first))


def _lacking_schemas(domain: Domain, agent_type: str) -> list[str]:
    """Agent action schemas whose actor parameter an agent of ``agent_type`` cannot fill."""
    return [
        name for name, schema in domain.schemas.items()
        if schema.actor is not None and not domain.fits(agent_type, schema.param_types[schema.actor])
    ]


def _without_schema(domain: Domain, name: str) -> Domain:
    return dataclasses.replace(domain, schemas={n: s for n, s in domain.schemas.items() if n != name})


def _widened(domain: Domain, names: list[str]) -> Domain:
    """``domain`` with the actor of each schema in ``names`` open to every agent type."""
    schemas = dict(domain.schemas)
    for name in names:
        schema = schemas[name]
        types = list(schema.param_types)
        types[schema.actor] = types[schema.actor] | {"agent"}
        schemas[name] = dataclasses.replace(schema, param_types=tuple(types))
    return dataclasses.replace(domain, schemas=schemas)


def plan_trace(problem: Problem, plan: tuple[GroundAction, ...], source: str) -> Trace:
    """A plan as a trace: one step per action, environment time = step index."""
    steps = tuple(Step(index=i, t=i, action=action) for i, action in enumerate(plan))
    return Trace(source=source, problem=problem, steps=steps, meta={"plan": True})


def format_text(result: RCResult) -> str:
    """The human-readable verdict ``python -m strips_int.rc`` prints."""
    reason = f" ({result.reason})" if result.reason else ""
    lines = [
        f"{result.problem.source}: {result.verdict}{reason}",
        f"  planner {result.planner}, others {result.others}, {result.seconds:.2f} s",
    ]
    for name, agent in result.agents.items():
        alone = {True: "solvable alone", False: "not alone", None: "unknown alone"}[agent.solvable_alone]
        length = f", plan of {len(agent.search.plan)} steps" if agent.search.plan is not None else ""
        proof = f", proof: {agent.search.proof}" if agent.search.proof else ""
        why = f"; {agent.why.describe()}" if agent.why else ""
        lines.append(f"  {name}: {alone}{length}{proof}{why} [{agent.search.detail}, {agent.search.seconds:.2f} s]")
    if result.joint.plan is None:
        lines.append(f"  joint problem: {result.joint.status} ({result.joint.detail})")
    for number, report in enumerate(result.reports, start=1):
        counts = report.counts
        lines.append(
            f"  joint plan {number}: {len(report.steps)} steps, interdependencies {counts['interdependencies']} "
            f"(constructive {counts['constructive']}, looping {counts['looping']}, irrelevant {counts['irrelevant']})"
        )
        if number == 1:
            lines += [f"    {step.index:>3} {step.action}" for step in report.steps]
            lines += [f"    {format_interdependence(item)}" for item in report.to_dict()["interdependencies"]]
    return "\n".join(lines)


def layout_rc(domain: Domain, layout: Layout, soups: int = 1, planner: str = "auto", timeout: float = 60.0,
              others: str = IDLE, plans: int = 1) -> RCResult:
    """RC of a layout under its own rules and recipes (SPEC section 8).

    Old rules: one problem. New rules: one per set of ingredient kinds among the
    makeable orders (:func:`makeable_recipes`), combined as "some ordered soup":
    non-RC when an agent alone makes one, else unknown when a planner limit left
    one open, else RC when the team makes one, else unsolvable. The result kept
    is the deciding recipe's.
    """
    if layout.old_rules:
        return required_cooperation(domain, layout_problem(layout, domain, soups), planner, timeout, others, plans)
    results = []
    for recipe in makeable_recipes(layout) or [None]:
        result = required_cooperation(domain, layout_problem(layout, domain, soups, recipe=recipe), planner, timeout,
                                      others, plans)
        if result.verdict == NON_RC:
            return result
        results.append(result)
    return next((r for verdict in (UNKNOWN, RC) for r in results if r.verdict == verdict), results[0])


def classify_layouts(
    names: list[str], soups: int = 1, planner: str = "auto", timeout: float = 60.0, others: str = IDLE
) -> Iterator[RCResult | StripsIntError]:
    """The verdict of each Overcooked layout, in ``names`` order; a layout that cannot be read or planned is its error."""
    domain = load_domain(packaged_domain("overcooked"))
    for name in names:
        try:
            yield layout_rc(domain, get_layout(name), soups, planner, timeout, others)
        except StripsIntError as exc:
            yield exc


TABLE_COLUMNS = ("layout", "rules", "recipe", "verdict", "reason", "joint_plan_length", "interdependencies",
                 "constructive", "error", "seconds")


def table_row(result: RCResult | StripsIntError, name: str = "") -> dict[str, Any]:
    """One row of the ``--all-layouts`` table (stable column names; ``seconds`` last, to be dropped at will)."""
    if isinstance(result, StripsIntError):
        return {**dict.fromkeys(TABLE_COLUMNS, ""), "layout": name, "verdict": "error", "error": str(result)}
    counts = result.reports[0].counts if result.reports else {}
    # A new-rules layout's goal pins its recipe's ingredients in the soup (layout_problem); old rules do not.
    recipe = sorted(result.problem.objects[f[1]] for f in result.problem.goal if f[0] == "in-soup" and f[2] == "soup1")
    return {
        "layout": result.problem.name.removeprefix("overcooked-"),
        "rules": "new" if recipe else "old",
        "recipe": "+".join(recipe) if recipe else "any 3",
        "verdict": result.verdict,
        "reason": result.reason or "",
        "joint_plan_length": len(result.joint.plan) if result.joint.plan is not None else "",
        "interdependencies": counts.get("interdependencies", ""),
        "constructive": counts.get("constructive", ""),
        "error": "",
        "seconds": f"{result.seconds:.2f}",
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m strips_int.rc",
        description="Does a problem require cooperation? Plans each agent's projection and the joint "
        "problem (SPEC section 8) and analyses a joint plan's interdependences.",
    )
    parser.add_argument("domain", type=Path, nargs="?", help="PDDL domain file (default: the packaged Overcooked "
                        "domain with --layout/--grid, the SAR domain with --scenario)")
    parser.add_argument("problem", type=Path, nargs="?", help="PDDL problem file")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--layout", help="an Overcooked layout by name: players at their start tiles")
    where.add_argument("--grid", type=Path, help="an Overcooked grid text file (or overcooked-ai .layout file)")
    where.add_argument("--all-layouts", action="store_true", help="classify every known Overcooked layout")
    where.add_argument("--scenario", type=Path, help="a SAR scenario (or log): its initial state, every victim to treat")
    parser.add_argument("--soups", type=int, default=1, help="Overcooked goal: soups to deliver (default 1)")
    parser.add_argument("--out", type=Path, help="--all-layouts: write the table to FILE (.csv, .md or .tex)")
    parser.add_argument("--planner", default="auto", help="auto (Fast Downward, else pyperplan), "
                        f"{', '.join(PLANNERS)}")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per planner call (default 60)")
    parser.add_argument("--others", choices=(IDLE, ABSENT), default=IDLE,
                        help="in a projection the other agents stay where they are (idle) or are removed")
    parser.add_argument("--plans", type=int, default=1, metavar="K", help="up to K joint plans (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


TABLE_SUFFIXES = (".csv", ".md", ".tex")


def _write_table(rows: list[dict[str, Any]], out: Path | None, as_json: bool = False) -> None:
    """The table as JSON lines (``as_json``), or to ``out`` by its suffix (.csv, .md, .tex), or Markdown on stdout."""
    if as_json and out is None:
        for row in rows:
            print(json.dumps(row))
        return
    if out is not None and out.suffix == ".csv":
        with open(out, "w", newline="") as handle:
            writer = csv.DictWriter(handle, TABLE_COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        return
    cells = [[row[c] for c in TABLE_COLUMNS] for row in rows]
    if out is not None and out.suffix == ".tex":
        text = _latex_table(TABLE_COLUMNS, cells)
    else:
        text = markdown_table(TABLE_COLUMNS, cells)
    if out is None:
        print(text, end="")
    else:
        out.write_text(text)


_LATEX = str.maketrans({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#", "$": r"\$",
                        "{": r"\{", "}": r"\}"})


def _latex_table(columns: Sequence[str], rows: list[list[Any]]) -> str:
    """A LaTeX tabular (written by hand: a dozen lines, no library needed for it)."""

    def escape(value: Any) -> str:
        return str(value).translate(_LATEX)

    lines = [r"\begin{tabular}{" + "l" * len(columns) + "}", r"\hline",
             " & ".join(map(escape, columns)) + r" \\", r"\hline"]
    lines += [" & ".join(map(escape, row)) + r" \\" for row in rows]
    return "\n".join([*lines, r"\hline", r"\end{tabular}", ""])


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.plans < 1 or args.timeout <= 0:
        parser.error("--plans must be at least 1 and --timeout positive")
    try:
        if args.all_layouts:
            if args.out is not None and args.out.suffix not in TABLE_SUFFIXES:
                parser.error(f"--out {args.out}: the table is written as {', '.join(TABLE_SUFFIXES)}")
            start, rows = time.perf_counter(), []
            names = known_layouts(aliases=False)
            for name, result in zip(names, classify_layouts(names, args.soups, args.planner, args.timeout,
                                                            args.others)):
                rows.append(table_row(result, name))
                print(f"{name}: {rows[-1]['verdict']} ({rows[-1]['seconds'] or rows[-1]['error']})", file=sys.stderr,
                      flush=True)
            _write_table(rows, args.out, args.json)
            print(f"{len(rows)} layouts in {time.perf_counter() - start:.1f} s", file=sys.stderr)
            return 0
        if args.layout or args.grid:
            domain = load_domain(args.domain or packaged_domain("overcooked"))
            layout = get_layout(args.layout) if args.layout else load_grid(args.grid)
            result = layout_rc(domain, layout, args.soups, args.planner, args.timeout, args.others, args.plans)
            print(json.dumps(result.to_dict()) if args.json else format_text(result))
            return 0
        elif args.scenario:
            domain = load_domain(args.domain or packaged_domain("sar"))
            problem = scenario_problem(args.scenario, domain)
        elif args.domain and args.problem:
            domain = load_domain(args.domain)
            problem = load_problem(domain, args.problem)
        else:
            parser.error("give DOMAIN PROBLEM, --layout NAME, --grid FILE, --scenario FILE or --all-layouts")
        result = required_cooperation(domain, problem, args.planner, args.timeout, args.others, args.plans)
    except StripsIntError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict()) if args.json else format_text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
