"""Required or optional interdependencies (definitions section 10).

An interdependence is **required** when its receiver's agent, acting alone
with the environment (the other agents idle where they stand), reaches none
of its linking facts under the delete relaxation, not even with
interchangeable objects in their place (another fresh onion); else
**optional**.

Interchangeable objects are those :func:`~strips_int.analysis.reachability.symmetry_classes`
merges. A game's problem has as many onions as the game used, so each game is
first folded to its classes' representatives; games on one layout then fold
to one problem (on the user study, all of them), and each agent's
reachability is computed once for it (kept in the domain's cache: bounded,
keyed by value, never by identity). Objects that are not interchangeable do
not stand in for each other (definitions section 10): a kit held by a partner makes
the hand-over required even when another kit lies elsewhere.

The reason of a required one is a lifted regression from the linking fact
through the receiver's own and environment actions whose static
preconditions hold, following at each step a precondition of a new predicate
that the agent cannot reach alone, until a predicate only other agent types
make (capability) or none is left (reach). Choice: the first such chain in
sorted order, up to three links, is what the report names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Mapping, Sequence

from strips_int.model.domain import Domain
from strips_int.model.task import Fact, GroundAction, Problem, format_fact

from .interdependence import Finding, Interdependence
from .reachability import (
    Keyed,
    Reachable,
    _complete,
    _Index,
    _join,
    _unify,
    allowed_objects,
    fold,
    problem_key,
    projected_facts,
)

#: How many links of "needs ..." a required interdependence's reason follows.
CHAIN = 3


@dataclass(frozen=True)
class Need:
    """Whether one interdependence was required, and why (from what the receiver can reach alone)."""

    required: bool
    why: str


#: The names of required help's tables in a domain's cache, and how many entries each keeps.
_ALONE, _REASONS = ("required: alone", 64), ("required: reasons", 4096)


def _alone(domain: Domain, problem: Keyed[Problem], agent: str) -> frozenset[Fact]:
    """The facts ``agent`` reaches alone (with environment actions) in a folded problem, kept."""
    table = domain.cache.table(*_ALONE)
    found = table.get((problem, agent))
    return found if found is not None else table.keep((problem, agent), projected_facts(domain, problem, (agent,)))


def interdependence_needs(
    domain: Domain,
    problem: Problem,
    team: Reachable,
    interdependences: Sequence[Interdependence | Finding],
    receivers: Sequence[str],
) -> tuple[Need, ...]:
    """Required or optional, with the reason, for each interdependence (``receivers``: their agents).

    ``team`` is the problem's relaxed reachability with every agent: its
    symmetry classes (which do not depend on who may act) say which objects
    are interchangeable.
    """
    pkey = team.explored or problem_key(fold(problem, team.classes))
    alone = {agent: _alone(domain, pkey, agent) for agent in set(receivers)}
    needs = []
    for inter, agent in zip(interdependences, receivers):
        canon = {fact: team.canonical(fact) for fact in inter.facts}
        doable = [fact for fact in inter.facts if canon[fact] in alone[agent]]
        if doable:
            needs.append(Need(False, _optional_why(agent, doable[0], canon[doable[0]], problem)))
        else:
            explained = tuple(sorted(set(canon.values())))  # the reason is of the first, as its representative
            actual = min(f for f in inter.facts if canon[f] == explained[0])
            needs.append(Need(True, _required_why(agent, inter.facts, canon, problem)
                              + _renamed(_missing(domain, pkey, agent, explained), explained[0], actual)))
    return tuple(needs)


def _renamed(reason: str, canon: Fact, fact: Fact) -> str:
    """A reason found for the representative ``canon`` told of the interdependence's own ``fact``: each
    interchangeable object swapped with the one it stands for (onion2's link, not onion1's), in every fact
    of the reason. The swap maps the representative's chain onto the object's own, which is the same up to it."""
    swap = {a: b for x, y in zip(canon[1:], fact[1:]) if x != y for a, b in ((x, y), (y, x))}
    if not swap:
        return reason
    return re.sub(r"\(([^()]*)\)", lambda m: "(" + " ".join(swap.get(t, t) for t in m[1].split(" ")) + ")", reason)


def _swapped(fact: Fact, canon: Fact, problem: Problem) -> list[str]:
    return [f"another {problem.objects[a]} for {a}" for a, b in zip(fact[1:], canon[1:]) if a != b]


def _optional_why(agent: str, fact: Fact, canon: Fact, problem: Problem) -> str:
    if fact in problem.init:
        return f"optional: {format_fact(fact)} held in the initial state, before any help"
    swapped = _swapped(fact, canon, problem)
    return f"optional: {agent} could make {format_fact(fact)} alone" + (
        f" (with {', '.join(swapped)})" if swapped else "")


def _required_why(agent: str, facts: Sequence[Fact], canon: Mapping[Fact, Fact], problem: Problem) -> str:
    shown = " ".join(format_fact(f) for f in facts)
    swapped = [s for f in facts for s in _swapped(f, canon[f], problem)]
    return f"required: {agent} cannot make {'' if len(facts) == 1 else 'any of '}{shown} alone" + (
        f", nor with {', '.join(swapped)}" if swapped else "")


def _missing(domain: Domain, problem: Keyed[Problem], agent: str, facts: tuple[Fact, ...]) -> str:
    """:func:`_reason`, kept in the domain's cache."""
    table = domain.cache.table(*_REASONS)
    key = (problem, agent, facts)
    found = table.get(key)
    return found if found is not None else table.keep(key, _reason(domain, problem, agent, facts))


