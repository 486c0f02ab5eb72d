"""Sub-tasks, triggers and accepted triggers per agent (definitions section 6).

A trigger makes true a fact that another agent can use: some
relaxed-reachable ground action of another agent needs it, directly or
through environment actions whose added facts that agent can use in turn
(:meth:`~strips_int.analysis.reachability.Reachable.needers`). Facts of ignored
predicates never make a trigger, as they never link two agents (definitions section 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from strips_int.model.execution import Run
from strips_int.model.task import Fact

from .interdependence import Interdependence
from .views import View


@dataclass(frozen=True)
class AgentTasks:
    """Step indices of an agent's sub-tasks, triggers and accepted triggers."""

    subtasks: tuple[int, ...]
    triggers: tuple[int, ...]
    accepted: tuple[int, ...]

    @property
    def pct_triggers(self) -> float | None:
        """%P_trig = 100 * triggers / sub-tasks; None when there are no sub-tasks."""
        return 100.0 * len(self.triggers) / len(self.subtasks) if self.subtasks else None

    @property
    def pct_not_accepted(self) -> float | None:
        """%P_not-acc = 100 * (triggers - accepted) / triggers; None when there are no triggers."""
        if not self.triggers:
            return None
        return 100.0 * (len(self.triggers) - len(self.accepted)) / len(self.triggers)


def agent_tasks(
    run: Run,
    views: Sequence[View],
    agents: Iterable[str],
    ignored: frozenset[str],
    needers: Callable[[Fact], frozenset[str]],
    interdependences: Iterable[Interdependence],
) -> dict[str, AgentTasks]:
    """Each agent's sub-tasks, triggers and accepted triggers in the run.

    ``views``: each step's action (:func:`~strips_int.analysis.views.view`, which says what is a sub-task);
    ``needers(fact)`` gives the agents that can use ``fact`` (definitions section 6).
    """
    givers = {inter.giver for inter in interdependences}
    found: dict[str, tuple[list, list, list]] = {agent: ([], [], []) for agent in agents}
    users: dict[Fact, frozenset[str]] = {}  # needers of each new fact, asked once per run
    steps, new_facts = run.trace.steps, run.new_facts
    for index in [index for index, seen in enumerate(views) if seen.subtask]:
        actor = steps[index].action.actor
        subtasks, triggers, accepted = found[actor]
        subtasks.append(index)
        for fact in new_facts[index]:
            if fact[0] in ignored:
                continue
            used = users.get(fact)
            if used is None:
                used = users[fact] = needers(fact)
            if len(used) > (actor in used):  # another agent can use it
                triggers.append(index)
                if index in givers:
                    accepted.append(index)
                break
    return {agent: AgentTasks(*(tuple(part) for part in parts)) for agent, parts in found.items()}
