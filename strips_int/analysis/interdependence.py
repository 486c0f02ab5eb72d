"""Interdependencies (definitions section 4) and their classification (section 5).

Choices where the definitions are silent: a causal link on an ignored predicate takes
no part in any chain (neither the last link nor one through an environment
step), since the pragma says such facts never link two agents.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from strips_int.model.execution import Achiever, Run
from strips_int.model.task import Fact, format_fact
from strips_int.model.trace import Step

from .causal import INIT, CausalLinks
from .views import Lens, View, step_views

CONSTRUCTIVE, LOOPING, IRRELEVANT = "constructive", "looping", "irrelevant"
CATEGORIES = (CONSTRUCTIVE, LOOPING, IRRELEVANT)


@dataclass(frozen=True)
class Interdependence:
    """Giver step -> receiver step (by index), the facts the receiver needed, their objects."""

    giver: int
    receiver: int
    facts: tuple[Fact, ...]
    objects: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """The category of one interdependence and why it got it."""

    goal_reaching: bool
    giver_loop: bool
    receiver_loop: bool
    category: str
    why: str


@dataclass(frozen=True)
class Finding:
    """One interdependence with all that is said about it: its steps, facts, objects, category,
    whether it was required (definitions section 10) and why."""

    giver: Step
    receiver: Step
    facts: tuple[Fact, ...]
    objects: tuple[str, ...]
    goal_reaching: bool
    giver_loop: bool
    receiver_loop: bool
    category: str
    required: bool
    why: str
    #: What the help saved its receiver (definitions section 14): its actions alone, ``inf`` or ``unknown``;
    #: None when not asked for.
    self_help_cost: int | str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, as in ``strips_int.check --json``."""
        return {
            "giver": step_dict(self.giver),
            "receiver": step_dict(self.receiver),
            "facts": [format_fact(f) for f in self.facts],
            "objects": list(self.objects),
            "goal_reaching": self.goal_reaching,
            "giver_loop": self.giver_loop,
            "receiver_loop": self.receiver_loop,
            "category": self.category,
            "required": self.required,
            "why": self.why,
            **({} if self.self_help_cost is None else {"self_help_cost": self.self_help_cost}),
        }


def step_dict(step: Step) -> dict[str, Any]:
    return {"index": step.index, "t": step.t, "agent": step.agent, "action": str(step.action)}


def fact_object(fact: Fact, agents: frozenset[str]) -> str:
    """definitions section 4: the first non-agent argument, else the agent, else the predicate."""
    for arg in fact[1:]:
        if arg not in agents:
            return arg
    return fact[1] if len(fact) > 1 else fact[0]


def find_interdependences(
    steps: Sequence[Step], links: CausalLinks, views: Sequence[View], agents: frozenset[str]
) -> list[Interdependence]:
    """Agent-to-agent chains of causal links through environment steps only, by receiver then giver:
    :class:`Linker` fed the steps in trace order. ``views``: each step's action
    (:func:`~strips_int.analysis.views.view`)."""
    linker = Linker(agents)
    return [inter for step, achievers, seen in zip(steps, links.achievers, views)
            for inter in linker.step(step.action.actor, achievers, seen)]


class Linker:
    """The interdependences of a trace found one step at a time, each at its receiver (definitions section 4).

    Each environment step remembers the agent steps that reach it through environment steps alone;
    steps come in trace order, so a step's work is its own links only, whatever the trace's length.
    """

    def __init__(self, agents: frozenset[str]) -> None:
        self.agents = agents
        self.actors: list[str | None] = []
        self.reaching: dict[int, set[int]] = {}

    def step(self, receiver: str | None, achievers: Sequence[Achiever], seen: View) -> Sequence[Interdependence]:
        """The next step (its actor, the achievers of its action's ``pre``, its view): the interdependences
        whose receiver it is, by giver."""
        actors, reaching = self.actors, self.reaching
        node = len(actors)
        actors.append(receiver)
        if receiver is None:
            sources: set[int] = set()
            for i, _ in seen.linking:
                earlier = achievers[i]
                if earlier != INIT:
                    if actors[earlier]:  # type: ignore[index]
                        sources.add(earlier)  # type: ignore[arg-type]
                    else:
                        sources.update(reaching.get(earlier, ()))  # type: ignore[arg-type]
            reaching[node] = sources
            return ()
        linked: dict[int, set[Fact]] | None = None  # (made for the few steps that receive: hot)
        for i, fact in seen.linking:
            earlier = achievers[i]
            if earlier == INIT:
                continue
            giver = actors[earlier]  # type: ignore[index]
            if giver is None:
                for earliest in reaching.get(earlier, ()):  # type: ignore[arg-type]
                    if actors[earliest] != receiver:
                        linked = linked or {}
                        linked.setdefault(earliest, set()).add(fact)
            elif giver != receiver:
                linked = linked or {}
                linked.setdefault(earlier, set()).add(fact)  # type: ignore[arg-type]
        if not linked:
            return ()
        agents = self.agents
        return [Interdependence(giver=giver, receiver=node, facts=tuple(sorted(facts)),
                                objects=tuple(sorted({fact_object(f, agents) for f in facts})))
                for giver, facts in sorted(linked.items())]