def _reason(domain: Domain, problem: Keyed[Problem], agent: str, facts: tuple[Fact, ...]) -> str:
    """Why ``agent`` reaches none of ``facts`` (canonical) alone, from the first of them: a chain of
    needs it cannot meet, ending in one only another agent type can make (capability) or not (reach)."""
    dom, prob = domain, problem.value
    reached = _alone(domain, problem, agent)
    chain, current = [format_fact(facts[0])], facts[0]
    predicates = {current[0]}
    for _ in range(CHAIN + 1):
        lacking = _capability(dom, prob.objects[agent], current[0])
        if lacking and len(chain) == 1:
            return f": only {lacking} makes {current[0]} (capability)"
        if lacking:
            return f": {' needs '.join(chain)}, which only {lacking} makes (capability)"
        options = sorted(
            (len(missing), action.name, need)
            for action in _achievers(dom, prob, agent, current)
            for missing in [[f for f in action.pre if f not in reached]]
            for need in missing if need[0] not in predicates
        )
        if not options or len(chain) > CHAIN:
            break
        _, name, current = options[0]
        predicates.add(current[0])
        chain.append(f"{format_fact(current)} (to {name})")
    if len(chain) == 1:
        return f": none of its actions can make {chain[0]} here (reach)"
    return f": {' needs '.join(chain)}, out of its reach (reach)"


def _capability(domain: Domain, agent_type: str, predicate: str) -> str | None:
    """The actions that add ``predicate``, by the agent types that may take them, when ``agent_type``
    may take none of them and no environment action adds it; else None."""
    makers = [s for s in domain.schemas.values() if any(pred == predicate for pred, _ in s.add)]
    if any(s.actor is None or domain.fits(agent_type, s.param_types[s.actor]) for s in makers):
        return None
    return " or ".join(f"{s.name} by a {'/'.join(sorted(s.param_types[s.actor]))}" for s in makers) or "no action"


def _achievers(domain: Domain, problem: Problem, agent: str, fact: Fact) -> Iterator[GroundAction]:
    """Ground actions of ``agent`` or the environment that add ``fact`` and whose static preconditions hold.

    Lifted, not taken from a reachability run: the achievers the agent never
    reaches are the point.
    """
    static = _static_index(domain, problem)
    kinds = domain.static_predicates
    every_allowed = allowed_objects(domain, problem.objects)
    for schema in domain.schemas.values():
        if schema.actor is not None and not domain.fits(problem.objects[agent], schema.param_types[schema.actor]):
            continue
        allowed = every_allowed[schema.name]
        for pred, terms in schema.add:
            if pred != fact[0] or len(terms) != len(fact) - 1:
                continue
            binding = _unify((pred, terms), fact, [None] * len(schema.params), allowed)
            if binding is None or (schema.actor is not None and binding[schema.actor] not in (None, agent)):
                continue
            if schema.actor is not None:
                binding[schema.actor] = agent
            fixed = tuple(t for t in schema.pre if t[0] in kinds)
            for full in _join(fixed, binding, static, allowed):
                for args in _complete(full, allowed):
                    if not schema.failed_equalities(args):
                        yield domain.ground(schema, args)


def _static_index(domain: Domain, problem: Problem) -> _Index:
    kinds = domain.static_predicates
    index = _Index()
    for fact in sorted(problem.init):
        if fact[0] in kinds:
            index.add(fact)
    return index
