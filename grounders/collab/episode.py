"""The Collab episode format (``collab-episode/1``): JSON Lines, one object per turn, written by the
recorder and the simulator and read (and checked turn by turn against the rules) by the grounders.

The first line names the game and its scenario::

    {"format": "collab-episode/1", "game": "collab_capture", "rules": "llm-coordination@586733a",
     "scenario": {"rooms": {"Alice": 1, "Bob": 6, "Thief": 2}, "doors": {"1-2": false, "3-4": true}},
     "max_turns": 30, "source": "record_capture"}

then one line a turn: ``turn`` (from 1), ``before`` (the state at the turn's start, the scenario's on
turn 1, else the previous turn's ``after``), ``actions`` (each player's chosen action as the game
names it), ``thief`` (``from``, ``to``) or ``killer`` (``from``, ``to``, ``random``), ``after`` and
``outcome``: ``continue``, then on the last line ``caught`` or ``not caught`` (Capture), ``win`` or
``loss`` (Escape). An Escape state also has the generators' ``fix_count`` and ``fixed``, the
``exit_gate`` and the killer's memory (``killer``: ``target``, ``can_see``), on which its next choice
depends. Optional header keys (``seed``, ``policies``) are carried into the trace's ``meta``.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from strips_int.errors import StripsIntError, brief

from . import capture, escape
from .tags import FORMAT
RULES = "llm-coordination@586733a"
CAPTURE, ESCAPE = "collab_capture", "collab_escape"
GAMES = (CAPTURE, ESCAPE)
_DOORS = {capture.door_name(d): d for d in capture.BUTTONS}


def capture_json(state: capture.State) -> dict[str, Any]:
    """A Capture state as the format writes it."""
    return {"rooms": {n: state.rooms[n] for n in ("Alice", "Bob", "Thief")},
            "doors": {capture.door_name(d): state.doors[d] for d in capture.BUTTONS}}


def escape_json(state: escape.State) -> dict[str, Any]:
    """An Escape state as the format writes it."""
    return {"rooms": {n: state.rooms[n] for n in ("Alice", "Bob", "Killer")},
            "generators": {g: {"fix_count": c, "fixed": c >= 2} for g, c in state.fixes.items()},
            "exit_gate": state.gate,
            "killer": {"target": state.memory.target, "can_see": dict(state.memory.sees)}}


def capture_line(turn: int, before: capture.State, actions: Mapping[str, object], after: capture.State,
                 outcome: str) -> dict[str, Any]:
    """One Capture turn's line."""
    return {"turn": turn, "before": capture_json(before), "actions": dict(actions),
            "thief": {"from": before.rooms["Thief"], "to": after.rooms["Thief"]}, "after": capture_json(after),
            "outcome": outcome}


def escape_line(turn: int, before: escape.State, actions: Mapping[str, object], random_move: bool,
                after: escape.State, outcome: str) -> dict[str, Any]:
    """One Escape turn's line."""
    return {"turn": turn, "before": escape_json(before), "actions": dict(actions),
            "killer": {"from": before.rooms["Killer"], "to": after.rooms["Killer"], "random": random_move},
            "after": escape_json(after), "outcome": outcome}


def header(game: str, scenario: Mapping[str, Any], source: str, **extra: Any) -> dict[str, Any]:
    """The first line of an episode of ``game`` (``max_turns``, ``seed``, ``policies`` as ``extra``)."""
    return {"format": FORMAT, "game": game, "rules": RULES, "scenario": dict(scenario), "source": source, **extra}


