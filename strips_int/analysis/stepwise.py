"""The analysis of a game one step at a time: what each step says as it is taken (definitions section 15).

Every report is made this way: :func:`~strips_int.analysis.report.analyze_run` feeds an executed trace's
steps to a :class:`Stepwise`, and :mod:`strips_int.online` feeds steps as a game is played. At each step,
the interdependences whose receiver it is (section 4), and whether it is a sub-task and a trigger
(section 6); what depends on the rest of the game (relevance, categories, accepted triggers, required help)
is the report's, at the end (:func:`~strips_int.analysis.report.report_of`).

Extension point: a per-step finding is one more finder here (made in :meth:`Stepwise.__init__`, called in
:meth:`Stepwise.step`, its answer one more field of :class:`StepResult`), summed up in ``report_of``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain
from strips_int.model.execution import Achiever
from strips_int.model.task import Fact, Problem, format_fact
from strips_int.model.trace import Step

from .interdependence import Interdependence, Linker, step_dict
from .reachability import Reachable, relaxed_reachable
from .triggers import TaskFinder
from .views import View, analysis_lens, view


@dataclass(frozen=True)
class StepResult:
    """What one step says as it is taken: the interdependences whose receiver it is (by giver, with each
    giver's step in ``givers``), whether it is a sub-task and whether a trigger (definitions section 15)."""

    step: Step
    interdependences: tuple[Interdependence, ...]
    givers: tuple[Step, ...]
    subtask: bool
    trigger: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the step, its interdependences (giver, receiver, facts, objects, as in a report's),
        sub-task and trigger."""
        return {
            "step": step_dict(self.step),
            "interdependencies": [
                {"giver": step_dict(giver), "receiver": step_dict(self.step),
                 "facts": [format_fact(f) for f in inter.facts], "objects": list(inter.objects)}
                for inter, giver in zip(self.interdependences, self.givers, strict=True)
            ],
            "subtask": self.subtask,
            "trigger": self.trigger,
        }


class Stepwise:
    """One game's analysis, fed its steps in order with their causal links (from
    :class:`~strips_int.model.execution.Execution`). Work per step is the step's own links and effects,
    whatever the game's length; the steps, views and interdependences are kept for the report."""

    def __init__(self, domain: Domain, problem: Problem, source: str) -> None:
        objects = problem.objects
        kinds = {t: domain.is_agent_type(t) for t in set(objects.values())}
        self.agent_types = {o: objects[o] for o in sorted(objects) if kinds[objects[o]]}
        if not self.agent_types:  # definitions section 1: never zero agents and empty counts
            raise StripsIntError(source, f"problem {problem.name}", "no agents: no object is of an agent type ("
                                 + ", ".join(sorted(t for t in domain.type_names() if domain.is_agent_type(t))) + ")")
        self.domain = domain
        self.agents = frozenset(self.agent_types)
        self.lens = analysis_lens(domain, self.agents)
        self.reachable: Reachable = relaxed_reachable(domain, problem)
        needed_by = self.reachable.needers(domain.ignore_predicates)
        canonical = self.reachable.canonical
        #: Objects that entered the game after its start (:mod:`strips_int.online`), each with an object of the
        #: problem interchangeable with it (section 10), in whose place it is asked who can use a fact.
        self.aliases: dict[str, str] = {}
        aliases = self.aliases

        def needers(fact: Fact) -> frozenset[str]:
            if aliases:
                fact = (fact[0], *[aliases.get(arg, arg) for arg in fact[1:]])
            return needed_by.get(canonical(fact), frozenset())

        self.linker = Linker(self.agents)
        self.tasks = TaskFinder(self.agent_types, domain.ignore_predicates, needers)
        self.steps: list[Step] = []
        self.views: list[View] = []
        self.interdependences: list[Interdependence] = []

    def step(self, step: Step, achievers: Sequence[Achiever], new_facts: frozenset[Fact]) -> StepResult:
        """The next step, with the achievers of its action's ``pre`` and the facts it newly made true: what
        it says (:meth:`feed` of one step)."""
        before = len(self.interdependences)
        self.feed((step,), (achievers,), (new_facts,))
        found = tuple(self.interdependences[before:])
        steps = self.steps
        return StepResult(step, found, tuple(steps[i.giver] for i in found), self.views[-1].subtask,
                          self.tasks.last_trigger == step.index)

    def feed(self, steps: Sequence[Step], achievers: Sequence[Sequence[Achiever]],
             new_facts: Sequence[frozenset[Fact]]) -> None:
        """The next steps, each with the achievers of its action's ``pre`` and the facts it newly made true
        (a batch gives a whole run at once, :meth:`step` one step)."""
        lens, views, found = self.lens, self.views, self.interdependences
        link, task = self.linker.step, self.tasks.step
        for step, pre, new in zip(steps, achievers, new_facts):
            action = step.action
            seen = action.memo.get(lens) or view(action, lens)
            views.append(seen)
            inters = link(action.actor, pre, seen)
            if inters:
                found += inters
            if seen.subtask:
                task(step.index, action.actor, new)
        self.steps += steps
