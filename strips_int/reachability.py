"""Delete-relaxed reachability: which facts and ground actions a problem can ever reach.

Written by hand because the libraries that do it (Fast Downward's translator,
unified-planning's grounders) work on their own task objects through a full
translation, which costs more than the whole analysis of a game.

It is a semi-naive fixpoint: each newly reached fact is joined, as each
positive precondition it matches, with the facts reached so far. Negative
preconditions are dropped (the relaxation); (in)equalities are kept, being static.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Collection, Iterator

from .domain import Domain, Schema, Template
from .task import Fact, GroundAction, Problem


@dataclass(frozen=True)
class Reachable:
    """The relaxed-reachable facts and ground actions of a problem."""

    facts: frozenset[Fact]
    actions: tuple[GroundAction, ...]

    def needers(self) -> dict[Fact, frozenset[str]]:
        """For each fact, the agents with a reachable ground action that needs it."""
        found: dict[Fact, set[str]] = defaultdict(set)
        for action in self.actions:
            if action.actor is not None:
                for fact in action.pre:
                    found[fact].add(action.actor)
        return {fact: frozenset(agents) for fact, agents in found.items()}


class _Index:
    """Reached facts, by predicate and by (predicate, position, value)."""

    def __init__(self) -> None:
        self.by_pred: dict[str, list[Fact]] = defaultdict(list)
        self.by_arg: dict[tuple[str, int, str], list[Fact]] = defaultdict(list)

    def add(self, fact: Fact) -> None:
        self.by_pred[fact[0]].append(fact)
        for pos, value in enumerate(fact[1:]):
            self.by_arg[fact[0], pos, value].append(fact)

    def candidates(self, template: Template, binding: list) -> list[Fact]:
        pred, terms = template
        best = self.by_pred.get(pred, [])
        for pos, term in enumerate(terms):
            value = binding[term] if isinstance(term, int) else term
            if value is not None:
                narrowed = self.by_arg.get((pred, pos, value), [])
                if len(narrowed) < len(best):
                    best = narrowed
        return best


def _unify(template: Template, fact: Fact, binding: list, allowed: list[frozenset[str]]) -> list | None:
    """Extend ``binding`` so that ``template`` matches ``fact``, or None."""
    new = binding
    for term, value in zip(template[1], fact[1:]):
        if isinstance(term, int):
            if new[term] is None:
                if value not in allowed[term]:
                    return None
                if new is binding:
                    new = list(binding)
                new[term] = value
            elif new[term] != value:
                return None
        elif term != value:
            return None
    return new


def relaxed_reachable(domain: Domain, problem: Problem, actors: Collection[str] | None = None) -> Reachable:
    """Reachable facts and actions from ``problem.init`` with delete effects ignored.

    ``actors`` limits the agents that may act (a projection, SPEC section 8);
    environment actions always may. None means every agent.
    """
    objects = problem.objects
    allowed = {
        name: [frozenset(o for o, t in objects.items() if domain.fits(t, types)) for types in schema.param_types]
        for name, schema in domain.schemas.items()
    }
    if actors is not None:
        actors = frozenset(actors)
        for name, schema in domain.schemas.items():
            if schema.actor is not None:
                allowed[name][schema.actor] = allowed[name][schema.actor] & actors
    watchers: dict[str, list[tuple[Schema, int]]] = defaultdict(list)
    for schema in domain.schemas.values():
        for i, (pred, _) in enumerate(schema.pre):
            watchers[pred].append((schema, i))

    index = _Index()
    reached: set[Fact] = set()
    queue: deque[Fact] = deque()
    seen_actions: set[tuple[str, tuple[str, ...]]] = set()
    actions: list[GroundAction] = []

    def reach(fact: Fact) -> None:
        if fact not in reached:
            reached.add(fact)
            index.add(fact)
            queue.append(fact)

    def fire(schema: Schema, binding: list) -> None:
        for args in _complete(binding, allowed[schema.name]):
            key = (schema.name, args)
            if key in seen_actions or schema.failed_equalities(args):
                continue
            seen_actions.add(key)
            action = schema.ground(args)
            actions.append(action)
            for fact in action.add:
                reach(fact)

    for fact in sorted(problem.init):
        reach(fact)
    for schema in domain.schemas.values():
        if not schema.pre:
            fire(schema, [None] * len(schema.params))
    while queue:
        fact = queue.popleft()
        for schema, i in watchers.get(fact[0], ()):
            binding = _unify(schema.pre[i], fact, [None] * len(schema.params), allowed[schema.name])
            if binding is None:
                continue
            rest = schema.pre[:i] + schema.pre[i + 1 :]
            for full in _join(rest, binding, index, allowed[schema.name]):
                fire(schema, full)
    return Reachable(facts=frozenset(reached), actions=tuple(actions))


def _join(templates: tuple[Template, ...], binding: list, index: _Index, allowed) -> Iterator[list]:
    """Every extension of ``binding`` matching all ``templates`` against reached facts."""
    if not templates:
        yield binding
        return
    options = [(index.candidates(t, binding), i) for i, t in enumerate(templates)]
    facts, i = min(options, key=lambda option: len(option[0]))
    template, rest = templates[i], templates[:i] + templates[i + 1 :]
    for fact in list(facts):
        extended = _unify(template, fact, binding, allowed)
        if extended is not None:
            yield from _join(rest, extended, index, allowed)


def _complete(binding: list, allowed: list[frozenset[str]]) -> Iterator[tuple[str, ...]]:
    """Every full argument tuple agreeing with ``binding`` (free parameters range over their type)."""
    free = [i for i, value in enumerate(binding) if value is None]
    if not free:
        yield tuple(binding)
        return
    first, args = free[0], list(binding)
    for value in sorted(allowed[first]):
        args[first] = value
        yield from _complete(args, allowed)
