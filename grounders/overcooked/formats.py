"""Readers for recorded Overcooked games, each into one normalized :class:`Game`.

Four formats, told apart by content: (1) the paper's user-study web app JSON
(``ep_states``/``ep_actions`` with action indices); (2) ZSC-Eval/HSP rollout
pickles, stride 3 or 4; (3) overcooked-ai (>= 1.0) episode JSON (state dicts,
actions as vectors or ``"interact"``); (4) overcooked-ai human-data CSV
(one game per ``trial_id``).
"""

from __future__ import annotations

import csv
import io
import json
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from strips_int.errors import StripsIntError
from strips_int.files import read_json, read_text

from .layouts import known_layouts
from .recipes import Recipe, recipe

Pos = tuple[int, int]
#: A player's action: a direction (dx, dy), (0, 0) to stay, or "interact".
Move = tuple[int, int] | str
INTERACT = "interact"
_INDEX_ACTIONS: tuple[Move, ...] = ((0, -1), (0, 1), (1, 0), (-1, 0), (0, 0), INTERACT)
DEFAULT_COOK_TIME = 20


@dataclass(frozen=True)
class Item:
    """An object as the game shows it; soups carry ingredients and idle/cooking/ready."""

    kind: str
    ingredients: tuple[str, ...] = ()
    status: str | None = None


@dataclass(frozen=True)
class Player:
    pos: Pos
    facing: Pos
    held: Item | None


@dataclass(frozen=True)
class RawState:
    """Players and objects; under new rules also the orders and bonus orders the state shows (None: not shown)."""

    players: tuple[Player, ...]
    objects: dict[Pos, Item]
    orders: tuple[Recipe, ...] | None = None
    bonus: tuple[Recipe, ...] = ()


@dataclass
class Game:
    """One recorded game, normalized: states[i] --actions[i]--> states[i+1].

    ``states`` may be one shorter than it would need to be for the last action
    (the user-study files have no final state). ``rewards[i]``, when logged, is
    the reward of ``actions[i]`` (all four formats log it on the delivering
    action's own step); ``reward`` is their sum.
    """

    source: str
    layout: str | None
    states: list[RawState]
    actions: list[tuple[Move, ...]]
    reward: float | None
    rewards: tuple[float, ...] | None = None
    cook_time: int = DEFAULT_COOK_TIME
    old_rules: bool = True
    meta: dict[str, Any] = field(default_factory=dict)
    #: The terrain the file itself records (overcooked-ai CSV ``layout``, episode ``mdp_params.terrain``).
    terrain: tuple[str, ...] | None = None
    #: Seats played by a person, when the file says (CSV ``player_<i>_is_human``).
    humans: tuple[bool, ...] | None = None


class _NoClasses(pickle.Unpickler):
    """A pickle may run code; these games need no class at all, so none is admitted."""

    def find_class(self, module: str, name: str):
        if module.split(".")[0] in ("pandas", "numpy"):  # overcooked-ai's human data: a pandas DataFrame
            raise pickle.UnpicklingError(
                f"a pickle of {module}.{name} (overcooked-ai's human data?) cannot be read without running its "
                "classes: convert it once with pandas.read_pickle(path).to_csv('trials.csv', index=False) and "
                "read the CSV")
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}: game pickles hold plain data only")


def detect(path: Path) -> str | None:
    """The Overcooked format of ``path`` from its content, or None when it is not one (never raises).

    JSON is parsed (an object with ``ep_states`` or ``ep_observations``, at any depth; a file that never mentions
    ``"ep_states"`` is passed over unparsed); a CSV's header must name
    ``state`` and ``joint_action``; a pickle must open with the pickle protocol
    opcode (loading it is the reader's work, with no classes admitted).
    """
    suffix = path.suffix.lower()
    try:
        if suffix in (".pkl", ".pickle"):
            with path.open("rb") as handle:
                return "zsceval-pickle" if handle.read(1) == pickle.PROTO else None
        if suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as handle:
                header = next(csv.reader(handle), [])
            return "overcooked-ai-csv" if {"state", "joint_action"} <= set(header) else None
        if suffix == ".json":
            return "episode-json" if _is_episode(read_json(path, mentioning=b'"ep_')) else None
    except (OSError, UnicodeDecodeError, csv.Error, StripsIntError):
        return None
    return None


