"""A problem as the ground task a search engine is handed: every action that can ever apply, nothing more.

Required cooperation (definitions section 8) searches each agent's projection and the joint problem. The
planner path converts the lifted problem for unified-planning and lets Fast Downward's translator
ground it again; here the task is ground once, from what relaxed reachability already found
(:func:`ground_actions`), and pruned by a sound fixpoint (:func:`never_applicable`): the facts that
hold at the start and that nothing that may apply deletes (static facts, an idle partner's body) leave
the task, so the search sees only what can change. Relaxed reachability, keeping negative
preconditions (definitions section 6), already leaves out the actions such facts block; the fixpoint checks
it again on the ground actions (:attr:`GroundTask.dead`, a proof that no plan exists, before any search).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

from strips_int.model.domain import Domain
from strips_int.model.task import Fact, GroundAction, Problem

from .reachability import Reachable


@dataclass(frozen=True)
class GroundTask:
    """``problem``'s start and goal with the ground actions that may apply in it.

    ``lasting`` holds at the start and for ever (no action that may apply deletes it): it is left out
    of ``init`` and ``goal``. ``dead``: the goal is unreachable even with delete effects ignored once
    the actions that can never apply are dropped, a proof that no plan exists.
    """

    problem: Problem
    init: frozenset[Fact]
    goal: frozenset[Fact]
    actions: tuple[GroundAction, ...]
    lasting: frozenset[Fact]
    dead: bool


def ground_task(domain: Domain, problem: Problem, reachable: Reachable) -> GroundTask:
    """The ground task of ``problem``, whose relaxed reachability (with the acting agents it allows) is
    ``reachable``."""
    live, reached, lasting = never_applicable(problem.init, ground_actions(domain, reachable))
    return GroundTask(problem, problem.init - lasting, problem.goal - lasting, tuple(live), lasting,
                      not problem.goal <= reached)


def ground_actions(domain: Domain, reachable: Reachable) -> list[GroundAction]:
    """Every relaxed-reachable ground action of the full problem: ``reachable``'s actions, which name
    the representatives of classes of interchangeable objects, with the representatives replaced, one
    to one, by members of their class in every way (exact, as :class:`Reachable` says)."""
    members: dict[tuple[str, ...], list[str]] = {}
    for member, reps in reachable.classes.items():
        members.setdefault(reps, []).append(member)
    for names in members.values():
        names.sort()
    actions = []
    for action in reachable.actions:
        used: dict[tuple[str, ...], list[str]] = {}
        for arg in action.args:
            reps = reachable.classes.get(arg)
            if reps is not None and arg not in used.setdefault(reps, []):
                used[reps].append(arg)
        if not used:
            actions.append(action)
            continue
        schema = domain.schemas[action.name]
        for chosen in itertools.product(*(itertools.permutations(members[reps], len(args))
                                          for reps, args in used.items())):
            rename = {rep: member for args, picked in zip(used.values(), chosen) for rep, member in zip(args, picked)}
            actions.append(domain.ground(schema, tuple(rename.get(arg, arg) for arg in action.args)))
    return actions


def never_applicable(init: frozenset[Fact], actions: Sequence[GroundAction]
                     ) -> tuple[list[GroundAction], set[Fact], frozenset[Fact]]:
    """The actions that may apply, the facts they may reach (delete effects ignored) and the initial
    facts that hold for ever.

    A fact that holds at the start and that no action that may apply deletes holds for ever, and an
    action whose negative precondition is such a fact (or whose preconditions contradict each other)
    never applies. Starting from "every initial fact holds for ever" and dropping the facts the
    remaining actions delete, until nothing changes, reaches the greatest such set; it is sound, since
    by induction over any execution no action it ran needed one of those facts false or deleted one.
    """
    actions = [a for a in actions if a.pre.isdisjoint(a.neg_pre)]
    lasting = set(init)
    while True:
        live, reached = _relaxed(init, [a for a in actions if lasting.isdisjoint(a.neg_pre)])
        deleted = set().union(*(a.delete - a.add for a in live))
        now = {fact for fact in init if fact not in deleted}
        if now == lasting:
            return live, reached, frozenset(lasting)
        lasting = now


def _relaxed(init: frozenset[Fact], actions: Sequence[GroundAction]) -> tuple[list[GroundAction], set[Fact]]:
    """The actions whose positive preconditions become reachable with delete effects ignored, and the
    facts reached: each action counts down its preconditions not reached yet."""
    missing = [len(a.pre) for a in actions]
    needed_by: dict[Fact, list[int]] = {}
    for k, action in enumerate(actions):
        for fact in action.pre:
            needed_by.setdefault(fact, []).append(k)
    reached = set(init)
    ready = [k for k, n in enumerate(missing) if not n]
    frontier = list(init)
    live = []
    while ready or frontier:
        for fact in frontier:
            for k in needed_by.get(fact, ()):
                missing[k] -= 1
                if not missing[k]:
                    ready.append(k)
        frontier = []
        for k in ready:
            live.append(actions[k])
            for fact in actions[k].add:
                if fact not in reached:
                    reached.add(fact)
                    frontier.append(fact)
        ready = []
    return live, reached
