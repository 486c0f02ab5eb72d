"""Blocks: who got in whose way (definitions section 13).

A block (g, a) pairs an attempt a of agent B (an action B chose that did not happen) with a step g of
another agent A that made one of a's preconditions fail: the last step before a's place (after every step
of a's time) that deleted a positive precondition of a false there, or added a fact a needs false. A
failed precondition no step changed, or last changed by an environment step or by B itself, makes none.

Choices where the definition is silent:

- A block is one per giver: an attempt failed on two facts by one step is one block with both facts; by
  two steps (of one agent or two), two blocks.
- Two attempts of one time by different agents **collide** (the game refused them together although each
  alone was possible) when either each is applicable at their place but neither after the other's effects
  (two players entering one cell), or neither is applicable there but each is after the other's effects
  (two players swapping cells). Each is then blocked by the other's attempt, on the facts that fail, and
  by nothing else: a collision is two blocks.

Blocks are not interdependencies and change no other number of the report.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from strips_int.model.task import Fact, GroundAction, State, format_fact
from strips_int.model.trace import Attempt, Step


@dataclass(frozen=True)
class Block:
    """One block: the giver (a step, or the other attempt of a collision), the blocked attempt and the
    preconditions of the attempt that the giver made fail, as PDDL (``(not f)`` for a fact it added)."""

    giver: Step | Attempt
    attempt: Attempt
    facts: tuple[str, ...]

    @property
    def collision(self) -> bool:
        """Whether the giver is the other attempt of a collision."""
        return isinstance(self.giver, Attempt)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, as in ``strips-int check --json``'s ``blocks``."""
        return {"giver": _entry(self.giver), "attempt": _entry(self.attempt), "facts": list(self.facts),
                "collision": self.collision}


def _entry(entry: Step | Attempt) -> dict[str, Any]:
    kind = "attempt" if isinstance(entry, Attempt) else "step"
    return {kind: entry.index, "t": entry.t, "agent": entry.agent, "action": str(entry.action)}


def _failed(action: GroundAction, state: State | set[Fact]) -> tuple[list[Fact], list[Fact]]:
    """The positive preconditions of ``action`` false in ``state`` and the negative ones true there."""
    return sorted(action.pre - state), sorted(action.neg_pre & state)


def _after(action: GroundAction, state: State) -> frozenset[Fact]:
    return (state - action.delete) | action.add


def by_time(steps: Sequence[Step], attempts: Sequence[Attempt]) -> Iterator[tuple[Sequence[Step], list[Attempt]]]:
    """A trace's steps and attempts (each in time order) in the order an analysis takes them: the steps up to
    each time with attempts, then that time's attempts (placed after every step of their time, definitions
    section 13); last the steps after the last attempts, with none."""
    k = 0
    for t, same in itertools.groupby(attempts, key=operator.attrgetter("t")):
        start = k
        while k < len(steps) and steps[k].t <= t:
            k += 1
        yield steps[start:k], list(same)
    yield steps[k:], []


class BlockFinder:
    """The blocks of a game fed in order (definitions section 13): its steps, and the attempts of each time once
    the steps of that time are in. The one implementation, for a whole trace (a report's
    :class:`~strips_int.analysis.stepwise.Stepwise` is fed them all at once) and for a game as it is played
    (:mod:`strips_int.online`).

    It keeps one table, each fact's last changer (the last step whose add or delete list holds it, and whether
    the fact held after it), beside the initial state: a fact holds where its last change added it, or where
    none changed it and it held initially. Work per step is the step's own effects, per attempt its own
    preconditions (with the other attempts of its time, for collisions), whatever the game's length.
    """

    def __init__(self, init: State) -> None:
        self.init = set(init)
        self.last: dict[Fact, tuple[Step, bool]] = {}

    def feed(self, steps: Sequence[Step], attempts: Sequence[Attempt]) -> list[Block]:
        """The next steps and attempts (each in time order, the attempts after the steps fed before of their
        times): the blocks the attempts received, in attempt order, givers in step order. The attempts of one
        time must come in one call, after every step of that time."""
        if not attempts:  # (a step alone, as a game is played)
            self._advance(steps)
            return []
        found: list[Block] = []
        for before, same in by_time(steps, attempts):
            self._advance(before)
            if same:
                found += self._blocks(same)
        return found

    def introduce(self, facts: Iterable[Fact]) -> None:
        """Facts of objects that enter the game now, true as if from the initial state."""
        for fact in facts:
            self.init.add(fact)
            self.last.pop(fact, None)

    def _advance(self, steps: Sequence[Step]) -> None:
        last = self.last
        for step in steps:
            action = step.action
            for fact in action.delete:
                last[fact] = (step, False)
            for fact in action.add:
                last[fact] = (step, True)

    def _state(self, actions: Iterable[GroundAction]) -> frozenset[Fact]:
        """What holds now of the facts ``actions`` read or change (all that their applicability needs)."""
        last, init = self.last, self.init
        facts = set().union(*(a.pre | a.neg_pre | a.add | a.delete for a in actions))
        return frozenset(f for f in facts if (last[f][1] if f in last else f in init))

    def _blocks(self, group: list[Attempt]) -> list[Block]:
        """The blocks of the attempts of one time, at their place."""
        state = self._state(a.action for a in group)
        collided = _collisions(group, state)
        found: list[Block] = []
        for attempt in group:
            found += collided.get(attempt.index) or self._step_blocks(attempt, state)
        return found

    def _step_blocks(self, attempt: Attempt, state: State) -> list[Block]:
        """The blocks of ``attempt`` by steps: for each failed precondition, its last changer, kept when it is
        another agent's step (none changed it: it was so from the initial state)."""
        missing, present = _failed(attempt.action, state)
        by_giver: dict[int, tuple[Step, list[str]]] = {}
        for facts, shown in ((missing, format_fact), (present, _negated)):
            for fact in facts:
                change = self.last.get(fact)
                if change is None:
                    continue
                step = change[0]
                if step.agent is not None and step.agent != attempt.agent:
                    by_giver.setdefault(step.index, (step, []))[1].append(shown(fact))
        return [Block(step, attempt, tuple(facts)) for _, (step, facts) in sorted(by_giver.items())]


def _collisions(group: Sequence[Attempt], state: State) -> dict[int, list[Block]]:
    """The attempts of one time that collide pairwise (see the module's docstring), by attempt index:
    each one's block by the other's attempt."""
    found: dict[int, list[Block]] = {}
    if len(group) < 2:
        return found
    for i, a in enumerate(group):
        for b in group[i + 1:]:
            if a.agent == b.agent or a.index in found or b.index in found:
                continue
            alone = a.action.applicable(state), b.action.applicable(state)
            a_after, b_after = _after(b.action, state), _after(a.action, state)
            with_other = a.action.applicable(a_after), b.action.applicable(b_after)
            if alone == (True, True) and with_other == (False, False):
                found[a.index] = [_collision(b, a, a_after)]
                found[b.index] = [_collision(a, b, b_after)]
            elif alone == (False, False) and with_other == (True, True):
                found[a.index] = [_collision(b, a, state)]
                found[b.index] = [_collision(a, b, state)]
    return found


def _collision(giver: Attempt, attempt: Attempt, state: frozenset[Fact]) -> Block:
    missing, present = _failed(attempt.action, state)
    return Block(giver, attempt, (*map(format_fact, missing), *map(_negated, present)))


def _negated(fact: Fact) -> str:
    return f"(not {format_fact(fact)})"