def object_states_before(
    run: Run,
    wanted: Mapping[int, set[str]],
    agents: frozenset[str],
    position_predicates: frozenset[str],
    views: Sequence[View],
) -> dict[tuple[int, str], frozenset[Fact]]:
    """The state (definitions section 5) of each wanted object just before each wanted step.

    An object's state is the facts that mention it, less facts that mention an
    agent and facts of position predicates. ``views``: each step's action read
    with these agents and position predicates (:func:`~strips_int.analysis.views.step_views`).
    One replay of the trace up to the last wanted step, tracking only the wanted objects.
    """
    current: dict[str, set[Fact]] = {o: set() for objs in wanted.values() for o in objs}
    tracked = current.keys()
    for fact in run.trace.problem.init:
        if not tracked.isdisjoint(fact) and fact[0] not in position_predicates and agents.isdisjoint(fact[1:]):
            for obj in fact[1:]:  # (a predicate named like a tracked object passed the first test: none here)
                if obj in current:
                    current[obj].add(fact)
    found = {}
    last = max(wanted, default=-1)
    touching = [index for index, seen in enumerate(views[:last]) if not tracked.isdisjoint(seen.touches)]
    for index in sorted(wanted.keys() | touching):  # the wanted steps and those that change a wanted object
        objs = wanted.get(index)
        if objs:
            for obj in objs:
                found[index, obj] = frozenset(current[obj])
        seen = views[index]
        for fact, args in seen.deletes:
            for obj in args:
                if obj in current:
                    current[obj].discard(fact)
        for fact, args in seen.adds:
            for obj in args:
                if obj in current:
                    current[obj].add(fact)
    return found


def classify(
    interdependences: list[Interdependence],
    run: Run,
    relevant: Mapping[int, Fact],
    agents: frozenset[str],
    position_predicates: frozenset[str],
    views: Sequence[View] | None = None,
) -> list[Verdict]:
    """Categorize each interdependence: looping, else irrelevant, else constructive.

    ``views``: each step's action read with these agents and position predicates
    (:func:`~strips_int.analysis.views.step_views`), made here when not given.

    Loops are found through, per (object, state), the latest receiver step of
    each agent and the earliest receiver step given by each agent, so the whole
    classification is linear in the number of interdependencies.
    """
    steps = run.trace.steps
    wanted: dict[int, set[str]] = defaultdict(set)
    for inter in interdependences:
        wanted[inter.receiver].update(inter.objects)
    if views is None:
        views = step_views(steps, Lens(agents, frozenset(), position_predicates), keep=False)
    states = object_states_before(run, wanted, agents, position_predicates, views)

    latest: dict[tuple, tuple[int, int]] = {}
    earliest: dict[tuple, tuple[int, int]] = {}
    for i, inter in enumerate(interdependences):
        receiver_agent = steps[inter.receiver].action.actor
        giver_agent = steps[inter.giver].action.actor
        for obj in inter.objects:
            sigma = states[inter.receiver, obj]
            key = (obj, sigma, receiver_agent)
            if key not in latest or latest[key][0] < inter.receiver:
                latest[key] = (inter.receiver, i)
            key = (obj, sigma, giver_agent)
            if key not in earliest or earliest[key][0] > inter.receiver:
                earliest[key] = (inter.receiver, i)

    verdicts = []
    for inter in interdependences:
        giver_agent = steps[inter.giver].action.actor
        receiver_agent = steps[inter.receiver].action.actor
        reasons = []
        giver_loop = receiver_loop = False
        for obj in inter.objects:
            sigma = states[inter.receiver, obj]
            later = latest.get((obj, sigma, giver_agent))
            if later and later[0] > inter.receiver:
                giver_loop = True
                reasons.append(f"giver loop: {obj} came back to {giver_agent} unchanged{_shown(sigma)} at step {later[0]}")
            before = earliest.get((obj, sigma, receiver_agent))
            if before and before[0] < inter.receiver:
                receiver_loop = True
                reasons.append(
                    f"receiver loop: {receiver_agent} had already handed {obj} on unchanged{_shown(sigma)} "
                    f"(received at step {before[0]})"
                )
        goal_fact = relevant.get(inter.receiver)
        goal_reaching = goal_fact is not None
        if giver_loop or receiver_loop:
            category, why = LOOPING, "; ".join(reasons)
        elif not goal_reaching:
            category, why = IRRELEVANT, f"step {inter.receiver} has no causal chain to an achieved goal fact"
        else:
            category = CONSTRUCTIVE
            why = f"step {inter.receiver} leads to goal fact {format_fact(goal_fact)}; no loop"
        verdicts.append(Verdict(goal_reaching, giver_loop, receiver_loop, category, why))
    return verdicts


def _shown(state: frozenset[Fact]) -> str:
    """What "unchanged" kept of an object, for a reader: `` (still (cooked s1) (in-pot s1 p1))``, sorted,
    or nothing for an object with no state of its own (an onion); only loops show it."""
    return f" (still {' '.join(format_fact(f) for f in sorted(state))})" if state else ""
