"""The analysis of one trace, as a value a notebook can keep and a CLI can print."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from strips_int.errors import ArgumentError, StripsIntError, of_type, printable
from strips_int.model.domain import Domain, domain_argument
from strips_int.model.execution import CausalLinks, Run
from strips_int.model.task import Fact, Problem, format_fact
from strips_int.model.trace import Attempt, Step

from .blocks import Block
from .causal import causal_graph, relevant_steps
from .frames import BLOCK_COLUMNS, INTERDEPENDENCE_COLUMNS, agent_rows, block_rows, dataframe, interdependence_rows
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
)
from .help_cost import UNKNOWN, self_help_costs
from .reachability import Reachable
from .required import Need, interdependence_needs
from .stepwise import Stepwise
from .triggers import AgentTasks

if TYPE_CHECKING:
    import networkx as nx
    import pandas


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
    #: What the domain makes of the counts, said with them (a domain whose agents link only through
    #: negative preconditions can have no interdependence: :attr:`Domain.negative_links_note`).
    notes: tuple[str, ...] = ()
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
        """Int_cons split by definitions section 10: constructive_required + constructive_optional = constructive."""
        constructive = [f.required for f in self.interdependencies if f.category == CONSTRUCTIVE]
        return {"constructive_required": sum(constructive), "constructive_optional": constructive.count(False)}

    def agent_metrics(self) -> dict[str, dict[str, Any]]:
        """Each agent's figures (the one definition ``to_dict``, the text and ``evaluate``'s rows use):
        type, sub-tasks, triggers, accepted triggers, % triggers, % not accepted, given and received,
        how many of those given and received were required (definitions section 10, every category), and the
        constructive ones given and received with their required part (who helped whom towards the goal:
        ``given_constructive`` of one agent is Int_cons's share it gave, definitions sections 5 and 10), and the
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

    def rows(self, table: str = "interdependencies") -> list[dict[str, Any]]:
        """The flat rows of one of the report's tables (:mod:`~strips_int.analysis.frames`), no pandas needed.

        Parameters:
            table: ``"interdependencies"``, ``"agents"`` or ``"blocks"`` (one row each).

        Returns:
            A list of dicts of plain values, the game in ``source``.
        """
        if table == "interdependencies":
            return interdependence_rows(self.source, self.interdependencies)
        if table == "agents":
            return agent_rows(self.source, self.agent_metrics())
        if table == "blocks":
            return block_rows(self.source, self.blocks)
        raise ArgumentError("Report.rows", "table", " or ".join(map(repr, TABLES)), table)

    def to_frame(self, table: str = "interdependencies") -> pandas.DataFrame:
        """The report's ``table`` as a pandas DataFrame with flat columns (``pip install 'strips_int[pandas]'``).

        Parameters:
            table: ``"interdependencies"`` (one row each: steps, facts, objects, category, required, why,
                self-help cost), ``"agents"`` (one row each: :meth:`agent_metrics`) or ``"blocks"`` (one row
                each: giver, blocked attempt, failed facts, collision).

        Returns:
            A ``pandas.DataFrame``; many games' is :func:`reports_frame`.
        """
        return reports_frame([self], table)

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
            **({"notes": list(self.notes)} if self.notes else {}),
        }


#: The tables of :meth:`Report.rows`, and the columns of one without rows (every report has agents).
TABLES = {"interdependencies": INTERDEPENDENCE_COLUMNS, "agents": ("source", "agent"), "blocks": BLOCK_COLUMNS}