def _is_episode(data: Any) -> bool:
    return _episode_object(data) is not None


def read_games(path: Path, layout: str | None = None) -> Iterator[Game | StripsIntError]:
    """Every game in ``path`` (one, except a CSV with several trials); a game that cannot be read is its error."""
    source = str(path)
    try:
        if path.suffix.lower() == ".json":  # parsed once, here, to tell the format and to read it
            kind, data = "episode-json", read_json(path)
            games: Iterator[Game | StripsIntError] = iter([_read_episode(data, source, layout)])
        elif (kind := detect(path)) == "zsceval-pickle":
            games = iter([_read_pickle(path, layout)])
        elif kind == "overcooked-ai-csv":
            games = _read_csv(path, layout)
        else:
            raise StripsIntError(source, None, "not a recognized Overcooked game (user-study/overcooked-ai JSON, "
                                 ".pkl, .csv)")
    except StripsIntError as exc:
        yield exc
        return
    for game in games:
        if isinstance(game, Game):
            game.meta["format"] = kind
        yield game


_STATE_KEYS = ("ep_states", "ep_observations")  # overcooked-ai's older episodes call the states observations


def _episode_object(data: Any) -> dict | None:
    """The object holding the episode: ``data`` itself or the first nested object with ``ep_states``."""
    pending = [data]
    while pending:
        value = pending.pop(0)
        if isinstance(value, dict):
            if any(isinstance(value.get(k), list) for k in _STATE_KEYS):
                return value
            pending += list(value.values())
        elif isinstance(value, list):
            pending += [v for v in value if isinstance(v, (dict, list))]
    return None


def episode_game(data: Any, source: str, layout: str | None = None) -> Game:
    """A game from an in-memory episode dict (``ep_states``, ``ep_actions``, optional ``mdp_params``)."""
    game = _read_episode(data, source, layout)
    game.meta["format"] = "episode-json"
    return game


def _read_episode(data: Any, source: str, layout: str | None) -> Game:
    """An overcooked-ai episode (or the user-study web app's); ``mdp_params.terrain`` is the terrain when present."""
    data = _episode_object(data)
    if data is None:
        raise StripsIntError(source, None, 'an episode JSON needs "ep_states" (or "ep_observations") and "ep_actions"')
    key = next(k for k in _STATE_KEYS if isinstance(data.get(k), list))
    # Files may hold a list of episodes (the user-study web app writes one): read the first.
    nested = bool(data[key]) and isinstance(data[key][0], list)

    def _first(value: Any) -> Any:
        return value[0] if nested and isinstance(value, list) and value else value

    states_raw = _first(data[key])
    actions_raw = _first(data.get("ep_actions", []))
    params = data.get("mdp_params") or {}
    if isinstance(params, list):
        params = params[0] if params else {}
    layout = layout or params.get("layout_name") or data.get("layout_name")
    rewards = _first(data.get("ep_rewards"))
    cook_time = int(params.get("cook_time") or DEFAULT_COOK_TIME)
    states = [_state(s, source, i, cook_time) for i, s in enumerate(states_raw)]
    actions = [_joint(a, source, i) for i, a in enumerate(actions_raw)]
    # Old-format soups (ingredient, count, ticks) mean the old rules; mdp_params may say so outright.
    old_rules = bool(params.get("old_dynamics", not _new_style(states_raw)))
    per_step = _rewards(rewards, source) if isinstance(rewards, list) else None
    terrain = params.get("terrain")
    return Game(
        source=source, layout=layout, states=states, actions=actions,
        reward=sum(per_step) if per_step is not None else None, rewards=per_step,
        cook_time=cook_time, old_rules=old_rules,
        terrain=_grid_rows(terrain, source, "mdp_params.terrain") if terrain is not None else None,
    )


