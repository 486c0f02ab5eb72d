"""What the analysis reads of each ground action, worked out once per action and context.

Grounders share ground actions between the games of a layout, so which
preconditions carry relevance or may link two agents, which effects change
an object's state (definitions sections 3-6) and whether the action is a sub-task
are computed once per action (kept in :attr:`GroundAction.memo`), not once
per step or per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from strips_int.model.domain import Domain, is_navigation
from strips_int.model.task import Fact, GroundAction
from strips_int.model.trace import Step


@dataclass(frozen=True, eq=False)
class Lens:
    """An analysis context: the agents and the domain's pragmas (``navigation``: the ``navigation-actions``
    pragma's schemas, empty for the rule on the step). Compared by identity: an action's memo finds its
    view under the context's one object (:func:`analysis_lens`). ``static``: predicates no action changes,
    whose facts are always linked to ``INIT``, so never looked at."""

    agents: frozenset[str]
    ignored: frozenset[str]
    positions: frozenset[str]
    navigation: frozenset[str] = frozenset()
    static: frozenset[str] = frozenset()


#: The name of the lenses' table in a domain's cache, and how many it keeps.
_LENSES, _MAX_LENSES = "views: lenses", 64


def analysis_lens(domain: Domain, agents: frozenset[str]) -> Lens:
    """The context of analysing a trace of ``domain`` with these agents: one object per set of agents,
    kept in the domain's cache."""
    lenses = domain.cache.table(_LENSES, _MAX_LENSES)
    found = lenses.get(agents)
    if found is None:
        found = lenses.keep(agents, Lens(agents, domain.ignore_predicates, domain.position_predicates,
                                         domain.navigation_actions, domain.static_predicates))
    return found


def step_views(steps: Sequence[Step], context: Lens, keep: bool = True) -> list[View]:
    """Each step's action as read in ``context`` (:func:`view`, inlined: once per step of every game); with
    ``keep`` False (a context made for one call, not an :func:`analysis_lens`), not kept on the actions."""
    if not keep:
        return [_view(step.action, context) for step in steps]
    found = []
    for step in steps:
        action = step.action
        seen = action.memo.get(context)
        found.append(seen if seen is not None else view(action, context))
    return found


@dataclass(frozen=True)
class View:
    """One action as the analysis reads it.

    ``carrying`` holds the positions, in the action's ``pre`` (in that frozenset's own iteration
    order, the order of :attr:`~strips_int.model.trace.CausalLinks.achievers`), of the facts that carry
    relevance (definitions section 3) and ``linking`` those that may link two agents (not ignored), with
    the facts; static facts are left out of both (their achiever is always ``INIT``).
    ``deletes``/``adds`` the effects that change an object's state (definitions section 5), each with the
    objects it mentions, and ``touches`` all those objects; ``subtask`` whether it is an agent's
    sub-task (not navigation, definitions section 6: decided on the ground step).
    """

    carrying: tuple[int, ...]
    linking: tuple[tuple[int, Fact], ...]
    deletes: tuple[tuple[Fact, tuple[str, ...]], ...]
    adds: tuple[tuple[Fact, tuple[str, ...]], ...]
    touches: frozenset[str]
    subtask: bool


def view(action: GroundAction, context: Lens) -> View:
    """``action`` as read in ``context`` (computed on first use, then kept on the action)."""
    memo = action.memo
    found = memo.get(context)
    if found is None:
        found = memo[context] = _view(action, context)
    return found


def carries_relevance(fact: Fact, ignored: frozenset[str], agents: frozenset[str]) -> bool:
    """definitions section 3: bookkeeping (an ignored predicate) and an agent's own status carry no relevance.

    An agent's own status is a fact with arguments, all of them agents, such as
    ``(hand-empty player0)``: freeing one's hands for the next task does not make
    the task that freed them serve the goal. A 0-ary fact carries relevance.
    """
    if fact[0] in ignored:
        return False
    return len(fact) == 1 or not agents.issuperset(fact[1:])


def _view(action: GroundAction, context: Lens) -> View:
    agents, ignored, static = context.agents, context.ignored, context.static
    unlinked = ignored | static
    pre = tuple(action.pre)
    deletes, adds = _changes(action.delete, context), _changes(action.add, context)
    return View(
        carrying=tuple([i for i, fact in enumerate(pre)
                        if fact[0] not in static and carries_relevance(fact, ignored, agents)]),
        linking=tuple([(i, fact) for i, fact in enumerate(pre) if fact[0] not in unlinked]),
        deletes=deletes,
        adds=adds,
        touches=frozenset([obj for _, objs in deletes + adds for obj in objs]),
        subtask=action.actor is not None and not is_navigation(action, context.navigation),
    )


def _changes(facts: frozenset[Fact], context: Lens) -> tuple[tuple[Fact, tuple[str, ...]], ...]:
    """The effects that change an object's state (definitions section 5), each with its objects."""
    positions, agents = context.positions, context.agents
    return tuple([(fact, fact[1:]) for fact in facts
                  if len(fact) > 1 and fact[0] not in positions and agents.isdisjoint(fact[1:])])