def reports_frame(reports: Iterable[Report | StripsIntError], table: str = "interdependencies") -> pandas.DataFrame:
    """A pandas DataFrame of many reports' ``table``: one flat row per interdependence (agent, block) of every game,
    the game in column ``source`` (``pip install 'strips_int[pandas]'``).

        frame = reports_frame(analyze_games("overcooked", "user-study/"), "agents")

    Parameters:
        reports: reports, or what :func:`strips_int.analyze_games` yields; an error among them is raised
            (a frame missing a game's rows would pass for the whole study: leave errors out first to skip them).
        table: ``"interdependencies"`` (the default), ``"agents"`` or ``"blocks"`` (:meth:`Report.rows`).

    Returns:
        A ``pandas.DataFrame`` with flat columns (text, numbers, booleans).
    """
    if table not in TABLES:
        raise ArgumentError("reports_frame", "table", " or ".join(map(repr, TABLES)), table)
    rows: list[dict[str, Any]] = []
    for report in reports:
        if isinstance(report, StripsIntError):
            raise report
        rows += report.rows(table)
    return dataframe(rows, TABLES[table])


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
    """The report of an executed trace (:func:`~strips_int.model.execution.execute`): definitions sections 3-7,
    10 and 13, its steps fed in order to the one step-by-step analysis
    (:class:`~strips_int.analysis.stepwise.Stepwise`); with ``help_cost``, each interdependence's self-help
    cost too (definitions section 14).

    Reading games from files is the batch layer's (:func:`strips_int.analyze`, :func:`strips_int.analyze_games`).
    """
    domain_argument("analyze_run", domain)
    of_type("analyze_run", "run", run, Run, "a Run (strips_int.execute)")
    of_type("analyze_run", "help_cost", help_cost, bool, "True or False")
    trace = run.trace
    analysis = Stepwise(domain, trace.problem, trace.source, choices=trace.attempts is not None)
    analysis.feed(trace.steps, run.links.achievers, run.new_facts, trace.attempts or ())
    return report_of(analysis, run, help_cost=help_cost)


def report_of(analysis: Stepwise, run: Run, reachable: Reachable | None = None, help_cost: bool = False) -> Report:
    """The report of a game fed step by step to ``analysis``, whose run (the same steps executed) is ``run``:
    what depends on the whole game (relevance, categories, accepted triggers, required help) worked out
    here, once, from what the steps said (the attempts and their blocks: the analysis's). ``reachable``: the
    exploration of the run's problem, when it is not the one the analysis began with (objects that entered
    the game later, a goal known at the end)."""
    trace, domain, links, views = run.trace, analysis.domain, run.links, analysis.views
    reachable = reachable or analysis.reachable
    inters = analysis.interdependences
    relevant = relevant_steps(links, views)
    verdicts = classify(inters, run, relevant, analysis.agents, domain.position_predicates, views)
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
        agents=analysis.agent_types,
        goal=trace.problem.goal,
        achieved=run.goal_achieved,
        links=links,
        interdependencies=found,
        tasks=analysis.tasks.tasks(inters),
        notes=(domain.negative_links_note,) if domain.negative_links_note else (),
        attempts=None if analysis.attempts is None else tuple(analysis.attempts),
        blocks=tuple(analysis.blocks),
        help_cost=help_cost,
    )


#: ``meta["end"]`` of a game whose record stops before the game's end (a grounder that knows how its games end
#: says so: Hanabi's), which the text says on the goal line.
UNFINISHED = "unfinished"

#: What the agent table's given and received columns count (the text's and the HTML report's note above it).
AGENT_COLUMNS = "per agent, interdependencies of every category given and received, and the required ones (-req)"


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
        + (f": {' '.join(data['goal']['achieved'])}" if report.achieved else "")
        + ("; the game is unfinished: its record stops before the game's end" if report.meta.get("end") == UNFINISHED
           else ""),
        f"  interdependencies: {counts['interdependencies']} (constructive {counts['constructive']}, "
        f"non-constructive {counts['non_constructive']}: looping {counts['looping']}, "
        f"irrelevant {counts['irrelevant']})",
        f"  constructive: required {counts['constructive_required']}, optional {counts['constructive_optional']}",
        *(f"  note: {printable(note)}" for note in report.notes),
    ]
    width = max([len(a) for a in report.agents] + [5])
    lines.append(f"  {AGENT_COLUMNS}:")
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
