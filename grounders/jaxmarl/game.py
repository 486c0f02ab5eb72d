"""A JaxMARL Overcooked rollout read as an Overcooked :class:`Game`, under JaxMARL's own rules.

The rules, from ``jaxmarl/environments/overcooked/overcooked.py`` (0.2.0):
actions are up, down, right, left, stay, interact (0-5); a move turns the
agent and steps unless the cell is a wall or both agents would land on one
cell or swap; interact acts on the faced tile, agent 0 first, then agent 1
on the map agent 0 left. Counters take and give onions, plates and plated
soups ("dish"); piles give onions and plates; a pot takes onions up to
three and starts cooking by itself at three (old rules), counting down 20
steps (status 23 empty, 22-21 one or two onions, 20-1 cooking, 0 ready);
a plate takes a ready soup; a plated soup at the goal pays 20 to both.

So the old-rules Overcooked lifter applies unchanged once states are
decoded: a plate is a ``dish``, a plated soup a ready three-onion ``soup``.
"""

from __future__ import annotations

import functools

import numpy as np

from strips_int.errors import StripsIntError

from ..overcooked.formats import INTERACT, Game, Item, Move, Player, RawState
from ..overcooked.layouts import Layout
from .record import kept_states, layout_name_of

#: ``OvercookedActions`` by index (its ``action_set``): up, down, right, left, stay, interact.
ACTIONS: tuple[Move, ...] = ((0, -1), (0, 1), (1, 0), (-1, 0), (0, 0), INTERACT)
COOK_TIME = 20
# common.OBJECT_TO_INDEX codes this reader meets.
_EMPTY, _WALL, _ONION, _ONION_PILE, _PLATE, _PLATE_PILE, _GOAL, _POT, _DISH, _AGENT = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
_POT_EMPTY, _POT_FULL = 23, 20
_SOUP = Item("soup", ("onion",) * 3, "ready")
#: Items by object code, in a hand or on a counter (a plate is a `dish`, a plated soup a ready `soup`).
_ITEMS = {_EMPTY: None, _ONION: Item("onion"), _PLATE: Item("dish"), _DISH: _SOUP}
#: The object codes each grid character may show in the maze map (an empty counter shows "wall").
_ALLOWED = {" ": (_EMPTY, _AGENT), "X": (_WALL, _ONION, _PLATE, _DISH), "P": (_POT,), "O": (_ONION_PILE,),
            "D": (_PLATE_PILE,), "S": (_GOAL,)}
_GRID_CHARS = "XODPS 12"


def _pot(status: int) -> Item | None:
    """The soup a pot status stands for (None for an empty pot)."""
    if status == _POT_EMPTY:
        return None
    if status > _POT_FULL:
        return Item("soup", ("onion",) * (_POT_EMPTY - status), "idle")
    return Item("soup", ("onion",) * 3, "cooking" if status > 0 else "ready")


def _array(arrays: dict[str, np.ndarray], key: str, shape: tuple[int | None, ...], source: str) -> np.ndarray:
    """``arrays[key]`` as integers (a stored ``bool`` too), checked against ``shape`` (None: any length)."""
    value = arrays.get(key)
    if value is None:
        raise StripsIntError(source, None, f"the rollout has no {key!r} array")
    if value.dtype.kind not in "iub" or value.ndim != len(shape) or any(
            n is not None and n != m for n, m in zip(shape, value.shape)):
        raise StripsIntError(source, None, f"{key!r} must be an integer array of shape {shape}, "
                             f"found {value.dtype} {value.shape}")
    return value.astype(np.int64)


def rollout_game(arrays: dict[str, np.ndarray], source: str) -> tuple[Game, Layout]:
    """The game (with its per-step rewards) and the layout of a rollout's arrays.

    JaxMARL's ``env.step`` replaces the state after the last step by a fresh
    ``reset`` one when the episode ends; such a last state (``step`` back to
    0) is dropped, so the last joint action has no following state and is
    grounded only when it is a delivery, the one effect the reward records.
    """
    layout = rollout_layout(arrays, source)
    fields = {key: _array(arrays, key, shape, source) for key, shape in (
        ("agent_pos", (None, 2, 2)), ("agent_dir", (None, 2, 2)), ("agent_inv", (None, 2)),
        ("maze_map", (None, None, None, 3)), ("step", (None,)))}
    actions = _array(arrays, "actions", (None, 2), source)
    rewards = arrays.get("rewards")
    if rewards is None or rewards.dtype.kind not in "iuf" or rewards.shape != (len(actions),):
        raise StripsIntError(source, None, f"'rewards' must hold one number per joint action ({len(actions)})")
    count = len(fields["step"])
    if any(len(fields[key]) != count for key in fields) or count == 0:
        raise StripsIntError(source, None, f"the state arrays ({', '.join(fields)}) must have one equal, "
                             "non-zero length")
    count = kept_states(fields["step"], len(actions), source)
    states = rollout_states(fields, layout, count, source)
    moves = [tuple(_action(int(a), source, i, j) for j, a in enumerate(joint)) for i, joint in enumerate(actions)]
    game = Game(source=source, layout=layout.name, states=states, actions=moves, reward=float(rewards.sum()),
                rewards=tuple(float(r) for r in rewards), cook_time=COOK_TIME, old_rules=True, rules_named=True,
                meta={"format": "jaxmarl-npz"})
    return game, layout


