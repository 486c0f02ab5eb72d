"""Delete-relaxed reachability: which facts and ground actions a problem can ever reach.

Written by hand because the libraries that do it (Fast Downward's translator,
unified-planning's grounders) work on their own task objects through a full
translation, which costs more than the whole analysis of a game.

It is a semi-naive fixpoint: each newly reached fact is joined, as each
positive precondition it matches, with the facts reached so far. Delete effects
are ignored but negative preconditions are not (definitions section 6): ``(not f)`` is
reachable when f is false initially or some reachable action deletes f (the
usual compilation of ``(not f)`` into a positive fact that the initial state and
every deleter of f make true), so an action waits until each initial fact it
needs false has a reachable deleter. (In)equalities are kept, being static.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from typing import Collection, Generic, Hashable, Iterator, Mapping, TypeVar

from strips_int.model.domain import Domain, Schema, Template
from strips_int.model.task import Fact, GroundAction, Problem

T = TypeVar("T")
#: Facts handled between two looks at the clock (a look costs some 50 ns; 1,024 facts take some 10 ms).
_CLOCK_EVERY = 1024


class OutOfTime(Exception):
    """Relaxed reachability reached its deadline; nothing of the unfinished exploration is kept."""


def _on_time(deadline: float | None) -> None:
    """Raise :class:`OutOfTime` once ``deadline`` (a ``time.monotonic()`` instant; None: never) has passed."""
    if deadline is not None and time.monotonic() >= deadline:
        raise OutOfTime


@dataclass(frozen=True)
class Reachable:
    """The relaxed-reachable facts and ground actions of a problem, up to object symmetry.

    Interchangeable objects (same type, same initial facts up to renaming) are
    represented by a few of their class; ``facts`` and ``actions`` speak of
    those, and :meth:`canonical` renames any fact of the full problem into
    them. This is exact: a ground action names at most ``k`` objects of a
    class, and the problem is invariant under renaming within a class.
    """

    facts: frozenset[Fact]
    actions: tuple[GroundAction, ...]
    classes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: :meth:`needers` by ignored predicates, shared by every copy of one cached exploration.
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    #: The folded problem explored, keyed, to explore it again (cached) as fewer agents act.
    explored: Keyed[Problem] | None = field(default=None, compare=False, repr=False)
    #: :meth:`canonical` by fact, shared by every copy with these ``classes``.
    renamed: dict = field(default_factory=dict, compare=False, repr=False)

    def canonical(self, fact: Fact) -> Fact:
        """``fact`` with class members renamed, injectively, to their class's representatives."""
        if self.classes.keys().isdisjoint(fact):  # a predicate named like a member only costs the memo
            return fact
        found = self.renamed.get(fact)
        if found is None:
            found = self.renamed[fact] = self._renamed(fact)
        return found

    def _renamed(self, fact: Fact) -> Fact:
        used: dict[tuple[str, ...], dict[str, str]] = {}
        out = [fact[0]]
        for arg in fact[1:]:
            reps = self.classes.get(arg)
            if reps is None:
                out.append(arg)
                continue
            mapping = used.setdefault(reps, {})
            if arg not in mapping:
                mapping[arg] = reps[len(mapping)]
            out.append(mapping[arg])
        return tuple(out)

    def needers(self, ignored: Collection[str] = ()) -> dict[Fact, frozenset[str]]:
        """For each (canonical) fact, the agents that can use it (definitions section 6).

        An agent can use a fact that a reachable ground action of its own needs,
        or that a reachable environment action needs one of whose added facts the
        agent can use in turn: the environment chains of definitions section 4, found as
        a fixpoint over the environment actions. Facts of ``ignored`` predicates
        never link (section 4), so they neither have users nor pass use along a chain.
        Computed once per exploration and ignored set (games share explorations).
        """
        key = frozenset(ignored)
        if key not in self.memo:
            self.memo[key] = self._needers(key)
        return self.memo[key]

    def _needers(self, ignored: frozenset[str]) -> dict[Fact, frozenset[str]]:
        found: dict[Fact, set[str]] = defaultdict(set)
        environment = []
        for action in self.actions:
            pre = [fact for fact in action.pre if fact[0] not in ignored]
            if action.actor is not None:
                for fact in pre:
                    found[fact].add(action.actor)
            else:
                environment.append((pre, [fact for fact in action.add if fact[0] not in ignored]))
        changed = True
        while changed:
            changed = False
            for pre, add in environment:
                users = set().union(*(found.get(fact, ()) for fact in add))
                for fact in pre:
                    if not users <= found[fact]:
                        found[fact] |= users
                        changed = True
        return {fact: frozenset(agents) for fact, agents in found.items() if agents}


