"""Key and door: a two-agent grid game, read by strips_int through this grounder.

A game is a JSON file that names its format, ``"keydoor-game/1"``, the layout it was played on (by
name, :data:`LAYOUTS`), its two agents and, turn by turn, what each did: ``up``, ``down``, ``left``,
``right``, ``take`` (the key on its cell), ``unlock`` (a neighbouring door, with a key it holds) or
``stay``. The grounder replays the turns on the grid, so a move into a wall or a locked door is an
error naming the turn and the agent, and lifts each action into the keydoor domain
(``keydoor.pddl``, shipped beside this module). The goal is the second agent on the cell ``G``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from strips_int.errors import StripsIntError
from strips_int.files import read_json
from strips_int.grounders import GAMES, TAGGED, BaseGrounder, Claim, Head, Option
from strips_int.model.domain import Domain
from strips_int.model.execution import apply
from strips_int.model.problem import make_problem
from strips_int.model.task import Fact, Problem
from strips_int.model.trace import ActionGrounder, Step, Trace

#: What a game file names as its format.
FORMAT = "keydoor-game/1"
#: The format tag as it stands in a game file's text (the writer puts it first, so it is in the head).
TAG = re.compile(rb'"format"\s*:\s*"keydoor-game/1"')
#: The layouts by name: ``#`` wall, ``.`` floor, ``1`` and ``2`` the agents' starts, ``k`` a key,
#: ``D`` a locked door, ``G`` the cell the second agent must reach.
LAYOUTS = {
    "key-closet": ("###k###",
                   "###1###",
                   "#2.D.G#",
                   "#######"),
    "two-rooms": ("#######",
                  "#1.k#G#",
                  "#2..D.#",
                  "#######"),
}
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def cell(x: int, y: int) -> str:
    return f"c{x}-{y}"


class Grid:
    """A layout's cells, read once: where the walls, doors, keys, starts and the goal cell are."""

    def __init__(self, name: str, source: str) -> None:
        if name not in LAYOUTS:
            raise StripsIntError(source, None, f"unknown keydoor layout {name!r} (known: {', '.join(LAYOUTS)})")
        self.name = name
        self.tiles = {(x, y): tile for y, row in enumerate(LAYOUTS[name]) for x, tile in enumerate(row) if tile != "#"}
        self.doors = sorted(p for p, tile in self.tiles.items() if tile == "D")
        self.keys = {f"k{n}": p for n, p in enumerate(sorted(p for p, t in self.tiles.items() if t == "k"), 1)}
        self.starts = [next(p for p, t in self.tiles.items() if t == seat) for seat in "12"]
        self.goal = next(p for p, t in self.tiles.items() if t == "G")

    def problem(self, domain: Domain, agents: list[str], source: str) -> Problem:
        """The start problem: the agents on their starts, every door locked, the goal the second agent on G."""
        objects = {**{a: "agent" for a in agents}, **{cell(*p): "cell" for p in self.tiles},
                   **{k: "key" for k in self.keys}}
        init: set[Fact] = {("at", a, cell(*p)) for a, p in zip(agents, self.starts)}
        for x, y in self.tiles:
            init |= {("adjacent", cell(x, y), cell(x + dx, y + dy)) for dx, dy in MOVES.values()
                     if (x + dx, y + dy) in self.tiles}
        init |= {("open", cell(*p)) for p in self.tiles if p not in self.doors}
        init |= {("locked", cell(*d)) for d in self.doors}
        init |= {("key-at", k, cell(*p)) for k, p in self.keys.items()}
        init |= {("fits", k, cell(*d)) for k in self.keys for d in self.doors}
        goal = [("at", agents[1], cell(*self.goal))]
        return make_problem(domain, f"keydoor-{self.name}", objects, init, goal, source)