class Writer:
    """Writes an episode a line at a time, flushed, so a game stopped half-way leaves whole lines; a failed
    write is an error naming the file (:func:`strips_int.files.writer`)."""

    def __init__(self, path: str | Path, first: Mapping[str, Any]) -> None:
        from strips_int.files import output_file, writer

        self.path = Path(path)
        output_file(self.path)  # not a FIFO, which would wait for a reader
        self._open = contextlib.ExitStack()
        self._handle: Any = self._open.enter_context(writer(self.path))
        self.line(first)

    def line(self, data: Mapping[str, Any]) -> None:
        """Write one line (the header or a turn) and flush it."""
        if self._handle is None:
            raise StripsIntError(str(self.path), None, "the episode is closed: no more turns can be written")
        self._handle.write(json.dumps(data) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle = None
        self._open.close()


# Reading --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Episode:
    """A read and checked episode: its header, start state and turns (line number, turn number, the
    actions and the turn replayed by the rules, :class:`capture.Turn` or :class:`escape.Turn`)."""

    source: str
    game: str
    header: Mapping[str, Any]
    start: capture.State | escape.State
    turns: tuple[tuple[int, int, Mapping[str, object], Any], ...]

    @property
    def outcome(self) -> str:
        return self.turns[-1][3].outcome


def read_episode(path: str | Path) -> Episode:
    """The episode in ``path``, every turn checked against the rules; the first turn that does not follow
    (or a malformed or truncated line) is a :class:`StripsIntError` naming the file, turn and line."""
    from strips_int.files import parse_json, read_text

    source = str(path)
    text = read_text(path)
    lines = text.split("\n")
    ended = lines[-1] == ""
    if ended:
        lines.pop()
    if not lines:
        raise StripsIntError(source, None, "empty: a Collab episode starts with a line naming its game")
    rows = []
    for number, line in enumerate(lines, start=1):
        try:
            rows.append(parse_json(line, source))
        except StripsIntError as exc:
            cut = (" (truncated: the last line does not end, the game was cut off)"
                   if number == len(lines) and not ended else "")
            where = f"turn {number - 1} (line {number})" if number > 1 else "line 1"
            raise StripsIntError(source, where, exc.message + cut) from None
    first = rows[0]
    if not isinstance(first, dict) or first.get("format") != FORMAT or first.get("game") not in GAMES:
        raise StripsIntError(source, "line 1", f"a Collab episode starts with {{\"format\": \"{FORMAT}\", \"game\": "
                             f"\"{CAPTURE}\" or \"{ESCAPE}\", ...}}, found {brief(first)}")
    if first.get("rules") != RULES:
        raise StripsIntError(source, "line 1", f"rules {brief(first.get('rules'))}: only {RULES!r} are known")
    read = _Capture(source, first) if first["game"] == CAPTURE else _Escape(source, first)
    state = read.state(first.get("scenario"), "line 1, scenario")
    start, turns = state, []
    for number, row in enumerate(rows[1:], start=2):
        where = f"turn {len(turns) + 1} (line {number})"
        if turns and turns[-1][3].outcome != "continue":
            raise StripsIntError(source, where, f"the game ended at turn {len(turns)} ({turns[-1][3].outcome})")
        if not isinstance(row, dict):
            raise StripsIntError(source, where, f"a turn is a JSON object, found {brief(row)}")
        if type(row.get("turn")) is not int or row["turn"] != len(turns) + 1:
            raise StripsIntError(source, where, f"turn {brief(row.get('turn'))}, expected {len(turns) + 1}")
        if read.state(row.get("before"), f"{where}, before") != state:
            raise StripsIntError(source, where, "the state before the turn is not the state after the one before")
        actions = row.get("actions")
        if not isinstance(actions, dict) or set(actions) != {"Alice", "Bob"}:
            raise StripsIntError(source, where,
                                 f"actions must be {{\"Alice\": ..., \"Bob\": ...}}, found {brief(actions)}")
        played = read.turn(row, state, actions, len(turns) + 1, where)
        turns.append((number, len(turns) + 1, actions, played))
        state = played.after
    if not turns or turns[-1][3].outcome == "continue":
        raise StripsIntError(source, f"turn {len(turns)} (line {len(rows)})" if turns else "line 1",
                             "truncated: the episode ends without an outcome (no 'caught'/'not caught'/'win'/'loss')")
    return Episode(source, first["game"], first, start, tuple(turns))


class _Capture:
    """Reads and checks Capture states and turns."""

    def __init__(self, source: str, first: Mapping[str, Any]) -> None:
        self.source = source
        self.max_turns = first.get("max_turns", capture.MAX_TURNS)
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int) or self.max_turns < 1:
            raise StripsIntError(source, "line 1",
                                 f"max_turns must be a whole number of turns, found {brief(self.max_turns)}")

    def state(self, data: Any, where: str) -> capture.State:
        rooms = data.get("rooms") if isinstance(data, dict) else None
        doors = data.get("doors") if isinstance(data, dict) else None
        if not isinstance(rooms, dict) or set(rooms) != {"Alice", "Bob", "Thief"} or \
                any(type(r) is not int or r not in capture.ROOMS for r in rooms.values()):
            raise StripsIntError(self.source, where, f"rooms must be {{\"Alice\", \"Bob\", \"Thief\"}} -> a room 1-9, "
                                 f"found {brief(rooms)}")
        if not isinstance(doors, dict) or set(doors) != set(_DOORS) or \
                not all(isinstance(v, bool) for v in doors.values()):
            raise StripsIntError(self.source, where, f"doors must be {{\"1-2\", \"3-4\"}} -> true (open) or false, "
                                 f"found {brief(doors)}")
        return capture.State(dict(rooms), {_DOORS[n]: v for n, v in doors.items()})

    def turn(self, row: Mapping[str, Any], state: capture.State, actions: Mapping[str, object], number: int,
             where: str) -> capture.Turn:
        try:
            played = capture.play(state, actions, number, self.max_turns)
        except ValueError as exc:
            raise StripsIntError(self.source, where, str(exc)) from None
        thief = row.get("thief")
        if thief != {"from": state.rooms["Thief"], "to": played.thief_to}:
            raise StripsIntError(self.source, where, f"the thief moves from room {state.rooms['Thief']} to room "
                                 f"{played.thief_to} by its rule, the episode says {brief(thief)}")
        _same(self.source, where, self.state(row.get("after"), f"{where}, after"), played.after, capture_json)
        _outcome(self.source, where, row.get("outcome"), played.outcome)
        return played