def symmetry_classes(domain: Domain, problem: Problem, keep: Collection[str] = (),
                     deadline: float | None = None) -> dict[str, tuple[str, ...]]:
    """Members of each class of interchangeable objects, mapped to the class's representatives.

    Objects are interchangeable when they have one type and the same initial
    facts with themselves blanked out (which also means no initial fact names
    two of them). Agents, constants and ``keep`` are never merged. A class
    keeps as many representatives as any action has parameters that can hold
    its type, so every ground action still has distinct objects to name.
    Past ``deadline`` it stops with :class:`OutOfTime` (some 6 s of CPU on a 400 x 400 grid).
    """
    objects = problem.objects
    count = Counter(objects.values())
    # a type with no more objects than its width has no class: its objects need no signature
    mergeable = {t for t, n in count.items() if n > domain.width(t) and not domain.is_agent_type(t)}
    candidates = {o for o, t in objects.items() if t in mergeable}
    candidates.difference_update(domain.constants, keep)
    signature: dict[str, list] = {o: [] for o in candidates}
    for n, fact in enumerate(problem.init):
        if not n % _CLOCK_EVERY:
            _on_time(deadline)
        if len(fact) == 2:  # unary and binary facts, most of an initial state, without slicing
            if fact[1] in candidates:
                signature[fact[1]].append((fact[0], 0, (None,)))
        elif len(fact) == 3:
            first, second = fact[1], fact[2]
            if first in candidates:
                signature[first].append((fact[0], 0, (None, None) if first == second else (None, second)))
            if second in candidates:
                signature[second].append((fact[0], 1, (None, None) if first == second else (first, None)))
        elif not candidates.isdisjoint(fact):
            args = fact[1:]
            for position, arg in enumerate(args):
                if arg in candidates:
                    blanked = (args[:position] + (None,) + args[position + 1:] if args.count(arg) == 1
                               else tuple(a if a != arg else None for a in args))
                    signature[arg].append((fact[0], position, blanked))
    groups: dict[tuple, list[str]] = defaultdict(list)
    for n, obj in enumerate(objects):
        if not n % _CLOCK_EVERY:
            _on_time(deadline)
        if obj in candidates:
            groups[objects[obj], frozenset(signature[obj])].append(obj)
    classes = {}
    for (obj_type, _), members in groups.items():
        if len(members) > domain.width(obj_type):
            members.sort()
            reps = tuple(members[:domain.width(obj_type)])
            classes.update({member: reps for member in members})
    return classes


def fold(problem: Problem, classes: Mapping[str, tuple[str, ...]]) -> Problem:
    """``problem`` with only its classes' representatives: what relaxed reachability explores."""
    dropped = {member for member, reps in classes.items() if member not in reps}
    if not dropped:
        return problem
    return Problem(
        name=problem.name,
        objects={o: t for o, t in problem.objects.items() if o not in dropped},
        init=frozenset(f for f in problem.init if dropped.isdisjoint(f[1:])),
        goal=frozenset(),
        source=problem.source,
    )


@dataclass(frozen=True, eq=False)
class Keyed(Generic[T]):
    """A value that hashes and compares by ``key`` (problems hold dicts); the hash is kept."""

    value: T
    key: Hashable = field(repr=False)
    digest: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hash(self.key))

    def __hash__(self) -> int:
        return self.digest

    def __eq__(self, other: object) -> bool:
        return self is other or isinstance(other, Keyed) and self.digest == other.digest and self.key == other.key


