"""The search-and-rescue grid world of appendix D: its terrain, raw states and transition rules.

One transition function serves the simulator (to produce logs) and the
grounder (to check that a log's states follow from its actions), so the two
cannot drift apart. Rules, in the order they apply within one tick:

* Agents act one after another in their listed order. Agents never block each
  other; two may share a cell (the domain's ``give`` needs them to).
* ``up``/``down``/``left``/``right`` turn the agent that way and step into the
  cell there when it is floor or door, not burning and free of debris.
* ``interact`` does the first of these that applies:
  1. a firefighter holding an extinguisher puts out the fire in the cell it faces;
  2. a firefighter clears the debris in the cell it faces;
  3. any agent searches its own cell and finds the victim lying there;
  4. a nurse holding a medkit treats a found, untreated victim in its own cell
     (treatment is immediate: the domain has no durations, so appendix D's
     20 or 100 timesteps are not modelled);
  5. an agent holding something hands its most recently taken item to the
     first teammate (in listed order) on its own cell;
  6. an agent picks up an item lying on its own cell (the first by name);
  7. an agent holding something drops its most recently taken item.
* ``stay`` does nothing, nor does an ``interact`` to which no rule applies.
* Fire spread is an environment event after the agents (see :func:`spread_fire`).

Police agents have no ability of their own (appendix D's guarding is not modelled).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Mapping

from strips_int.model.task import Fact

if TYPE_CHECKING:
    import networkx as nx

Pos = tuple[int, int]

WALL, FLOOR, DOOR = "#", ".", "+"
DIRECTIONS: dict[str, Pos] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
INTERACT, STAY = "interact", "stay"
ACTIONS = (*DIRECTIONS, INTERACT, STAY)
ROLES = ("nurse", "firefighter", "police")
KINDS = ("medkit", "extinguisher")


def ahead(pos: Pos, direction: str) -> Pos:
    """The cell next to ``pos`` in ``direction``."""
    dx, dy = DIRECTIONS[direction]
    return pos[0] + dx, pos[1] + dy


@dataclass(frozen=True)
class Grid:
    """The terrain: rows of ``#`` wall, ``.`` floor and ``+`` door; ``(x, y)`` is column, row."""

    rows: tuple[str, ...]

    def tile(self, pos: Pos) -> str | None:
        x, y = pos
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return None

    def walkable(self, pos: Pos) -> bool:
        return pos in self.locations

    @cached_property
    def locations(self) -> dict[Pos, str]:
        """Every floor and door cell, row by row, with its PDDL location: ``c3_2``, or ``door5_2`` for a door."""
        return {(x, y): f"{'door' if char == DOOR else 'c'}{x}_{y}"
                for y, row in enumerate(self.rows) for x, char in enumerate(row) if char in (FLOOR, DOOR)}

    def neighbours(self, pos: Pos) -> list[Pos]:
        """The walkable cells next to ``pos``, in the order up, down, left, right."""
        return [near for near in (ahead(pos, d) for d in DIRECTIONS) if near in self.locations]

    @cached_property
    def graph(self) -> nx.Graph:
        """The walkable cells, joined where they touch (the terrain scripted agents find paths in)."""
        import networkx as nx  # 0.1 s of imports: only the simulator finds paths, reading a log needs none

        graph = nx.Graph()
        graph.add_nodes_from(self.locations)
        graph.add_edges_from((pos, near) for pos in self.locations for near in self.neighbours(pos))
        return graph


@dataclass(frozen=True)
class World:
    """What never changes in an episode: terrain, agents (in acting order) with roles, items, victims."""

    grid: Grid
    roles: Mapping[str, str]
    kinds: Mapping[str, str]
    victims: Mapping[str, Pos]


@dataclass(frozen=True)
class AgentState:
    pos: Pos
    facing: str
    holding: tuple[str, ...] = ()


@dataclass(frozen=True)
class State:
    """One raw state: agents, items lying on the floor, fire, debris and the victims' progress."""

    agents: Mapping[str, AgentState]
    items: Mapping[str, Pos]
    fire: frozenset[Pos]
    debris: frozenset[Pos]
    located: frozenset[str] = frozenset()
    treated: frozenset[str] = frozenset()
    used: frozenset[str] = frozenset()

    def with_agent(self, name: str, agent: AgentState) -> "State":
        return replace(self, agents={**self.agents, name: agent})


def passable(world: World, state: State, pos: Pos) -> bool:
    """Whether an agent may step into ``pos``: floor or door, not burning, no debris."""
    return world.grid.walkable(pos) and pos not in state.fire and pos not in state.debris


