"""Lift a SAR log into a problem and a trace of ``domains/sar.pddl``.

Locations are cells (``c3_2``, doors ``door5_2``): fire and debris are per
cell, and the domain's ``give`` needs giver and receiver in one location.
For each tick the logged actions are replayed with the world's own rules,
which names the domain action of every agent whose action changed the state
(a blocked move, a ``stay`` or an idle ``interact`` is no step). The replayed
state must equal the next logged state, except for cells that caught fire:
each is an environment ``spread-fire`` step from a burning neighbour. Every
step is then applied with the domain's semantics and the result must equal the
next logged state lifted to facts, so the trace is valid and faithful to the
log. Fire may spread from any burning neighbour, as the domain allows (the
simulator's own rule is narrower). The goal is every victim treated; ``meta``
has the scenario, the roles and appendix D.1's reward (+10 per treated victim).

Attempts (definitions sections 11 and 13): an agent whose logged action changed nothing in its tick but
would have, alone, from the state the tick began in — a move into a cell that burns or holds debris, an
interact whose item another agent picked up (or whose partner walked away) earlier in the tick — is
the ground action it would have taken. A wait, a move into a wall and an interact with nothing to do are
none.
"""

from __future__ import annotations

from typing import Mapping

from strips_int.model.domain import Domain
from strips_int.model.problem import make_problem
from strips_int.errors import StripsIntError
from strips_int.model.task import Fact, Problem, format_fact
from strips_int.model.trace import ActionGrounder, Attempt, Step, Trace
from strips_int.model.execution import apply

from ..base import check_actions
from .formats import Log
from .world import DIRECTIONS, INTERACT, Pos, State, World, act, act_all, ahead

#: appendix D.1: every agent receives +10 per victim treated.
REWARD_PER_VICTIM = 10
#: The action schemas the lifter produces (checked against the domain before a log is read).
NEEDED_ACTIONS = frozenset({"move", "search", "pick-up", "drop", "give", "extinguish", "clear-debris", "treat",
                     "spread-fire"})


def world_objects(world: World) -> dict[str, str]:
    """The problem's objects: cells as locations, victims, items by kind, agents by role."""
    objects = {cell: "location" for cell in world.grid.locations.values()}
    objects.update({victim: "victim" for victim in world.victims})
    objects.update(world.kinds)
    objects.update(world.roles)
    return objects


def calm_facts(world: World) -> frozenset[Fact]:
    """The facts of a calm house: cells connected, victims where they lie, no fire, no debris.
    Lifting a state starts from these, so only what a state changes is computed per state."""
    where = world.grid.locations
    facts = {("connected", where[pos], where[near]) for pos in where for near in world.grid.neighbours(pos)}
    facts |= {("victim-at", victim, where[pos]) for victim, pos in world.victims.items()}
    return frozenset(facts | {(pred, cell) for cell in where.values() for pred in ("fire-free", "clear")})


def state_facts(world: World, state: State, calm: frozenset[Fact]) -> set[Fact]:
    """A raw state lifted to facts of the SAR domain (``calm`` from :func:`calm_facts`)."""
    where = world.grid.locations
    facts = set(calm)
    for pos in state.fire:
        facts.remove(("fire-free", where[pos]))
        facts.add(("on-fire", where[pos]))
    for pos in state.debris:
        facts.remove(("clear", where[pos]))
        facts.add(("debris", where[pos]))
    for name, agent in state.agents.items():
        facts.add(("at", name, where[agent.pos]))
        facts.update(("has", name, item) for item in agent.holding)
    facts.update(("item-at", item, where[pos]) for item, pos in state.items.items())
    facts.update(("located", v) for v in state.located)
    facts.update(("treated", v) for v in state.treated)
    facts.update(("used", kit) for kit in state.used)
    return facts


def world_problem(domain: Domain, world: World, state: State, name: str, source: str) -> Problem:
    """The planning problem of ``world`` from ``state``: every victim to be treated."""
    check_actions(NEEDED_ACTIONS, domain, "sar", source)
    init = state_facts(world, state, calm_facts(world))
    goal = [("treated", victim) for victim in world.victims]
    return make_problem(domain, f"sar-{name}", world_objects(world), init, goal, source)


