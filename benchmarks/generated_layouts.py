"""Generated two-player Overcooked layouts for RC at scale, and an independent flood fill of their verdicts.

    python benchmarks/generated_layouts.py --out DIR [--count 300] [--seed 0]

writes ``DIR/<kind>_<seed>_<n>.grid`` (old rules: three of any ingredient cook by themselves) and
``.layout`` files (overcooked-ai's new rules, with one or two orders of onions and tomatoes). Three
kinds, in turn:

* ``open``: one kitchen, border counters with the stations, sometimes counter islands;
* ``split``: two rooms parted by a counter wall (sometimes with a door), a player in each, the
  stations spread over both rooms and the wall (a pot in the wall serves both);
* ``corridor``: a one-lane corridor lined with counters, stations at its ends and on its sides, both
  players in it, so that an idle partner blocks the way to what lies behind it (sometimes with bays
  where one can step aside).

:func:`flood_fill_verdict` reads a layout's text on its own (no strips_int code) and says what RC
must answer: ``non-RC`` when one player alone, the other standing still, reaches a pot, a dish
dispenser, a serving window and the dispensers of some ordered recipe; else ``RC`` when the players'
rooms, joined by counters and pots both can reach, hold all of that; else ``unsolvable``.
"""

from __future__ import annotations

import argparse
import ast
import random
from pathlib import Path
from typing import Iterator

Grid = list[list[str]]
Pos = tuple[int, int]

KINDS = ("open", "split", "corridor")
INGREDIENTS = ("onion", "tomato")
DISPENSER = {"onion": "O", "tomato": "T"}
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _near(pos: Pos) -> Iterator[Pos]:
    x, y = pos
    for dx, dy in STEPS:
        yield x + dx, y + dy


def _tile(grid: Grid, pos: Pos) -> str | None:
    x, y = pos
    return grid[y][x] if 0 <= y < len(grid) and 0 <= x < len(grid[y]) else None


def _region(grid: Grid, start: Pos, blocked: set[Pos] = frozenset()) -> set[Pos]:
    """Floor cells reachable from ``start`` without stepping on ``blocked``."""
    region, frontier = {start}, [start]
    while frontier:
        for near in _near(frontier.pop()):
            if _tile(grid, near) == " " and near not in blocked and near not in region:
                region.add(near)
                frontier.append(near)
    return region


def _floor(grid: Grid) -> list[Pos]:
    return [(x, y) for y, row in enumerate(grid) for x, char in enumerate(row) if char == " "]


def _walls_next_to(grid: Grid, cells: set[Pos]) -> list[Pos]:
    """Counter tiles next to some of ``cells``, in grid order (where a station may go)."""
    return sorted({near for cell in cells for near in _near(cell) if _tile(grid, near) == "X"},
                  key=lambda p: (p[1], p[0]))


def _recipes(rng: random.Random) -> tuple[list[tuple[str, ...]] | None, set[str]]:
    """Orders (None: old rules) and the ingredient kinds the layout dispenses."""
    if rng.random() < 0.35:  # old rules: three of anything
        return None, {"onion"} if rng.random() < 0.7 else {"onion", "tomato"}
    orders = []
    for _ in range(rng.choice((1, 2, 2))):
        size = rng.randint(1, 3)
        onions = rng.randint(0, size)
        orders.append(tuple(sorted(("onion",) * onions + ("tomato",) * (size - onions))))
    kinds = set().union(*map(set, orders))
    if len(orders) == 2 and len(kinds) == 2 and rng.random() < 0.2:
        kinds = {rng.choice(sorted(kinds))}  # one order cannot be made (the other still can, if any)
    if not any(set(order) <= kinds for order in orders):
        kinds = set(orders[0])
    return orders, kinds


def _stations(kinds: set[str], rng: random.Random) -> list[str]:
    chars = [DISPENSER[k] for k in sorted(kinds)] + ["P", "D", "S"]
    if rng.random() < 0.3:
        chars.append(rng.choice(chars))  # a second pot or dispenser somewhere else
    return chars


def _place(grid: Grid, chars: list[str], spots: list[Pos], rng: random.Random) -> bool:
    if len(spots) < len(chars):
        return False
    for char, (x, y) in zip(chars, rng.sample(spots, len(chars))):
        grid[y][x] = char
    return True


def _box(width: int, height: int) -> Grid:
    return [["X"] * width] + [["X"] + [" "] * (width - 2) + ["X"] for _ in range(height - 2)] + [["X"] * width]


def open_kitchen(rng: random.Random, kinds: set[str]) -> Grid | None:
    grid = _box(rng.randint(5, 9), rng.randint(4, 7))
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        x, y = rng.choice(_floor(grid))
        grid[y][x] = "X"
    floor = _floor(grid)
    if len(floor) < 4 or len(_region(grid, floor[0])) != len(floor):
        return None
    if not _place(grid, _stations(kinds, rng), _walls_next_to(grid, set(floor)), rng):
        return None
    return _seat(grid, rng.sample(floor, 2))


