"""The analysis of one trace, as a value a notebook can keep and a CLI can print."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import networkx as nx

from .causal import build_graph, relevant_steps
from .domain import Domain, load_domain, load_problem
from .interdependence import (
    CATEGORIES,
    CONSTRUCTIVE,
    IRRELEVANT,
    LOOPING,
    Interdependence,
    Verdict,
    classify,
    fact_object,
    find_interdependences,
)
from .reachability import relaxed_reachable
from .required import Need, interdependence_needs
from .task import Fact, Problem, format_fact
from .trace import Run, Step, Trace, execute, load_trace
from .triggers import AgentTasks, agent_tasks


@dataclass(frozen=True)
class Report:
    """Everything strips_int says about one trace; every count comes from ``graph``."""

    source: str
    domain: str
    problem: str
    meta: Mapping[str, Any]
    steps: tuple[Step, ...]
    agents: Mapping[str, str]
    goal: frozenset[Fact]
    achieved: frozenset[Fact]
    graph: nx.MultiDiGraph
    interdependencies: tuple[Interdependence, ...]
    verdicts: tuple[Verdict, ...]
    tasks: Mapping[str, AgentTasks]
    needs: tuple[Need, ...]  # SPEC section 10: required or optional, one per interdependence

    @property
    def counts(self) -> dict[str, int]:
        """Int, Int_cons, Int_non-cons = looping + irrelevant, and each category."""
        by = {c: sum(v.category == c for v in self.verdicts) for c in CATEGORIES}
        return {
            "interdependencies": len(self.verdicts),
            "constructive": by[CONSTRUCTIVE],
            "non_constructive": by[LOOPING] + by[IRRELEVANT],
            "looping": by[LOOPING],
            "irrelevant": by[IRRELEVANT],
            **self.required_counts,
        }

    @property
    def required_counts(self) -> dict[str, int]:
        """Int_cons split by SPEC section 10: constructive_required + constructive_optional = constructive."""
        constructive = [n.required for n, v in zip(self.needs, self.verdicts) if v.category == CONSTRUCTIVE]
        return {"constructive_required": sum(constructive), "constructive_optional": constructive.count(False)}

    def required_by_agent(self, agent: str) -> dict[str, int]:
        """How many of the interdependences ``agent`` gave and received were required (every category)."""
        pairs = list(zip(self.interdependencies, self.needs))
        return {
            "given_required": sum(n.required and self.steps[i.giver].agent == agent for i, n in pairs),
            "received_required": sum(n.required and self.steps[i.receiver].agent == agent for i, n in pairs),
        }

    def _step(self, index: int) -> dict[str, Any]:
        step = self.steps[index]
        return {"index": index, "t": step.t, "agent": step.agent, "action": str(step.action)}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``--json`` line of ``strips_int.check``)."""
        agents = {}
        for agent in self.agents:
            tasks = self.tasks[agent]
            agents[agent] = {
                "type": self.agents[agent],
                "subtasks": len(tasks.subtasks),
                "triggers": len(tasks.triggers),
                "accepted_triggers": len(tasks.accepted),
                "pct_triggers": tasks.pct_triggers,
                "pct_not_accepted": tasks.pct_not_accepted,
                "given": sum(self.steps[i.giver].agent == agent for i in self.interdependencies),
                "received": sum(self.steps[i.receiver].agent == agent for i in self.interdependencies),
                **self.required_by_agent(agent),
            }
        return {
            "source": self.source,
            "domain": self.domain,
            "problem": self.problem,
            "meta": dict(self.meta),
            "steps": len(self.steps),
            "goal": {
                "facts": [format_fact(f) for f in sorted(self.goal)],
                "achieved": [format_fact(f) for f in sorted(self.achieved)],
            },
            "counts": self.counts,
            "agents": agents,
            "interdependencies": [
                {
                    "giver": self._step(inter.giver),
                    "receiver": self._step(inter.receiver),
                    "facts": [format_fact(f) for f in inter.facts],
                    "objects": list(inter.objects),
                    "goal_reaching": verdict.goal_reaching,
                    "giver_loop": verdict.giver_loop,
                    "receiver_loop": verdict.receiver_loop,
                    "category": verdict.category,
                    "required": need.required,
                    "why": f"{verdict.why}; {need.why}",
                }
                for inter, verdict, need in zip(self.interdependencies, self.verdicts, self.needs)
            ],
        }