class _Escape:
    """Reads and checks Escape states and turns."""

    def __init__(self, source: str, first: Mapping[str, Any]) -> None:
        self.source = source

    def state(self, data: Any, where: str) -> escape.State:
        rooms = data.get("rooms") if isinstance(data, dict) else None
        if not isinstance(rooms, dict) or set(rooms) != {"Alice", "Bob", "Killer"} or \
                any(r not in escape.ADJACENT for r in rooms.values() if isinstance(r, str)) or \
                not all(isinstance(r, str) for r in rooms.values()):
            raise StripsIntError(self.source, where, "rooms must be {\"Alice\", \"Bob\", \"Killer\"} -> \"room 1\" .. "
                                 f"\"room 10\", found {brief(rooms)}")
        generators = data.get("generators")
        if not isinstance(generators, dict) or set(generators) != set(escape.GENERATORS) or not all(
                isinstance(g, dict) and isinstance(g.get("fix_count"), int) and not isinstance(g["fix_count"], bool)
                and g["fix_count"] >= 0 and g.get("fixed") is (g["fix_count"] >= 2) for g in generators.values()):
            raise StripsIntError(self.source, where, "generators must be {\"room 1\", \"room 6\"} -> "
                                 "{\"fix_count\": N, "
                                 f"\"fixed\": N >= 2}}, found {brief(generators)}")
        killer = data.get("killer")
        sees = killer.get("can_see") if isinstance(killer, dict) else None
        if not isinstance(sees, dict) or set(sees) != set(escape.SURVIVORS) or \
                not all(isinstance(v, bool) for v in sees.values()) or \
                killer.get("target") not in ("", *escape.SURVIVORS) or \
                (killer["target"] == "") == any(sees.values()) or \
                (killer["target"] != "" and not sees[killer["target"]]):
            raise StripsIntError(self.source, where, "killer must be {\"target\": \"\", \"Alice\" or \"Bob\" (one it "
                                 f"sees), \"can_see\": {{\"Alice\": bool, \"Bob\": bool}}}}, found {brief(killer)}")
        state = escape.State(dict(rooms), {g: generators[g]["fix_count"] for g in escape.GENERATORS},
                             escape.Memory(killer["target"], dict(sees)))
        if data.get("exit_gate") is not state.gate:
            raise StripsIntError(self.source, where, f"exit_gate must be {str(state.gate).lower()} (open exactly when "
                                 "both generators are fixed)")
        return state

    def turn(self, row: Mapping[str, Any], state: escape.State, actions: Mapping[str, object], number: int,
             where: str) -> escape.Turn:
        killer = row.get("killer")
        if not isinstance(killer, dict) or killer.get("from") != state.rooms["Killer"] or \
                not isinstance(killer.get("random"), bool) or not isinstance(killer.get("to"), str):
            raise StripsIntError(self.source, where, "killer must be {\"from\": its room before, \"to\": a room, "
                                 f"\"random\": bool}}, found {brief(killer)}")
        if killer["random"] != escape.was_random(state):
            why = "is random: no survivor is next to it" if killer["random"] is False else \
                "is not random: a survivor is next to it"
            raise StripsIntError(self.source, where, f"the killer's move {why}, the episode says "
                                 f"random={str(killer['random']).lower()}")
        try:
            played = escape.play(state, actions, killer["to"])
        except ValueError as exc:
            raise StripsIntError(self.source, where, str(exc)) from None
        _same(self.source, where, self.state(row.get("after"), f"{where}, after"), played.after, escape_json)
        _outcome(self.source, where, row.get("outcome"), played.outcome)
        return played


def _same(source: str, where: str, found: Any, rule: Any, shown: Any) -> None:
    if found != rule:
        raise StripsIntError(source, where, f"the state after does not follow: by the rules it is "
                             f"{json.dumps(shown(rule))}, the episode says {json.dumps(shown(found))}")


def _outcome(source: str, where: str, found: Any, rule: str) -> None:
    if found != rule:
        raise StripsIntError(source, where, f"the outcome is {rule!r} by the rules, the episode says {brief(found)}")
