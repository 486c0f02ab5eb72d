"""An independent reading of the definitions (v4: sections 1-6 and 10, and sections 13 and 14: blocks and
self-help cost), used as a test oracle.

Written from ``docs/definitions.md`` alone, without reading the package's analysis modules: it takes
only the input side (a :class:`~strips_int.model.trace.Trace` of ground actions and the
:class:`~strips_int.model.domain.Domain` with its pragmas) and recomputes every number of a report the
plainest way: whole states kept per step, links found by scanning back, ground actions enumerated by
brute force over typed objects. Slow is fine here; each rule is one short function that can be read
against its sentence of the definitions. Where they leave a choice, the comment says which reading this takes,
with the section number.

:func:`compare` sets it side by side with ``strips_int``'s own report; ``benchmarks/spec_check.py``
runs that over folders of games.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict, deque
from dataclasses import dataclass, field, replace
from typing import AbstractSet, Any, Iterable, Iterator, Mapping

from strips_int.model.domain import Domain, Schema
from strips_int.model.task import Fact, GroundAction, Problem, format_fact
from strips_int.model.trace import Attempt, Step, Trace

INIT = "init"


@dataclass(frozen=True)
class Rules:
    """The definitions' rules, v3 by default. Each field can be switched to the earlier (v2) reading, only to
    tell which v3 change explains a disagreement with the package (``explain``); the oracle's answer
    is always the v3 one."""

    #: Section 3 (v3): a fact's achiever is the last earlier step whose add list holds it, even if the
    #: fact was already true. v2 reading: the last step that made it true (added it while false).
    achiever_last_adder: bool = True
    #: Section 3 (v3): the last achiever of a goal fact is relevant whatever the goal fact's predicate.
    #: v2 reading: only through a goal fact that carries relevance.
    goal_any_predicate: bool = True
    #: Section 4 (v3): no link of a chain is on an ignored fact. v2 reading: only the linking facts
    #: (the last link) leave ignored facts out.
    chain_skips_ignored: bool = True
    #: Section 6 (v3): navigation is decided on the ground step; a step that adds and deletes nothing
    #: is navigation. v2 reading: decided on the schema's effects, and a schema without effects is not.
    navigation_on_step: bool = True
    #: Section 6 (v3): relaxed reachability keeps negative preconditions. v2 reading: they are dropped.
    negative_preconditions: bool = True


V3 = Rules()


@dataclass(frozen=True)
class Interdependence:
    """One (giver, receiver) pair (sections 4, 5 and 10)."""

    giver: int
    receiver: int
    facts: frozenset[Fact]
    objects: frozenset[str]
    goal_reaching: bool
    giver_loop: bool
    receiver_loop: bool
    category: str
    required: bool


@dataclass(frozen=True)
class AgentTasks:
    """An agent's sub-tasks, triggers and accepted triggers, as step indices (section 6)."""

    subtasks: tuple[int, ...]
    triggers: tuple[int, ...]
    accepted: tuple[int, ...]