def check_state(world: World, state: State) -> str | None:
    """What makes ``state`` impossible in ``world`` (None when nothing does)."""
    grid = world.grid
    for name, agent in state.agents.items():
        if agent.facing not in DIRECTIONS:
            return f"{name} faces {agent.facing!r}, not one of {', '.join(DIRECTIONS)}"
        if not passable(world, state, agent.pos):
            return f"{name} stands at {list(agent.pos)}, which is {_describe(world, state, agent.pos)}"
    for name, pos in state.items.items():
        if not grid.walkable(pos):
            return f"{name} lies at {list(pos)}, which is {_describe(world, state, pos)}"
    places: dict[str, int] = {name: 1 for name in state.items}
    for agent in state.agents.values():
        for name in agent.holding:
            places[name] = places.get(name, 0) + 1
    for name in world.kinds:
        if places.get(name, 0) != 1:
            return f"{name} is in {places.get(name, 0)} places (held or lying), not exactly one"
    for cells, what in ((state.fire, "fire"), (state.debris, "debris")):
        for pos in sorted(cells):
            if not grid.walkable(pos):
                return f"{what} at {list(pos)}, which is {_describe(world, state, pos)}"
    if not state.treated <= state.located:
        return f"{', '.join(sorted(state.treated - state.located))} treated but never found"
    if any(world.kinds[k] != "medkit" for k in state.used):
        return "only medkits can be used"
    return None


def _describe(world: World, state: State, pos: Pos) -> str:
    tile = world.grid.tile(pos)
    if tile is None:
        return "outside the grid"
    if tile == WALL:
        return "a wall"
    return "burning" if pos in state.fire else "covered in debris"


def act(world: World, state: State, name: str, action: str) -> tuple[State, Fact | None]:
    """One agent's primitive action: the next state and the domain action it amounts to (None: no change)."""
    me = state.agents[name]
    if action in DIRECTIONS:
        turned = replace(me, facing=action)
        target = ahead(me.pos, action)
        if not passable(world, state, target):
            return state.with_agent(name, turned), None
        where = world.grid.locations
        return state.with_agent(name, replace(turned, pos=target)), ("move", name, where[me.pos], where[target])
    if action == INTERACT:
        return _interact(world, state, name)
    return state, None


def _interact(world: World, state: State, name: str) -> tuple[State, Fact | None]:
    me = state.agents[name]
    role, here, front = world.roles[name], me.pos, ahead(me.pos, me.facing)
    where = world.grid.locations
    held = {world.kinds[item]: item for item in reversed(me.holding)}  # the first held of each kind
    if role == "firefighter":
        if "extinguisher" in held and front in state.fire:
            return (replace(state, fire=state.fire - {front}),
                    ("extinguish", name, held["extinguisher"], where[here], where[front]))
        if front in state.debris:
            return replace(state, debris=state.debris - {front}), ("clear-debris", name, where[here], where[front])
    lying_here = sorted(v for v, pos in world.victims.items() if pos == here)
    for victim in lying_here:
        if victim not in state.located:
            return replace(state, located=state.located | {victim}), ("search", name, victim, where[here])
    if role == "nurse" and "medkit" in held:
        kit = held["medkit"]
        for victim in lying_here:
            if victim not in state.treated:
                return (replace(state, treated=state.treated | {victim}, used=state.used | {kit}),
                        ("treat", name, kit, victim, where[here]))
    if me.holding:
        item = me.holding[-1]
        for other in world.roles:
            agent = state.agents[other]
            if other != name and agent.pos == here:
                state = state.with_agent(name, replace(me, holding=me.holding[:-1]))
                return (state.with_agent(other, replace(agent, holding=agent.holding + (item,))),
                        ("give", name, other, item, where[here]))
    for item in sorted(state.items):
        if state.items[item] == here:
            items = {k: v for k, v in state.items.items() if k != item}
            return (replace(state, items=items).with_agent(name, replace(me, holding=me.holding + (item,))),
                    ("pick-up", name, item, where[here]))
    if me.holding:
        item = me.holding[-1]
        state = replace(state, items={**state.items, item: here})
        return state.with_agent(name, replace(me, holding=me.holding[:-1])), ("drop", name, item, where[here])
    return state, None


def act_all(world: World, state: State, actions: Mapping[str, str]) -> tuple[State, list[Fact]]:
    """Every agent's action, in acting order: the state after them and the domain actions taken."""
    taken = []
    for name in world.roles:
        state, atom = act(world, state, name, actions[name])
        if atom is not None:
            taken.append(atom)
    return state, taken


def spread_fire(world: World, state: State) -> State:
    """The simulator's spreading rule: every burning cell sets fire to each neighbouring floor
    cell that has no agent in it. Doors and walls stop fire, so a fire stays in its room."""
    occupied = {agent.pos for agent in state.agents.values()}
    caught = {near for pos in state.fire for near in world.grid.neighbours(pos)
              if world.grid.tile(near) == FLOOR and near not in occupied}
    return replace(state, fire=state.fire | caught)
