"""Readers for recorded Overcooked games, each into one normalized :class:`Game`.

Four formats, told apart by content: (1) the paper's user-study web app JSON
(``ep_states``/``ep_actions`` with action indices); (2) ZSC-Eval/HSP rollout
pickles, stride 3 or 4; (3) overcooked-ai (>= 1.0) episode JSON (state dicts,
actions as vectors or ``"interact"``); (4) overcooked-ai human-data CSV
(one game per ``trial_id``, the 2019 and 2020 data alike).

Every value is checked for its type and range as it is read, so a bad file
is one :class:`StripsIntError` naming the state or step; error messages show
input values through :func:`~strips_int.errors.brief`, never whole.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import operator
import os
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Iterator, Literal, NamedTuple

import msgspec

from strips_int.errors import StripsIntError, brief
from strips_int.files import collector_paused, read_bytes, read_text

from ..base import Head
from .layouts import blank_starts, grids_named, known_layouts
from .recipes import DEFAULT_COOK_TIME, INGREDIENTS, MAX_INGREDIENTS, Recipe, orders_of

try:  # orjson decodes a game about twice as fast; the standard library is the fallback
    import orjson
except ImportError:  # pragma: no cover - orjson is installed with the package's extras
    orjson = None

Pos = tuple[int, int]
#: A player's action: a direction (dx, dy), (0, 0) to stay, or "interact".
Move = tuple[int, int] | str
INTERACT = "interact"
_INDEX_ACTIONS: tuple[Move, ...] = ((0, -1), (0, 1), (1, 0), (-1, 0), (0, 0), INTERACT)
#: The objects of overcooked-ai's games (``ObjectState.name``).
KINDS = ("onion", "tomato", "dish", "soup")
#: Bounds far above any real game, so that a huge number is an error rather than a slow message.
_MAX_COORDINATE = 10_000
_MAX_COOK_TIME = 1_000_000


class Item(NamedTuple):
    """An object as the game shows it; soups carry ingredients and idle/cooking/ready.

    This and the two below are named tuples, not dataclasses: a game makes thousands, and a tuple is
    made several times faster.
    """

    kind: str
    ingredients: tuple[str, ...] = ()
    status: str | None = None


class Player(NamedTuple):
    pos: Pos
    facing: Pos
    held: Item | None


class RawState(NamedTuple):
    """Players and objects; under new rules also the orders and bonus orders the state shows (None: not shown)."""

    players: tuple[Player, ...]
    objects: dict[Pos, Item]
    orders: tuple[Recipe, ...] | None = None
    bonus: tuple[Recipe, ...] = ()


@dataclass
class Game:
    """One recorded game, normalized: states[i] --actions[i]--> states[i+1].

    ``rewards[i]``, when logged, is the reward of ``actions[i]`` (all four
    formats log it on the delivering action's own step); ``reward`` is their sum.

    A game is whole (definitions section 11: every step follows from the one before and the reward
    agrees with the trace), so its parts must fit each other, in every format: at least one
    state; as many states as joint actions (the user-study files: no state after the last
    action, which is then grounded only when it is a delivery) or one more (a final state);
    every state has the same players and every joint action one move per player; logged
    rewards are finite numbers, one per joint action. A game that breaks this is an error
    when it is made (never a shorter game read as whole).
    """

    source: str
    layout: str | None
    states: list[RawState]
    actions: list[tuple[Move, ...]]
    reward: float | None
    rewards: tuple[float, ...] | None = None
    cook_time: int = DEFAULT_COOK_TIME
    #: The rules the file names (``rules_named``: overcooked-ai's ``mdp_params.old_dynamics``, a JaxMARL
    #: rollout), else those its shape suggests (old-format soups: old), which the lifter tries first and
    #: keeps only when the dynamics agree (definitions section 11).
    old_rules: bool = True
    rules_named: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    #: The terrain the file itself records (overcooked-ai CSV ``layout``, episode ``mdp_params.terrain``).
    terrain: tuple[str, ...] | None = None
    #: Seats played by a person, when the file says (CSV ``player_<i>_is_human``).
    humans: tuple[bool, ...] | None = None

    def __post_init__(self) -> None:
        source, states, actions = self.source, self.states, self.actions
        if not states:
            raise StripsIntError(source, None, "the game has no states")
        if len(states) not in (len(actions), len(actions) + 1):
            raise StripsIntError(source, None, f"{len(states)} states for {len(actions)} joint actions: a game has "
                                 "as many states as joint actions, or one more (a final state)")
        players = len(states[0].players)
        if players == 0:
            raise StripsIntError(source, "state 0", "no players")
        # Each check runs in C (map) and looks for the first fault only when there is one.
        if set(map(len, map(_PLAYERS_OF, states))) != {players}:
            i, state = next((i, s) for i, s in enumerate(states) if len(s.players) != players)
            raise StripsIntError(source, f"state {i}", f"{len(state.players)} players, but state 0 has {players}")
        if actions and set(map(len, actions)) != {players}:
            i, joint = next((i, a) for i, a in enumerate(actions) if len(a) != players)
            raise StripsIntError(source, f"action {i}", f"{len(joint)} moves for {players} players")
        if self.rewards is not None:
            if len(self.rewards) != len(actions):
                raise StripsIntError(source, None, f"{len(self.rewards)} rewards logged for {len(actions)} joint "
                                     "actions: they must be one per action")
            if not all(map(math.isfinite, self.rewards)):
                bad = next(i for i, r in enumerate(self.rewards) if not math.isfinite(r))
                raise StripsIntError(source, f"step {bad}", f"reward {self.rewards[bad]} is not a finite number")


_PLAYERS_OF = operator.attrgetter("players")


class _NoClasses(pickle.Unpickler):
    """A pickle may run code; these games need no class at all, so none is admitted."""

    def find_class(self, module: str, name: str):
        if module.split(".")[0] in ("pandas", "numpy"):  # overcooked-ai's human data: a pandas DataFrame
            raise pickle.UnpicklingError(
                f"a pickle of {module}.{name} (overcooked-ai's human data?) cannot be read without running its "
                "classes: convert it once with pandas.read_pickle(path).to_csv('trials.csv', index=False) and "
                "read the CSV")
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}: game pickles hold plain data only")


#: An object key ``"ep_states"`` (or ``"ep_observations"``) whose value is a list. In JSON text these bytes
#: can only be such a key: inside a string the quotes would be escaped, and a string value is never followed by ``:``.
_EPISODE_KEY = re.compile(rb'"ep_(?:states|observations)"\s*:\s*\[')


def detect(path: Path) -> str | None:
    """The Overcooked format of ``path`` from its content (:func:`detect_head` of its head), or None."""
    try:
        return detect_head(Head.of(path))
    except StripsIntError:
        return None


def detect_head(head: Head) -> str | None:
    """The Overcooked format of a file from its :class:`~..base.Head`, or None when it is not one (never raises).

    A JSON file must hold an object with an ``ep_states`` (or ``ep_observations``) list, at any depth,
    recognized from its bytes without parsing (the reader parses it once): from its head, where the
    files written so far have it, else from all of it (:meth:`~..base.Head.whole`, within the input
    limit: a larger file is refused by its size, not read to find it); a CSV's header (its first line,
    within the head) must name ``state`` and ``joint_action``; a pickle must open with the pickle
    protocol opcode (loading it is the reader's work, with no classes admitted).
    """
    suffix = head.path.suffix.lower()
    try:
        if suffix in (".pkl", ".pickle"):
            return "zsceval-pickle" if head.data[:1] == pickle.PROTO else None
        if suffix == ".csv":
            line, newline, _ = head.data.partition(b"\n")
            if not newline:  # no whole header line within the head: no game's
                return None
            header = next(csv.reader([line.rstrip(b"\r").decode("utf-8")]), [])
            return "overcooked-ai-csv" if {"state", "joint_action"} <= set(header) else None
        if suffix == ".json":
            found = _EPISODE_KEY.search(head.data) or (
                head.size > len(head.data) and (whole := head.whole()) is not None and _EPISODE_KEY.search(whole))
            return "episode-json" if found else None
    except (UnicodeDecodeError, csv.Error):
        return None
    return None


def read_games(path: Path, layout: str | None = None) -> Iterator[Game | StripsIntError]:
    """Every game in ``path``: one per episode (a CSV: per trial); a game that cannot be read is its error."""
    source = str(path)
    try:
        if path.suffix.lower() == ".json":  # parsed once, here, to tell the format and to read it
            kind = "episode-json"
            games: Iterator[Game | StripsIntError] = iter(_episode_file(path, layout))
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


def _episode_file(path: Path, layout: str | None) -> list[Game | StripsIntError]:
    """The games of an episode JSON file: the user-study shape through :func:`_typed_episode`, anything else
    (or any fault) through the general :func:`_read_episodes`, which has the messages."""
    source, raw = str(path), read_bytes(path)
    with collector_paused():
        typed = _typed_episode(raw, source, layout)
    return [typed] if typed is not None else _read_episodes(_json(raw, source, None), source, layout)


def _json(text: bytes | str, source: str, where: str | None, what: str = "JSON") -> Any:
    """Parsed JSON (never evaluated): orjson where installed, else (and for what orjson refuses, such as
    ``NaN``) the standard library. Malformed or too deep JSON is the error, at ``where`` (default: the
    line and column in ``text``)."""
    if orjson is not None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StripsIntError(source, where or f"line {exc.lineno}, column {exc.colno}",
                             f"malformed {what}: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise StripsIntError(source, where, f"{what} is not UTF-8 text: {exc.reason}") from None
    except RecursionError:
        raise StripsIntError(source, where, f"{what} nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise StripsIntError(source, where, f"unreadable {what}: {exc}") from None


_STATE_KEYS = ("ep_states", "ep_observations")  # overcooked-ai's older episodes call the states observations


def _episode_object(data: Any) -> dict | None:
    """The object holding the episode: ``data`` itself or the first nested object with ``ep_states``
    (breadth first, each value visited once)."""
    pending = [data]
    for value in pending:  # grows as it goes: a queue without pops
        if isinstance(value, dict):
            if any(isinstance(value.get(k), list) for k in _STATE_KEYS):
                return value
            pending += [v for v in value.values() if isinstance(v, (dict, list))]
        elif isinstance(value, list):
            pending += [v for v in value if isinstance(v, (dict, list))]
    return None


def episode_game(data: Any, source: str, layout: str | None = None) -> Game:
    """A game from an in-memory episode dict (``ep_states``, ``ep_actions``, optional ``mdp_params``)."""
    game = _read_episode(data, source, layout)
    game.meta["format"] = "episode-json"
    return game


def _read_episode(data: Any, source: str, layout: str | None) -> Game:
    """The game of an episode object holding one episode (:func:`_read_episodes`); several are an error."""
    (game, *more) = _read_episodes(data, source, layout)
    if more:
        raise StripsIntError(source, None, f"holds {len(more) + 1} episodes: read them with read_games")
    if isinstance(game, StripsIntError):
        raise game
    return game


def _read_episodes(data: Any, source: str, layout: str | None) -> list[Game | StripsIntError]:
    """The games of an overcooked-ai episode object (or the user-study web app's), one per episode (definitions
    section 11); ``mdp_params.terrain`` is the terrain when present.

    ``ep_states`` is one episode's states, or a list of episodes' state lists (overcooked-ai's
    ``save_traj_as_json``, the user-study web app's single episode); ``ep_actions`` and ``ep_rewards`` are
    nested alike and ``mdp_params`` is one object or one per episode. Of several episodes, episode ``k``
    (from 0, as overcooked-ai numbers them) is the game ``FILE#k``; a bad one is its error, the others
    still read.
    """
    data = _episode_object(data)
    if data is None:
        raise StripsIntError(source, None, 'an episode JSON needs "ep_states" (or "ep_observations") and "ep_actions"')
    key = next(k for k in _STATE_KEYS if isinstance(data.get(k), list))
    if "ep_actions" not in data:
        raise StripsIntError(source, None, 'no "ep_actions": a game needs the joint action of every step')
    nested = bool(data[key]) and isinstance(data[key][0], list)
    count = len(data[key]) if nested else 1
    params = data.get("mdp_params")
    games: list[Game | StripsIntError] = []
    for k in range(count):
        name = f"{source}#{k}" if count > 1 else source
        try:
            games.append(_episode_at(data, key, k if nested else None, count, name, layout,
                                     params[k] if isinstance(params, list) and len(params) == count else params))
        except StripsIntError as exc:
            games.append(exc)
    return games


def _episode_at(data: dict, key: str, k: int | None, count: int, source: str, layout: str | None,
                params: Any) -> Game:
    """Episode ``k`` of an episode object (None: its lists are the one episode's own)."""

    def _episode(name: str) -> list:
        value = data[name]
        if k is not None:
            value = value[k] if isinstance(value, list) and len(value) > k else None
        if not isinstance(value, list):
            shape = ("a list holding a list, as ep_states is" if count == 1 else
                     f"a list holding {count} lists, one per episode, as {key} does") if k is not None else "a list"
            raise StripsIntError(source, name, f"expected {shape}, found {brief(data[name])}")
        return value

    states_raw, actions_raw = _episode(key), _episode("ep_actions")
    params, layout, cook_time = _episode_params(params, data.get("layout_name"), source, layout)
    states, new_style = _states(states_raw, source, cook_time)
    actions = [_joint(a, source, i) for i, a in enumerate(actions_raw)]
    per_step = _rewards(_episode("ep_rewards"), source) if data.get("ep_rewards") is not None else None
    return _episode_game(source, layout, params, cook_time, states, new_style, actions, per_step)


def _episode_params(params: Any, named: Any, source: str, layout: str | None) -> tuple[dict, str | None, int]:
    """An episode's ``mdp_params`` (an object, or a list holding one), layout name (``layout``, else the one
    ``mdp_params`` or the episode (``named``) gives) and cook time."""
    if isinstance(params, list):
        params = params[0] if params else None
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise StripsIntError(source, "mdp_params", f"expected an object, found {brief(params)}")
    if layout is None:
        layout = params.get("layout_name") or named
        if layout is not None:
            terrain = params.get("terrain")
            _check_layout_name(layout, _grid_rows(terrain, source, "mdp_params.terrain") if terrain is not None
                               else None, source, "layout_name")
    return params, layout, _cook_time(params.get("cook_time"), source)


#: What a layout name is (overcooked-ai's, ZSC-Eval's, a layout file's stem): letters, digits, ``_ . -``.
_LAYOUT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")


def _check_layout_name(name: Any, terrain: tuple[str, ...] | None, source: str, where: str) -> None:
    """The layout name a file gives (grouped by, shown in tables and figures) must be a name, and, beside a
    terrain the file records, a name that denotes that terrain when it names a layout known here (a game
    grouped under another layout's name would be counted in the wrong group)."""
    if not isinstance(name, str) or not _LAYOUT_NAME.fullmatch(name):
        raise StripsIntError(source, where, f"expected a layout name (letters, digits, _ . -), found {brief(name)}")
    if terrain is None:
        return
    known = grids_named(name)
    if known and blank_starts(terrain) not in known:
        raise StripsIntError(source, where, f"{name!r} is a layout of another grid than the terrain the file "
                             "records")


def _episode_game(source: str, layout: str | None, params: dict, cook_time: int, states: list[RawState],
                  new_style: bool, actions: list[tuple[Move, ...]], per_step: tuple[float, ...] | None) -> Game:
    """An episode's game from its read parts; ``params`` (``mdp_params``) may record the terrain and the rules."""
    # Old-format soups (ingredient, count, ticks) suggest the old rules; mdp_params may name them outright.
    named = params.get("old_dynamics")
    if named is not None and not isinstance(named, bool):
        raise StripsIntError(source, "mdp_params.old_dynamics", f"expected true or false, found {brief(named)}")
    terrain = params.get("terrain")
    return Game(
        source=source, layout=layout, states=states, actions=actions,
        reward=sum(per_step) if per_step is not None else None, rewards=per_step,
        cook_time=cook_time, old_rules=not new_style if named is None else named, rules_named=named is not None,
        terrain=_grid_rows(terrain, source, "mdp_params.terrain") if terrain is not None else None,
    )


# -- The user-study web app's shape, decoded typed ---------------------------------------------------------------
# msgspec decodes these files straight into the structs below, checking every type and range in C, at about
# half the cost of JSON dicts checked in Python. Only what the general path reads alike passes (no unknown key,
# a subset of its ranges, two players); any other shape or any fault goes to the general path, which has the
# messages. A state's players and objects are first kept as their JSON text (msgspec.Raw): a game of about 750
# players and 376 grids shows about 70 distinct of each, so each distinct text is decoded once, by its bytes.

_Coordinate = Annotated[int, msgspec.Meta(ge=0, lt=_MAX_COORDINATE)]
_Unit = Annotated[int, msgspec.Meta(ge=-1, le=1)]
_ActionIndex = Annotated[int, msgspec.Meta(ge=0, lt=len(_INDEX_ACTIONS))]
_OldSoup = tuple[Literal[INGREDIENTS], Annotated[int, msgspec.Meta(ge=1, le=MAX_INGREDIENTS)],
                 Annotated[int, msgspec.Meta(ge=0, le=_MAX_COOK_TIME)]]


class _Object(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: Literal[KINDS]
    position: tuple[_Coordinate, _Coordinate]
    state: _OldSoup | None = None


class _Player(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    position: tuple[_Coordinate, _Coordinate]
    orientation: tuple[_Unit, _Unit]
    held_object: _Object | None = None


_NO_OBJECTS = msgspec.Raw(b"{}")


class _State(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    players: tuple[msgspec.Raw, msgspec.Raw]  # each a _Player
    objects: msgspec.Raw = _NO_OBJECTS  # a dict[str, _Object]
    order_list: None = None


class _Episode(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    ep_states: list[list[_State]]
    ep_actions: list[list[tuple[_ActionIndex, _ActionIndex]]]
    ep_rewards: list[list[int]] | None = None
    mdp_params: Any = None
    layout_name: Any = None


_EPISODE = msgspec.json.Decoder(_Episode)
_PLAYER = msgspec.json.Decoder(_Player)
_GRID = msgspec.json.Decoder(dict[str, _Object])


#: A named tuple made from all its fields at once, without its Python-level ``__new__``: four times faster.
_make = tuple.__new__


class _Refused(Exception):
    """A decoded file the typed path leaves to the general one."""


def _typed_episode(raw: bytes, source: str, layout: str | None) -> Game | None:
    """The game of a file in the user-study shape, equal to :func:`_read_episode`'s; None for any other file."""
    try:
        episode = _EPISODE.decode(raw)
    except (msgspec.MsgspecError, ValueError, RecursionError):  # another shape, or a fault (skipping a deep
        return None  # player's or grid's text recurses): the general path says which
    rewards = episode.ep_rewards
    if not (len(episode.ep_states) == 1 and episode.ep_actions and rewards != []):  # (several: the general path)
        return None
    try:
        params, layout, cook_time = _episode_params(episode.mdp_params, episode.layout_name, source, layout)
        states = _typed_states(episode.ep_states[0], cook_time)
        actions = [_INDEX_PAIRS[6 * a + b] for a, b in episode.ep_actions[0]]
        per_step = tuple(map(float, rewards[0])) if rewards is not None else None
        return _episode_game(source, layout, params, cook_time, states, False, actions, per_step)
    except (StripsIntError, _Refused, msgspec.MsgspecError):  # (also a player's or grid's text)
        return None


def _typed_states(decoded: list[_State], cook_time: int) -> list[RawState]:
    """:func:`_states` of decoded structs, sharing values between equal consecutive states alike (a player's or
    the objects' text equal to the one before is the same value); each distinct text is decoded once."""
    soups: dict[tuple[str, int, int], Item] = {}

    def item(obj: _Object) -> Item:
        plain = _PLAIN.get(obj.name)
        if plain is not None:
            return plain
        if obj.state is None:
            raise _Refused
        soup = soups.get(obj.state)
        if soup is None:
            soup = soups[obj.state] = _old_soup(*obj.state, cook_time)
        return soup

    players: dict[bytes, Player] = {}
    grids: dict[bytes, dict[Pos, Item]] = {}

    def player(text: bytes) -> Player:
        value = _PLAYER.decode(text)
        held = value.held_object
        made = players[text] = _make(Player, (value.position, value.orientation, None if held is None else item(held)))
        return made

    def grid(text: bytes) -> dict[Pos, Item]:
        listed = _GRID.decode(text)
        objects = grids[text] = {obj.position: item(obj) for obj in listed.values()}
        if len(objects) < len(listed):  # two objects at one position
            raise _Refused
        return objects

    states: list[RawState] = []
    append = states.append
    raw0 = raw1 = listed = objects = before = None  # the texts of the state before and what was made of them
    for raw in decoded:
        text0, text1 = raw.players
        same0, same1, text = text0 == raw0, text1 == raw1, raw.objects
        if text == listed:
            if same0 and same1:
                append(before)
                continue
        else:
            key = bytes(text)
            new = grids.get(key)
            if new is None:
                new = grid(key)
            objects, listed = objects if new == objects else new, text
        if not same0:
            key = bytes(text0)
            player0, raw0 = players.get(key) or player(key), text0
        if not same1:
            key = bytes(text1)
            player1, raw1 = players.get(key) or player(key), text1
        before = _make(RawState, ((player0, player1), objects, None, ()))
        append(before)
    return states


def _cook_time(value: Any, source: str) -> int:
    """``mdp_params.cook_time``: a whole number of steps (absent or null: the default 20)."""
    if value is None:
        return DEFAULT_COOK_TIME
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int or not 0 < value <= _MAX_COOK_TIME:
        raise StripsIntError(source, "mdp_params.cook_time", f"expected a whole number of steps from 1 to "
                             f"{_MAX_COOK_TIME}, found {brief(value)}")
    return value


def _read_pickle(path: Path, layout: str | None) -> Game:
    """A ZSC-Eval rollout: ``[state, joint_action, events]`` repeated, then the final state (stride 3), or
    ``[state, agent_index, joint_action, events]`` repeated, then the final state and its agent index (stride 4).

    The pickle is read whole into memory (within :func:`~strips_int.files.read_bytes`' size limit) and loaded
    from there with no class admitted; the unpickler checks each declared length against the bytes held, except
    that it allocates a bytes object before filling it, so a pickle declaring one larger than memory fails that
    allocation: both are this error.
    """
    source = str(path)
    raw = read_bytes(path)
    try:
        # CPython 3.11 frees a bytearray whose allocation failed before setting its count of exported buffers,
        # and may print a stray "SystemError: deallocated bytearray object has exported buffers" for a pickle
        # declaring one larger than memory: what a load with no classes admitted writes is that, or nothing.
        with contextlib.redirect_stderr(io.StringIO()):
            data = _NoClasses(io.BytesIO(raw)).load()
    except MemoryError:
        raise StripsIntError(source, None, "cannot load pickle: it declares more data than memory holds") from None
    except Exception as exc:  # noqa: BLE001 - malformed opcodes raise whatever their handler does (AttributeError, OverflowError, ...)
        raise StripsIntError(source, None, f"cannot load pickle: {type(exc).__name__}: {brief(str(exc), 200)}") from None
    if not isinstance(data, list) or len(data) < 2 or not isinstance(data[0], dict):
        raise StripsIntError(source, None, "expected a list [state, joint_action, events, ..., final state]")
    stride = 4 if type(data[1]) is int else 3
    steps = (len(data) - 1) // stride
    rest = data[steps * stride:]
    if not (isinstance(rest[0], dict) and (len(rest) == 1 or stride == 4 and len(rest) == 2 and type(rest[1]) is int)):
        raise StripsIntError(source, None, f"{len(data)} entries are not whole steps of {stride} and a final state")
    states, _ = _states(data[0::stride][:steps + 1], source, reuse=False)
    actions = [_joint(data[i * stride + stride - 2], source, i) for i in range(steps)]
    # The pickles log no reward: each step's events count deliveries per player, 20 each (old rules).
    deliveries = [_deliveries(data[i * stride + stride - 1], source, i) for i in range(steps)]
    if layout is None:  # the rollouts keep their layout in a folder name
        known = set(known_layouts())
        layout = next((part for part in reversed(path.parts[:-1]) if part in known), None)
    return Game(source=source, layout=layout, states=states, actions=actions, reward=20.0 * sum(deliveries),
                rewards=tuple(20.0 * n for n in deliveries), meta={"stride": stride, "unchecked": _ROLLOUT_REWARD})


#: What a ZSC-Eval rollout cannot show (definitions section 11: said, never silently trusted).
_ROLLOUT_REWARD = ("reward per soup: a ZSC-Eval rollout logs deliveries, not rewards, so 20 per delivered soup "
                   "(ZSC-Eval's delivery reward) is assumed")


def _deliveries(events: Any, source: str, step: int) -> int:
    """The soups delivered in one rollout step: the sum of its per-player ``delivery`` counters."""
    if not isinstance(events, (list, tuple)) or not all(isinstance(e, dict) for e in events):
        raise StripsIntError(source, f"step {step}", f"expected a list of per-player events, found {brief(events)}")
    total = 0
    for j, event in enumerate(events):
        count = event.get("delivery", 0)
        if type(count) is not int or not 0 <= count <= 1:
            raise StripsIntError(source, f"step {step}", f"player {j}'s delivery count is {brief(count)}: a "
                                 "player delivers 0 or 1 soup per step")
        total += count
    return total


def _read_csv(path: Path, layout: str | None) -> Iterator[Game | StripsIntError]:
    """One game per ``trial_id`` (a trial that cannot be read is its error, the others still read);
    terrain from the ``layout`` column, seats from ``player_<i>_is_human``.

    A field may be at most ``csv.field_size_limit()`` characters (131,072 unless raised; the real
    files' longest is about 1,200): a longer one is an error naming its line."""
    source = str(path)
    try:
        reader = csv.DictReader(io.StringIO(read_text(path)))
        missing = {"state", "joint_action", "trial_id"} - set(reader.fieldnames or [])
        if missing:
            raise StripsIntError(source, "header", f"missing column(s): {', '.join(sorted(missing))}")
        trials: dict[str, list[tuple[int, dict]]] = {}
        for row in reader:
            if None in row or None in row.values():  # DictReader's filler for a row longer or shorter than the header
                raise StripsIntError(source, f"line {reader.line_num}",
                                     f"{len(reader.fieldnames)} columns in the header, another number in this row")
            trials.setdefault(row["trial_id"], []).append((reader.line_num, row))
    except csv.Error as exc:
        yield StripsIntError(source, f"line {reader.line_num + 1}", f"malformed CSV: {exc}")
        return
    except StripsIntError as exc:
        yield exc
        return
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
            raise StripsIntError(source, f"line {line}", f"reward {brief(row['reward'])} is not a number") from None
    first_line, first = rows[0]
    terrain = (_grid_rows(_cell_json(first, "layout", source, first_line, quotes=True), source,
                          f"line {first_line}, column layout") if first.get("layout") else None)
    if layout is None and first.get("layout_name"):
        layout = first["layout_name"]
        _check_layout_name(layout, terrain, source, f"line {first_line}, column layout_name")
    states, new_style = _states(states_raw, source)
    return Game(source=source, layout=layout, states=states, actions=actions, reward=sum(rewards),
                rewards=tuple(rewards), old_rules=not new_style, meta={"trial_id": trial}, terrain=terrain,
                humans=_humans(rows, source))


#: How writers put a boolean in a CSV cell: pandas' ``to_csv`` (``True``), R and spreadsheets (``TRUE``),
#: JSON-minded ones (``true``), and those that write numbers (``1``, or ``1.0`` from a float column).
_BOOLEANS = {"true": True, "1": True, "1.0": True, "false": False, "0": False, "0.0": False}


def _humans(rows: list[tuple[int, dict]], source: str) -> tuple[bool, ...] | None:
    """Which seats a person played (``player_<i>_is_human``), the same in every row of the trial; None when
    the columns are absent or a cell is empty (not known). Any other value is an error naming its cell."""
    columns = ("player_0_is_human", "player_1_is_human")
    if any(column not in rows[0][1] for column in columns):
        return None
    seats = None
    for line, row in rows:
        cells = tuple(row[column].strip().lower() for column in columns)
        if seats is not None and cells == seats[0]:
            continue  # (hot: every row of a trial says the same)
        for column, cell in zip(columns, cells):
            if cell and cell not in _BOOLEANS:
                raise StripsIntError(source, f"line {line}, column {column}", f"expected True or False (or 1 or 0), "
                                     f"found {brief(row[column])}")
        if seats is not None:
            raise StripsIntError(source, f"line {line}", f"{' and '.join(columns)} change within the trial, from "
                                 f"{', '.join(map(brief, seats[0]))} to {', '.join(map(brief, cells))}")
        seats = (cells, tuple(_BOOLEANS.get(cell) for cell in cells))
    humans = seats[1]
    return None if None in humans else humans


def _cell_json(row: dict, column: str, source: str, line: int, quotes: bool = False) -> Any:
    text = row.get(column) or ""
    return _json(text.replace("'", '"') if quotes else text, source, f"line {line}", f"JSON in column {column}")


def _grid_rows(grid: Any, source: str, where: str) -> tuple[str, ...]:
    """A recorded terrain: a list of rows, each a string or a list of one-character strings."""
    if (not isinstance(grid, list) or not grid
            or not all(isinstance(r, str) or isinstance(r, list) and all(isinstance(c, str) for c in r) for r in grid)):
        raise StripsIntError(source, where, f"a terrain must be a list of grid rows, found {brief(grid)}")
    return tuple(r if isinstance(r, str) else "".join(r) for r in grid)


def _rewards(values: list, source: str) -> tuple[float, ...]:
    """Per-step rewards of an episode JSON; the error names the step of a non-number."""
    if all(type(v) is int for v in values):  # hot: the user-study files (and an int is finite)
        return tuple(map(float, values))
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise StripsIntError(source, f"step {i}", f"reward {brief(value)} is not a finite number")
    return tuple(float(v) for v in values)


def _where(index: int, at: int | Pos | None) -> str:
    """``state 3``, ``state 3, player 1`` or ``state 3, object at (2, 0)``: built only for an error."""
    if at is None:
        return f"state {index}, an object"
    return f"state {index}, player {at}" if isinstance(at, int) else f"state {index}, object at {at}"


def _pos(value: Any, source: str, index: int, at: int | Pos | None = None) -> Pos:
    """A position or direction ``[x, y]`` of whole numbers, in state ``index`` at ``at`` (see :func:`_where`)."""
    if type(value) in (list, tuple) and len(value) == 2:
        x, y = value
        if type(x) is int and type(y) is int and -_MAX_COORDINATE < x < _MAX_COORDINATE \
                and -_MAX_COORDINATE < y < _MAX_COORDINATE:
            return (x, y)
    raise StripsIntError(source, _where(index, at), f"expected [x, y], two whole numbers under {_MAX_COORDINATE} "
                         f"in size, found {_shown(value)}")


def _shown(value: Any) -> str:
    """A short list's items, each in brief; anything else in brief."""
    if isinstance(value, (list, tuple)) and len(value) <= 4:
        return "[" + ", ".join(brief(v) for v in value) + "]"
    return brief(value)


#: The plain objects, shared by every state.
_PLAIN = {kind: Item(kind) for kind in KINDS if kind != "soup"}


def _item(data: Any, source: str, index: int, at: int | Pos, cook_time: int = DEFAULT_COOK_TIME) -> Item:
    """An object dict of either generation (soup state tuple, or ``_ingredients`` and flags), held by
    player ``at`` or lying at position ``at`` in state ``index``."""
    if not isinstance(data, dict):
        raise StripsIntError(source, _where(index, at), f"expected an object with a name, found {brief(data)}")
    kind = data.get("name")
    plain = _PLAIN.get(kind) if isinstance(kind, str) else None
    if plain is not None:
        return plain
    if kind != "soup":
        raise StripsIntError(source, _where(index, at), f"unknown object {brief(kind)}: expected one of {', '.join(KINDS)}")
    if "_ingredients" in data:
        parts = data["_ingredients"]
        if not (isinstance(parts, list) and len(parts) <= MAX_INGREDIENTS
                and all(isinstance(i, dict) and i.get("name") in INGREDIENTS for i in parts)):
            raise StripsIntError(source, _where(index, at), f"a soup's _ingredients must be up to {MAX_INGREDIENTS} objects "
                                 f"named {' or '.join(INGREDIENTS)}, found {_shown(parts)}")
        status = "ready" if data.get("is_ready") else "cooking" if data.get("is_cooking") else "idle"
        return Item(kind, tuple(sorted(i["name"] for i in parts)), status)
    state = data.get("state")
    if type(state) in (list, tuple) and len(state) == 3:
        ingredient, count, ticks = state
        if (ingredient in INGREDIENTS and type(count) is int and 0 < count <= MAX_INGREDIENTS
                and type(ticks) is int and 0 <= ticks <= _MAX_COOK_TIME):
            return _old_soup(ingredient, count, ticks, cook_time)
    raise StripsIntError(source, _where(index, at), f"a soup's state must be (ingredient, count 1-{MAX_INGREDIENTS}, cooking "
                         f"ticks), found {_shown(state)}")


def _old_soup(ingredient: str, count: int, ticks: int, cook_time: int) -> Item:
    """An old-format soup (its ``state`` checked): idle before cooking, ready after ``cook_time`` ticks."""
    return Item("soup", (ingredient,) * count, "idle" if ticks == 0 else "ready" if ticks >= cook_time else "cooking")


def _states(raws: list, source: str, cook_time: int = DEFAULT_COOK_TIME, reuse: bool = True
            ) -> tuple[list[RawState], bool]:
    """A game's states, checked, and whether they show the new rules (orders, or soups with ``_ingredients``).

    Hot: most steps change little. With ``reuse``, a state equal (as decoded) to the one before it is that
    same :class:`RawState`, and a player or the objects equal to the ones before are those same values, so
    each distinct value is checked and built once and the lifter can skip what is identical. Only for
    decoded JSON: comparing costs at most the size of the text there, while a pickle can share a list
    within itself so that comparing it with an equal copy takes forever.
    """
    states: list[RawState] = []
    append = states.append
    new_style = False
    before_raw: dict | None = None
    before: RawState | None = None
    first_soup: int | None = None  # the first state showing a soup: a game's soups are all of one generation
    for i, raw in enumerate(raws):
        if before_raw is None or raw != before_raw:
            try:
                before = _state(raw, source, i, cook_time, before_raw, before)
            except RecursionError:
                raise StripsIntError(source, f"state {i}", "nested too deeply") from None
            before_raw = raw if reuse else None
            if not new_style and ("all_orders" in raw or "bonus_orders" in raw):
                new_style = True
            if first_soup is None and _has_soup(before):
                first_soup = i
        append(before)
    if first_soup is not None and not new_style:
        new_style = "_ingredients" in _first_soup(raws[first_soup])
    return states, new_style


def _has_soup(state: RawState) -> bool:
    """Whether ``state`` shows a soup, on the grid or held."""
    for item in state.objects.values():
        if item.kind == "soup":
            return True
    for player in state.players:
        if player.held is not None and player.held.kind == "soup":
            return True
    return False


def _first_soup(state: dict) -> dict:
    """The first soup of a (checked) state dict showing one, on the grid or held."""
    listed = state["objects"].values() if isinstance(state.get("objects"), dict) else state.get("objects") or ()
    held = [p.get("held_object") for p in state["players"]]
    return next(o for o in (*listed, *held) if isinstance(o, dict) and o.get("name") == "soup")


def _state(data: Any, source: str, index: int, cook_time: int, before_raw: dict | None = None,
           before: RawState | None = None) -> RawState:
    """One state; ``before`` (decoded from ``before_raw``) lends the players and objects that did not change."""
    listed = data.get("players") if isinstance(data, dict) else None
    if type(listed) is not list:
        raise StripsIntError(source, f"state {index}", "a state needs a list of players")
    players = []
    if before_raw is not None:
        old, kept = before_raw["players"], before.players
        known = min(len(old), len(kept))
    else:
        old, kept, known = (), (), 0
    for j, player in enumerate(listed):
        if j < known and player == old[j]:
            players.append(kept[j])
            continue
        if type(player) is not dict:
            if not isinstance(player, dict):
                raise StripsIntError(source, f"state {index}", f"player {j} is not an object")
        pos, facing, held = player.get("position"), player.get("orientation"), player.get("held_object")
        if type(pos) is list and len(pos) == 2 and type(facing) is list and len(facing) == 2:
            x, y = pos
            dx, dy = facing
            if type(x) is int and type(y) is int and type(dx) is int and type(dy) is int \
                    and -1 <= dx <= 1 and -1 <= dy <= 1 and 0 <= x < _MAX_COORDINATE and 0 <= y < _MAX_COORDINATE:
                pos, facing = (x, y), (dx, dy)  # hot: decoded JSON
            else:
                pos, facing = _pos(pos, source, index, j), _pos(facing, source, index, j)
        else:
            pos, facing = _pos(pos, source, index, j), _pos(facing, source, index, j)
        if held is None:
            item = None
        elif j < known and isinstance(old[j], dict) and held == old[j].get("held_object"):
            item = kept[j].held  # still holding the same
        else:
            item = _item(held, source, index, j, cook_time)
        players.append(Player(pos, facing, item))
    listed = data.get("objects", ())
    if before_raw is None:
        objects = _objects(listed, source, index, cook_time)
    elif listed == before_raw.get("objects", ()):
        objects = before.objects
    else:  # a soup's cooking ticks change the dicts, rarely the objects: equal ones are the same as before
        objects = _objects(listed, source, index, cook_time, before_raw.get("objects"), before.objects)
        if objects == before.objects:
            objects = before.objects
    if "all_orders" not in data and "bonus_orders" not in data:
        return RawState(tuple(players), objects)
    orders, bonus = data.get("all_orders"), data.get("bonus_orders")
    where = f"state {index}"
    return RawState(players=tuple(players), objects=objects,
                    orders=_orders(orders, source, where, "all_orders") if orders is not None else None,
                    bonus=_orders(bonus, source, where, "bonus_orders") if bonus is not None else ())


def _objects(listed: Any, source: str, index: int, cook_time: int, old_listed: Any = None,
             old: dict[Pos, Item] | None = None) -> dict[Pos, Item]:
    """The objects on the grid, by position: a list, or (the user-study files) a mapping keyed by ``"x,y"``;
    an object of a mapping equal to the one under its key in ``old_listed`` is the same as in ``old``."""
    if not isinstance(listed, (list, dict, tuple)):
        raise StripsIntError(source, f"state {index}", f"objects must be a list or a mapping, found {brief(listed)}")
    objects: dict[Pos, Item] = {}
    reuse = isinstance(listed, dict) and isinstance(old_listed, dict)
    for key, obj in listed.items() if isinstance(listed, dict) else enumerate(listed):
        was = old_listed.get(key) if reuse else None
        if was is not None and was == obj:
            pos = tuple(was["position"])  # as checked before
            item = old[pos]
        else:
            pos = _pos(obj.get("position") if isinstance(obj, dict) else None, source, index)
            item = None
        if pos in objects:
            raise StripsIntError(source, f"state {index}", f"two objects at {pos}")
        objects[pos] = item or _item(obj, source, index, pos, cook_time)
    return objects


def _orders(orders: Any, source: str, where: str, key: str) -> tuple[Recipe, ...]:
    """A state's ``all_orders`` or ``bonus_orders``."""
    recipes = orders_of(orders)
    if recipes is None:
        raise StripsIntError(source, f"{where}, {key}", f"expected a list of recipes {{\"ingredients\": [...]}} of 1 "
                             f"to {MAX_INGREDIENTS} {' or '.join(INGREDIENTS)}s, found {_shown(orders)}")
    return recipes


#: Joint actions of two action indices (the user-study files'), by ``6 * first + second``.
_INDEX_PAIRS = tuple((a, b) for a in _INDEX_ACTIONS for b in _INDEX_ACTIONS)


def _joint(data: Any, source: str, index: int) -> tuple[Move, ...]:
    if type(data) is list and len(data) == 2 and type(data[0]) is int and type(data[1]) is int \
            and 0 <= data[0] < 6 and 0 <= data[1] < 6:  # hot: the user-study files
        return _INDEX_PAIRS[6 * data[0] + data[1]]
    if not isinstance(data, (list, tuple)):
        raise StripsIntError(source, f"action {index}", f"expected a joint action, found {brief(data)}")
    return tuple(_move(a, source, index) for a in data)


def _move(value: Any, source: str, index: int) -> Move:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(_INDEX_ACTIONS):
        return _INDEX_ACTIONS[value]
    if isinstance(value, str) and value.lower() == INTERACT:
        return INTERACT
    if type(value) in (list, tuple) and len(value) == 2 and tuple(value) in _INDEX_ACTIONS:
        return tuple(value)
    raise StripsIntError(source, f"action {index}", f"unknown player action {_shown(value)}")


_HUMAN_SEAT = re.compile(r"human=(\d+)")


def human_seat(path: str) -> int | None:
    """The seat the person held, from a user-study file name ``..._human=<seat>.json``."""
    match = _HUMAN_SEAT.search(os.path.basename(path))  # (not Path(path).name: asked for every game, and slower)
    return int(match.group(1)) if match else None
