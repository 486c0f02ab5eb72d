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

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Sequence

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


def find_blocks(init: State, steps: Sequence[Step], attempts: Sequence[Attempt]) -> tuple[Block, ...]:
    """Every block of a trace (definitions section 13), in attempt order, givers in trace order.

    One pass over the steps, keeping the state and each fact's last deleter and last adder; each attempt
    is looked at once the steps of its time are done. A pure function of the trace: no game is re-read.
    """
    if not attempts:
        return ()
    state = set(init)
    deleter: dict[Fact, int] = {}
    adder: dict[Fact, int] = {}
    by_time: dict[int, list[Attempt]] = defaultdict(list)
    for attempt in attempts:
        by_time[attempt.t].append(attempt)
    times = sorted(by_time)
    found: list[Block] = []
    k = 0
    for t in times:
        while k < len(steps) and steps[k].t <= t:
            action = steps[k].action
            for fact in action.delete:
                deleter[fact] = k
            for fact in action.add:
                adder[fact] = k
            state -= action.delete
            state |= action.add
            k += 1
        here = frozenset(state)
        group = by_time[t]
        collided = _collisions(group, here)
        for attempt in group:
            if attempt.index in collided:
                found += collided[attempt.index]
                continue
            found += _step_blocks(attempt, here, steps, deleter, adder)
    return tuple(found)


def _step_blocks(attempt: Attempt, state: State, steps: Sequence[Step], deleter: dict[Fact, int],
                 adder: dict[Fact, int]) -> list[Block]:
    """The blocks of ``attempt`` by steps: for each failed precondition, its last changer, kept when it is
    another agent's step."""
    missing, present = _failed(attempt.action, state)
    by_giver: dict[int, list[str]] = defaultdict(list)
    for facts, last, shown in ((missing, deleter, format_fact), (present, adder, lambda f: f"(not {format_fact(f)})")):
        for fact in facts:
            index = last.get(fact)
            if index is None:  # no step changed it: true or false from the initial state
                continue
            agent = steps[index].agent
            if agent is not None and agent != attempt.agent:
                by_giver[index].append(shown(fact))
    return [Block(steps[index], attempt, tuple(facts)) for index, facts in sorted(by_giver.items())]


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
    return Block(giver, attempt, (*map(format_fact, missing), *(f"(not {format_fact(f)})" for f in present)))