def split_rooms(rng: random.Random, kinds: set[str]) -> Grid | None:
    width, height = rng.randint(7, 11), rng.randint(4, 7)
    grid = _box(width, height)
    wall = rng.randint(2, width - 3)
    for y in range(1, height - 1):
        grid[y][wall] = "X"
    if rng.random() < 0.15:
        grid[rng.randint(1, height - 2)][wall] = " "  # a door: one room after all
    left = {p for p in _floor(grid) if p[0] < wall}
    right = {p for p in _floor(grid) if p[0] > wall}
    if not _place(grid, _stations(kinds, rng), _walls_next_to(grid, left | right), rng):
        return None
    return _seat(grid, [rng.choice(sorted(left)), rng.choice(sorted(right))][::rng.choice((1, -1))])


def corridor(rng: random.Random, kinds: set[str]) -> Grid | None:
    length = rng.randint(4, 9)
    bays = rng.random() < 0.3
    grid = _box(length + 2, 4 if bays else 3)
    lane = len(grid) - 2
    for y in range(1, lane):
        for x in range(1, length + 1):
            grid[y][x] = "X"
    if bays:
        for x in rng.sample(range(1, length + 1), rng.randint(1, 2)):
            grid[1][x] = " "
    lane_cells = [(x, lane) for x in range(1, length + 1)]
    if not _place(grid, _stations(kinds, rng), _walls_next_to(grid, set(_floor(grid))), rng):
        return None
    return _seat(grid, rng.sample(lane_cells, 2))


def _seat(grid: Grid, starts: list[Pos]) -> Grid:
    for seat, (x, y) in enumerate(starts, start=1):
        grid[y][x] = str(seat)
    return grid


MAKERS = {"open": open_kitchen, "split": split_rooms, "corridor": corridor}


def generate(count: int, seed: int = 0) -> list[tuple[str, str]]:
    """``count`` layouts as (file name, file text), the kinds in turn; the same for the same seed."""
    rng = random.Random(seed)
    made: list[tuple[str, str]] = []
    while len(made) < count:
        kind = KINDS[len(made) % len(KINDS)]
        orders, kinds = _recipes(rng)
        grid = MAKERS[kind](rng, kinds)
        if grid is None:
            continue
        rows = ["".join(row) for row in grid]
        name = f"{kind}_{seed}_{len(made):04d}"
        if orders is None:
            made.append((f"{name}.grid", "\n".join(rows) + "\n"))
        else:
            data = {"grid": "\n".join(rows), "start_all_orders": [{"ingredients": list(o)} for o in orders],
                    "old_dynamics": False}
            made.append((f"{name}.layout", repr(data) + "\n"))
    return made


def write(folder: Path, count: int, seed: int = 0) -> list[Path]:
    """The generated layouts written into ``folder`` (made if missing); their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in generate(count, seed):
        path = folder / name
        path.write_text(text)
        paths.append(path)
    return paths


def read(text: str, suffix: str) -> tuple[Grid, list[set[str]]]:
    """A layout file's grid and what one soup may be made of: each makeable order's ingredient kinds
    (new rules), or any one dispensed kind (old rules: three of anything)."""
    if suffix == ".layout":
        data = ast.literal_eval(text)
        grid_text, orders = data["grid"], [set(o["ingredients"]) for o in data["start_all_orders"]]
    else:
        grid_text, orders = text, None
    grid = [list(line.strip()) for line in grid_text.strip("\n").splitlines() if line.strip()]
    dispensed = {k for k, char in DISPENSER.items() if any(char in row for row in grid)}
    recipes = [{k} for k in sorted(dispensed)] if orders is None else [o for o in orders if o <= dispensed]
    return grid, recipes


def flood_fill_verdict(text: str, suffix: str) -> str:
    """What RC must say of a two-player layout file, by flood fill alone (see the module docstring)."""
    grid, recipes = read(text, suffix)
    starts = sorted((int(c), (x, y)) for y, row in enumerate(grid) for x, c in enumerate(row) if c.isdigit())
    cells = [pos for _, pos in starts]
    for x, y in cells:
        grid[y][x] = " "

    def covers(region: set[Pos]) -> bool:
        seen = {_tile(grid, near) for cell in region for near in _near(cell)}
        return {"P", "D", "S"} <= seen and any({DISPENSER[k] for k in recipe} <= seen for recipe in recipes)

    if any(covers(_region(grid, cell, set(cells) - {cell})) for cell in cells):
        return "non-RC"
    rooms = [_region(grid, cell) for cell in cells]
    joined = [set(room) for room in rooms]
    for a, room in enumerate(rooms):
        for b, other in enumerate(rooms):
            shared = {n for c in room for n in _near(c) if _tile(grid, n) in ("X", "P")}
            if a != b and shared & {n for c in other for n in _near(c)}:
                joined[a] |= other
    return "RC" if any(covers(group) for group in joined) else "unsolvable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write the layouts into")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    paths = write(args.out, args.count, args.seed)
    tally: dict[str, int] = {}
    for path in paths:
        verdict = flood_fill_verdict(path.read_text(), path.suffix)
        tally[verdict] = tally.get(verdict, 0) + 1
    print(f"{len(paths)} layouts in {args.out}: " + ", ".join(f"{v} {n}" for v, n in sorted(tally.items())))


if __name__ == "__main__":
    main()