def rollout_layout(arrays: dict[str, np.ndarray], source: str) -> Layout:
    """The layout a rollout's arrays record (``layout``, ``grid``)."""
    grid = arrays.get("grid")
    rows = tuple(str(row) for row in grid) if grid is not None and grid.dtype.kind == "U" and grid.ndim == 1 else ()
    # Not parse_grid: it strips each row, and a JaxMARL grid may have floor on its border.
    if not rows or len({len(row) for row in rows}) != 1 or set("".join(rows)) - set(_GRID_CHARS):
        raise StripsIntError(source, None, "'grid' must hold the layout's rows as text of equal length in "
                             f"the characters {_GRID_CHARS!r}")
    return Layout(name=layout_name_of(arrays, source), rows=rows)


def rollout_states(fields: dict[str, np.ndarray], layout: Layout, count: int, source: str,
                   first: int = 0) -> list[RawState]:
    """The first ``count`` states of a rollout's state arrays (``agent_pos``, ``agent_dir``, ``agent_inv``,
    ``maze_map``, one row per state), checked against ``layout``; ``first``: the number of the first."""
    height, width = len(layout.rows), len(layout.rows[0])
    padding = (fields["maze_map"].shape[1] - height) // 2
    if padding < 0 or fields["maze_map"].shape[2] != width + 2 * padding:
        raise StripsIntError(source, None, f"maze_map of shape {fields['maze_map'].shape[1:]} does not fit the "
                             f"{width}x{height} grid")
    maze = fields["maze_map"][:count, padding:padding + height, padding:padding + width]
    _check_tiles(layout, maze, source, first)
    places = [(x, y, layout.tile((x, y))) for x, y in layout.positions() if layout.tile((x, y)) in ("X", "P")]
    codes, status = maze[..., 0].tolist(), maze[..., 2].tolist()
    pos, facing, inv = (fields[key][:count].tolist() for key in ("agent_pos", "agent_dir", "agent_inv"))
    return [_state(places, codes[t], status[t], pos[t], facing[t], inv[t], source, first + t) for t in range(count)]


def _action(index: int, source: str, step: int, agent: int) -> Move:
    if 0 <= index < len(ACTIONS):
        return ACTIONS[index]
    raise StripsIntError(source, f"action {step}", f"agent {agent}'s action {index} is not one of JaxMARL's 0-5")


def _check_tiles(layout: Layout, maze: np.ndarray, source: str, first: int = 0) -> None:
    """Every state's maze map must show the grid's static tiles, items only on counters, pots in range."""
    allowed, pots = _allowed_codes(layout)
    codes, status = maze[..., 0], maze[..., 2]
    height, width, known = allowed.shape
    fits = allowed[np.arange(height)[:, None], np.arange(width), np.clip(codes, 0, known - 1)]
    fits &= (codes >= 0) & (codes < known) & (~pots | (status <= _POT_EMPTY))
    if not fits.all():
        t, y, x = (int(n) for n in np.argwhere(~fits)[0])
        raise StripsIntError(source, f"state {first + t}", f"the maze map shows object code {codes[t, y, x]} (status "
                             f"{status[t, y, x]}) at {(x, y)}, where the grid has {layout.tile((x, y))!r}")


@functools.lru_cache(maxsize=64)
def _allowed_codes(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """Which object codes each cell of ``layout`` may show in a maze map (height x width x code), and where its
    pots are: made once per layout (an online wrapper checks one state per step)."""
    height, width = len(layout.rows), len(layout.rows[0])
    allowed = np.zeros((height, width, max(code for codes in _ALLOWED.values() for code in codes) + 1), dtype=bool)
    pots = np.zeros((height, width), dtype=bool)
    for y in range(height):
        for x in range(width):
            char = layout.tile((x, y))
            allowed[y, x, list(_ALLOWED.get(char, ()))] = True
            pots[y, x] = char == "P"
    return allowed, pots


def _state(places: list[tuple[int, int, str]], codes: list[list[int]], status: list[list[int]], pos: list,
           facing: list, inv: list[int], source: str, t: int) -> RawState:
    """One decoded state: players from the agent arrays, loose items and soups from the (checked) maze map."""
    for j, held in enumerate(inv):
        if held not in _ITEMS:
            raise StripsIntError(source, f"state {t}", f"agent {j} holds object code {held}, not empty, onion, "
                                 "plate or dish")
    players = tuple(Player(pos=tuple(p), facing=tuple(f), held=_ITEMS[h]) for p, f, h in zip(pos, facing, inv))
    objects: dict[tuple[int, int], Item] = {}
    for x, y, char in places:
        item = _ITEMS.get(codes[y][x]) if char == "X" else _pot(status[y][x])
        if item is not None:
            objects[(x, y)] = item
    return RawState(players=players, objects=objects)