def lift_log(log: Log, domain: Domain) -> Trace:
    """The problem and trace of one SAR log; a state that does not follow from the actions is an error."""
    world = log.world
    problem = world_problem(domain, world, log.states[0], log.scenario, log.source)
    calm = calm_facts(world)
    grounder = ActionGrounder(domain, problem, log.source)
    symbolic = set(problem.init)
    steps: list[Step] = []
    attempts: list[Attempt] = []
    for t, joint in enumerate(log.actions):
        where = f"step {t}"
        before, after = log.states[t], log.states[t + 1]
        replayed, atoms = act_all(world, before, joint)
        attempts += [Attempt(len(attempts) + k, t, grounder.ground(atom, where))
                     for k, atom in enumerate(_attempts(world, before, joint, atoms))]
        mismatch = _mismatch(world, before, replayed, after, joint)
        if mismatch:
            raise StripsIntError(log.source, where, f"the next state does not follow from the actions: {mismatch}")
        atoms += _spread_steps(log, where, replayed.fire, after.fire)
        for atom in atoms:
            action = grounder.ground(atom, where)
            failure = apply(symbolic, action)
            if failure:
                raise StripsIntError(log.source, where, f"the domain does not allow it: {failure}")
            steps.append(Step(index=len(steps), t=t, action=action))
        lifted = state_facts(world, after, calm)
        if lifted != symbolic:
            raise StripsIntError(log.source, where, "the domain's effects and the next state differ: "
                                 f"{_fact_difference(symbolic, lifted)}")
    final = log.states[-1]
    meta = {"scenario": log.scenario, "roles": dict(world.roles), "reward": REWARD_PER_VICTIM * len(final.treated)}
    return Trace(source=log.source, problem=problem, steps=tuple(steps), meta=meta, attempts=tuple(attempts))


def _attempts(world: World, before: State, joint: Mapping[str, str], atoms: list[Fact]) -> list[Fact]:
    """The ground actions the agents that did nothing in a tick chose, in acting order (see the module's
    docstring): what each would have done alone from ``before``."""
    acted = {atom[1] for atom in atoms}  # the actor is each SAR action's first argument
    found = []
    for name in world.roles:
        action = joint[name]
        if name in acted:
            continue
        if action in DIRECTIONS:
            me = before.agents[name]
            target = ahead(me.pos, action)
            if world.grid.walkable(target):
                where = world.grid.locations
                found.append(("move", name, where[me.pos], where[target]))
        elif action == INTERACT:
            _, atom = act(world, before, name, INTERACT)
            if atom is not None:
                found.append(atom)
    return found


def _spread_steps(log: Log, where: str, burning: frozenset[Pos], fire: frozenset[Pos]) -> list[Fact]:
    """One ``spread-fire`` step per cell of ``fire`` not yet ``burning``, from a neighbour already burning."""
    grid = log.world.grid
    caught, lit = sorted(fire - burning), set(burning)
    steps = []
    while caught:
        for pos in caught:
            sources = [near for near in grid.neighbours(pos) if near in lit]
            if sources:
                steps.append(("spread-fire", grid.locations[sources[0]], grid.locations[pos]))
                lit.add(pos)
                caught.remove(pos)
                break
        else:
            raise StripsIntError(log.source, where, f"the next state does not follow from the actions: "
                                 f"{list(caught[0])} catches fire, but no neighbouring cell burns")
    return steps


def _mismatch(world: World, before: State, replayed: State, after: State, joint: Mapping[str, str]) -> str | None:
    """How the logged next state differs from the replayed one (fire that spread aside), or None."""
    for name in world.roles:
        then, now, logged = before.agents[name], replayed.agents[name], after.agents[name]
        if now == logged:
            continue
        did = f"{joint[name]!r} from {list(then.pos)} facing {then.facing}"
        if now.pos != logged.pos:
            return f"the log has {name} at {list(logged.pos)}, but {did} leads to {list(now.pos)}"
        if now.facing != logged.facing:
            return f"the log has {name} facing {logged.facing}, but after {did} it faces {now.facing}"
        return f"the log has {name} holding {list(logged.holding)}, but after {did} it holds {list(now.holding)}"
    if replayed.items != after.items:
        return f"the log has items lying at {_cells(after.items)}, the actions leave them at {_cells(replayed.items)}"
    if replayed.fire - after.fire:
        return f"the fire at {list(min(replayed.fire - after.fire))} goes out, but no firefighter put it out"
    for field, label in (("debris", "debris at"), ("located", "victims found"), ("treated", "victims treated"),
                         ("used", "medkits used")):
        logged, expected = getattr(after, field), getattr(replayed, field)
        if logged != expected:
            shown = [list(v) if isinstance(v, tuple) else v for v in sorted(logged)]
            wanted = [list(v) if isinstance(v, tuple) else v for v in sorted(expected)]
            return f"the log has {label} {shown}, the actions lead to {wanted}"
    return None


def _cells(items: Mapping[str, tuple[int, int]]) -> dict[str, list[int]]:
    return {name: list(pos) for name, pos in sorted(items.items())}


def _fact_difference(expected: set[Fact], lifted: set[Fact]) -> str:
    parts = []
    for label, facts in (("missing", expected - lifted), ("unexpected", lifted - expected)):
        if facts:
            parts.append(f"{label} " + " ".join(format_fact(f) for f in sorted(facts)[:4]))
    return "; ".join(parts)

