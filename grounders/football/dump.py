"""gfootball's episode dumps (``dump_full_episodes``), read with no gfootball and no code from the file.

A ``.dump`` is a stream of pickles, one dict per step (``pickle.load`` until
the end of the file): ``observation`` (gfootball's raw observation), ``debug``
(``action``: the controlled players' actions this step) and the rewards.
Values are numpy arrays; an agent-driven episode's actions are gfootball's
``CoreAction`` objects holding a ``_gameplayfootball.e_BackendAction``.

The unpickler admits numpy's array, dtype and scalar reconstruction and
gfootball's two classes, each as a data-only stand-in, nothing else: any
other class a pickle names (``os.system``, ``builtins.eval``) is one error
naming the file, the step and the class, raised before anything is called.
No numpy code sees the file's state either: a dtype must be a number's or a
boolean's with numpy's own plain state (no object dtype, no flags), and an
array is made by ``numpy.frombuffer`` from its checked shape and bytes. pickle
is the format gfootball writes; there is no other reader of it, so the
stand-ins are written here.
"""

from __future__ import annotations

import io
import math
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from strips_int.errors import StripsIntError, brief
from strips_int.files import read_bytes

#: numpy's array reconstruction as numpy 1.x and 2.x pickle it.
_MULTIARRAY = ("numpy.core.multiarray", "numpy._core.multiarray")
#: The dtypes a dump's arrays have (float64, int64, bool, uint8) and their near kin; no object dtype.
_DTYPES = frozenset({"f8", "f4", "i8", "i4", "i2", "i1", "u8", "u4", "u2", "u1", "b1"})
#: gfootball's default action set (``football_action_set.action_set_v1``), by backend number.
ACTION_NAMES = ("idle", "left", "top_left", "top", "top_right", "right", "bottom_right", "bottom", "bottom_left",
                "long_pass", "high_pass", "short_pass", "shot", "sprint", "release_direction", "release_sprint",
                "sliding", "dribble", "release_dribble")


class Refused(pickle.UnpicklingError):
    """A pickle named a class the reader does not admit."""


class BackendAction(int):
    """Stand-in for ``_gameplayfootball.e_BackendAction``: the engine's action number, data only."""

    def __new__(cls, value: object) -> BackendAction:
        if type(value) is not int:
            raise pickle.UnpicklingError(f"e_BackendAction of {brief(value)}, not an integer")
        return super().__new__(cls, value)


class CoreAction:
    """Stand-in for ``gfootball.env.football_action_set.CoreAction``: its fields as plain data."""

    _FIELDS = {"_backend_action", "_name", "_sticky", "_directional"}
    name: str = ""

    def __setstate__(self, state: object) -> None:
        if not isinstance(state, dict) or not set(state) <= self._FIELDS or not isinstance(state.get("_name"), str):
            raise pickle.UnpicklingError(f"CoreAction state {brief(state)} is not gfootball's")
        self.name = state["_name"]


class _DType:
    """Stand-in for ``numpy.dtype`` while unpickling: a number or boolean dtype, its state checked as numpy
    writes it (numpy's own ``__setstate__`` would take any flags, an object dtype's among them)."""

    def __init__(self, spec: object, align: object = False, copy: object = False) -> None:
        if spec not in _DTYPES:
            raise Refused(f"numpy dtype {brief(spec)}: a dump holds numbers and booleans only")
        self.dtype = np.dtype(str(spec))

    def __setstate__(self, state: object) -> None:
        if not (isinstance(state, tuple) and len(state) == 8 and state[0] == 3 and state[1] in ("<", ">", "|", "=")
                and state[2:] == (None, None, None, -1, -1, 0)):
            raise Refused(f"numpy dtype state {brief(state)} is not a plain number's")
        if state[1] in "<>":
            self.dtype = self.dtype.newbyteorder(state[1])


#: What a pickle's ``numpy.ndarray`` is here: a token only :func:`_reconstruct` accepts (calling it fails).
_NDARRAY = ("numpy", "ndarray")


