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

from typing import Callable

import numpy as np

from strips_int.errors import StripsIntError

from ..overcooked.formats import INTERACT, Game, Item, Move, Player, RawState
from ..overcooked.layouts import Layout, parse_grid
from .rollout import STATE_FIELDS

#: ``OvercookedActions`` by index (its ``action_set``): up, down, right, left, stay, interact.
ACTIONS: tuple[Move, ...] = ((0, -1), (0, 1), (1, 0), (-1, 0), (0, 0), INTERACT)
DELIVERY_REWARD = 20.0
COOK_TIME = 20
# common.OBJECT_TO_INDEX codes this reader meets.
_EMPTY, _WALL, _ONION, _ONION_PILE, _PLATE, _PLATE_PILE, _GOAL, _POT, _DISH, _AGENT = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
_POT_EMPTY, _POT_FULL = 23, 20
_SOUP = Item("soup", ("onion",) * 3, "ready")
_HELD = {_EMPTY: None, _ONION: Item("onion"), _PLATE: Item("dish"), _DISH: _SOUP}
_STATIC = {"O": _ONION_PILE, "D": _PLATE_PILE, "S": _GOAL}


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


def rollout_game(arrays: dict[str, np.ndarray], source: str) -> tuple[Game, Layout, np.ndarray]:
    """The game, its layout and the per-step rewards of a rollout's arrays.

    JaxMARL's ``env.step`` replaces the state after the last step by a fresh
    ``reset`` one when the episode ends; such a last state (``step`` back to
    0) is dropped, so the last joint action has no following state and is
    grounded only when it is a delivery, the one effect the reward records.
    """
    grid = arrays.get("grid")
    if grid is None or grid.dtype.kind != "U" or grid.ndim != 1:
        raise StripsIntError(source, None, "the rollout has no 'grid' (the layout's rows as text)")
    name = str(arrays.get("layout", "custom"))
    layout = parse_grid("\n".join(str(row) for row in grid), name, source)
    height, width = len(layout.rows), len(layout.rows[0])
    fields = {key: _array(arrays, key, shape, source) for key, shape in (
        ("agent_pos", (None, 2, 2)), ("agent_dir", (None, 2, 2)), ("agent_inv", (None, 2)),
        ("maze_map", (None, None, None, 3)), ("step", (None,)))}
    actions = _array(arrays, "actions", (None, 2), source)
    rewards = arrays.get("rewards")
    if rewards is None or rewards.dtype.kind not in "iuf" or rewards.shape != (len(actions),):
        raise StripsIntError(source, None, f"'rewards' must hold one number per joint action ({len(actions)})")
    count = len(fields["step"])
    if any(len(fields[key]) != count for key in fields) or count == 0:
        raise StripsIntError(source, None, f"the state arrays ({', '.join(STATE_FIELDS)}) must have one equal, "
                             "non-zero length")
    steps = fields["step"]
    if count > 1 and count == len(actions) + 1 and steps[-1] == 0 and steps[-2] == len(actions) - 1 + steps[0]:
        count -= 1  # the auto-reset state after the episode's end
    elif count != len(actions) + 1:
        raise StripsIntError(source, None, f"{count} states for {len(actions)} joint actions: expected one more "
                             "state than actions")
    padding = (fields["maze_map"].shape[1] - height) // 2
    if padding < 0 or fields["maze_map"].shape[2] != width + 2 * padding:
        raise StripsIntError(source, None, f"maze_map of shape {fields['maze_map'].shape[1:]} does not fit the "
                             f"{width}x{height} grid")
    states = []
    for t in range(count):
        if steps[t] != steps[0] + t:
            raise StripsIntError(source, f"state {t}", f"its step counter is {steps[t]}, expected {steps[0] + t}")
        where = lambda t=t: f"state {t}"  # noqa: E731 - built only for an error
        maze = fields["maze_map"][t, padding:padding + height, padding:padding + width]
        states.append(_state(layout, maze, fields["agent_pos"][t], fields["agent_dir"][t], fields["agent_inv"][t],
                             source, where))
    moves = [tuple(_action(int(a), source, i, j) for j, a in enumerate(joint)) for i, joint in enumerate(actions)]
    game = Game(source=source, layout=name, states=states, actions=moves, reward=float(rewards.sum()),
                cook_time=COOK_TIME, old_rules=True, meta={"format": "jaxmarl-npz"})
    return game, layout, rewards.astype(np.float64)


def _action(index: int, source: str, step: int, agent: int) -> Move:
    if 0 <= index < len(ACTIONS):
        return ACTIONS[index]
    raise StripsIntError(source, f"action {step}", f"agent {agent}'s action {index} is not one of JaxMARL's 0-5")


def _state(layout: Layout, maze: np.ndarray, pos: np.ndarray, facing: np.ndarray, inv: np.ndarray, source: str,
           where: Callable[[], str]) -> RawState:
    """One decoded state: players from the agent arrays, loose items and soups from the maze map."""
    players = []
    for j in range(len(pos)):
        if int(inv[j]) not in _HELD:
            raise StripsIntError(source, where(), f"agent {j} holds object code {int(inv[j])}, not empty, "
                                 "onion, plate or dish")
        players.append(Player(pos=(int(pos[j][0]), int(pos[j][1])), facing=(int(facing[j][0]), int(facing[j][1])),
                              held=_HELD[int(inv[j])]))
    objects: dict[tuple[int, int], Item] = {}
    for x, y in layout.positions():
        code, status, char = int(maze[y, x, 0]), int(maze[y, x, 2]), layout.tile((x, y))
        if char == "X" and code in (_ONION, _PLATE, _DISH):
            objects[(x, y)] = _HELD[code]
        elif char == "P" and code == _POT and 0 <= status <= _POT_EMPTY:
            soup = _pot(status)
            if soup is not None:
                objects[(x, y)] = soup
        elif not (char == "X" and code == _WALL or char == " " and code in (_EMPTY, _AGENT)
                  or _STATIC.get(char) == code):
            raise StripsIntError(source, where(), f"the maze map shows object code {code} (status {status}) at "
                                 f"{(x, y)}, where the grid has {char!r}")
    return RawState(players=tuple(players), objects=objects)

