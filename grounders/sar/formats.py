"""SAR files: the episode log (``strips-int-sar-log/1``), read, checked and written; the checks scenarios share.

A log holds the world once (terrain grid, agents with roles in acting order,
items with kinds, victims with cells), then one entry per tick: the raw state
and each agent's primitive action; the last entry has the final state and no
actions. ``docs/environments/sar.md`` documents every field. Reading checks every
value and names the entry (``step 4``) and field of the first one that is wrong.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from strips_int.errors import StripsIntError, brief, cut
from strips_int.files import read_json

from .tags import LOG_FORMAT
from .world import ACTIONS, DIRECTIONS, DOOR, FLOOR, KINDS, ROLES, WALL, AgentState, Grid, Pos, State, World, check_state

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,99}\Z")
#: The largest grid read: 40 rows or columns. SAR houses are tens of cells across; every cell
#: becomes a PDDL location and its fire a fact of every state, so time and memory grow with
#: cells x ticks (a 64 x 64 house burning for 2,000 ticks took 33 s and 1.4 GB to check).
MAX_GRID_SIDE = 40
#: The most ticks an episode may have: a log's entries, a scenario's ``max_steps`` and ``wait``.
#: Scenarios run for tens to hundreds of ticks (the default ``max_steps`` is 200).
MAX_TICKS = 1_000


@dataclass(frozen=True)
class Log:
    """One episode: its world, the raw states s0 ... sn and the joint actions between them."""

    source: str
    scenario: str
    world: World
    states: tuple[State, ...]
    actions: tuple[Mapping[str, str], ...]


class JsonReader:
    """Checks parsed JSON values, raising a :class:`StripsIntError` that names the file and the field.

    Hand-written: no schema validator is among the project's packages, and errors must name step and field.
    """

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str | None, message: str) -> StripsIntError:
        return StripsIntError(self.source, where, message)

    def object(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a JSON object, found {_shown(value)}")
        return value

    def document(self, value: Any, tag: str) -> dict:
        """The top-level object of a file that must carry ``"format": tag``."""
        data = self.object(value, "top level")
        if data.get("format") != tag:
            raise self.fail("format", f"expected {tag!r}, found {_shown(data.get('format'))}")
        return data

    def list(self, value: Any, where: str) -> list:
        if not isinstance(value, list):
            raise self.fail(where, f"must be a list, found {_shown(value)}")
        return value

    def name(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not _NAME.match(value):
            raise self.fail(where, f"{_shown(value)} is not a name (lower-case letters, digits, - and _)")
        return value

    def choice(self, value: Any, allowed: tuple[str, ...], where: str) -> str:
        if value not in allowed:
            raise self.fail(where, f"{_shown(value)} is not one of {', '.join(allowed)}")
        return value

    def count(self, value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(where, f"must be a whole number >= 0, found {_shown(value)}")
        return value

    def pos(self, value: Any, where: str) -> Pos:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise self.fail(where, f"a cell is [x, y] (column, row), found {_shown(value)}")
        return value[0], value[1]

    def names(self, value: Any, known: Mapping[str, Any], where: str) -> list[str]:
        """A list of names, each one of ``known``."""
        names = [self.name(v, where) for v in self.list(value, where)]
        for name in names:
            if name not in known:
                raise self.fail(where, f"unknown name {name!r} (known: {', '.join(known) or 'none'})")
        return names

    def grid(self, value: Any, allowed: str, where: str) -> list[str]:
        rows = self.list(value, where)
        if not rows or not all(isinstance(row, str) and row for row in rows):
            raise self.fail(where, "must be a non-empty list of non-empty strings, one per row")
        if len(rows) > MAX_GRID_SIDE or max(map(len, rows)) > MAX_GRID_SIDE:
            raise self.fail(where, f"is {len(rows)} rows by up to {max(map(len, rows))} columns; "
                            f"at most {MAX_GRID_SIDE} of each are read")
        for y, row in enumerate(rows):
            for x, char in enumerate(row):
                if char not in allowed:
                    raise self.fail(f"{where} row {y} column {x}",
                                    f"unknown character {char!r} (known: {' '.join(sorted(allowed))})")
        return rows


def _shown(value: Any) -> str:
    """An input value in a message: as JSON when it is short, else by kind and size (never whole)."""
    small = (value is None or isinstance(value, (bool, int, float))
             or (isinstance(value, str) and len(value) <= 40)
             or (isinstance(value, list) and len(value) <= 4
                 and all(v is None or isinstance(v, (bool, int, float)) for v in value)))
    return json.dumps(value) if small else brief(value)


def read_state(reader: JsonReader, world: World, value: Any, where: str) -> State:
    """A raw state from its JSON, checked against ``world``."""
    data = reader.object(value, where)
    agents_json = reader.object(data.get("agents"), f"{where} agents")
    if set(agents_json) != set(world.roles):
        raise reader.fail(f"{where} agents", f"has {cut(', '.join(sorted(agents_json))) or 'no agents'}, "
                          f"the log declares {', '.join(world.roles)}")
    agents = {}
    for name in world.roles:
        spot = f"{where} agents {name}"
        agent = reader.object(agents_json[name], spot)
        agents[name] = AgentState(
            pos=reader.pos(agent.get("at"), f"{spot} at"),
            facing=reader.choice(agent.get("facing"), tuple(DIRECTIONS), f"{spot} facing"),
            holding=tuple(reader.names(agent.get("holding", []), world.kinds, f"{spot} holding")),
        )
    items_json = reader.object(data.get("items", {}), f"{where} items")
    items = {reader.names([k], world.kinds, f"{where} items")[0]: reader.pos(v, f"{where} items {k}")
             for k, v in items_json.items()}
    state = State(
        agents=agents,
        items=items,
        fire=frozenset(reader.pos(v, f"{where} fire") for v in reader.list(data.get("fire", []), f"{where} fire")),
        debris=frozenset(reader.pos(v, f"{where} debris")
                         for v in reader.list(data.get("debris", []), f"{where} debris")),
        located=frozenset(reader.names(data.get("located", []), world.victims, f"{where} located")),
        treated=frozenset(reader.names(data.get("treated", []), world.victims, f"{where} treated")),
        used=frozenset(reader.names(data.get("used", []), world.kinds, f"{where} used")),
    )
    problem = check_state(world, state)
    if problem:
        raise reader.fail(where, problem)
    return state


def state_json(state: State) -> dict[str, Any]:
    """The JSON of a raw state (cells as ``[x, y]``, sets sorted)."""
    return {
        "agents": {name: {"at": list(a.pos), "facing": a.facing, "holding": list(a.holding)}
                   for name, a in state.agents.items()},
        "items": {name: list(pos) for name, pos in sorted(state.items.items())},
        "fire": [list(p) for p in sorted(state.fire)],
        "debris": [list(p) for p in sorted(state.debris)],
        "located": sorted(state.located),
        "treated": sorted(state.treated),
        "used": sorted(state.used),
    }


def read_world(reader: JsonReader, data: dict, grid_rows: list[str], victims: Mapping[str, Pos]) -> World:
    """The agents (with roles, in acting order) and items (with kinds) of a log or scenario header."""
    roles = {}
    for name, spec in reader.object(data.get("agents"), "agents").items():
        role = spec.get("role") if isinstance(spec, dict) else spec
        reader.name(name, "agents")
        roles[name] = reader.choice(role, ROLES, f"agents {name} role")
    if not roles:
        raise reader.fail("agents", "no agents")
    kinds = {reader.name(name, "items"): reader.choice(kind, KINDS, f"items {name}")
             for name, kind in reader.object(data.get("items", {}), "items").items()}
    clash = (set(roles) & set(kinds)) | (set(roles) & set(victims)) | (set(kinds) & set(victims))
    if clash:
        raise reader.fail(None, f"{', '.join(sorted(clash))} names two things; names must be unique")
    return World(grid=Grid(tuple(grid_rows)), roles=roles, kinds=kinds, victims=dict(victims))


def read_log(path: str | Path) -> Log:
    """Read a log file, checking every state (the grounder checks the transitions)."""
    return log_from_json(read_json(path), str(path))


def log_from_json(data: Any, source: str) -> Log:
    """A log from its parsed JSON (see :func:`read_log`)."""
    reader = JsonReader(source)
    data = reader.document(data, LOG_FORMAT)
    rows = reader.grid(data.get("grid"), WALL + FLOOR + DOOR, "grid")
    victims = {reader.name(v, "victims"): reader.pos(p, f"victims {v}")
               for v, p in reader.object(data.get("victims", {}), "victims").items()}
    world = read_world(reader, data, rows, victims)
    for victim, pos in victims.items():
        if not world.grid.walkable(pos):
            raise reader.fail(f"victims {victim}", f"lies at {list(pos)}, which is not floor or door")
    entries = reader.list(data.get("steps"), "steps")
    if not entries:
        raise reader.fail("steps", "no steps: a log needs at least the initial state")
    if len(entries) > MAX_TICKS + 1:
        raise reader.fail("steps", f"{len(entries)} entries; a log is read up to {MAX_TICKS} ticks")
    states, actions = [], []
    for i, raw in enumerate(entries):
        where = f"step {i}"
        entry = reader.object(raw, where)
        if entry.get("t", i) != i or isinstance(entry.get("t"), bool):
            raise reader.fail(where, f"t is {_shown(entry.get('t'))}; entries are one per tick from t=0")
        states.append(read_state(reader, world, entry.get("state"), f"{where} state"))
        if i == len(entries) - 1:
            if entry.get("actions"):
                raise reader.fail(where, "the last entry has actions but no state after them")
            continue
        joint = reader.object(entry.get("actions"), f"{where} actions")
        if set(joint) != set(world.roles):
            raise reader.fail(f"{where} actions", f"has actions for {cut(', '.join(sorted(joint))) or 'nobody'}; "
                              f"every agent needs one ({', '.join(world.roles)})")
        actions.append({name: reader.choice(joint[name], ACTIONS, f"{where} actions {name}") for name in world.roles})
    scenario = reader.name(data.get("scenario", Path(source).name.split(".")[0]), "scenario")
    return Log(source=source, scenario=scenario, world=world, states=tuple(states), actions=tuple(actions))


def dump_log(log: Log) -> str:
    """The log's JSON text: a header with one line per grid row, then one line per step (diffs stay readable)."""
    world = log.world
    header = {
        "format": LOG_FORMAT,
        "scenario": log.scenario,
        "agents": dict(world.roles),
        "items": dict(world.kinds),
        "victims": {v: list(p) for v, p in world.victims.items()},
    }
    rows = ",\n".join(f"    {json.dumps(row)}" for row in world.grid.rows)
    entries = []
    for t, state in enumerate(log.states):
        entry: dict[str, Any] = {"t": t, "state": state_json(state)}
        if t < len(log.actions):
            entry["actions"] = dict(log.actions[t])
        entries.append(f"    {json.dumps(entry)}")
    fields = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in header.items()]
    fields.append(f'  "grid": [\n{rows}\n  ]')
    fields.append('  "steps": [\n' + ",\n".join(entries) + "\n  ]")
    return "{\n" + ",\n".join(fields) + "\n}\n"