class _Array:
    """Stand-in for the empty array ``numpy.core.multiarray._reconstruct`` gives; its state (version, shape,
    dtype, Fortran order, raw bytes) is checked and becomes ``value``, a new array of those bytes."""

    value: np.ndarray

    def __setstate__(self, state: object) -> None:
        if not (isinstance(state, tuple) and len(state) == 5 and state[0] == 1 and isinstance(state[1], tuple)
                and all(type(n) is int and n >= 0 for n in state[1]) and isinstance(state[2], _DType)
                and isinstance(state[3], bool) and isinstance(state[4], bytes)):
            raise Refused(f"numpy array state {brief(state)} is not a plain array's")
        shape, dtype, raw = state[1], state[2].dtype, state[4]
        if len(raw) != math.prod(shape) * dtype.itemsize:
            raise Refused(f"numpy array of shape {shape} and dtype {dtype} with {len(raw)} bytes of data")
        self.value = np.frombuffer(raw, dtype).reshape(shape, order="F" if state[3] else "C")


def _reconstruct(cls: object, shape: object, code: object) -> _Array:
    if cls is not _NDARRAY or shape != (0,) or code != b"b":  # as ndarray.__reduce__ writes it: an empty shell
        raise Refused("an array reconstruction that is not numpy's (ndarray, (0,), b'b')")
    return _Array()


def _scalar(dtype: object, data: object) -> Any:
    if not isinstance(dtype, _DType) or not isinstance(data, bytes) or len(data) != dtype.dtype.itemsize:
        raise Refused("a numpy scalar that is not a number")
    return np.frombuffer(data, dtype.dtype, count=1)[0]


def _plain(value: Any) -> Any:
    """``value`` with each array stand-in replaced by its array, through dicts, lists and tuples."""
    if isinstance(value, _Array):
        return getattr(value, "value", None)  # a shell no state was given stays empty: None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(map(_plain, value))
    return value


_ADMITTED: dict[tuple[str, str], Any] = {
    **{(m, "_reconstruct"): _reconstruct for m in _MULTIARRAY},
    **{(m, "scalar"): _scalar for m in _MULTIARRAY},
    _NDARRAY: _NDARRAY,
    ("numpy", "dtype"): _DType,
    ("gfootball.env.football_action_set", "CoreAction"): CoreAction,
    ("_gameplayfootball", "e_BackendAction"): BackendAction,
}


class _Restricted(pickle.Unpickler):
    """Admits only :data:`_ADMITTED` (see the module docstring)."""

    def find_class(self, module: str, name: str) -> Any:
        found = _ADMITTED.get((module, name))
        if found is None:
            raise Refused(f"refusing class {module}.{name}: a dump holds numpy arrays and gfootball's actions only")
        return found

    def persistent_load(self, pid: object) -> Any:
        raise Refused("refusing a persistent id: a dump has none")


def pickled_steps(path: Path) -> Iterator[dict[str, Any]]:
    """Each step's dict of a dump, in order; a damaged or foreign pickle is one error naming the step."""
    source = str(path)
    data = read_bytes(path)
    stream = io.BytesIO(data)
    index = 0
    while stream.tell() < len(data):
        try:  # an unpickler per step: each step is pickled on its own, memo indices from 0
            value = _plain(_Restricted(stream).load())
        except Refused as exc:
            raise StripsIntError(source, f"step {index}", str(exc)) from None
        except Exception as exc:  # any malformed pickle: UnpicklingError, ValueError, TypeError, MemoryError ...
            if isinstance(exc, EOFError) or "truncated" in str(exc):
                raise StripsIntError(source, f"step {index}", "the stream ends inside this step's pickle "
                                     "(a truncated dump)") from None
            raise StripsIntError(source, f"step {index}", f"not a readable step pickle: {type(exc).__name__}: "
                                 f"{str(exc)[:160]}") from None
        if not isinstance(value, dict):
            raise StripsIntError(source, f"step {index}", f"a step is a dict, not {brief(value)}")
        yield value
        index += 1
    if index == 0:
        raise StripsIntError(source, None, "an empty dump: no step")


