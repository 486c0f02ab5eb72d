"""Executing a trace (definitions section 2) and the causal links found on the way (section 3).

Steps are applied in order from the initial state; an inapplicable step is an
error naming it. The state is kept as small integer fact ids and each fact's
last adder is remembered, so one pass yields the final state, what each step
newly made true and every causal link.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from strips_int.errors import StripsIntError, of_type

from .cache import Cache
from .task import Fact, GroundAction, Problem, State
from .trace import Trace

#: The achiever of a fact that held from the initial state on (definitions section 3).
INIT = "init"
#: A causal link's achiever: a step index, or ``INIT``.
Achiever = int | str


@dataclass(frozen=True)
class CausalLinks:
    """The causal links of a run (definitions section 3; :mod:`strips_int.analysis.causal`): each step's achievers,
    one per fact of its action's ``pre`` in that frozenset's own iteration order
    (``zip(step.action.pre, links.achievers[k])``), and each achieved goal fact's last achiever.

    A fact's achiever for step k is the last earlier step whose add list holds it (even if it
    already held), else ``INIT``; execution finds them in its one pass over the steps.
    """

    achievers: tuple[tuple[Achiever, ...], ...]
    goal: Mapping[Fact, Achiever]


@dataclass(frozen=True)
class Run:
    """The outcome of executing a trace: final state, what each step newly made true, causal links."""

    trace: Trace
    final: State
    new_facts: tuple[frozenset[Fact], ...]
    links: CausalLinks

    @property
    def goal_achieved(self) -> frozenset[Fact]:
        """The goal facts that hold at the end (partial progress counts)."""
        return self.trace.problem.goal & self.final


def apply(state: set[Fact], action: GroundAction) -> str | None:
    """Apply ``action`` to ``state`` in place (definitions section 2), or say why it is not applicable.

    The one place actions are applied: executing traces, lifting games, benchmarks.
    """
    if not action.applicable(state):
        return action.not_applicable(state)
    state -= action.delete
    state |= action.add
    return None


class FactIds:
    """Small integers for facts: :func:`execute` keeps its state and causal links by int, not by
    re-hashing tuples (self-help cost's search keeps its states so too). Kept in the domain's cache and
    shared by its traces; a new one (and with it new compiled actions, since each is kept under its table)
    past ``_MAX_FACT_IDS``."""

    def __init__(self) -> None:
        self.table: dict[Fact, int] = {}
        self.facts: list[Fact] = []

    def ids(self, facts: Iterable[Fact]) -> list[int]:
        """The id of each fact, numbering those not seen before."""
        table, known = self.table, self.facts
        found = []
        for fact in facts:
            fact_id = table.get(fact)
            if fact_id is None:
                fact_id = table[fact] = len(known)
                known.append(fact)
            found.append(fact_id)
        return found

    def compiled(self, action: GroundAction) -> _Compiled:
        """``action`` for :func:`execute`: a getter of its ``pre`` facts' entries (in the frozenset's
        order), the ids of its ``pre``, ``neg_pre``, ``add`` and ``delete``; worked out once per action,
        kept in its memo."""
        pre = tuple(self.ids(action.pre))
        getter = operator.itemgetter(*pre) if len(pre) > 1 else lambda last: tuple(last[i] for i in pre)
        found = action.memo[self] = (getter, frozenset(pre), frozenset(self.ids(action.neg_pre)),
                                     frozenset(self.ids(action.add)), frozenset(self.ids(action.delete)))
        return found


#: A compiled action: achievers getter, then the ids of its pre, neg_pre, add and delete.
_Compiled = tuple[Callable[[Mapping[int, Achiever]], tuple], frozenset[int], frozenset[int], frozenset[int],
                  frozenset[int]]
_MAX_FACT_IDS = 1 << 18
#: The name of the fact ids in a domain's cache.
_FACT_IDS = "execution: fact ids"


def execute(trace: Trace, cache: Cache | None = None) -> Run:
    """Apply every step from the initial state (definitions section 2); an inapplicable step is an error.

    The state is kept as fact ids, and the causal links are found on the way: each fact's last
    adder, by the fact's id. ``cache`` (the trace's domain's) keeps the ids and each action compiled
    for later traces; without it, they are this call's alone."""
    of_type("execute", "trace", trace, Trace, "a Trace (strips_int.load_trace, or a grounder's)")
    of_type("execute", "cache", cache, (Cache, type(None)), "None or a domain's cache (Domain.cache)")
    if cache is None:
        ids = FactIds()
        try:
            return _execute(trace, ids)
        finally:  # compiled actions are kept in their memos under ``ids``: drop them with it
            for step in trace.steps:
                step.action.memo.pop(ids, None)
    return _execute(trace, fact_ids(cache))


