"""Sub-tasks, triggers and accepted triggers per agent (definitions section 6).

A trigger makes true a fact that another agent can use: some
relaxed-reachable ground action of another agent needs it, directly or
through environment actions whose added facts that agent can use in turn
(:meth:`~strips_int.analysis.reachability.Reachable.needers`). Facts of ignored
predicates never make a trigger, as they never link two agents (definitions section 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from strips_int.model.task import Fact

from .interdependence import Interdependence


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


class TaskFinder:
    """Each agent's sub-tasks and triggers found one step at a time (definitions section 6), and at the end its
    accepted triggers (those that gave an interdependence, which only the rest of the game tells).

    ``ignored``: the domain's ignored predicates; ``needers(fact)`` gives the agents that can use ``fact``
    (definitions section 6).
    """

    def __init__(self, agents: Iterable[str], ignored: frozenset[str], needers: Callable[[Fact], frozenset[str]]
                 ) -> None:
        self.ignored = ignored
        self.needers = needers
        self.found: dict[str, tuple[list[int], list[int]]] = {agent: ([], []) for agent in agents}
        self.users: dict[Fact, frozenset[str]] = {}  # needers of each new fact, asked once per game
        self.last_trigger: int | None = None  # the index of the last trigger found

    def step(self, index: int, actor: str, new_facts: Iterable[Fact]) -> bool:
        """Sub-task ``index`` of ``actor`` (a step that is not navigation:
        :attr:`~strips_int.analysis.views.View.subtask`) with the facts it newly made true: whether it is a
        trigger (then also :attr:`last_trigger`)."""
        subtasks, triggers = self.found[actor]
        subtasks.append(index)
        users, ignored = self.users, self.ignored
        for fact in new_facts:
            if fact[0] in ignored:
                continue
            used = users.get(fact)
            if used is None:
                used = users[fact] = self.needers(fact)
            if len(used) > (actor in used):  # another agent can use it
                triggers.append(index)
                self.last_trigger = index
                return True
        return False

    def tasks(self, interdependences: Iterable[Interdependence]) -> dict[str, AgentTasks]:
        """Each agent's sub-tasks, triggers and accepted triggers so far, given the game's interdependences."""
        givers = {inter.giver for inter in interdependences}
        return {agent: AgentTasks(tuple(subtasks), tuple(triggers), tuple(i for i in triggers if i in givers))
                for agent, (subtasks, triggers) in self.found.items()}
