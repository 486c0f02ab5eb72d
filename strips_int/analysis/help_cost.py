"""Self-help cost: what a piece of help saved its receiver (definitions section 14).

For an interdependence (g, r), the receiver's agent alone (other agents stay where they are, environment
actions run and cost nothing) goes from the initial state to a state holding one of the linking facts, or
one that differs from it only by interchangeable objects; its self-help cost is the number of its own
actions in a cheapest such plan: an integer, ``inf`` when none exists, ``unknown`` at the search's limit.

How: required help (definitions section 10: no linking fact relaxed-reachable alone) is ``inf`` by that
proof. Otherwise one 0-1 breadth-first search per receiving agent, over the ground actions relaxed
reachability finds for it and the environment on the game's own problem, from the initial state, until
every linking fact of its help has its cost; a fact it never reaches is ``inf`` when the search ran out
of states, ``unknown`` when it stopped at :data:`LIMIT` states. Written by hand because the planners
(Fast Downward through unified-planning) run in child processes at some 0.3 s each, more than the whole
analysis of a game, and give one plan per target where this gives every target's cost in one search.

Symmetry keeps it small and exact: objects of one class (interchangeable, definitions section 10) that no
action of a path has named still have their initial facts, so any of them can stand for any other; an
action may name only the first untouched ones of each class (as many as one action can name), besides
those already touched.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from typing import Mapping, Sequence

from strips_int.model.domain import Domain
from strips_int.model.execution import FactIds
from strips_int.model.task import Fact, GroundAction, Problem

from .interdependence import Finding
from .reachability import Keyed, Reachable, explored, problem_key

INF, UNKNOWN = "inf", "unknown"
#: A self-help cost: a number of actions, ``inf`` or ``unknown``.
Cost = int | str
#: The states one search may expand before what it has not reached is ``unknown``.
LIMIT = 6000
#: Objects of each class kept beyond the representatives (an action's worth), for a plan to use several.
SPARE = 4
#: The names of help cost's tables in a domain's cache, and how many entries each keeps.
_LONE, _COSTS = ("help cost: alone", 64), ("help cost: costs", 8192)


def self_help_costs(domain: Domain, problem: Problem, team: Reachable, findings: Sequence[Finding],
                    limit: int = LIMIT) -> tuple[Cost, ...]:
    """The self-help cost of each interdependence (definitions section 14), in order; ``team``: the
    problem's relaxed reachability with every agent (its classes say which objects are interchangeable).

    The search runs on the problem folded to :data:`SPARE` more objects of each class than an action can
    name, the spares renamed after their representative (``onion1#1``), so that games on one layout fold
    to one problem and share their searches: a cost is kept in the domain's cache by folded problem, agent
    and linking facts up to interchangeable objects. Where a search ran short of a class's objects before
    its answer, the answer is ``unknown``.
    """
    folded, lone_classes, cut = _folded(problem, team.classes)
    lone, costs = domain.cache.table(*_LONE), domain.cache.table(*_COSTS)
    found = []
    for finding in findings:
        if finding.required:  # relaxed-unreachable alone: a proof
            found.append(INF)
            continue
        agent = finding.receiver.agent or ""
        key = (folded, agent, frozenset(team.canonical(f) for f in finding.facts))
        cost = costs.get(key)
        if cost is None:
            alone = lone.get((folded, agent))
            if alone is None:
                alone = lone.keep((folded, agent), _Alone(domain, folded, lone_classes, cut, agent))
            cost = costs.keep(key, alone.cost(key[2], limit))
        found.append(cost)
    return tuple(found)


def _folded(problem: Problem, classes: Mapping[str, tuple[str, ...]]
            ) -> tuple[Keyed[Problem], dict[str, tuple[str, ...]], frozenset[tuple[str, ...]]]:
    """``problem`` with each class cut to its representatives and :data:`SPARE` more members, those renamed
    ``REP#i`` (``#`` is in no PDDL name); the kept members' classes (member -> representatives); and the
    classes that lost members."""
    rename: dict[str, str] = {}
    kept_classes: dict[str, tuple[str, ...]] = {}
    cut = set()
    for reps, group in _class_members(classes).items():
        spares = [m for m in group if m not in reps]
        for i, member in enumerate(spares[:SPARE], start=1):
            rename[member] = f"{reps[0]}#{i}"
        kept_classes.update({name: reps for name in (*reps, *(rename[m] for m in spares[:SPARE]))})
        if len(spares) > SPARE:
            cut.add(reps)
    dropped = {m for m in classes if m not in rename and m not in kept_classes}

    def renamed(fact: Fact) -> Fact:
        return (fact[0], *(rename.get(a, a) for a in fact[1:]))

    objects = {rename.get(o, o): t for o, t in problem.objects.items() if o not in dropped}
    init = frozenset(renamed(f) for f in problem.init if dropped.isdisjoint(f[1:]))
    folded = Problem(name=problem.name, objects=objects, init=init, goal=frozenset(), source=problem.source)
    return problem_key(folded), kept_classes, frozenset(cut)


class _Alone:
    """One agent alone in a folded problem: its and the environment's relaxed-reachable ground actions, on
    fact ids, searched once per set of targets."""

    def __init__(self, domain: Domain, folded: Keyed[Problem], classes: Mapping[str, tuple[str, ...]],
                 cut: frozenset[tuple[str, ...]], agent: str) -> None:
        problem = folded.value
        actions = [a for a in explored(domain, folded, frozenset({agent})).actions
                   if a.actor is None or a.actor == agent]
        changing = {f for a in actions for f in (*a.add, *a.delete)}
        self.ids = FactIds()
        init = problem.init
        #: Each action: positive and negative preconditions that change, delete, add, cost, class members named.
        self.actions: list[tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int], int, tuple]] = [
            (self._ids(a.pre & changing), self._ids(a.neg_pre & changing), self._ids(a.delete), self._ids(a.add),
             0 if a.actor is None else 1, _members(a, classes))
            for a in actions if a.pre - changing <= init and not (a.neg_pre - changing) & init]
        self.start = self._ids(frozenset(f for f in init if f in changing))
        self.facts = self.ids.facts
        true_by_predicate = Counter(f[0] for f in init if f in changing)
        #: Each fact's rank as an action's key (:meth:`cost`): predicates with few true facts first (an
        #: agent's position), then more arguments.
        self.rank = [(true_by_predicate[f[0]], -len(f)) for f in self.facts]
        canonical = Reachable(frozenset(), (), classes).canonical
        self.canon = [canonical(f) for f in self.facts]
        self.held = {canonical(f) for f in init}
        #: Each class's members in the folded problem, by its representatives (as an action's class members).
        self.classes = _class_members(classes)
        #: The classes the fold cut (it left out some of their members): a search short of their objects may
        #: have missed a plan.
        self.cut = cut
        #: The actions that add and delete each fact.
        self.changers: tuple[dict[int, list[int]], dict[int, list[int]]] = (defaultdict(list), defaultdict(list))
        for k, (_, _, delete, add, _, _) in enumerate(self.actions):
            for i in add:
                self.changers[0][i].append(k)
            for i in delete:
                self.changers[1][i].append(k)

    def _ids(self, facts: frozenset[Fact]) -> frozenset[int]:
        return frozenset(self.ids.ids(facts))

    def relevant(self, targets: frozenset[Fact]) -> list[int]:
        """The actions that can serve reaching ``targets``: those adding a target or a positive precondition of
        a relevant action, or deleting a negative one. An optimal plan keeps its cost without the others
        (they add nothing it needs and delete nothing it needs false), so the search leaves them out."""
        adders, deleters = self.changers
        true = [i for i, canon in enumerate(self.canon) if canon in targets]
        false: list[int] = []
        seen_true, seen_false, chosen = set(true), set(), set()
        while true or false:
            for k in adders[true.pop()] if true else deleters[false.pop()]:
                if k in chosen:
                    continue
                chosen.add(k)
                pre, neg = self.actions[k][0], self.actions[k][1]
                true.extend(pre - seen_true)
                seen_true |= pre
                false.extend(neg - seen_false)
                seen_false |= neg
        return sorted(chosen)

    def cost(self, targets: frozenset[Fact], limit: int) -> Cost:
        """The fewest of the agent's actions to a state holding one of ``targets`` (canonical): a 0-1
        breadth-first search (environment actions cost 0) over the relevant actions."""
        if not targets.isdisjoint(self.held):
            return 0
        goal = frozenset(i for i, canon in enumerate(self.canon) if canon in targets)
        by_key: dict[int, list] = defaultdict(list)
        free = []
        for k in self.relevant(targets):
            entry = self.actions[k]
            (by_key[min(entry[0], key=self.rank.__getitem__)] if entry[0] else free).append(entry)
        keys = frozenset(by_key)
        best: dict[frozenset[int], int] = {self.start: 0}
        touched_at: dict[frozenset[int], frozenset[str]] = {self.start: frozenset()}
        #: Per touched set: each class's first untouched members, and whether a cut class is short of them.
        allowed_by: dict[frozenset[str], tuple[dict[tuple[str, ...], set[str]], bool]] = {}
        queue: deque[tuple[int, frozenset[int]]] = deque([(0, self.start)])
        expanded = 0
        short = None  # the cost of the first state expanded short of a class's untouched objects
        while queue:
            cost, state = queue.popleft()
            if best[state] != cost:
                continue
            if not goal.isdisjoint(state):
                return cost if short is None or short >= cost else UNKNOWN
            expanded += 1
            if expanded > limit:
                return UNKNOWN
            touched = touched_at[state]
            found = allowed_by.get(touched)
            if found is None:
                allowed = _allowed(self.classes, touched)
                found = allowed_by[touched] = allowed, any(len(allowed[reps]) < len(reps) for reps in self.cut)
            allowed = found[0]
            if short is None and found[1]:
                short = cost
            for i in (*(state & keys), None):
                for pre, neg, delete, add, step, members in (free if i is None else by_key.get(i, ())):
                    if not (pre <= state) or not neg.isdisjoint(state):
                        continue
                    if members and not all(obj in touched or obj in allowed[cls] for cls, obj in members):
                        continue
                    nxt = (state - delete) | add
                    new = cost + step
                    if best.get(nxt, new + 1) <= new:
                        continue
                    best[nxt] = new
                    touched_at[nxt] = touched | {obj for _, obj in members} if members else touched
                    (queue.appendleft if step == 0 else queue.append)((new, nxt))
        return INF if short is None else UNKNOWN


def _members(action: GroundAction, classes: Mapping[str, tuple[str, ...]]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The class members ``action`` names, with their class (its representatives)."""
    return tuple((classes[a], a) for a in dict.fromkeys(action.args) if a in classes)


def _class_members(classes: Mapping[str, tuple[str, ...]]) -> dict[tuple[str, ...], list[str]]:
    members: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for member, reps in sorted(classes.items()):
        members[reps].append(member)
    return members


def _allowed(classes: Mapping[tuple[str, ...], list[str]], touched: frozenset[str]) -> dict[tuple[str, ...], set[str]]:
    """Per class, its first untouched members, as many as one action can name (its representatives' count)."""
    allowed = {}
    for reps, members in classes.items():
        first = []
        for member in members:
            if member not in touched:
                first.append(member)
                if len(first) == len(reps):
                    break
        allowed[reps] = set(first)
    return allowed
