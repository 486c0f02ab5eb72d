"""A checked Collab episode lifted into a problem and a trace of ``domains/collab_capture.pddl`` or
``domains/collab_escape.pddl``.

Every turn ``k`` is steps at ``t = k``, serialized so that each step's preconditions are those the
published code tests at that point (see each domain's comments). A chosen action that changed
nothing because its precondition did not hold (a move towards a neighbour behind a closed door, a fix
of a repaired generator) is an attempt (docs/definitions.md sections 11 and 13): it is in the trace's
``attempts``, not executed. Every episode records each player's choice, so a trace's attempts are a
tuple (empty when every choice happened), never None. The goal is the game's: the thief caught, or a
survivor escaped; ``meta`` has the scenario, the outcome and the number of turns.
"""

from __future__ import annotations

from typing import Any, Iterator

from strips_int.model.domain import Domain
from strips_int.model.problem import make_problem
from strips_int.model.task import Fact
from strips_int.model.trace import ActionGrounder, Attempt, Step, Trace

from . import capture, escape
from .episode import Episode

#: The action schemas each lifter writes (checked against the domain before a game is read).
CAPTURE_ACTIONS = frozenset({"move", "move-through", "open-door", "close-door", "catch", "thief-move",
                             "thief-move-through"})
ESCAPE_ACTIONS = frozenset({"move", "start-fix", "finish-fix", "escape", "reset-generator", "open-gate",
                            "killer-move"})


def _room(n: int) -> str:
    return f"r{n}"


def _door(d: int) -> str:
    return f"d{d}{d + 1}"


def _place(name: str) -> str:
    return name.replace(" ", "")


def scenario_label(episode: Episode) -> str:
    """The scenario as one value for ``evaluate --group-by scenario``: ``doors 1-2 closed, 3-4 open`` or
    ``Alice room 1, Bob room 2, killer room 6``."""
    start = episode.start
    if isinstance(start, capture.State):
        doors = ", ".join(f"{capture.door_name(d)} {'open' if start.doors[d] else 'closed'}" for d in capture.BUTTONS)
        return f"doors {doors}"
    return f"Alice {start.rooms['Alice']}, Bob {start.rooms['Bob']}, killer {start.rooms['Killer']}"


def _meta(episode: Episode) -> dict[str, Any]:
    head = episode.header
    extra = {k: head[k] for k in ("seed", "policies", "max_turns") if k in head}
    return {"game": episode.game, "scenario": scenario_label(episode), "outcome": episode.outcome,
            "turns": len(episode.turns), "rules": head["rules"], "recorded_by": head.get("source"), **extra}


def _trace(episode: Episode, domain: Domain, objects: dict[str, str], init: list[Fact], goal: list[Fact],
           atoms: Iterator[tuple[int, str, Fact, bool]]) -> Trace:
    """The trace of ``atoms`` (turn, where, ground atom, whether it is an attempt)."""
    problem = make_problem(domain, episode.game.replace("_", "-"), objects, init, goal, episode.source)
    grounder = ActionGrounder(domain, problem, episode.source)
    times, actions, attempts = [], [], []
    for t, where, atom, attempt in atoms:
        action = grounder.ground(atom, where)
        if attempt:
            attempts.append(Attempt(len(attempts), t, action))
        else:
            times.append(t)
            actions.append(action)
    return Trace(source=episode.source, problem=problem, steps=Step.numbered(times, actions),
                 meta=_meta(episode), attempts=tuple(attempts))


def capture_trace(episode: Episode, domain: Domain) -> Trace:
    """The trace of a checked Capture episode."""
    start = episode.start
    assert isinstance(start, capture.State)
    objects = {"alice": "player", "bob": "player", **{_room(r): "room" for r in capture.ROOMS},
               **{_door(d): "door" for d in capture.BUTTONS}}
    init: list[Fact] = []
    for a, near in capture.ROOMS.items():
        for b in near:
            door = capture.door_of(a, b)
            init.append(("passage", _room(a), _room(b)) if door is None else
                        ("door-between", _door(door), _room(a), _room(b)))
    init += [("button", _room(r), _door(d)) for d, r in capture.BUTTONS.items()]
    init += [("open", _door(d)) for d, is_open in start.doors.items() if is_open]
    init += [("at", n.lower(), _room(start.rooms[n])) for n in capture.PLAYERS]
    init += [("thief-at", _room(start.rooms["Thief"]))]
    return _trace(episode, domain, objects, init, [("caught",)], _capture_atoms(episode))


