"""CollabCapture's rules, restated from the LLM-Coordination benchmark's published code (commit 586733a:
``collab_capture_action_manager.py`` and the game loop of ``collab_capture_benchmarking.py``).

The quirks of that code are the rules, kept on purpose:

- a move is checked against the doors at the turn's start: a door the partner closes in the same turn
  is still passed;
- the thief moves to the neighbouring room (through the doors open at the turn's start) that is
  furthest from the players' *next* rooms, distance being the difference of room numbers; ties go to
  the first room of the published adjacency list; it always moves (no room leaves it without a way out);
- the thief is caught in a player's room, or by a swap (a player and the thief crossing), but a swap
  is not tested on the first turn (the published loop has no previous rooms yet);
- the game ends at 30 turns.

A chosen action is an ``int`` (a room), ``"Stay in current room"`` or ``"Press button in room N"``,
as the published ``Environment.get_action_options`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

#: The published room graph (``Environment.rooms``), in its order (the thief's ties follow it).
ROOMS: dict[int, tuple[int, ...]] = {1: (2, 6), 2: (1, 3), 3: (2, 4), 4: (3, 5), 5: (4, 6, 7), 6: (5, 9, 1),
                                     7: (5, 8), 8: (7,), 9: (6,)}
#: Door (by its lower room: door 1 is between rooms 1 and 2) -> the room of its button.
BUTTONS: dict[int, int] = {1: 9, 3: 8}
PLAYERS = ("Alice", "Bob")
STAY = "Stay in current room"
MAX_TURNS = 30


def door_name(door: int) -> str:
    """``1-2``: how the episode format names the door between rooms ``door`` and ``door + 1``."""
    return f"{door}-{door + 1}"


def door_of(a: int, b: int) -> int | None:
    """The door between neighbouring rooms ``a`` and ``b``, or None for a doorless passage."""
    low = min(a, b)
    return low if low in BUTTONS and max(a, b) == low + 1 else None


@dataclass(frozen=True)
class State:
    """Where Alice, Bob and the thief are, and which doors are open (by door number)."""

    rooms: Mapping[str, int]  # Alice, Bob, Thief
    doors: Mapping[int, bool]


def accessible(room: int, doors: Mapping[int, bool]) -> list[int]:
    """The neighbours of ``room`` through open doors, in the published order."""
    return [r for r in ROOMS[room] if doors.get(door_of(room, r) or 0, True)]


def options(room: int, doors: Mapping[int, bool]) -> list[int | str]:
    """The actions the published game offers a player in ``room``: stay, the accessible rooms, a press."""
    found: list[int | str] = [STAY, *accessible(room, doors)]
    if room in BUTTONS.values():
        found.append(f"Press button in room {room}")
    return found


def thief_choice(room: int, doors: Mapping[int, bool], alice_next: int, bob_next: int) -> int:
    """The published ``Thief.plan_move_away_from_agents``: the first accessible room furthest (by room
    number) from the nearer of the players' next rooms."""
    rooms = accessible(room, doors)
    if not rooms:
        return room
    return max(rooms, key=lambda r: min(abs(r - alice_next), abs(r - bob_next)))


@dataclass(frozen=True)
class Choice:
    """What one player's chosen action is under the rules: ``stay``, ``move`` (to ``room``), ``blocked``
    (a move to a neighbour behind a closed door: the published ``plan_move`` ignores it, an attempt) or
    ``press`` (the button of ``door``); ``error`` says why an action the game never offers is refused."""

    kind: str
    room: int | None = None
    door: int | None = None
    error: str = ""


def read_choice(action: object, room: int, doors: Mapping[int, bool]) -> Choice:
    """The meaning of ``action`` for a player in ``room`` (see :class:`Choice`).

    An integer equal to the player's own room is a stay, as the published ``plan_move`` takes it."""
    if isinstance(action, bool) or not isinstance(action, (int, str)):
        return Choice("error", error=f"an action is a room number or one of the game's texts, not {action!r}")
    if isinstance(action, int):
        if action == room:
            return Choice("stay")
        if action not in ROOMS[room]:
            return Choice("error", error=f"room {action} is not next to room {room}")
        if action in accessible(room, doors):
            return Choice("move", room=action, door=door_of(room, action))
        return Choice("blocked", room=action, door=door_of(room, action))
    if action == STAY:
        return Choice("stay")
    if action.startswith("Press"):
        door = next((d for d, b in BUTTONS.items() if b == room), None)
        if door is None:
            return Choice("error", error=f"{action!r} in room {room}, which has no button")
        if action != f"Press button in room {room}":
            return Choice("error", error=f"{action!r}: the button here is 'Press button in room {room}'")
        return Choice("press", door=door)
    return Choice("error", error=f"unknown action {action!r} (a room number, {STAY!r} or 'Press button in room N')")


@dataclass(frozen=True)
class Turn:
    """One turn played by the rules: the players' choices, the thief's next room, the state after, the
    outcome (``continue``, ``caught``, ``not caught``), who caught the thief (else "") and whether by a
    swap (crossing it)."""

    choices: Mapping[str, Choice]
    thief_to: int
    after: State
    outcome: str
    catcher: str
    swap: bool


def play(state: State, actions: Mapping[str, object], turn: int, max_turns: int = MAX_TURNS) -> Turn:
    """Turn ``turn`` (1-based) from ``state`` with the players' chosen ``actions``; raises ValueError
    naming the player for an action the game never offers."""
    choices = {}
    for name in PLAYERS:
        choice = read_choice(actions[name], state.rooms[name], state.doors)
        if choice.kind == "error":
            raise ValueError(f"{name}: {choice.error}")
        choices[name] = choice
    nexts = {n: c.room if c.kind == "move" else state.rooms[n] for n, c in choices.items()}
    thief_to = thief_choice(state.rooms["Thief"], state.doors, nexts["Alice"], nexts["Bob"])
    doors = dict(state.doors)
    for name in PLAYERS:  # Alice's execute_move, then Bob's
        if choices[name].kind == "press":
            door = choices[name].door
            doors[door] = not doors[door]
    after = replace(state, rooms={**nexts, "Thief": thief_to}, doors=doors)
    catcher, swap = caught(state, after, turn)
    outcome = "caught" if catcher else "not caught" if turn >= max_turns else "continue"
    return Turn(choices, thief_to, after, outcome, catcher, swap)


def caught(before: State, after: State, turn: int) -> tuple[str, bool]:
    """Who caught the thief this turn and whether by a swap, in the published test's order (Alice's
    room, Bob's room, Alice's swap, Bob's swap); ("", False) when nobody did."""
    thief = after.rooms["Thief"]
    for name in PLAYERS:
        if after.rooms[name] == thief:
            return name, False
    if turn > 1:
        for name in PLAYERS:
            if before.rooms[name] == thief and before.rooms["Thief"] == after.rooms[name]:
                return name, True
    return "", False
