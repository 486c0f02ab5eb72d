"""SAR scenarios (``strips-int-sar-scenario/1``): a picture of the house and a script per agent.

The grid is drawn with ``#`` wall, ``.`` floor, ``+`` door, ``~`` fire and
``*`` debris (both on floor); any other character is a legend key that puts
the named agent, item or victim on a floor cell. ``docs/environments/sar.md``
documents the fields. A script is a list of commands, each taking as many ticks as it needs:

* ``go X Y``: walk a shortest path to cell (X, Y) through cells that can be
  entered now; while there is none, wait (so a nurse waits for a fire to go out);
* ``use DIR``: turn towards DIR (if that cell can be entered, this steps into it), then interact;
* ``interact``; ``wait N``: stay N ticks;
* ``wait-for NAME``: stay until this agent holds the item NAME, or until the victim NAME is found.

Scripts decide on the state at the start of a tick; a finished script stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generator, Mapping

import networkx as nx

from strips_int.errors import brief
from strips_int.files import read_json

from .tags import SCENARIO_FORMAT
from .formats import MAX_TICKS, JsonReader, Log, read_world
from .world import (DIRECTIONS, DOOR, FLOOR, INTERACT, STAY, WALL, AgentState, Pos, State, World, act_all, ahead,
                    check_state, spread_fire)

FIRE, DEBRIS = "~", "*"
VERBS = {"go": 2, "use": 1, "interact": 0, "wait": 1, "wait-for": 1}


@dataclass(frozen=True)
class Command:
    """One script command: ``verb`` and its arguments (a cell, a direction, a count or a name)."""

    verb: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Scenario:
    """A world, its initial state, the agents' scripts and the simulation settings."""

    source: str
    name: str
    world: World
    start: State
    scripts: Mapping[str, tuple[Command, ...]]
    spread_every: int = 0
    max_steps: int = 200


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file."""
    return scenario_from_json(read_json(path), str(path))


def scenario_from_json(data: Any, source: str) -> Scenario:
    """A scenario from its parsed JSON (see :func:`load_scenario`)."""
    reader = JsonReader(source)
    data = reader.document(data, SCENARIO_FORMAT)
    legend = reader.object(data.get("legend", {}), "legend")
    for key in legend:
        if len(key) != 1 or key in WALL + FLOOR + DOOR + FIRE + DEBRIS or key.isspace():
            raise reader.fail("legend", f"key {brief(key)} must be one character other than # . + ~ * and space")
    rows = reader.grid(data.get("grid"), WALL + FLOOR + DOOR + FIRE + DEBRIS + "".join(legend), "grid")
    placed: dict[str, Pos] = {}
    fire, debris = set(), set()
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char == FIRE:
                fire.add((x, y))
            elif char == DEBRIS:
                debris.add((x, y))
            elif char in legend:
                names = legend[char] if isinstance(legend[char], list) else [legend[char]]
                for name in names:
                    name = reader.name(name, f"legend {char}")
                    if name in placed:
                        raise reader.fail(f"legend {char}", f"{name} is drawn twice in the grid")
                    placed[name] = (x, y)
    terrain = ["".join(c if c in WALL + DOOR else FLOOR for c in row) for row in rows]
    victims = {}
    for name in reader.list(data.get("victims", []), "victims"):
        if reader.name(name, "victims") not in placed:
            raise reader.fail("victims", f"{name} is not drawn in the grid (give it a legend key)")
        victims[name] = placed[name]
    world = read_world(reader, data, terrain, victims)
    agents = {}
    for name in world.roles:
        spec = reader.object(data["agents"][name], f"agents {name}")
        if name not in placed:
            raise reader.fail(f"agents {name}", "is not drawn in the grid (give it a legend key)")
        agents[name] = AgentState(
            pos=placed[name],
            facing=reader.choice(spec.get("facing", "down"), tuple(DIRECTIONS), f"agents {name} facing"),
            holding=tuple(reader.names(spec.get("holding", []), world.kinds, f"agents {name} holding")),
        )
    unknown = set(placed) - set(world.roles) - set(world.kinds) - set(victims)
    if unknown:
        raise reader.fail("legend", f"{', '.join(sorted(unknown))} drawn but not declared as agent, item or victim")
    start = State(agents=agents, items={i: placed[i] for i in world.kinds if i in placed},
                  fire=frozenset(fire), debris=frozenset(debris))
    problem = check_state(world, start)
    if problem:
        raise reader.fail("grid", problem)
    scripts = {name: _script(reader, world, data["agents"][name].get("script", []), name) for name in world.roles}
    return Scenario(
        source=source,
        name=reader.name(data.get("name", Path(source).name.split(".")[0]), "name"),
        world=world,
        start=start,
        scripts=scripts,
        spread_every=_ticks(reader, data.get("spread_every", 0), "spread_every"),
        max_steps=_ticks(reader, data.get("max_steps", 200), "max_steps"),
    )


def _script(reader: JsonReader, world: World, value: Any, agent: str) -> tuple[Command, ...]:
    commands = []
    for k, text in enumerate(reader.list(value, f"agents {agent} script")):
        where = f"agents {agent} script[{k}]"
        words = text.split() if isinstance(text, str) and len(text) <= 200 else []
        if not words or words[0] not in VERBS or len(words) != VERBS[words[0]] + 1:
            raise reader.fail(where, f"{brief(text)} is not a command (go X Y, use DIR, interact, wait N, wait-for NAME)")
        verb, args = words[0], words[1:]
        if verb == "go":
            if not all(_number(a) for a in args) or not world.grid.walkable((int(args[0]), int(args[1]))):
                raise reader.fail(where, f"{brief(text)}: ({', '.join(args)}) is not a floor or door cell")
            commands.append(Command(verb, (int(args[0]), int(args[1]))))
        elif verb == "use":
            commands.append(Command(verb, (reader.choice(args[0], tuple(DIRECTIONS), where),)))
        elif verb == "wait":
            if not _number(args[0]) or int(args[0]) > MAX_TICKS:
                raise reader.fail(where, f"{brief(text)}: wait takes a number of ticks, at most {MAX_TICKS}")
            commands.append(Command(verb, (int(args[0]),)))
        elif verb == "wait-for":
            if args[0] not in world.kinds and args[0] not in world.victims:
                raise reader.fail(where, f"{brief(text)}: {args[0]} is neither an item nor a victim")
            commands.append(Command(verb, (args[0],)))
        else:
            commands.append(Command(verb))
    return tuple(commands)


def _ticks(reader: JsonReader, value: Any, where: str) -> int:
    ticks = reader.count(value, where)
    if ticks > MAX_TICKS:
        raise reader.fail(where, f"is {ticks}; at most {MAX_TICKS} ticks are simulated")
    return ticks


def _number(word: str) -> bool:
    """Whether ``word`` is a whole number written in ASCII digits (at most 9, so int() is safe)."""
    return word.isascii() and word.isdigit() and len(word) <= 9


def distances(world: World, state: State, goal: Pos) -> dict[Pos, int]:
    """How many steps each cell is from ``goal`` through cells that can be entered now."""
    blocked = state.fire | state.debris
    if goal in blocked:
        return {}
    return nx.single_source_shortest_path_length(nx.restricted_view(world.grid.graph, blocked, []), goal)


def first_step(distance: dict[Pos, int], start: Pos) -> str | None:
    """The first step of a shortest path (by ``distance``), preferring up, down, left, right in that
    order, so the choice does not depend on graph internals (None: no path)."""
    if start not in distance:
        return None
    return next(d for d in DIRECTIONS if distance.get(ahead(start, d)) == distance[start] - 1)


def scripted_agent(world: World, name: str, commands: tuple[Command, ...]) -> Generator[str, State, None]:
    """A scripted agent: send it each tick's state, it yields its primitive action; it returns when done."""
    state = yield STAY  # primed by the simulator; this first value is discarded
    for command in commands:
        me = state.agents[name]
        if command.verb == "go":
            seen = None  # the fire and debris the distances were computed for
            while state.agents[name].pos != command.args:
                if seen != (state.fire, state.debris):
                    seen, distance = (state.fire, state.debris), distances(world, state, command.args)
                state = yield first_step(distance, state.agents[name].pos) or STAY
        elif command.verb == "use":
            if me.facing != command.args[0]:
                state = yield command.args[0]
            state = yield INTERACT
        elif command.verb == "interact":
            state = yield INTERACT
        elif command.verb == "wait":
            for _ in range(command.args[0]):
                state = yield STAY
        else:
            while not _arrived(state, name, command.args[0]):
                state = yield STAY


def _arrived(state: State, agent: str, name: str) -> bool:
    return name in state.agents[agent].holding or name in state.located


def simulate(scenario: Scenario) -> tuple[Log, tuple[str, ...]]:
    """The episode of ``scenario``, and the agents whose scripts were cut short by ``max_steps``."""
    world, state = scenario.world, scenario.start
    agents = {name: scripted_agent(world, name, scenario.scripts[name]) for name in world.roles}
    for agent in agents.values():
        next(agent)
    running = set(agents)
    states, actions = [state], []
    for t in range(scenario.max_steps):
        joint = {}
        for name, agent in agents.items():
            joint[name] = STAY
            if name in running:
                try:
                    joint[name] = agent.send(state)
                except StopIteration:
                    running.discard(name)
        if not running:
            break
        state, _ = act_all(world, state, joint)
        if scenario.spread_every and (t + 1) % scenario.spread_every == 0:
            state = spread_fire(world, state)
        states.append(state)
        actions.append(joint)
    log = Log(source=scenario.source, scenario=scenario.name, world=world, states=tuple(states),
              actions=tuple(actions))
    return log, tuple(name for name in world.roles if name in running)