@dataclass(frozen=True)
class Frame:
    """What the analysis needs of one step of a dump (numpy values as Python ones)."""

    ball: tuple[float, float, float]
    owner_team: int  # -1 none, 0 left, 1 right
    owner_player: int  # index in that team, -1 none
    game_mode: int
    score: tuple[int, int]
    steps_left: int
    players: tuple[int, int]  # left and right team sizes
    positions: tuple[np.ndarray, np.ndarray]  # left and right players' (x, y)
    keepers: tuple[int, int]  # each team's goalkeeper (role 0), -1 when it has none
    controlled: tuple[tuple[int, ...], tuple[int, ...]]  # the agent-controlled players, left and right
    actions: tuple[str, ...]  # debug.action's names ('' where the built-in AI plays)
    reward: float


def _int(obs: dict[str, Any], key: str, source: str, where: str) -> int:
    value = obs.get(key)
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = int(value)
    elif isinstance(value, (np.integer,)):
        value = int(value)
    if type(value) is not int:
        raise StripsIntError(source, where, f"observation {key} is {_shown(value)}, not an integer")
    return value


def _ints(obs: dict[str, Any], key: str, source: str, where: str) -> list[int]:
    value = obs.get(key)
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iu":
        value = value.tolist()
    if not isinstance(value, (list, tuple)) or not all(type(v) is int or isinstance(v, np.integer) for v in value):
        raise StripsIntError(source, where, f"observation {key} is {_shown(value)}, not a list of integers")
    return [int(v) for v in value]


def _shown(value: object) -> str:
    """An observation value for an error: an array by its shape and dtype, anything else by :func:`brief`."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return brief(value)


def _array(obs: dict[str, Any], key: str, source: str, where: str, shape: tuple[int | None, ...],
           kinds: str = "fiu") -> np.ndarray:
    value = obs.get(key)
    if isinstance(value, (list, tuple)):
        value = np.asarray(value)
    if not isinstance(value, np.ndarray) or value.dtype.kind not in kinds or value.ndim != len(shape) or any(
            want is not None and have != want for have, want in zip(value.shape, shape)):
        raise StripsIntError(source, where, f"observation {key} is {_shown(value)}, not an array of shape "
                             f"{tuple('n' if s is None else s for s in shape)}")
    if value.dtype.kind == "f" and not np.isfinite(value).all():
        raise StripsIntError(source, where, f"observation {key} holds a value that is not a finite number")
    return value


def frame(step: dict[str, Any], source: str, index: int) -> Frame:
    """One step's :class:`Frame`, each field checked for its type and range; an error names the step."""
    where = f"step {index}"
    obs = step.get("observation")
    if not isinstance(obs, dict):
        raise StripsIntError(source, where, f"no observation dict (found {brief(obs)})")
    ball = _array(obs, "ball", source, where, (3,))
    left = _array(obs, "left_team", source, where, (None, 2))
    right = _array(obs, "right_team", source, where, (None, 2))
    sizes = (len(left), len(right))
    team, player = _owner(obs, sizes, source, where)
    mode = _int(obs, "game_mode", source, where)
    if not 0 <= mode <= 6:
        raise StripsIntError(source, where, f"game_mode {mode} is not 0 to 6")
    score = _ints(obs, "score", source, where)
    if len(score) != 2 or min(score) < 0:
        raise StripsIntError(source, where, f"score {score} is not two goal counts")
    controlled = []
    for side, size in zip(("left", "right"), sizes):
        chosen = _ints(obs, f"{side}_agent_controlled_player", source, where)
        if any(not 0 <= c < size for c in chosen):
            raise StripsIntError(source, where, f"{side}_agent_controlled_player {chosen} is out of range: the "
                                 f"{side} team has {size} players")
        controlled.append(tuple(chosen))
    names = _actions(step, len(controlled[0]) + len(controlled[1]), source, where)
    reward = step.get("reward", 0.0)
    if not isinstance(reward, (int, float, np.number)) or not np.isfinite(reward):
        raise StripsIntError(source, where, f"reward {brief(reward)} is not a finite number")
    keepers = tuple(_keeper(obs, side, size, source, where) for side, size in zip(("left", "right"), sizes))
    return Frame((float(ball[0]), float(ball[1]), float(ball[2])), team, player, mode,
                 (int(score[0]), int(score[1])), _int(obs, "steps_left", source, where), sizes, (left, right),
                 (keepers[0], keepers[1]), (controlled[0], controlled[1]), names, float(reward))


