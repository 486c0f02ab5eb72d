"""JaxMARL Overcooked rollouts as plain arrays, and their ``.npz`` files (numpy only, never pickle).

A rollout is the ``State`` values of ``jaxmarl.make("overcooked", ...)`` (the
one from ``reset`` first, then one per step), the joint actions and the
per-step rewards. Its arrays keep JaxMARL's own encoding (``maze_map``
object codes and pot countdowns); the layout's static grid is stored beside
them as text rows in the Overcooked grid characters, so a file is read
without jax.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from strips_int.errors import StripsIntError

from .record import FORMAT, FORMAT_V2, FORMATS, joint_actions, step_rewards, unwrapped

#: The ``State`` fields stored, one array per field with the step as first axis.
STATE_FIELDS = ("agent_pos", "agent_dir", "agent_dir_idx", "agent_inv", "maze_map", "step", "done")
#: What reading a damaged or foreign archive raises: zipfile's and zlib's errors, and numpy's ``.npy``
#: header parser (ast, tokenize) raises assorted types on damaged bytes, so any Exception.
_UNREADABLE = Exception
#: Grid characters of JaxMARL's layout keys (``layout_grid_to_dict`` reversed).
_TILES = (("pot_idx", "P"), ("goal_idx", "S"), ("onion_pile_idx", "O"), ("plate_pile_idx", "D"))


def layout_rows(layout: Mapping[str, Any], starts: Sequence[tuple[int, int]] = ()) -> tuple[str, ...]:
    """The grid rows of a JaxMARL layout dict (``overcooked_layouts[name]``), start tiles as digits 1, 2, ..."""
    height, width = int(layout["height"]), int(layout["width"])
    cells = [[" "] * width for _ in range(height)]
    for index in np.asarray(layout["wall_idx"], dtype=np.int64).ravel():
        cells[index // width][index % width] = "X"
    for key, char in _TILES:
        for index in np.asarray(layout.get(key, ()), dtype=np.int64).ravel():
            cells[index // width][index % width] = char
    for seat, (x, y) in enumerate(starts):
        cells[y][x] = str(seat + 1)
    return tuple("".join(row) for row in cells)


def layout_name(layout: Mapping[str, Any]) -> str:
    """The name of a JaxMARL layout dict among ``overcooked_layouts``, else ``"custom"``."""
    from jaxmarl.environments.overcooked.layouts import overcooked_layouts

    rows = layout_rows(layout)
    return next((name for name, known in overcooked_layouts.items() if layout_rows(known) == rows), "custom")


def rollout_arrays(env: Any, states: Sequence[Any], actions: Sequence[Any], rewards: Sequence[Any]) -> dict[str, np.ndarray]:
    """The arrays of a rollout (what :func:`save_rollout` writes), of an Overcooked or OvercookedV2 ``env``.

    ``actions`` are joint actions (:func:`joint_actions`), ``rewards`` per-step rewards (:func:`step_rewards`).
    The env may be wrapped (jaxmarl's wrappers pass its attributes through) and each state then the wrapper's
    (``LogEnvState``): the environment's own is its ``env_state``.
    """
    from .v2_rollout import is_v2, v2_arrays  # OvercookedV2's own arrays

    states = [unwrapped(state) for state in states]
    if is_v2(env):
        return v2_arrays(env, states, actions, rewards)
    starts = [(int(x), int(y)) for x, y in np.asarray(states[0].agent_pos)] if states else []
    arrays = {name: np.stack([np.asarray(getattr(s, name)) for s in states]) for name in STATE_FIELDS} if states else {}
    return {
        "format": np.array(FORMAT),
        "layout": np.array(layout_name(env.layout)),
        "grid": np.array(layout_rows(env.layout, starts)),
        "max_steps": np.array(int(getattr(env, "max_steps", -1))),
        "actions": joint_actions(env, actions),
        "rewards": step_rewards(env, rewards),
        **arrays,
    }


def save_rollout(path: str | Path, env: Any, states: Sequence[Any], actions: Sequence[Any], rewards: Sequence[Any]) -> Path:
    """Write a rollout of ``env`` to one compressed ``.npz`` file (numpy only; see :func:`rollout_arrays`)."""
    path = Path(path)
    with path.open("wb") as handle:  # a handle, so numpy adds no ".npz" to a name without it
        np.savez_compressed(handle, **rollout_arrays(env, states, actions, rewards))
    return path


def is_rollout(path: Path) -> bool:
    """Whether ``path`` is a zip archive whose ``format`` array holds one of :data:`FORMATS`; never raises."""
    try:
        if not zipfile.is_zipfile(path):
            return False
        with np.load(path, allow_pickle=False) as data:
            return "format" in data.files and str(data["format"]) in FORMATS
    except _UNREADABLE:
        return False


def load_rollout(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a rollout file (loaded without pickle); a file of another kind names what is missing."""
    source = str(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except _UNREADABLE as exc:
        raise StripsIntError(source, None, f"cannot read as a numpy .npz archive: {exc}") from None
    if "format" not in arrays or str(arrays["format"]) not in FORMATS:
        raise StripsIntError(source, None, f"not a JaxMARL Overcooked rollout (no format tag {FORMAT!r} or "
                             f"{FORMAT_V2!r})")
    raw = sorted(name for name, value in arrays.items() if not isinstance(value, np.ndarray))
    if raw:  # numpy hands back the bytes of a member without an .npy header
        raise StripsIntError(source, None, f"member {raw[0]!r} is not a numpy array")
    return arrays