def problem_key(problem: Problem) -> Keyed[Problem]:
    """``problem`` keyed by its objects and initial state (what reachability reads of it)."""
    return Keyed(problem, (frozenset(problem.objects.items()), problem.init))


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


def relaxed_reachable(domain: Domain, problem: Problem, actors: Collection[str] | None = None,
                      deadline: float | None = None) -> Reachable:
    """Reachable facts and actions from ``problem.init`` with delete effects ignored.

    ``actors`` limits the agents that may act (a projection, definitions section 8);
    environment actions always may. None means every agent. The problem is
    first folded to its symmetry classes; the exploration of a folded problem
    is kept in the domain's cache (bounded, keyed by value): games on one
    layout fold to a handful of problems. Past ``deadline`` (a
    ``time.monotonic()`` instant) the exploration stops with :class:`OutOfTime`
    (it takes minutes on a grid of 400 x 400 cells).
    """
    classes, keyed_problem, renamed = _folded(domain, problem_key(problem), frozenset(actors or ()), deadline)
    found = explored(domain, keyed_problem, None if actors is None else frozenset(actors), deadline)
    return dataclasses.replace(found, classes=classes, explored=keyed_problem, renamed=renamed)


def projected_facts(domain: Domain, keyed_problem: Keyed[Problem], actors: Collection[str]) -> frozenset[Fact]:
    """The facts of :func:`relaxed_reachable` with only ``actors`` (and the environment) acting, on an
    explored (folded) problem, found from the team's exploration: a fixpoint over its ground actions of
    those actors, not a new lifted join. Exact, since reachability only grows with the actors allowed:
    every action the fewer actors reach is one the team reaches, and the team's are all of them."""
    reached = set(keyed_problem.value.init)
    negated = _Negated(keyed_problem.value.init)
    by_actor = _by_actor(domain, keyed_problem)
    pending = [action for actor in (None, *dict.fromkeys(actors)) for action in by_actor.get(actor, ())]
    grew = True
    while grew:
        grew, waiting = False, []
        for action in pending:
            if action.pre <= reached and negated.blocker(action) is None:
                reached |= action.add
                negated.deleted.update(action.delete)
                grew = True
            else:
                waiting.append(action)
        pending = waiting
    return frozenset(reached)


#: The names of reachability's tables in a domain's cache, and how many entries each keeps.
_FOLDED, _PROBLEMS, _EXPLORED, _KEPT = "reachability: folded", "reachability: problems", "reachability: explored", 32
_BY_ACTOR = "reachability: explored by actor"


def _by_actor(domain: Domain, keyed_problem: Keyed[Problem]) -> dict[str | None, list[GroundAction]]:
    """The team's explored actions of a folded problem by actor (None: the environment's), kept: each agent's
    reach alone (:func:`projected_facts`) then reads its own actions, not all the team's (with 32 agents,
    most of them hand-overs between two others)."""
    table = domain.cache.table(_BY_ACTOR, _KEPT)
    found = table.get(keyed_problem)
    if found is None:
        found = {}
        for action in explored(domain, keyed_problem, None).actions:
            found.setdefault(action.actor, []).append(action)
        table.keep(keyed_problem, found)
    return found


def _folded(domain: Domain, keyed_problem: Keyed[Problem], keep: frozenset[str], deadline: float | None
            ) -> tuple[dict[str, tuple[str, ...]], Keyed[Problem], dict[Fact, Fact]]:
    """A problem's symmetry classes, its folded problem, keyed, and a memo of renamed facts for
    :meth:`Reachable.canonical`, kept: games replayed on one layout often start from equal problems."""
    table = domain.cache.table(_FOLDED, _KEPT)
    key = (keyed_problem, keep)
    found = table.get(key)
    if found is None:
        classes = symmetry_classes(domain, keyed_problem.value, keep, deadline)
        found = table.keep(key, (classes, _interned(domain, problem_key(fold(keyed_problem.value, classes))), {}))
    return found


def _interned(domain: Domain, keyed: Keyed[Problem]) -> Keyed[Problem]:
    """The first key equal to ``keyed``: later look-ups with it compare by identity, not by value."""
    table = domain.cache.table(_PROBLEMS, _KEPT)
    found = table.get(keyed)
    return found if found is not None else table.keep(keyed, keyed)


