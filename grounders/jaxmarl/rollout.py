"""JaxMARL Overcooked rollouts as plain arrays, and their ``.npz`` files (numpy only, never pickle).

A rollout is the ``State`` values of ``jaxmarl.make("overcooked", ...)`` (the
one from ``reset`` first, then one per step), the joint actions and the
per-step rewards. Its arrays keep JaxMARL's own encoding (``maze_map``
object codes and pot countdowns); the layout's static grid is stored beside
them as text rows in the Overcooked grid characters, so a file is read
without jax.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from strips_int.errors import StripsIntError

from .archive import npz_lengths, npz_members, read_npz
from .record import FORMAT, FORMAT_V2, FORMATS, check_length, joint_actions, step_rewards, unwrapped

#: The ``State`` fields stored, one array per field with the step as first axis.
STATE_FIELDS = ("agent_pos", "agent_dir", "agent_dir_idx", "agent_inv", "maze_map", "step", "done")
#: The arrays a file is read for, by its format (:mod:`.game`, :mod:`.v2_rollout`); its others are never
#: decompressed.
READ = {FORMAT: ("format", "layout", "grid", "actions", "rewards", "agent_pos", "agent_dir", "agent_inv", "maze_map",
                 "step"),
        FORMAT_V2: ("format", "layout", "options", "static", "starts", "possible_recipes", "actions", "rewards",
                    "agent_pos", "agent_dir", "agent_inv", "grid", "recipe", "new_correct_delivery", "step")}
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


def is_rollout(path: Path, data: bytes) -> bool:
    """Whether ``data`` (the bytes of ``path``) is an .npz archive whose ``format`` array holds one of
    :data:`FORMATS`, or whose ``format`` member cannot be read (it claims to be one: :func:`load_rollout`
    then says what is wrong with that member, rather than another reader calling the archive "not text");
    never raises."""
    try:
        return str(read_npz(path, ("format",), data=data).get("format")) in FORMATS
    except StripsIntError:
        return "format" in npz_members(path, data)


def load_rollout(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a rollout file its format's reader uses (:data:`READ`, read within bounds and without
    pickle: :mod:`.archive`); a file of another kind names what is missing."""
    tag = str(read_npz(path, ("format",)).get("format"))
    if tag not in FORMATS:
        raise StripsIntError(str(path), None, f"not a JaxMARL Overcooked rollout (no format tag {FORMAT!r} or "
                             f"{FORMAT_V2!r})")
    lengths = npz_lengths(path, ("actions", "step"))  # the bound first, from the arrays' headers alone
    check_length(lengths.get("actions", 0), lengths.get("step", 0), str(path))
    return read_npz(path, READ[tag])
