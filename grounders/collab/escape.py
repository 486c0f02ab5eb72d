"""CollabEscape's rules, restated from the LLM-Coordination benchmark's published code (commit 586733a:
``CollabEscapeMDP.py``: ``Room``, ``Player``, ``Adversary``, ``Game.play``).

The quirks of that code are the rules, kept on purpose:

- the room graph has two one-way passages (8 -> 7 and 7 -> 3);
- a generator needs two fixes on consecutive turns by anyone (two survivors fixing it in one turn
  repair it); at a turn's start every unrepaired generator nobody chose to fix this turn loses its
  count; a fix of a repaired generator only raises its count;
- the killer chooses before the survivors move, from the rooms they are in: the room of a survivor next
  to it (with a memory of whom it saw, ``Adversary.choose_greedily``), else a random neighbour;
- a loss (the killer in a survivor's room after the moves) is tested before a win (the gate open and
  a survivor in room 7); there is no turn limit.

A chosen action is ``"move to room N"``, ``"fix generator in room N"`` or ``"wait"``, as the
published agent offers them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Mapping

ROOM_NAMES = tuple(f"room {n}" for n in range(1, 11))
#: The published ``Game.rooms[...].adjacent_rooms``, in its order (the killer's random choice follows it).
ADJACENT: dict[str, tuple[str, ...]] = {
    "room 1": ("room 2", "room 10"), "room 2": ("room 1", "room 3"), "room 3": ("room 2", "room 4", "room 8"),
    "room 4": ("room 3", "room 5"), "room 5": ("room 4", "room 6"), "room 6": ("room 5", "room 7"),
    "room 7": ("room 3", "room 6"), "room 8": ("room 3", "room 7", "room 9"), "room 9": ("room 8", "room 10"),
    "room 10": ("room 1", "room 9")}
GENERATORS = ("room 1", "room 6")
EXIT = "room 7"
SURVIVORS = ("Alice", "Bob")
WAIT = "wait"


@dataclass(frozen=True)
class Memory:
    """The killer's memory between turns (``Adversary.target_name`` and ``can_see``)."""

    target: str = ""
    sees: Mapping[str, bool] = field(default_factory=lambda: {"Alice": False, "Bob": False})


@dataclass(frozen=True)
class State:
    """Where the survivors and the killer are, each generator's fix count, and the killer's memory."""

    rooms: Mapping[str, str]  # Alice, Bob, Killer
    fixes: Mapping[str, int]
    memory: Memory = Memory()

    def fixed(self, generator: str) -> bool:
        return self.fixes[generator] >= 2

    @property
    def gate(self) -> bool:
        return all(self.fixed(g) for g in self.fixes)


def options(room: str) -> list[str]:
    """The actions the published agent offers a survivor in ``room``."""
    found = [f"move to {r}" for r in ADJACENT[room]]
    if room in GENERATORS:
        found.append(f"fix generator in {room}")
    return found + [WAIT]


def killer_choice(state: State, rng: random.Random | None) -> tuple[str | None, Memory]:
    """The published ``Adversary.choose_greedily``: the room it goes for and its memory after; the room is
    None when no survivor is next to it and there is no ``rng`` (the choice is random, to be read)."""
    near = ADJACENT[state.rooms["Killer"]]
    alice, bob = state.rooms["Alice"] in near, state.rooms["Bob"] in near
    sees = state.memory.sees
    if alice and bob:
        if sees["Alice"] and sees["Bob"]:
            target = state.memory.target
        else:
            target = "Bob" if sees["Alice"] else "Alice"
        return state.rooms[target], Memory(target, {"Alice": True, "Bob": True})
    if alice or bob:
        target = "Alice" if alice else "Bob"
        return state.rooms[target], Memory(target, {"Alice": alice, "Bob": bob})
    return (None if rng is None else rng.choice(list(near))), Memory()