def _turns(episode: Episode) -> Iterator[tuple[int, str, Any]]:
    """Each turn's ``t``, how errors name it, and the turn played by the rules."""
    for line, t, _, turn in episode.turns:
        yield t, f"turn {t} (line {line})", turn


def _capture_atoms(episode: Episode) -> Iterator[tuple[int, str, Fact, bool]]:
    state = episode.start
    assert isinstance(state, capture.State)
    for t, where, turn in _turns(episode):
        for name in capture.PLAYERS:
            choice, here = turn.choices[name], _room(state.rooms[name])
            if choice.kind in ("move", "blocked"):
                atom = (("move", name.lower(), here, _room(choice.room)) if choice.door is None else
                        ("move-through", name.lower(), here, _room(choice.room), _door(choice.door)))
                yield t, where, atom, choice.kind == "blocked"
        if turn.catcher and turn.swap:
            yield t, where, ("catch", turn.catcher.lower(), _room(turn.after.rooms[turn.catcher])), False
        thief_from, thief_to = state.rooms["Thief"], turn.thief_to
        door = capture.door_of(thief_from, thief_to)
        yield t, where, (("thief-move", _room(thief_from), _room(thief_to)) if door is None else
                         ("thief-move-through", _room(thief_from), _room(thief_to), _door(door))), False
        if turn.catcher and not turn.swap:
            yield t, where, ("catch", turn.catcher.lower(), _room(thief_to)), False
        doors = dict(state.doors)
        for name in capture.PLAYERS:
            choice = turn.choices[name]
            if choice.kind == "press":
                press = "close-door" if doors[choice.door] else "open-door"
                doors[choice.door] = not doors[choice.door]
                yield t, where, (press, name.lower(), _room(state.rooms[name]), _door(choice.door)), False
        state = turn.after


def escape_trace(episode: Episode, domain: Domain) -> Trace:
    """The trace of a checked Escape episode."""
    start = episode.start
    assert isinstance(start, escape.State)
    objects = {"alice": "survivor", "bob": "survivor", **{_place(r): "room" for r in escape.ROOM_NAMES}}
    init: list[Fact] = [("passage", _place(a), _place(b)) for a, near in escape.ADJACENT.items() for b in near]
    init += [("generator", _place(g)) for g in escape.GENERATORS] + [("exit", _place(escape.EXIT))]
    init += [("half-fixed", _place(g)) for g, c in start.fixes.items() if c == 1]
    init += [("fixed", _place(g)) for g, c in start.fixes.items() if c >= 2]
    init += [("gate-open",)] if start.gate else []
    init += [("at", n.lower(), _place(start.rooms[n])) for n in escape.SURVIVORS]
    init += [("killer-at", _place(start.rooms["Killer"]))]
    return _trace(episode, domain, objects, init, [("escaped",)], _escape_atoms(episode))


def _escape_atoms(episode: Episode) -> Iterator[tuple[int, str, Fact, bool]]:
    state = episode.start
    assert isinstance(state, escape.State)
    for t, where, turn in _turns(episode):
        for generator in turn.resets:
            yield t, where, ("reset-generator", _place(generator)), False
        for name in escape.SURVIVORS:
            choice, here = turn.choices[name], _place(state.rooms[name])
            if choice.kind == "move":
                yield t, where, ("move", name.lower(), here, _place(choice.room)), False
            elif choice.kind == "fix":
                count = turn.fixed_from[name]
                yield t, where, ("finish-fix" if count == 1 else "start-fix", name.lower(), here), count >= 2
        yield t, where, ("killer-move", _place(state.rooms["Killer"]), _place(turn.killer_to)), False
        if turn.after.gate and not state.gate:
            yield t, where, ("open-gate", *(_place(g) for g in escape.GENERATORS)), False
        if turn.outcome == "win":
            name = next(n for n in escape.SURVIVORS if turn.after.rooms[n] == escape.EXIT)
            yield t, where, ("escape", name.lower(), _place(escape.EXIT)), False
        state = turn.after