def _read_pickle(path: Path, layout: str | None) -> Game:
    source = str(path)
    try:
        with path.open("rb") as handle:
            data = _NoClasses(handle).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError) as exc:
        raise StripsIntError(source, None, f"cannot load pickle: {exc}") from None
    if not isinstance(data, list) or len(data) < 2 or not isinstance(data[0], dict):
        raise StripsIntError(source, None, "expected a list [state, joint_action, events, ..., final state]")
    stride = 4 if isinstance(data[1], int) else 3
    steps = (len(data) - 1) // stride
    states = [_state(data[i * stride], source, i) for i in range(steps + 1)]
    actions = [_joint(data[i * stride + stride - 2], source, i) for i in range(steps)]
    # The pickles log no reward: each step's events count deliveries per player, 20 each (old rules).
    deliveries = []
    for i in range(steps):
        events = data[i * stride + stride - 1]
        if not isinstance(events, (list, tuple)):
            raise StripsIntError(source, f"step {i}", f"expected a list of per-player events, found {events!r}")
        deliveries.append(sum(int(e.get("delivery", 0)) for e in events if isinstance(e, dict)))
    if layout is None:  # the rollouts keep their layout in a folder name
        known = set(known_layouts())
        layout = next((part for part in reversed(path.parts[:-1]) if part in known), None)
    return Game(source=source, layout=layout, states=states, actions=actions, reward=20.0 * sum(deliveries),
                rewards=tuple(20.0 * n for n in deliveries), meta={"stride": stride})


def _read_csv(path: Path, layout: str | None) -> Iterator[Game | StripsIntError]:
    """One game per ``trial_id`` (a trial that cannot be read is its error, the others still read);
    terrain from the ``layout`` column, seats from ``player_<i>_is_human``."""
    source = str(path)
    try:
        reader = csv.DictReader(io.StringIO(read_text(path)))
    except StripsIntError as exc:
        yield exc
        return
    missing = {"state", "joint_action", "trial_id"} - set(reader.fieldnames or [])
    if missing:
        yield StripsIntError(source, "header", f"missing column(s): {', '.join(sorted(missing))}")
        return
    trials: dict[str, list[tuple[int, dict]]] = {}
    for line, row in enumerate(reader, start=2):
        trials.setdefault(row["trial_id"], []).append((line, row))
    for trial, rows in trials.items():
        try:
            yield _csv_trial(f"{source}#{trial}", trial, rows, layout)
        except StripsIntError as exc:
            yield exc


def _csv_trial(source: str, trial: str, rows: list[tuple[int, dict]], layout: str | None) -> Game:
    states_raw, actions, rewards = [], [], []
    for line, row in rows:
        state = _cell_json(row, "state", source, line)
        actions.append(_joint(_cell_json(row, "joint_action", source, line, quotes=True), source, len(actions)))
        states_raw.append(state)
        try:
            rewards.append(float(row.get("reward") or 0))
        except ValueError:
            raise StripsIntError(source, f"line {line}", f"reward {row['reward']!r} is not a number") from None
    first_line, first = rows[0]
    terrain = (_grid_rows(_cell_json(first, "layout", source, first_line, quotes=True), source,
                          f"line {first_line}, column layout") if first.get("layout") else None)
    humans = tuple(first.get(f"player_{j}_is_human", "").strip().lower() == "true" for j in range(2))
    return Game(source=source, layout=layout or first.get("layout_name") or None,
                states=[_state(s, source, i) for i, s in enumerate(states_raw)], actions=actions,
                reward=sum(rewards), rewards=tuple(rewards), old_rules=not _new_style(states_raw),
                meta={"trial_id": trial}, terrain=terrain,
                humans=humans if all(f"player_{j}_is_human" in first for j in range(2)) else None)


def _cell_json(row: dict, column: str, source: str, line: int, quotes: bool = False) -> Any:
    text = row.get(column) or ""
    try:
        return json.loads(text.replace("'", '"') if quotes else text)
    except json.JSONDecodeError as exc:
        raise StripsIntError(source, f"line {line}", f"malformed JSON in column {column}: {exc.msg}") from None


def _grid_rows(grid: Any, source: str, where: str) -> tuple[str, ...]:
    """A recorded terrain: a list of rows, each a string or a list of grid characters."""
    if not isinstance(grid, list) or not grid or not all(isinstance(r, (list, str)) for r in grid):
        raise StripsIntError(source, where, f"a terrain must be a list of grid rows, found {grid!r:.80}")
    return tuple(r if isinstance(r, str) else "".join(map(str, r)) for r in grid)


def _new_style(states: list) -> bool:
    """New rules show orders in the state (``all_orders``) or soups with ``_ingredients``."""
    return any(isinstance(s, dict) and ("all_orders" in s or "bonus_orders" in s
                                        or any(isinstance(o, dict) and "_ingredients" in o for o in _objects_of(s)))
               for s in states)