@dataclass(frozen=True)
class Choice:
    """A survivor's chosen action under the rules: ``wait``, ``move`` (to ``room``) or ``fix``;
    ``error`` says why an action the game never offers is refused."""

    kind: str
    room: str = ""
    error: str = ""


def read_choice(action: object, room: str) -> Choice:
    """The meaning of ``action`` for a survivor in ``room`` (see :class:`Choice`)."""
    if not isinstance(action, str):
        return Choice("error", error=f"an action is one of the game's texts, not {action!r}")
    if action == WAIT:
        return Choice("wait")
    if action.startswith("move to "):
        target = action.removeprefix("move to ")
        if target not in ADJACENT:
            return Choice("error", error=f"{action!r}: no such room")
        if target not in ADJACENT[room]:
            return Choice("error", error=f"{target} is not next to {room} (passages: {', '.join(ADJACENT[room])})")
        return Choice("move", room=target)
    if action.startswith("fix generator in "):
        if room not in GENERATORS:
            return Choice("error", error=f"{action!r} in {room}, which has no generator")
        if action != f"fix generator in {room}":
            return Choice("error", error=f"{action!r}: the generator here is 'fix generator in {room}'")
        return Choice("fix", room=room)
    return Choice("error", error=f"unknown action {action!r} ('move to room N', 'fix generator in room N' or 'wait')")


@dataclass(frozen=True)
class Turn:
    """One turn by the rules: the survivors' choices, the generators that lost their count, each fix's
    count before it (in order), the killer's room and memory, the state after and the outcome
    (``continue``, ``win``, ``loss``)."""

    choices: Mapping[str, Choice]
    resets: tuple[str, ...]
    fixed_from: Mapping[str, int]
    killer_to: str
    after: State
    outcome: str


def play(state: State, actions: Mapping[str, object], killer_to: str | None, rng: random.Random | None = None
         ) -> Turn:
    """One turn from ``state``: the killer's choice (``killer_to`` as recorded when it was random, else
    drawn from ``rng``), then the survivors' ``actions``; raises ValueError naming what the rules refuse."""
    greedy, memory = killer_choice(state, rng)
    if greedy is None:
        if killer_to not in ADJACENT[state.rooms["Killer"]]:
            raise ValueError(f"the killer's random move to {killer_to!r} is not to a room next to "
                             f"{state.rooms['Killer']}")
        greedy = killer_to
    elif killer_to is not None and killer_to != greedy:
        raise ValueError(f"the killer goes for {greedy} by its rule (a survivor next to it), not {killer_to}")
    choices = {}
    for name in SURVIVORS:
        choice = read_choice(actions[name], state.rooms[name])
        if choice.kind == "error":
            raise ValueError(f"{name}: {choice.error}")
        choices[name] = choice
    fixing = {state.rooms[n] for n, c in choices.items() if c.kind == "fix"}
    fixes = dict(state.fixes)
    resets = tuple(g for g in fixes if fixes[g] < 2 and g not in fixing and fixes[g] > 0)
    fixes.update(dict.fromkeys(resets, 0))
    rooms, fixed_from = dict(state.rooms), {}
    for name in SURVIVORS:
        choice = choices[name]
        if choice.kind == "move":
            rooms[name] = choice.room
        elif choice.kind == "fix":
            fixed_from[name] = fixes[choice.room]
            fixes[choice.room] += 1
    rooms["Killer"] = greedy
    after = State(rooms, fixes, memory)
    if greedy in (rooms["Alice"], rooms["Bob"]):
        outcome = "loss"
    elif after.gate and EXIT in (rooms["Alice"], rooms["Bob"]):
        outcome = "win"
    else:
        outcome = "continue"
    return Turn(choices, resets, fixed_from, greedy, after, outcome)


def was_random(state: State) -> bool:
    """Whether the killer's choice from ``state`` is random (no survivor next to it)."""
    return killer_choice(state, None)[0] is None