def fact_ids(cache: Cache) -> FactIds:
    """The fact ids kept in a domain's cache (new ones past ``_MAX_FACT_IDS``)."""
    ids = cache.value(_FACT_IDS, FactIds)
    if len(ids.table) > _MAX_FACT_IDS:
        cache.forget(_FACT_IDS)
        ids = cache.value(_FACT_IDS, FactIds)
    return ids


def _execute(trace: Trace, ids: FactIds) -> Run:
    execution = Execution(trace.problem, ids)
    apply_next = execution.apply
    for step in trace.steps:
        failed = apply_next(step.action)
        if failed is not None:
            raise StripsIntError(trace.source, trace.place(step), failed)
    return execution.run(trace)


class Execution:
    """Steps applied one at a time from a problem's initial state (definitions section 2), each fact's last adder
    kept by its id (section 3): the one pass of :func:`execute`, and of an analysis fed one step at a time
    (:mod:`strips_int.online`). ``achievers`` and ``new_facts`` grow by one entry per step applied."""

    def __init__(self, problem: Problem, ids: FactIds) -> None:
        self.problem = problem
        self.ids = ids
        self.state = set(ids.ids(problem.init))
        self.last: dict[int, Achiever] = dict.fromkeys(self.state, INIT)
        self.achievers: list[tuple[Achiever, ...]] = []
        self.new_facts: list[frozenset[Fact]] = []

    def apply(self, action: GroundAction) -> str | None:
        """Apply the next step's ``action``, appending its achievers and what it newly made true; or say why
        it is not applicable (then nothing changes). Work per step independent of how many came before."""
        ids, state = self.ids, self.state
        getter, pre, neg_pre, add, delete = action.memo.get(ids) or ids.compiled(action)
        if not (pre <= state and state.isdisjoint(neg_pre)):  # apply, inlined: the hot loop
            facts = ids.facts
            return action.not_applicable({facts[i] for i in state})
        last, index = self.last, len(self.achievers)
        # pre <= state: every pre id is in ``last`` (initial, or added by an earlier step)
        self.achievers.append(getter(last))
        self.new_facts.append(action.add if state.isdisjoint(add) else frozenset(map(ids.facts.__getitem__, add - state)))
        for fact_id in add:
            last[fact_id] = index
        state -= delete
        state |= add
        return None

    def introduce(self, facts: Iterable[Fact]) -> None:
        """Facts of objects that enter the game now, true as if from the initial state (achiever ``INIT``)."""
        for fact_id in self.ids.ids(facts):
            if fact_id not in self.state:
                self.state.add(fact_id)
                self.last[fact_id] = INIT

    def run(self, trace: Trace) -> Run:
        """The outcome of the steps applied so far, which are ``trace``'s steps."""
        ids = self.ids
        final = frozenset(map(ids.facts.__getitem__, self.state))
        table, last = ids.table, self.last
        goal = {fact: last.get(table.get(fact), INIT) for fact in sorted(trace.problem.goal & final)}
        return Run(trace=trace, final=final, new_facts=tuple(self.new_facts),
                   links=CausalLinks(tuple(self.achievers), goal))