@dataclass(frozen=True)
class OracleReport:
    """What the oracle computes for one trace."""

    achieved: frozenset[Fact]
    relevant: frozenset[int]
    interdependences: Mapping[tuple[int, int], Interdependence]
    tasks: Mapping[str, AgentTasks]
    actors: tuple[str | None, ...]
    counts: Mapping[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- the vocabulary (section 1)

def declared_agent_type(domain: Domain, obj_type: str) -> bool:
    """Section 1: ``agent``, a type the ``agent-types`` pragma names, or a subtype of one, by the domain's
    declared hierarchy alone (a name of the pragma that the domain does not declare as a type is no type
    here: see :func:`agent_predicates`)."""
    declared = set(domain.parents) | set(domain.parents.values())
    named = {"agent"} | (set(domain.agent_types) & declared)
    seen = set()
    while obj_type not in seen:
        if obj_type in named:
            return True
        seen.add(obj_type)
        obj_type = domain.parents.get(obj_type, obj_type)
    return False


def agent_predicates(domain: Domain) -> frozenset[str]:
    """Section 1 (v4): the names of ``agent-types`` that are not declared types but static unary predicates
    (no schema adds or deletes them), worked out here from the schemas' effects."""
    declared = set(domain.parents) | set(domain.parents.values())
    changed = {pred for s in domain.schemas.values() for pred, _ in s.add + s.delete}
    return frozenset(n for n in domain.agent_types - declared
                     if len(domain.predicates.get(n, ())) == 1 and n not in changed)


def agents_of(domain: Domain, problem: Problem) -> frozenset[str]:
    """Section 1: the objects of an agent type (``agent`` or a subtype, or a type the pragma names), and
    the objects for which an agent predicate holds in the initial state."""
    predicates = agent_predicates(domain)
    return frozenset(o for o, t in problem.objects.items()
                     if declared_agent_type(domain, t) or any((p, o) in problem.init for p in predicates))


def schema_actor(domain: Domain, schema: Schema) -> int | None:
    """Section 1: the first parameter declared with an agent type (an ``either`` type counts only when
    every type in it is an agent type) or of which the precondition holds an agent predicate. None: an
    environment action."""
    predicates = agent_predicates(domain)
    for position, types in enumerate(schema.param_types):
        if types and all(declared_agent_type(domain, t) for t in types):
            return position
        if any(pred in predicates and terms == (position,) for pred, terms in schema.pre):
            return position
    return None


def actor_of(domain: Domain, action: GroundAction) -> str | None:
    """The actor of a ground action, worked out here from its schema (not read from ``action.actor``)."""
    position = schema_actor(domain, domain.schemas[action.name])
    return None if position is None else action.args[position]


def mentions(fact: Fact, obj: str) -> bool:
    """A fact mentions an object when the object is one of its arguments.

    Sections 5 and 6 speak of facts that "mention" an object or the actor; a predicate name is not an
    argument, so it is never "mentioned". (Where that could matter, the state of a 0-ary linking
    fact's object, both readings agree: both receivers compared need the fact, so it holds before
    each, and the state is {} under this reading and {(p)} under the other, before both.)"""
    return obj in fact[1:]


# ---------------------------------------------------------------- section 2: execution

def execute_states(trace: Trace) -> list[frozenset[Fact]]:
    """Section 2: s0 ... sn; step k is applied to states[k]. An inapplicable step raises ValueError."""
    state = frozenset(trace.problem.init)
    states = [state]
    for step in trace.steps:
        action = step.action
        missing = action.pre - state
        present = action.neg_pre & state
        if missing or present:
            raise ValueError(f"step {step.index} (t={step.t}) {action} is not applicable: "
                             f"missing {sorted(missing)}, present {sorted(present)}")
        state = (state - action.delete) | action.add
        states.append(state)
    return states


# ---------------------------------------------------------------- section 3: the causal graph

def achiever(trace: Trace, states: list[frozenset[Fact]], fact: Fact, k: int, rules: Rules = V3) -> int | str:
    """Section 3: the last step before k whose add effect contains ``fact`` (whether or not it was
    already true), else the initial state."""
    for j in range(k - 1, -1, -1):
        if fact in trace.steps[j].action.add:
            if rules.achiever_last_adder or fact not in states[j]:
                return j
    return INIT


def causal_links(trace: Trace, states: list[frozenset[Fact]], rules: Rules = V3) -> list[tuple[int | str, int, Fact]]:
    """Section 3: (achiever, k, f) for every step k and positive precondition f of k."""
    return [(achiever(trace, states, f, k, rules), k, f)
            for k, step in enumerate(trace.steps) for f in sorted(step.action.pre)]


def carries_relevance(domain: Domain, agents: frozenset[str], fact: Fact) -> bool:
    """Section 3: facts of ignored predicates and an agent's own status (a fact with arguments, all
    of them agents) carry no relevance. A 0-ary fact has no arguments, so it is not an agent's
    status: it carries (a reading: "a fact with arguments" excludes it)."""
    if fact[0] in domain.ignore_predicates:
        return False
    args = fact[1:]
    return not (args and all(a in agents for a in args))


def relevant_steps(domain: Domain, trace: Trace, states, links, achieved: frozenset[Fact],
                   rules: Rules = V3) -> frozenset[int]:
    """Section 3: last achievers of achieved goal facts, then backwards through carrying links."""
    agents = agents_of(domain, trace.problem)
    n = len(trace.steps)
    relevant: set[int] = set()
    for fact in achieved:
        if not rules.goal_any_predicate and not carries_relevance(domain, agents, fact):
            continue
        last = achiever(trace, states, fact, n, rules)
        if last != INIT:
            relevant.add(last)
    # A link always goes back in time, so one pass from the last step down closes the set.
    into: dict[int, list[tuple[int | str, Fact]]] = defaultdict(list)
    for source, k, fact in links:
        into[k].append((source, fact))
    for k in range(n - 1, -1, -1):
        if k in relevant:
            for source, fact in into[k]:
                if source != INIT and carries_relevance(domain, agents, fact):
                    relevant.add(source)
    return frozenset(relevant)


# ---------------------------------------------------------------- section 4: interdependence

def link_object(fact: Fact, agents: frozenset[str]) -> str:
    """Sections 4 and 12: the first argument that is not an agent; the first argument when all are
    agents; the predicate name of a 0-ary fact."""
    args = fact[1:]
    if not args:
        return fact[0]
    return next((a for a in args if a not in agents), args[0])


def interdependence_pairs(domain: Domain, trace: Trace, actors, links,
                          rules: Rules = V3) -> dict[tuple[int, int], frozenset[Fact]]:
    """Section 4: (g, r) -> linking facts.

    A chain leads from agent step g to agent step r of another actor through environment steps
    only, no link of it on an ignored fact. Its linking facts are those of its last link. When several
    chains join the same g and r (a direct link and one through the pot), the pair's linking facts are
    the union of their last links' facts (a reading: section 4 counts the pair once "however many
    facts link it")."""
    ignored = domain.ignore_predicates
    into: dict[int, list[tuple[int | str, Fact]]] = defaultdict(list)
    for source, k, fact in links:
        into[k].append((source, fact))

    givers_through: dict[int, frozenset[int]] = {}

    def agent_sources(step: int) -> frozenset[int]:
        """The agent steps from which a chain of environment steps leads to ``step`` (itself if it is
        an agent step)."""
        if actors[step] is not None:
            return frozenset({step})
        if step not in givers_through:
            found: set[int] = set()
            for source, fact in into[step]:
                if source != INIT and (fact[0] not in ignored or not rules.chain_skips_ignored):
                    found |= agent_sources(source)
            givers_through[step] = frozenset(found)
        return givers_through[step]

    pairs: dict[tuple[int, int], set[Fact]] = defaultdict(set)
    for r in range(len(trace.steps)):
        if actors[r] is None:
            continue
        for source, fact in into[r]:
            if source == INIT or fact[0] in ignored:
                continue
            for g in agent_sources(source):
                if actors[g] != actors[r]:
                    pairs[(g, r)].add(fact)
    return {pair: frozenset(facts) for pair, facts in pairs.items()}


# ---------------------------------------------------------------- section 5: classification

def object_state(domain: Domain, agents: frozenset[str], state: frozenset[Fact], obj: str) -> frozenset[Fact]:
    """Section 5 (and 12): the facts that mention ``obj``, minus those that mention an agent and those
    of position predicates (facts of ignored predicates stay)."""
    return frozenset(f for f in state if mentions(f, obj)
                     and not any(a in agents for a in f[1:]) and f[0] not in domain.position_predicates)


def classify(domain: Domain, trace: Trace, states, actors, pairs: Mapping[tuple[int, int], frozenset[Fact]],
             relevant: frozenset[int]) -> dict[tuple[int, int], tuple[frozenset[str], bool, bool, bool, str]]:
    """Section 5: (g, r) -> (objects, goal_reaching, giver_loop, receiver_loop, category)."""
    agents = agents_of(domain, trace.problem)
    objects = {pair: frozenset(link_object(f, agents) for f in facts) for pair, facts in pairs.items()}

    def state_before(step: int, obj: str) -> frozenset[Fact]:
        return object_state(domain, agents, states[step], obj)

    found = {}
    for (g, r), objs in objects.items():
        giver_loop = receiver_loop = False
        for o in objs:
            sigma = state_before(r, o)
            for (g2, r2), objs2 in objects.items():
                if o not in objs2:
                    continue
                # Giver loop: a later pair on o whose receiver step is the giver's agent's.
                if r2 > r and actors[r2] == actors[g] and state_before(r2, o) == sigma:
                    giver_loop = True
                # Receiver loop: an earlier pair on o (its receiver step before r) given by r's agent.
                if r2 < r and actors[g2] == actors[r] and state_before(r2, o) == sigma:
                    receiver_loop = True
        reaching = r in relevant
        category = "looping" if giver_loop or receiver_loop else "constructive" if reaching else "irrelevant"
        found[(g, r)] = (objs, reaching, giver_loop, receiver_loop, category)
    return found


# ---------------------------------------------------------------- ground actions and relaxed reachability

def ground_all(domain: Domain, problem: Problem) -> list[GroundAction]:
    """Every ground action of the problem, by brute force over typed objects.

    Static preconditions (predicates no schema adds or deletes) are checked as soon as their
    parameters are bound, only to keep Overcooked's grids tractable: such a fact holds only in the
    initial state, so an action that needs one that is not there can never be reached, and the fact
    that a trigger makes true is never static."""
    changing = {pred for s in domain.schemas.values() for pred, _ in s.add + s.delete}
    actions = []
    for schema in domain.schemas.values():
        static = [(pred, terms) for pred, terms in schema.pre if pred not in changing]
        n = len(schema.params)
        order = sorted(range(n), key=lambda i: (not any(i in terms for _, terms in static), i))
        candidates = [sorted(o for o, t in problem.objects.items() if domain.fits(t, schema.param_types[i]))
                      for i in range(n)]
        binding: dict[int, str] = {}

        def holds(pred: str, terms) -> bool:
            return (pred, *[binding[t] if isinstance(t, int) else t for t in terms]) in problem.init

        def extend(depth: int) -> Iterator[tuple[str, ...]]:
            if depth == n:
                yield tuple(binding[i] for i in range(n))
                return
            i = order[depth]
            for obj in candidates[i]:
                binding[i] = obj
                if all(holds(pred, terms) for pred, terms in static
                       if i in terms and all(not isinstance(t, int) or t in binding for t in terms)):
                    yield from extend(depth + 1)
                del binding[i]

        for args in extend(0):
            if not schema.failed_equalities(args):
                actions.append(schema.ground(args))
    return actions


@dataclass(frozen=True)
class Relaxed:
    """Section 6, last paragraph: delete-relaxed reachability that keeps negative preconditions.

    ``facts``: the positive facts reachable; ``deleted``: the facts some reachable action deletes.
    ``(not f)`` is reachable when f is false initially or in ``deleted``."""

    init: AbstractSet[Fact]
    facts: AbstractSet[Fact]
    deleted: AbstractSet[Fact]
    negative_preconditions: bool = True

    def reachable_except(self, action: GroundAction, fact: Fact | None = None) -> bool:
        """``action``'s preconditions other than ``fact`` are all reachable. (Section 6 says "appears
        in the precondition" of the fact a trigger makes true: a positive precondition, read here as
        needing the fact; a negative one is disabled by it, not served.)"""
        return (all(f in self.facts for f in action.pre if f != fact)
                and all(not self.negative_preconditions or f not in self.init or f in self.deleted
                        for f in action.neg_pre))


def relaxed_reachability(actions: Iterable[GroundAction], init: frozenset[Fact], rules: Rules = V3) -> Relaxed:
    """Apply every reachable action (its adds; its deletes only recorded) until nothing changes."""
    pending = list(actions)
    facts: set[Fact] = set(init)
    deleted: set[Fact] = set()
    growing = Relaxed(init, facts, deleted, rules.negative_preconditions)  # sees the sets as they grow
    changed = True
    while changed:
        changed = False
        waiting = []
        for action in pending:
            if growing.reachable_except(action):
                facts |= action.add
                deleted |= action.delete
                changed = True
            else:
                waiting.append(action)
        pending = waiting
    return Relaxed(init, frozenset(facts), frozenset(deleted), rules.negative_preconditions)


# ---------------------------------------------------------------- section 6: sub-tasks and triggers

def is_navigation(domain: Domain, action: GroundAction, actor: str, rules: Rules = V3) -> bool:
    """Section 6: with the ``navigation-actions`` pragma, exactly its schemas; else a step is navigation
    when every fact its ground action adds or deletes mentions its actor (no effect at all: a wait)."""
    if domain.navigation_actions:
        return action.name in domain.navigation_actions
    if rules.navigation_on_step:
        return all(mentions(f, actor) for f in action.add | action.delete)
    schema = domain.schemas[action.name]  # the v2 reading, for `explain` only
    position = schema_actor(domain, schema)
    effects = schema.add + schema.delete
    return bool(effects) and all(position in terms for _, terms in effects)


def fact_users(domain: Domain, actions: list[GroundAction], relaxed: Relaxed) -> dict[Fact, frozenset[str]]:
    """Section 6: for each fact, the agents who can use it: the actor of a ground action that needs it
    and whose other preconditions are relaxed-reachable, or (in turn) a user of a non-ignored fact
    added by such an environment action that needs it.

    The environment action in a chain is "reachable" in the same sense as an agent's: its
    preconditions other than the fact passed to it (a reading of section 6)."""
    users: dict[Fact, set[str]] = defaultdict(set)
    passes: list[tuple[Fact, Fact]] = []  # (f, g): an environment action needing f adds g
    for action in actions:
        actor = actor_of(domain, action)
        for fact in action.pre:
            if not relaxed.reachable_except(action, fact):
                continue
            if actor is not None:
                users[fact].add(actor)
            else:
                passes += [(fact, added) for added in action.add if added[0] not in domain.ignore_predicates]
    changed = True
    while changed:
        changed = False
        for fact, added in passes:
            if not users[added] <= users[fact]:
                users[fact] |= users[added]
                changed = True
    return {fact: frozenset(who) for fact, who in users.items()}


def agent_tasks(domain: Domain, trace: Trace, states, actors, pairs, users: Mapping[Fact, frozenset[str]],
                rules: Rules = V3) -> dict[str, AgentTasks]:
    """Section 6: each agent's sub-tasks, triggers (a sub-task newly adding a non-ignored fact another
    agent can use) and accepted triggers (givers of at least one interdependence)."""
    givers = {g for g, _ in pairs}
    found = {}
    for agent in sorted(agents_of(domain, trace.problem)):
        subtasks, triggers = [], []
        for k, step in enumerate(trace.steps):
            if actors[k] != agent or is_navigation(domain, step.action, agent, rules):
                continue
            subtasks.append(k)
            new = step.action.add - states[k]
            if any(f[0] not in domain.ignore_predicates and users.get(f, frozenset()) - {agent} for f in new):
                triggers.append(k)
        found[agent] = AgentTasks(tuple(subtasks), tuple(triggers), tuple(k for k in triggers if k in givers))
    return found


# ---------------------------------------------------------------- section 10: required or optional

def required(facts: frozenset[Fact], alone: Relaxed) -> bool:
    """Section 10: required when no linking fact is relaxed-reachable by the receiver's agent alone
    (its actions and environment actions, from the initial state, the other agents staying put).

    "Nor one that differs from it only by interchangeable objects, such as another fresh onion": read
    as objects (not agents, not domain constants) of one type that a swap maps the initial state onto
    itself. Such a swap maps the receiver's ground actions onto its ground actions, so a fact is
    reachable exactly when its swapped twin is: the clause never changes a verdict, and is not
    computed here."""
    return not any(fact in alone.facts for fact in facts)


# ---------------------------------------------------------------- everything

def oracle(domain: Domain, trace: Trace, rules: Rules = V3) -> OracleReport:
    """definitions v3 sections 2-6 and 10 on one trace."""
    problem = trace.problem
    states = execute_states(trace)
    actors = tuple(actor_of(domain, step.action) for step in trace.steps)
    links = causal_links(trace, states, rules)
    achieved = problem.goal & states[-1]
    relevant = relevant_steps(domain, trace, states, links, achieved, rules)
    pairs = interdependence_pairs(domain, trace, actors, links, rules)
    classes_of = classify(domain, trace, states, actors, pairs, relevant)

    actions = ground_all(domain, problem)
    relaxed = relaxed_reachability(actions, problem.init, rules)
    users = fact_users(domain, actions, relaxed)
    tasks = agent_tasks(domain, trace, states, actors, pairs, users, rules)

    alone: dict[str, Relaxed] = {}
    found = {}
    for (g, r), facts in sorted(pairs.items()):
        receiver = actors[r]
        if receiver not in alone:
            mine = [a for a in actions if actor_of(domain, a) in (None, receiver)]
            alone[receiver] = relaxed_reachability(mine, problem.init, rules)
        objs, reaching, giver_loop, receiver_loop, category = classes_of[(g, r)]
        found[(g, r)] = Interdependence(g, r, facts, objs, reaching, giver_loop, receiver_loop, category,
                                        required(facts, alone[receiver]))
    categories = [i.category for i in found.values()]
    constructive = [i for i in found.values() if i.category == "constructive"]
    counts = {
        "interdependencies": len(found),
        "constructive": len(constructive),
        "non_constructive": categories.count("looping") + categories.count("irrelevant"),
        "looping": categories.count("looping"),
        "irrelevant": categories.count("irrelevant"),
        "constructive_required": sum(i.required for i in constructive),
        "constructive_optional": sum(not i.required for i in constructive),
    }
    return OracleReport(achieved, relevant, found, tasks, actors, counts)


# ---------------------------------------------------------------- section 13: blocks

@dataclass(frozen=True)
class Block:
    """Section 13: a giver (``("step", k)`` or, in a collision, ``("attempt", i)``) that made attempt
    ``attempt`` fail on ``facts`` (PDDL text; ``(not f)`` for a fact it needed false)."""

    giver: tuple[str, int]
    attempt: int
    facts: frozenset[str]


def blocks(trace: Trace) -> list[Block]:
    """Section 13 on a trace's attempts, whole states kept per step.

    Readings where the section is silent: one block per giver step (an attempt failed on two facts by
    one step is one block with both); two attempts of one ``t`` by different agents are a collision (the
    game refused them together although each alone was applicable) when each is applicable at their place
    and neither after the other's effects, or neither is applicable there and each is after the other's
    (a swap); each is then blocked by the other's attempt on what fails, and by nothing else."""
    states = execute_states(trace)
    attempts = trace.attempts or ()
    found: list[Block] = []

    def place(attempt: Attempt) -> int:  # the number of steps with t <= the attempt's t
        return sum(step.t <= attempt.t for step in trace.steps)

    def fails(action: GroundAction, state: frozenset[Fact]) -> frozenset[str]:
        return frozenset([format_fact(f) for f in action.pre - state]
                         + [f"(not {format_fact(f)})" for f in action.neg_pre & state])

    collided: dict[int, Block] = {}
    for a, b in itertools.combinations(attempts, 2):
        if a.t != b.t or a.action.actor == b.action.actor or a.index in collided or b.index in collided:
            continue
        state = states[place(a)]
        after_b = (state - b.action.delete) | b.action.add
        after_a = (state - a.action.delete) | a.action.add
        alone = (not fails(a.action, state), not fails(b.action, state))
        together = (not fails(a.action, after_b), not fails(b.action, after_a))
        if alone == (True, True) and together == (False, False):
            collided[a.index] = Block(("attempt", b.index), a.index, fails(a.action, after_b))
            collided[b.index] = Block(("attempt", a.index), b.index, fails(b.action, after_a))
        elif alone == (False, False) and together == (True, True):
            collided[a.index] = Block(("attempt", b.index), a.index, fails(a.action, state))
            collided[b.index] = Block(("attempt", a.index), b.index, fails(b.action, state))
    for attempt in attempts:
        if attempt.index in collided:
            found.append(collided[attempt.index])
            continue
        k = place(attempt)
        state = states[k]
        by_giver: dict[int, set[str]] = defaultdict(set)
        for fact in attempt.action.pre - state:  # the last step before the place that deleted it
            last = next((j for j in range(k - 1, -1, -1) if fact in trace.steps[j].action.delete), None)
            if last is not None:
                by_giver[last].add(format_fact(fact))
        for fact in attempt.action.neg_pre & state:  # the last step before the place that added it
            last = next((j for j in range(k - 1, -1, -1) if fact in trace.steps[j].action.add), None)
            if last is not None:
                by_giver[last].add(f"(not {format_fact(fact)})")
        for j, facts in sorted(by_giver.items()):
            giver = trace.steps[j].action.actor
            if giver is not None and giver != attempt.action.actor:  # not the environment, not B itself
                found.append(Block(("step", j), attempt.index, frozenset(facts)))
    return found


# ---------------------------------------------------------------- section 14: self-help cost

def interchangeable(domain: Domain, problem: Problem) -> list[tuple[str, str]]:
    """Section 14 (with section 10): the pairs of objects of one type, neither an agent nor a domain
    constant, whose exchange maps the initial state and the goal onto themselves."""
    agents = agents_of(domain, problem)
    by_type: dict[str, list[str]] = defaultdict(list)
    for obj, obj_type in problem.objects.items():
        if obj not in agents and obj not in domain.constants:
            by_type[obj_type].append(obj)
    pairs = []
    for objs in by_type.values():
        for x, y in itertools.combinations(sorted(objs), 2):
            swap = {x: y, y: x}

            def swapped(facts: frozenset[Fact]) -> frozenset[Fact]:
                return frozenset((f[0], *(swap.get(a, a) for a in f[1:])) for f in facts)

            if swapped(problem.init) == problem.init and swapped(problem.goal) == problem.goal:
                pairs.append((x, y))
    return pairs


def twins(facts: Iterable[Fact], pairs: list[tuple[str, str]]) -> frozenset[Fact]:
    """``facts`` and every fact that differs from one of them only by interchangeable objects (the
    closure under the exchanges of ``pairs``)."""
    found = set(facts)
    todo = list(found)
    while todo:
        fact = todo.pop()
        for x, y in pairs:
            swap = {x: y, y: x}
            other = (fact[0], *(swap.get(a, a) for a in fact[1:]))
            if other not in found:
                found.add(other)
                todo.append(other)
    return frozenset(found)


def self_help_cost(domain: Domain, problem: Problem, actions: list[GroundAction], receiver: str,
                   facts: frozenset[Fact], limit: int = 200_000) -> int | str:
    """Section 14: the fewest of ``receiver``'s own actions by which it alone (its ground actions and the
    environment's, which cost nothing; other agents stay put) goes from the initial state to a state
    holding one of ``facts`` or a twin of one. ``inf`` when relaxed reachability (section 10) or the
    complete search says no such state exists; ``unknown`` past ``limit`` states. A plain breadth-first
    search by cost over whole states (0-cost steps first), every ground action enumerated by brute force."""
    mine = [a for a in actions if actor_of(domain, a) in (None, receiver)]
    if required(facts, relaxed_reachability(mine, problem.init)):
        return "inf"
    targets = twins(facts, interchangeable(domain, problem))
    start = frozenset(problem.init)
    best = {start: 0}
    queue = deque([(0, start)])
    while queue:
        cost, state = queue.popleft()
        if best[state] < cost:
            continue
        if state & targets:
            return cost
        if len(best) > limit:
            return "unknown"
        for action in mine:
            if action.pre <= state and not action.neg_pre & state:
                step = 0 if actor_of(domain, action) is None else 1
                after = (state - action.delete) | action.add
                if best.get(after, cost + step + 1) > cost + step:
                    best[after] = cost + step
                    (queue.appendleft if step == 0 else queue.append)((cost + step, after))
    return "inf"


def self_help_costs(domain: Domain, trace: Trace, limit: int = 200_000) -> dict[tuple[int, int], int | str]:
    """Section 14 for every interdependence of ``trace`` (by giver and receiver step)."""
    pairs = oracle(domain, trace).interdependences
    actions = ground_all(domain, trace.problem)
    return {pair: self_help_cost(domain, trace.problem, actions, actor_of(domain, trace.steps[pair[1]].action),
                                 item.facts, limit) for pair, item in sorted(pairs.items())}


# ---------------------------------------------------------------- side by side with the package

def _pair_key(record: Mapping[str, Any]) -> tuple[int, int]:
    return record["giver"]["index"], record["receiver"]["index"]


@dataclass(frozen=True)
class Difference:
    """One way the package's report differs from the oracle's: where (a pair, an agent, or the whole
    report), what kind of value, the package's value and the oracle's."""

    where: str
    kind: str
    package: Any
    oracle: Any

    def __str__(self) -> str:
        return f"{self.where} {self.kind}: package {self.package}, oracle {self.oracle}"


def compare(domain: Domain, trace: Trace, expected: OracleReport | None = None, report: Any = None) -> list[Difference]:
    """Every difference between ``strips_int.analyze(domain, trace)`` and the oracle's reading.

    Compared: the actor of each step (section 1), the achieved goal, the counts, each agent's
    sub-tasks, triggers and accepted triggers (step indices), the interdependences (giver, receiver)
    and of each its category, facts, objects, goal-reaching, loops and required. ``report``: the
    package's report of this trace, if already made."""
    from strips_int import analyze

    expected = expected or oracle(domain, trace)
    report = report or analyze(domain, trace)
    data = report.to_dict()
    diffs: list[Difference] = []

    def check(where: str, kind: str, package: Any, mine: Any) -> None:
        if package != mine:
            diffs.append(Difference(where, kind, package, mine))

    check("steps", "actors", [s.action.actor for s in trace.steps], list(expected.actors))
    check("goal", "achieved", sorted(data["goal"]["achieved"]), sorted(format_fact(f) for f in expected.achieved))
    for key, value in expected.counts.items():
        check("count", key, data["counts"].get(key), value)
    for agent, tasks in expected.tasks.items():
        theirs = report.tasks.get(agent)
        for part in ("subtasks", "triggers", "accepted"):
            check(agent, part, tuple(getattr(theirs, part)) if theirs is not None else None, getattr(tasks, part))
    theirs = {_pair_key(rec): rec for rec in data["interdependencies"]}
    for pair in sorted(set(theirs) | set(expected.interdependences)):
        mine, rec = expected.interdependences.get(pair), theirs.get(pair)
        where = f"pair {pair}"
        if mine is None or rec is None:
            check(where, "found", rec and rec["category"], mine and mine.category)
            continue
        check(where, "category", rec["category"], mine.category)
        check(where, "facts", sorted(rec["facts"]), sorted(format_fact(f) for f in mine.facts))
        check(where, "objects", sorted(rec["objects"]), sorted(mine.objects))
        for key in ("goal_reaching", "giver_loop", "receiver_loop", "required"):
            check(where, key, rec[key], getattr(mine, key))
    if trace.attempts is not None:  # section 13
        check("blocks", "found", sorted(_block_key(b) for b in data["blocks"]),
              sorted((b.giver, b.attempt, tuple(sorted(b.facts))) for b in blocks(trace)))
    return diffs


def _block_key(record: Mapping[str, Any]) -> tuple[tuple[str, int], int, tuple[str, ...]]:
    giver = record["giver"]
    kind = "attempt" if "attempt" in giver else "step"
    return (kind, giver[kind]), record["attempt"]["attempt"], tuple(sorted(record["facts"]))


def compare_costs(domain: Domain, trace: Trace, limit: int = 200_000, report: Any = None) -> list[Difference]:
    """Section 14: where the package's self-help cost of an interdependence differs from the oracle's
    search (a cost either side left ``unknown`` is not compared: each search has its own limit)."""
    from strips_int import analyze_run
    from strips_int.model.execution import execute

    report = report or analyze_run(domain, execute(trace), help_cost=True)
    mine = self_help_costs(domain, trace, limit)
    diffs = []
    for rec in report.to_dict()["interdependencies"]:
        pair = _pair_key(rec)
        theirs, expected = rec["self_help_cost"], mine.get(pair)
        if "unknown" not in (theirs, expected) and theirs != expected:
            diffs.append(Difference(f"pair {pair}", "self_help_cost", theirs, expected))
    return diffs


#: The v2 readings :func:`explain` tries, one at a time, by the definitions section v3 changed.
V2_READINGS = {
    "section 3: achiever = last step that made the fact true": {"achiever_last_adder": False},
    "section 3: goal fact's last achiever relevant only through a carrying fact": {"goal_any_predicate": False},
    "section 4: chains may pass ignored facts": {"chain_skips_ignored": False},
    "section 6: navigation decided on the schema": {"navigation_on_step": False},
    "section 6: negative preconditions dropped in relaxed reachability": {"negative_preconditions": False},
}


def explain(domain: Domain, trace: Trace, expected: OracleReport | None = None,
            report: Any = None) -> tuple[list[Difference], list[str]]:
    """The differences under v3, and the fewest v2 readings under which the package agrees with the
    oracle on everything (one, else two, else all): which definitions v3 changes it has not implemented yet."""
    from strips_int import analyze

    report = report or analyze(domain, trace)
    diffs = compare(domain, trace, expected, report)
    if not diffs:
        return diffs, []
    for size in (1, 2, len(V2_READINGS)):
        for names in itertools.combinations(V2_READINGS, size):
            rules = Rules(**{key: value for name in names for key, value in V2_READINGS[name].items()})
            if not compare(domain, trace, oracle(domain, trace, rules), report):
                return diffs, list(names)
    return diffs, []


# ---------------------------------------------------------------- section 11: what a recorded game's problem holds

def recorded_game_problems(domain: Domain, trace: Trace) -> list[Difference]:
    """Section 11 on a grounded recorded game (Overcooked): every goal fact is reached (the goal is
    the soups whose delivery earned reward), and the problem holds, for each kind a dispenser gives
    (a type ``X-dispenser`` gives ``X``), one fresh object that no step uses."""
    found = []
    problem = trace.problem
    missed = problem.goal - set(execute_states(trace)[-1])
    if missed:
        found.append(Difference("section 11", "goal not reached", sorted(map(format_fact, missed)), "all reached"))
    used = {arg for step in trace.steps for arg in step.action.args}
    kinds = {t.removesuffix("-dispenser") for t in problem.objects.values() if t.endswith("-dispenser")}
    for kind in sorted(kinds):
        spare = [o for o, t in problem.objects.items() if t == kind and ("fresh", o) in problem.init and o not in used]
        if not spare:
            found.append(Difference("section 11", f"spare fresh {kind}", "none", "one unused fresh object"))
    return found


def with_spares(trace: Trace) -> Trace:
    """``trace`` with, for each kind a dispenser gives that has no unused fresh object yet, one more
    (``spare-KIND``, fresh): the problem definitions v3 section 11 asks a grounder for, so that the analysis
    can be checked on it before the grounders make it."""
    problem = trace.problem
    used = {arg for step in trace.steps for arg in step.action.args}
    objects, init = dict(problem.objects), set(problem.init)
    for kind in sorted({t.removesuffix("-dispenser") for t in problem.objects.values() if t.endswith("-dispenser")}):
        if not any(t == kind and ("fresh", o) in init and o not in used for o, t in objects.items()):
            objects[f"spare-{kind}"] = kind
            init.add(("fresh", f"spare-{kind}"))
    return replace(trace, problem=replace(problem, objects=objects, init=frozenset(init)))


def random_walk(domain: Domain, problem: Problem, steps: int, seed: int, goal_facts: int = 3) -> Trace:
    """A valid trace of up to ``steps`` random applicable ground actions (agents' and environment's)
    from ``problem``'s initial state; half the time a non-navigation action is preferred, so that items
    change hands. Its goal is up to ``goal_facts`` facts made true along the way that hold at the end."""
    rng = random.Random(seed)
    actions = ground_all(domain, problem)
    state, taken = frozenset(problem.init), []
    for _ in range(steps):
        applicable = [a for a in actions if a.pre <= state and not a.neg_pre & state]
        if not applicable:
            break
        busy = [a for a in applicable
                if actor_of(domain, a) is None or not is_navigation(domain, a, actor_of(domain, a))]
        action = rng.choice(busy if busy and rng.random() < 0.5 else applicable)
        taken.append(action)
        state = (state - action.delete) | action.add
    made = sorted(state - problem.init)
    goal = frozenset(rng.sample(made, min(goal_facts, len(made))))
    return Trace(source=f"random walk {seed} on {problem.name}", problem=replace(problem, goal=goal),
                 steps=Step.numbered(range(len(taken)), taken))


def with_attempts(domain: Domain, trace: Trace, seed: int, count: int = 8) -> Trace:
    """``trace`` with up to ``count`` random attempts (section 13): at random times, an agent's ground action
    that is not applicable after the steps of that time, preferring one whose failed facts some step
    changed; and, where two agents have one, a pair of applicable actions that exclude each other (a
    collision). Attempts are not executed, so any such choice is a valid trace."""
    rng = random.Random(seed)
    states = execute_states(trace)
    actions = [a for a in ground_all(domain, trace.problem) if actor_of(domain, a) is not None]
    changed = {f for step in trace.steps for f in step.action.add | step.action.delete}
    found: list[tuple[int, GroundAction]] = []
    times = sorted({step.t for step in trace.steps})
    for t in sorted(rng.sample(times, min(count, len(times)))):
        state = states[sum(step.t <= t for step in trace.steps)]
        refused = [a for a in actions if a.pre - state or a.neg_pre & state]
        blocked = [a for a in refused if (a.pre - state) & changed or (a.neg_pre & state) & changed]
        if refused:
            found.append((t, rng.choice(blocked or refused)))
        if rng.random() < 0.5:
            open_ = [a for a in actions if not (a.pre - state or a.neg_pre & state)]
            pairs = [(a, b) for a, b in itertools.combinations(open_, 2)
                     if actor_of(domain, a) != actor_of(domain, b)
                     and (a.pre - ((state - b.delete) | b.add) or a.neg_pre & ((state - b.delete) | b.add))
                     and (b.pre - ((state - a.delete) | a.add) or b.neg_pre & ((state - a.delete) | a.add))]
            if pairs:
                found += [(t, action) for action in rng.choice(pairs)]
    attempts = tuple(Attempt(i, t, action) for i, (t, action) in enumerate(found))
    return replace(trace, attempts=attempts)