def _owner(obs: dict[str, Any], sizes: tuple[int, int], source: str, where: str) -> tuple[int, int]:
    """``ball_owned_team`` and ``ball_owned_player``, in range."""
    team, player = _int(obs, "ball_owned_team", source, where), _int(obs, "ball_owned_player", source, where)
    if team not in (-1, 0, 1):
        raise StripsIntError(source, where, f"ball_owned_team {team} is not -1, 0 or 1")
    if team == -1 and player != -1:
        raise StripsIntError(source, where, f"ball_owned_player {player} while no team owns the ball")
    if team >= 0 and not 0 <= player < sizes[team]:
        raise StripsIntError(source, where, f"ball_owned_player {player} is out of range: the "
                             f"{'left' if team == 0 else 'right'} team has {sizes[team]} players")
    return team, player


def _actions(step: dict[str, Any], controlled: int, source: str, where: str) -> tuple[str, ...]:
    """The names of ``debug.action``'s actions: none (the built-in AI), or one per controlled player."""
    debug = step.get("debug")
    actions = debug.get("action", []) if isinstance(debug, dict) else None
    if not isinstance(actions, (list, tuple)) or not all(isinstance(a, (CoreAction, int)) for a in actions):
        raise StripsIntError(source, where, f"debug.action is {brief(actions)}, not a list of actions")
    names = tuple(a.name if isinstance(a, CoreAction) else _action_name(a, source, where) for a in actions)
    if names and len(names) != controlled:
        raise StripsIntError(source, where, f"debug.action has {len(names)} actions for {controlled} controlled "
                             "players")
    return names


def _keeper(obs: dict[str, Any], side: str, size: int, source: str, where: str) -> int:
    roles = _ints(obs, f"{side}_team_roles", source, where)
    if len(roles) != size:
        raise StripsIntError(source, where, f"{side}_team_roles has {len(roles)} roles for {size} players")
    return roles.index(0) if 0 in roles else -1


def _action_name(number: int, source: str, where: str) -> str:
    if not 0 <= number < len(ACTION_NAMES):
        raise StripsIntError(source, where, f"action {number} is not one of gfootball's {len(ACTION_NAMES)}")
    return ACTION_NAMES[number]


def read_frames(path: Path) -> tuple[Frame, ...]:
    """Every step of a dump as a :class:`Frame`; the first bad one is an error naming the file and step."""
    return read_episode(path)[0]


def read_episode(path: Path) -> tuple[tuple[Frame, ...], dict[str, str | int]]:
    """Every step of a dump as a :class:`Frame`, and what its first step's ``debug.config`` says of the episode
    (``scenario``: gfootball's level, ``seed``: its engine seed; each where it is there and plain)."""
    source = str(path)
    frames, config = [], {}
    for i, step in enumerate(pickled_steps(path)):
        frames.append(frame(step, source, i))
        if i == 0 and isinstance(step.get("debug"), dict) and isinstance(step["debug"].get("config"), dict):
            given = step["debug"]["config"]
            config = {key: given[name] for key, name, kind in (("scenario", "level", str),
                                                               ("seed", "game_engine_random_seed", int))
                      if type(given.get(name)) is kind}
    return tuple(frames), config
