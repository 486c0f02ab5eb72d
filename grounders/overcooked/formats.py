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
    players: tuple[Player, ...]
    objects: dict[Pos, Item]


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


class _NoClasses(pickle.Unpickler):
    """A pickle may run code; these games need no class at all, so none is admitted."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}: game pickles hold plain data only")


def detect(path: Path) -> str | None:
    """The Overcooked format of ``path`` from its content, or None when it is not one (never raises).

    JSON is parsed (an object with ``ep_states``; a file that never mentions
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
            return "episode-json" if _is_episode(read_json(path, mentioning=b'"ep_states"')) else None
    except (OSError, UnicodeDecodeError, csv.Error, StripsIntError):
        return None
    return None


def _is_episode(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("ep_states"), list)


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


def episode_game(data: Any, source: str, layout: str | None = None) -> Game:
    """A game from an in-memory episode dict (``ep_states``, ``ep_actions``, optional ``mdp_params``)."""
    game = _read_episode(data, source, layout)
    game.meta["format"] = "episode-json"
    return game


def _read_episode(data: Any, source: str, layout: str | None) -> Game:
    if not isinstance(data, dict) or not isinstance(data.get("ep_states"), list):
        raise StripsIntError(source, None, 'an episode JSON needs "ep_states" and "ep_actions"')
    # Files may hold a list of episodes (the user-study web app writes one): read the first.
    nested = bool(data["ep_states"]) and isinstance(data["ep_states"][0], list)

    def _first(value: Any) -> Any:
        return value[0] if nested and isinstance(value, list) and value else value

    states_raw = _first(data["ep_states"])
    actions_raw = _first(data.get("ep_actions", []))
    params = data.get("mdp_params") or {}
    if isinstance(params, list):
        params = params[0] if params else {}
    layout = layout or params.get("layout_name") or data.get("layout_name")
    rewards = _first(data.get("ep_rewards"))
    cook_time = int(params.get("cook_time") or DEFAULT_COOK_TIME)
    states = [_state(s, source, i, cook_time) for i, s in enumerate(states_raw)]
    actions = [_joint(a, source, i) for i, a in enumerate(actions_raw)]
    # Old-format soups (ingredient, count, ticks) mean the old rules; new ones say so in mdp_params.
    new_style = any(isinstance(o, dict) and "_ingredients" in o for s in states_raw for o in _objects_of(s))
    old_rules = bool(params.get("old_dynamics", not new_style))
    per_step = _rewards(rewards, source) if isinstance(rewards, list) else None
    return Game(
        source=source, layout=layout, states=states, actions=actions,
        reward=sum(per_step) if per_step is not None else None, rewards=per_step,
        cook_time=cook_time, old_rules=old_rules,
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
            yield _trial(source, trial, rows, layout)
        except StripsIntError as exc:
            yield exc


def _trial(source: str, trial: str, rows: list[tuple[int, dict]], layout: str | None) -> Game:
    """One ``trial_id``'s rows of an overcooked-ai CSV as a game."""
    states, actions, rewards = [], [], []
    for line, row in rows:
        try:
            state = json.loads(row["state"])
            joint = json.loads(row["joint_action"].replace("'", '"'))
        except json.JSONDecodeError as exc:
            raise StripsIntError(source, f"line {line}", f"malformed JSON in a cell: {exc.msg}") from None
        states.append(_state(state, source, len(states)))
        actions.append(_joint(joint, source, len(actions)))
        try:
            rewards.append(float(row.get("reward") or 0))
        except ValueError:
            raise StripsIntError(source, f"line {line}", f"reward {row['reward']!r} is not a number") from None
    name = layout or rows[0][1].get("layout_name") or None
    return Game(source=f"{source}#{trial}", layout=name, states=states, actions=actions, reward=sum(rewards),
                rewards=tuple(rewards), old_rules=name in _OLD_RULE_NAMES if name else True, meta={"trial_id": trial})


# The 2019 human data was played with the old rules on the old layout names.
_OLD_RULE_NAMES = {"simple", "unident_s", "random0", "random1", "random3"}


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
    return RawState(players=tuple(players), objects=objects)


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
