"""Both Collab games played in the package by their rules (:mod:`.capture`, :mod:`.escape`), with
scripted or random policies, written in the episode format (:mod:`.episode`).

A policy is called as ``policy(turn, options)`` (``turn`` from 1; ``options`` the actions the published
game offers the player then, in its order) and returns one of them (or any action the game's rules
read). For the same policies (and, in Escape, the same seed of the killer's random moves, as
``random.seed(seed)`` before the published ``Game.play``) the published code driven through the
recorder writes the same turns.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from strips_int.errors import StripsIntError

from . import capture, escape
from .episode import CAPTURE, ESCAPE, Writer, capture_json, capture_line, escape_json, escape_line, header

Policy = Callable[[int, Sequence[Any]], Any]
#: The published games' starts: Capture's rooms (its game loop) and Escape's (``Game.__init__``).
CAPTURE_START = {"Alice": 1, "Bob": 6, "Thief": 2}
ESCAPE_START = {"Alice": "room 1", "Bob": "room 2", "Killer": "room 6"}
#: The simulator's own bound on an Escape game, which has no turn limit.
ESCAPE_BOUND = 10_000


def scripted(actions: Sequence[Any], rest: Any) -> Policy:
    """The ``k``-th action on turn ``k``, then ``rest`` (``capture.STAY``, ``escape.WAIT``)."""
    return lambda turn, options: actions[turn - 1] if turn <= len(actions) else rest


def random_policy(seed: int) -> Policy:
    """A uniform choice among the options, from its own ``random.Random(seed)``."""
    rng = random.Random(seed)
    return lambda turn, options: rng.choice(list(options))


def simulate_capture(path: str | Path, alice: Policy, bob: Policy, doors: Mapping[int, bool],
                     start: Mapping[str, int] = CAPTURE_START, max_turns: int = capture.MAX_TURNS,
                     **extra: Any) -> str:
    """Play CollabCapture from ``start`` with doors 1-2 and 3-4 open or not (``{1: bool, 3: bool}``) and
    write its episode to ``path``; returns the outcome. ``extra`` goes into the header (``policies``)."""
    state = capture.State(dict(start), dict(doors))
    writer = Writer(path, header(CAPTURE, capture_json(state), "simulate_capture", max_turns=max_turns, **extra))
    turn, outcome = 0, "continue"
    try:
        while outcome == "continue":  # turn max_turns ends the game
            turn += 1
            actions = {name: policy(turn, capture.options(state.rooms[name], state.doors))
                       for name, policy in (("Alice", alice), ("Bob", bob))}
            played = capture.play(state, actions, turn, max_turns)
            writer.line(capture_line(turn, state, actions, played.after, played.outcome))
            state, outcome = played.after, played.outcome
    finally:
        writer.close()
    return outcome


def simulate_escape(path: str | Path, alice: Policy, bob: Policy, seed: int,
                    start: Mapping[str, str] = ESCAPE_START, **extra: Any) -> str:
    """Play CollabEscape from ``start``, the killer's random moves drawn from ``random.Random(seed)``, and
    write its episode to ``path``; returns the outcome (``win`` or ``loss``)."""
    rng = random.Random(seed)
    state = escape.State(dict(start), dict.fromkeys(escape.GENERATORS, 0))
    writer = Writer(path, header(ESCAPE, escape_json(state), "simulate_escape", seed=seed, **extra))
    try:
        for turn in range(1, ESCAPE_BOUND + 1):
            actions = {name: policy(turn, escape.options(state.rooms[name]))
                       for name, policy in (("Alice", alice), ("Bob", bob))}
            random_move = escape.was_random(state)
            played = escape.play(state, actions, None, rng)
            writer.line(escape_line(turn, state, actions, random_move, played.after, played.outcome))
            state = played.after
            if played.outcome != "continue":
                return played.outcome
    finally:
        writer.close()
    raise StripsIntError(str(path), f"turn {ESCAPE_BOUND}", "no outcome yet: the simulator stops here (the game "
                         "itself has no turn limit); the episode is left without an outcome")