def _rewards(values: list, source: str) -> tuple[float, ...]:
    """Per-step rewards of an episode JSON; the error names the step of a non-number."""
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise StripsIntError(source, f"step {i}", f"reward {value!r} is not a number")
    return tuple(float(v) for v in values)


def _objects_of(state: Any) -> list:
    objects = state.get("objects", []) if isinstance(state, dict) else []
    return list(objects.values()) if isinstance(objects, dict) else list(objects)


def _pos(value: Any, source: str, index: int, player: int | None = None) -> Pos:
    """A position ``[x, y]``; the error names the state (and player). Hot: the message is built only on failure."""
    if type(value) in (list, tuple) and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:
        return (value[0], value[1])
    where = f"state {index}" if player is None else f"state {index}, player {player}"
    raise StripsIntError(source, where, f"expected a position [x, y], found {value!r}")


def _item(data: Any, source: str, where: Callable[[], str], cook_time: int = DEFAULT_COOK_TIME) -> Item:
    """An object dict of either generation (soup state tuple, or ``_ingredients`` and flags).

    ``where()`` names the place for an error; it is a function so the hot path builds no text.
    """
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise StripsIntError(source, where(), f"expected an object with a name, found {data!r}")
    kind = data["name"]
    if kind != "soup":
        return Item(kind)
    if "_ingredients" in data:
        ingredients = tuple(sorted(i["name"] for i in data["_ingredients"]))
        status = "ready" if data.get("is_ready") else "cooking" if data.get("is_cooking") else "idle"
        return Item(kind, ingredients, status)
    state = data.get("state")
    if not (isinstance(state, (list, tuple)) and len(state) == 3):
        raise StripsIntError(source, where(), f"a soup's state must be (ingredient, count, ticks), found {state!r}")
    ingredient, count, ticks = state
    status = "idle" if ticks == 0 else "ready" if ticks >= cook_time else "cooking"
    return Item(kind, (ingredient,) * int(count), status)


def _state(data: Any, source: str, index: int, cook_time: int = DEFAULT_COOK_TIME) -> RawState:
    where = f"state {index}"
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise StripsIntError(source, where, "a state needs a list of players")
    players = []
    for j, player in enumerate(data["players"]):
        if not isinstance(player, dict):
            raise StripsIntError(source, where, f"player {j} is not an object")
        held = player.get("held_object")
        players.append(Player(
            pos=_pos(player.get("position"), source, index, j),
            facing=_pos(player.get("orientation"), source, index, j),
            held=None if held is None else _item(held, source, lambda: f"{where}, player {j}", cook_time),
        ))
    objects = {}
    for obj in _objects_of(data):
        pos = _pos(obj.get("position") if isinstance(obj, dict) else None, source, index)
        objects[pos] = _item(obj, source, lambda: f"{where}, object at {pos}", cook_time)
    orders = data.get("all_orders")
    if not isinstance(orders, list):
        return RawState(players=tuple(players), objects=objects)
    bonus = data.get("bonus_orders") or []
    return RawState(players=tuple(players), objects=objects, orders=tuple(recipe(o) for o in orders),
                    bonus=tuple(recipe(o) for o in bonus if isinstance(o, dict)))


def _joint(data: Any, source: str, index: int) -> tuple[Move, ...]:
    if not isinstance(data, (list, tuple)):
        raise StripsIntError(source, f"action {index}", f"expected a joint action, found {data!r}")
    return tuple(_move(a, source, index) for a in data)


def _move(value: Any, source: str, index: int) -> Move:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(_INDEX_ACTIONS):
        return _INDEX_ACTIONS[value]
    if isinstance(value, str) and value.lower() == INTERACT:
        return INTERACT
    if isinstance(value, (list, tuple)) and tuple(value) in _INDEX_ACTIONS:
        return tuple(value)
    raise StripsIntError(source, f"action {index}", f"unknown player action {value!r}")


_HUMAN_SEAT = re.compile(r"human=(\d+)")


def human_seat(path: str) -> int | None:
    """The seat the person held, from a user-study file name ``..._human=<seat>.json``."""
    match = _HUMAN_SEAT.search(Path(path).name)
    return int(match.group(1)) if match else None