def replay(grid: Grid, agents: list[str], turns: list[Any], source: str) -> Iterator[tuple[int, Fact]]:
    """Each turn's actions, in the agents' order, as (turn, action atom); an impossible one is an error."""
    at = dict(zip(agents, grid.starts))
    keys: dict[str, Any] = dict(grid.keys)  # key -> its cell, or the agent holding it
    locked = set(grid.doors)
    for t, turn in enumerate(turns):
        if not isinstance(turn, dict) or set(turn) - set(agents):
            raise StripsIntError(source, f"turn {t}", f"a turn maps the agents {', '.join(agents)} to actions")
        for agent in agents:
            what, (x, y), where = turn.get(agent, "stay"), at[agent], f"turn {t}, {agent}"
            if what in MOVES:
                to = (x + MOVES[what][0], y + MOVES[what][1])
                if to not in grid.tiles or to in locked:
                    raise StripsIntError(source, where, f"cannot move {what}: a wall or a locked door")
                at[agent] = to
                yield t, ("move", agent, cell(x, y), cell(*to))
            elif what == "take":
                key = next((k for k, p in keys.items() if p == (x, y)), None)
                if key is None:
                    raise StripsIntError(source, where, "no key to take here")
                keys[key] = agent
                yield t, ("take", agent, key, cell(x, y))
            elif what == "unlock":
                key = next((k for k, holder in keys.items() if holder == agent), None)
                door = next((d for d in sorted(locked) if abs(d[0] - x) + abs(d[1] - y) == 1), None)
                if key is None or door is None:
                    raise StripsIntError(source, where, "unlock needs a key in hand and a locked door alongside")
                locked.discard(door)
                yield t, ("unlock", agent, key, cell(x, y), cell(*door))
            elif what != "stay":
                raise StripsIntError(source, where, f"unknown action {what!r} (up, down, left, right, take, "
                                     "unlock, stay)")


class KeyDoor(BaseGrounder):
    """The keydoor grounder: see the module docstring."""

    name = "keydoor"
    domain = "keydoor"
    actions = frozenset({"move", "take", "unlock"})
    domain_file = Path(__file__).with_name("keydoor.pddl")
    # Overcooked declares --layout too: the command line gives each grounder its own value.
    options = (Option("--layout", "layout", "keydoor: the layout of games that do not name one; rc: layouts "
                      "by name", "NAME", names=True),)

    def recognizes(self, head: Head) -> Claim | None:
        """Its games by the format tag in the file's head (its content, never its name)."""
        return Claim(GAMES, TAGGED) if TAG.search(head.data) else None

    def read(self, path: Path, domain: Domain, layout: str | None = None, **_: Any) -> Iterator[Trace | StripsIntError]:
        source = str(path)
        try:
            game = read_json(path)
            if not isinstance(game, dict):
                raise StripsIntError(source, None, "a keydoor game is a JSON object")
            agents = [str(a).lower() for a in game.get("agents", [])]
            if len(agents) != 2:
                raise StripsIntError(source, "agents", "a keydoor game has two agents")
            grid = Grid(game.get("layout") or layout or "", source)
            problem = grid.problem(domain, agents, source)
            grounder, state, steps = ActionGrounder(domain, problem, source), set(problem.init), []
            for t, atom in replay(grid, agents, game.get("turns", []), source):
                action = grounder.ground(atom, f"turn {t}")
                failure = apply(state, action)
                if failure:
                    raise StripsIntError(source, f"turn {t}", f"the domain does not allow it: {failure}")
                steps.append(Step(len(steps), t, action))
            meta = {"layout": grid.name, **({"agent": game["policy"]} if "policy" in game else {})}
            yield Trace(source, problem, tuple(steps), meta)
        except StripsIntError as exc:
            yield exc

    def start_problem(self, name: str, domain: Domain, **_: Any) -> Problem | None:
        """Layout ``name`` with agents ``agent1`` and ``agent2`` (for rc); None for a name it does not know."""
        return Grid(name, f"layout {name}").problem(domain, ["agent1", "agent2"], f"layout {name}") \
            if name in LAYOUTS else None

    def start_names(self) -> list[str]:
        return list(LAYOUTS)


GROUNDER = KeyDoor()
