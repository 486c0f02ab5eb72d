"""The analysis of one trace, as a value a notebook can keep and a CLI can print."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from strips_int.errors import StripsIntError, printable
from strips_int.model.domain import Domain
from strips_int.model.execution import CausalLinks, Run
from strips_int.model.task import Fact, Problem, format_fact
from strips_int.model.trace import Attempt, Step

from .blocks import Block, find_blocks
from .causal import causal_graph, relevant_steps
from .interdependence import (
    CATEGORIES,
    CONSTRUCTIVE,
    IRRELEVANT,
    LOOPING,
    Finding,
    Interdependence,
    Verdict,
    classify,
    fact_object,
    find_interdependences,
)
from .reachability import relaxed_reachable
from .help_cost import UNKNOWN, self_help_costs
from .required import Need, interdependence_needs
from .triggers import AgentTasks, agent_tasks
from .views import analysis_lens, step_views

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class Report:
    """Everything strips_int says about one trace; every count comes from its causal ``links``."""

    source: str
    domain: str
    problem: Problem
    meta: Mapping[str, Any]
    steps: tuple[Step, ...]
    agents: Mapping[str, str]
    goal: frozenset[Fact]
    achieved: frozenset[Fact]
    links: CausalLinks
    interdependencies: tuple[Finding, ...]
    tasks: Mapping[str, AgentTasks]
    #: The trace's attempts (None: its record shows no choices) and their blocks (definitions section 13): no
    #: other number depends on them.
    attempts: tuple[Attempt, ...] | None = None
    blocks: tuple[Block, ...] = ()
    #: Whether each interdependence carries its self-help cost (definitions section 14).
    help_cost: bool = False

    @functools.cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The causal links as a networkx graph (:func:`~strips_int.analysis.causal.causal_graph`), built on first use."""
        agents = frozenset(self.agents)
        return causal_graph(self.steps, self.links, lambda fact: (fact_object(fact, agents),))

    @property
    def counts(self) -> dict[str, int]:
        """Int, Int_cons, Int_non-cons = looping + irrelevant, and each category."""
        by = {c: sum(f.category == c for f in self.interdependencies) for c in CATEGORIES}
        return {
            "interdependencies": len(self.interdependencies),
            "constructive": by[CONSTRUCTIVE],
            "non_constructive": by[LOOPING] + by[IRRELEVANT],
            "looping": by[LOOPING],
            "irrelevant": by[IRRELEVANT],
            **self.required_counts,
        }

    @property
    def required_counts(self) -> dict[str, int]:
        """Int_cons split by SPEC section 10: constructive_required + constructive_optional = constructive."""
        constructive = [f.required for f in self.interdependencies if f.category == CONSTRUCTIVE]
        return {"constructive_required": sum(constructive), "constructive_optional": constructive.count(False)}

    def agent_metrics(self) -> dict[str, dict[str, Any]]:
        """Each agent's figures (the one definition ``to_dict``, the text and ``evaluate``'s rows use):
        type, sub-tasks, triggers, accepted triggers, % triggers, % not accepted, given and received,
        how many of those given and received were required (SPEC section 10, every category), and the
        constructive ones given and received with their required part (who helped whom towards the goal:
        ``given_constructive`` of one agent is Int_cons's share it gave, SPEC sections 5 and 10), and the
        blocks it gave and received (who got in whose way, definitions section 13; None where the trace
        records no attempts); with self-help costs (definitions section 14), the steps of help received (the
        sum of its help's integer costs) and how many of its help's costs are unknown (else None)."""
        constructive = [f for f in self.interdependencies if f.category == CONSTRUCTIVE]
        return {
            agent: {
                "type": agent_type,
                "subtasks": len(self.tasks[agent].subtasks),
                "triggers": len(self.tasks[agent].triggers),
                "accepted_triggers": len(self.tasks[agent].accepted),
                "pct_triggers": self.tasks[agent].pct_triggers,
                "pct_not_accepted": self.tasks[agent].pct_not_accepted,
                "given": sum(f.giver.agent == agent for f in self.interdependencies),
                "received": sum(f.receiver.agent == agent for f in self.interdependencies),
                "given_required": sum(f.required and f.giver.agent == agent for f in self.interdependencies),
                "received_required": sum(f.required and f.receiver.agent == agent for f in self.interdependencies),
                "given_constructive": sum(f.giver.agent == agent for f in constructive),
                "received_constructive": sum(f.receiver.agent == agent for f in constructive),
                "given_constructive_required": sum(f.required and f.giver.agent == agent for f in constructive),
                "received_constructive_required": sum(f.required and f.receiver.agent == agent for f in constructive),
                "blocks_given": None if self.attempts is None else sum(b.giver.agent == agent for b in self.blocks),
                "blocks_received": None if self.attempts is None else sum(b.attempt.agent == agent
                                                                          for b in self.blocks),
                "help_steps_received": sum(f.self_help_cost for f in self.interdependencies if f.receiver.agent == agent
                                           and isinstance(f.self_help_cost, int)) if self.help_cost else None,
                "help_unknown_received": sum(f.self_help_cost == UNKNOWN for f in self.interdependencies
                                             if f.receiver.agent == agent) if self.help_cost else None,
            }
            for agent, agent_type in self.agents.items()
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``--json`` line of ``strips_int.check``)."""
        return {
            "source": self.source,
            "domain": self.domain,
            "problem": self.problem.name,
            "meta": dict(self.meta),
            "steps": len(self.steps),
            "goal": {
                "facts": [format_fact(f) for f in sorted(self.goal)],
                "achieved": [format_fact(f) for f in sorted(self.achieved)],
            },
            "counts": self.counts,
            "agents": self.agent_metrics(),
            "interdependencies": [f.to_dict() for f in self.interdependencies],
            "attempts": None if self.attempts is None else len(self.attempts),
            "blocks": [b.to_dict() for b in self.blocks],
        }


def findings(steps: Sequence[Step], inters: Sequence[Interdependence], verdicts: Sequence[Verdict],
             needs: Sequence[Need]) -> tuple[Finding, ...]:
    """Each interdependence joined with its verdict and need (the one place they are paired);
    ``why`` gives the category's reason, then the need's."""
    return tuple(
        Finding(steps[i.giver], steps[i.receiver], i.facts, i.objects, v.goal_reaching, v.giver_loop,
                v.receiver_loop, v.category, n.required, f"{v.why}; {n.why}")
        for i, v, n in zip(inters, verdicts, needs, strict=True)
    )


def analyze_run(domain: Domain, run: Run, help_cost: bool = False) -> Report:
    """The report of an executed trace (:func:`~strips_int.model.execution.execute`): SPEC sections 3-7, 10
    and 13; with ``help_cost``, each interdependence's self-help cost too (definitions section 14).

    Reading games from files is the batch layer's (:func:`strips_int.analyze`, :func:`strips_int.analyze_games`).
    """
    trace = run.trace
    objects = trace.problem.objects
    kinds = {t: domain.is_agent_type(t) for t in set(objects.values())}
    agent_types = {o: objects[o] for o in sorted(objects) if kinds[objects[o]]}
    if not agent_types:  # SPEC section 1: never zero agents and empty counts
        raise StripsIntError(trace.source, f"problem {trace.problem.name}", "no agents: no object is of an agent type ("
                             + ", ".join(sorted(t for t in domain.type_names() if domain.is_agent_type(t))) + ")")
    agents = frozenset(agent_types)
    links = run.links
    views = step_views(trace.steps, analysis_lens(domain, agents))
    relevant = relevant_steps(links, views)
    inters = find_interdependences(trace.steps, links, views, agents)
    verdicts = classify(inters, run, relevant, agents, domain.position_predicates, views)
    reachable = relaxed_reachable(domain, trace.problem)
    needed_by = reachable.needers(domain.ignore_predicates)

    def needers(fact: Fact) -> frozenset[str]:
        return needed_by.get(reachable.canonical(fact), frozenset())

    found = findings(trace.steps, inters, verdicts, interdependence_needs(
        domain, trace.problem, reachable, inters, [trace.steps[i.receiver].agent for i in inters]))
    if help_cost:
        found = tuple(dataclasses.replace(f, self_help_cost=c)
                      for f, c in zip(found, self_help_costs(domain, trace.problem, reachable, found), strict=True))
    return Report(
        source=trace.source,
        domain=domain.name,
        problem=trace.problem,
        meta=trace.meta,
        steps=trace.steps,
        agents=agent_types,
        goal=trace.problem.goal,
        achieved=run.goal_achieved,
        links=links,
        interdependencies=found,
        tasks=agent_tasks(run, views, agent_types, domain.ignore_predicates, needers, inters),
        attempts=trace.attempts,
        blocks=find_blocks(trace.problem.init, trace.steps, trace.attempts or ()),
        help_cost=help_cost,
    )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def format_text(report: Report) -> str:
    """The human-readable summary ``strips_int.check`` prints for one trace."""
    data = report.to_dict()
    counts = data["counts"]
    roles = report.meta.get("roles")  # who played each agent, where the game knows (else its type)
    roles = roles if isinstance(roles, Mapping) else {}
    lines = [  # (text from the input printable: a file name or role may hold a line break, a terminal's escape)
        printable(report.source),
        f"  domain {report.domain}, problem {report.problem.name}, {len(report.steps)} steps, "
        f"agents: {', '.join(f'{a} ({printable(roles.get(a, t))})' for a, t in report.agents.items())}",
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
    if report.help_cost:
        lines.append("  steps of help received (self-help cost, inf and unknown left out): " + "; ".join(
            f"{a} {row['help_steps_received']}" + (f" ({row['help_unknown_received']} unknown)"
                                                   if row["help_unknown_received"] else "")
            for a, row in data["agents"].items()))
    lines += [f"  {format_interdependence(item)}" for item in data["interdependencies"]]
    if report.attempts is not None:  # a trace that records no choices says nothing of blocks (definitions section 13)
        lines.append(f"  blocks: {len(report.blocks)} on {len(report.attempts)} attempts; " + "; ".join(
            f"{a} gave {row['blocks_given']}, received {row['blocks_received']}" for a, row in data["agents"].items()))
        lines += [f"  {format_block(item)}" for item in data["blocks"]]
    return "\n".join(lines)


def format_block(item: Mapping[str, Any]) -> str:
    """One block of :meth:`Report.to_dict` as a line of text."""
    giver, attempt = item["giver"], item["attempt"]
    given = f"attempt {giver['attempt']}" if "attempt" in giver else f"step {giver['step']}"
    return (f"block: {given} (t={giver['t']}) {giver['agent']} -> attempt {attempt['attempt']} (t={attempt['t']}) "
            f"{attempt['agent']}: {giver['action']} => {attempt['action']}; failed {' '.join(item['facts'])}"
            + ("; collision" if item["collision"] else ""))


def format_interdependence(item: Mapping[str, Any]) -> str:
    """One interdependence of :meth:`Report.to_dict` as a line of text."""
    giver, receiver = item["giver"], item["receiver"]
    return (
        f"step {giver['index']} (t={giver['t']}) {giver['agent']} -> step {receiver['index']} "
        f"(t={receiver['t']}) {receiver['agent']}: {giver['action']} => {receiver['action']}; "
        f"objects {', '.join(item['objects'])}; {item['category']}: {item['why']}"
        + (f"; self-help cost {item['self_help_cost']}" if "self_help_cost" in item else "")
    )