def explored(domain: Domain, keyed_problem: Keyed[Problem], actors: frozenset[str] | None,
             deadline: float | None = None) -> Reachable:
    """The exploration of a folded problem (:func:`_explore`) with only ``actors`` acting (None: all),
    kept in the domain's cache."""
    table = domain.cache.table(_EXPLORED, _KEPT)
    key = (keyed_problem, actors)
    found = table.get(key)
    return found if found is not None else table.keep(key, _explore(domain, keyed_problem.value, actors, deadline))


def _explore(domain: Domain, problem: Problem, actors: frozenset[str] | None, deadline: float | None) -> Reachable:
    """The semi-naive fixpoint on a folded problem (no symmetry classes of its own), stopped by
    :class:`OutOfTime` past ``deadline``."""
    objects = problem.objects
    init = problem.init
    allowed = allowed_objects(domain, objects)
    if actors is not None:
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
    negated = _Negated(init)

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
            for action in negated.take(domain.ground(schema, args)):
                actions.append(action)
                for fact in action.add:
                    reach(fact)

    for n, fact in enumerate(sorted(init)):
        if not n % _CLOCK_EVERY:
            _on_time(deadline)
        reach(fact)
    for schema in domain.schemas.values():
        if not schema.pre:
            fire(schema, [None] * len(schema.params))
    taken = 0
    while queue:
        fact = queue.popleft()
        taken += 1
        if not taken % _CLOCK_EVERY:
            _on_time(deadline)
        for schema, i in watchers.get(fact[0], ()):
            binding = _unify(schema.pre[i], fact, [None] * len(schema.params), allowed[schema.name])
            if binding is None:
                continue
            rest = schema.pre[:i] + schema.pre[i + 1 :]
            for full in _join(rest, binding, index, allowed[schema.name]):
                fire(schema, full)
    return Reachable(facts=frozenset(reached), actions=tuple(actions))


class _Negated:
    """Negative preconditions under the delete relaxation (definitions section 6): ``(not f)`` holds when f is not
    in the initial state, or once a reachable action deletes f. An action that needs an initial fact false
    waits for that fact's first reachable deleter."""

    def __init__(self, init: frozenset[Fact]) -> None:
        self.init = init
        self.deleted: set[Fact] = set()
        self.waiting: dict[Fact, list[GroundAction]] = defaultdict(list)

    def blocker(self, action: GroundAction) -> Fact | None:
        """An initial fact ``action`` needs false that nothing reachable has deleted yet, or None."""
        if action.neg_pre:
            init, deleted = self.init, self.deleted
            for fact in action.neg_pre:
                if fact in init and fact not in deleted:
                    return fact
        return None

    def take(self, action: GroundAction) -> list[GroundAction]:
        """The actions that become reachable with ``action`` (its positive preconditions reached): itself,
        unless a negative precondition blocks it, and those its deletes unblock, in turn."""
        found, pending = [], [action]
        while pending:
            action = pending.pop()
            fact = self.blocker(action)
            if fact is not None:
                self.waiting[fact].append(action)
                continue
            found.append(action)
            for fact in action.delete:
                if fact in self.init and fact not in self.deleted:
                    self.deleted.add(fact)
                    pending.extend(self.waiting.pop(fact, ()))
        return found


def allowed_objects(domain: Domain, objects: Mapping[str, str]) -> dict[str, list[frozenset[str]]]:
    """The objects each parameter of each schema may take (types asked once each, not once per object)."""
    by_type: dict[str, list[str]] = defaultdict(list)
    for obj, obj_type in objects.items():
        by_type[obj_type].append(obj)
    fitting: dict[frozenset[str], frozenset[str]] = {}
    for schema in domain.schemas.values():
        for types in schema.param_types:
            if types not in fitting:
                fitting[types] = frozenset(obj for obj_type, objs in by_type.items() if domain.fits(obj_type, types)
                                           for obj in objs)
    return {name: [fitting[types] for types in schema.param_types] for name, schema in domain.schemas.items()}


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