def analyze(
    domain: Domain | str | Path,
    trace: Trace | str | Path,
    problem: Problem | str | Path | None = None,
) -> Report:
    """Execute a trace and compute its interdependences, categories and triggers.

    ``domain``, ``trace`` and ``problem`` may be loaded values or file paths;
    ``problem`` overrides the one the trace names. Raises
    :class:`~strips_int.errors.StripsIntError` on bad input.
    """
    if not isinstance(domain, Domain):
        domain = load_domain(domain)
    if not isinstance(trace, Trace):
        if problem is not None and not isinstance(problem, Problem):
            problem = load_problem(domain, problem)
        trace = load_trace(trace, domain, problem)
    return analyze_run(domain, execute(trace))


def analyze_run(domain: Domain, run: Run) -> Report:
    """The report of an already executed trace."""
    trace = run.trace
    objects = trace.problem.objects
    agent_types = {o: t for o, t in sorted(objects.items()) if domain.is_agent_type(t)}
    agents = frozenset(agent_types)
    graph = build_graph(run, lambda fact: (fact_object(fact, agents),))
    relevant = relevant_steps(graph)
    inters = find_interdependences(graph, agents, domain.ignore_predicates)
    verdicts = classify(inters, graph, run, relevant, agents, domain.position_predicates)
    reachable = relaxed_reachable(domain, trace.problem)
    needed_by = reachable.needers()

    def needers(fact: Fact) -> frozenset[str]:
        return needed_by.get(reachable.canonical(fact), frozenset())

    return Report(
        source=trace.source,
        domain=domain.name,
        problem=trace.problem.name,
        meta=trace.meta,
        steps=trace.steps,
        agents=agent_types,
        goal=trace.problem.goal,
        achieved=run.goal_achieved,
        graph=graph,
        interdependencies=tuple(inters),
        verdicts=tuple(verdicts),
        tasks=agent_tasks(run, domain, agent_types, needers, inters),
        needs=interdependence_needs(domain, trace.problem, reachable, inters,
                                    [trace.steps[i.receiver].agent for i in inters]),
    )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def format_text(report: Report) -> str:
    """The human-readable summary ``strips_int.check`` prints for one trace."""
    data = report.to_dict()
    counts = data["counts"]
    lines = [
        f"{report.source}",
        f"  domain {report.domain}, problem {report.problem}, {len(report.steps)} steps, "
        f"agents: {', '.join(f'{a} ({t})' for a, t in report.agents.items())}",
        f"  goal: {len(report.achieved)}/{len(report.goal)} facts reached"
        + (f": {' '.join(data['goal']['achieved'])}" if report.achieved else ""),
        f"  interdependencies: {counts['interdependencies']} (constructive {counts['constructive']}, "
        f"non-constructive {counts['non_constructive']}: looping {counts['looping']}, "
        f"irrelevant {counts['irrelevant']})",
        f"  constructive: required {counts['constructive_required']}, optional {counts['constructive_optional']}",
    ]
    width = max([len(a) for a in report.agents] + [5])
    lines.append(
        f"  {'agent':<{width}}  sub-tasks  triggers  accepted  %trig  %not-acc  given  received"
        "  given-req  received-req"
    )
    for agent, row in data["agents"].items():
        lines.append(
            f"  {agent:<{width}}  {row['subtasks']:>9}  {row['triggers']:>8}  {row['accepted_triggers']:>8}  "
            f"{_pct(row['pct_triggers']):>5}  {_pct(row['pct_not_accepted']):>8}  {row['given']:>5}  {row['received']:>8}"
            f"  {row['given_required']:>9}  {row['received_required']:>12}"
        )
    lines += [f"  {format_interdependence(item)}" for item in data["interdependencies"]]
    return "\n".join(lines)


def format_interdependence(item: Mapping[str, Any]) -> str:
    """One interdependence of :meth:`Report.to_dict` as a line of text."""
    giver, receiver = item["giver"], item["receiver"]
    return (
        f"step {giver['index']} (t={giver['t']}) {giver['agent']} -> step {receiver['index']} "
        f"(t={receiver['t']}) {receiver['agent']}: {giver['action']} => {receiver['action']}; "
        f"objects {', '.join(item['objects'])}; {item['category']}: {item['why']}"
    )
