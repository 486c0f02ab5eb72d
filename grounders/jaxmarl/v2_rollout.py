"""OvercookedV2 rollouts as plain arrays (numpy only, never pickle), and their checked reading.

A rollout is the ``State`` values of ``jaxmarl.make("overcooked_v2", ...)`` (the one from
``reset`` first, then one per step), the joint actions and the per-step rewards. Its arrays keep
JaxMARL's own encoding: each state's agents (position, direction, inventory), its grid (static
tile, object and timer codes), its recipe code and ``new_correct_delivery`` flag; beside them the
layout (static tiles, start cells, possible recipes) and the environment's options as JSON text,
so a file is read without jax.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from strips_int.errors import StripsIntError, brief

from .record import FORMAT_V2, joint_actions, kept_states, layout_name_of, step_rewards
from .v2_kitchen import (BUTTON, COOK_TIME, COOKED, EMPTY, INDICATOR_TIME, MAX_CODE, MAX_INGREDIENTS, PILE_BASE,
                         PLATE, POT, WALL, Agent, KitchenState, V2Layout, describe, is_ingredient, kinds, recipe_code)

#: The ``State`` fields stored, one array per field with the step as first axis (positions as x, y).
STATE_FIELDS = ("agent_pos", "agent_dir", "agent_inv", "grid", "recipe", "new_correct_delivery", "step", "done")
#: The options whose type the reading checks, with it: they decide the rules or what an agent sees.
RULE_OPTIONS = {"max_steps": int, "agent_view_size": (int, type(None)), "start_cooking_interaction": bool,
                "negative_rewards": bool, "sample_recipe_on_delivery": bool}
_TILES = frozenset({EMPTY, WALL, 4, POT, 6, BUTTON, 9, *range(PILE_BASE, PILE_BASE + 10)})


def is_v2(env: Any) -> bool:
    """Whether ``env`` is an OvercookedV2 (its layout has static tiles) rather than the original Overcooked."""
    return hasattr(getattr(env, "layout", None), "static_objects")


def env_options(env: Any) -> dict[str, Any]:
    """The options ``OvercookedV2(...)`` was made with, as JSON values (a state buffer only as present or not)."""
    kind = env.observation_type
    kinds_seen = [str(getattr(k, "value", k)) for k in (kind if isinstance(kind, list) else [kind])]
    permutations = env.op_ingredient_permutations
    return {
        "max_steps": int(env.max_steps),
        "agent_view_size": None if env.agent_view_size is None else int(env.agent_view_size),
        "random_reset": bool(env.random_reset),
        "random_agent_positions": bool(env.random_agent_positions),
        "start_cooking_interaction": bool(env.start_cooking_interaction),
        "negative_rewards": bool(env.negative_rewards),
        "sample_recipe_on_delivery": bool(env.sample_recipe_on_delivery),
        "indicate_successful_delivery": bool(env.indicate_successful_delivery),
        "op_ingredient_permutations": None if permutations is None else [int(i) for i in permutations],
        "initial_state_buffer": env.initial_state_buffer is not None,
        "observation_type": kinds_seen if isinstance(kind, list) else kinds_seen[0],
    }


def layout_name(layout: Any) -> str:
    """The name of an OvercookedV2 ``Layout`` among ``overcooked_v2_layouts`` (same tiles, starts and recipes),
    else ``"custom"``."""
    from jaxmarl.environments.overcooked_v2.layouts import overcooked_v2_layouts

    def key(value: Any) -> tuple:
        return (np.asarray(value.static_objects).tolist(), [list(p) for p in value.agent_positions],
                sorted(sorted(r) for r in value.possible_recipes))

    mine = key(layout)
    return next((name for name, known in overcooked_v2_layouts.items() if key(known) == mine), "custom")


def v2_arrays(env: Any, states: Sequence[Any], actions: Sequence[Any], rewards: Sequence[Any]) -> dict[str, np.ndarray]:
    """The arrays of an OvercookedV2 rollout (what ``save_rollout`` writes for one)."""
    layout = env.layout

    def field(name: str, state: Any) -> np.ndarray:
        agents = state.agents
        if name == "agent_pos":
            return np.stack([np.asarray(agents.pos.x), np.asarray(agents.pos.y)], axis=-1)
        if name == "agent_dir":
            return np.asarray(agents.dir)
        if name == "agent_inv":
            return np.asarray(agents.inventory)
        return np.asarray(getattr(state, name))

    arrays = {name: np.stack([field(name, s) for s in states]) for name in STATE_FIELDS} if states else {}
    return {
        "format": np.array(FORMAT_V2),
        "layout": np.array(layout_name(layout)),
        "static": np.asarray(layout.static_objects, dtype=np.int64),
        "starts": np.array(layout.agent_positions, dtype=np.int64).reshape(-1, 2),
        "possible_recipes": np.array(layout.possible_recipes, dtype=np.int64).reshape(-1, MAX_INGREDIENTS),
        "options": np.array(json.dumps(env_options(env))),
        "actions": joint_actions(env, actions),
        "rewards": step_rewards(env, rewards),
        **arrays,
    }


@dataclass(frozen=True)
class Episode:
    """A checked OvercookedV2 rollout: ``states[i]`` --``actions[i]``--> ``states[i + 1]``.

    ``states`` has one more entry than ``actions``, or as many when the file's last state was
    ``env.step``'s auto-reset one (dropped: the last step is then followed by the rules alone).
    ``steps`` are the states' step counters.
    """

    source: str
    layout: V2Layout
    options: dict[str, Any]
    states: list[KitchenState]
    steps: list[int]
    actions: list[tuple[int, ...]]
    rewards: list[float]


def _array(arrays: dict[str, np.ndarray], key: str, shape: tuple[int | None, ...], source: str,
           kinds_allowed: str = "iub") -> np.ndarray:
    """``arrays[key]`` checked against ``shape`` (None: any length) and numeric kinds."""
    value = arrays.get(key)
    if value is None:
        raise StripsIntError(source, None, f"the rollout has no {key!r} array")
    if value.dtype.kind not in kinds_allowed or value.ndim != len(shape) or any(
            n is not None and n != m for n, m in zip(shape, value.shape)):
        raise StripsIntError(source, None, f"{key!r} must be a numeric array of shape "
                             f"{tuple('N' if n is None else n for n in shape)}, found {value.dtype} {value.shape}")
    return value


def read_episode(arrays: dict[str, np.ndarray], source: str) -> Episode:
    """The checked episode of a rollout's arrays; a misfit is one error naming the array or state."""
    layout = _layout(arrays, source)
    options = _options(arrays, source)
    height, width = len(layout.static), len(layout.static[0])
    agents = len(layout.starts)
    fields = {key: _array(arrays, key, shape, source).astype(np.int64) for key, shape in (
        ("agent_pos", (None, agents, 2)), ("agent_dir", (None, agents)), ("agent_inv", (None, agents)),
        ("grid", (None, height, width, 3)), ("recipe", (None,)), ("new_correct_delivery", (None,)), ("step", (None,)))}
    actions = _array(arrays, "actions", (None, agents), source)
    rewards = _array(arrays, "rewards", (len(actions),), source, "iuf").astype(np.float64)
    if not np.isfinite(rewards).all():
        raise StripsIntError(source, f"step {int(np.flatnonzero(~np.isfinite(rewards))[0])}", "the reward is not finite")
    bad = np.flatnonzero((actions < 0).any(axis=1) | (actions > 5).any(axis=1))
    if len(bad):
        raise StripsIntError(source, f"step {int(bad[0])}", f"actions {actions[bad[0]].tolist()}: each must be one "
                             "of OvercookedV2's 0-5 (right, down, left, up, stay, interact)")
    count = len(fields["step"])
    if count == 0 or any(len(value) != count for value in fields.values()):
        raise StripsIntError(source, None, f"the state arrays ({', '.join(STATE_FIELDS)}) must have one equal, "
                             "non-zero length")
    steps = fields["step"]
    count = kept_states(steps, len(actions), source)
    grid = fields["grid"][:count]
    moved = np.argwhere(grid[..., 0] != np.array(layout.static))
    if len(moved):
        t, y, x = (int(n) for n in moved[0])
        raise StripsIntError(source, f"state {t}", f"the grid shows tile code {grid[t, y, x, 0]} at {(x, y)}, where "
                             f"the layout has {layout.static[y][x]}")
    states = _states(fields, grid, count)
    check_state(layout, states[0], source, "state 0")
    if states[0].correct:
        raise StripsIntError(source, "state 0", "its delivery flag (new_correct_delivery) is set, but no step came "
                             "before the first state")
    return Episode(source, layout, options, states, steps[:count].tolist(), [tuple(a) for a in actions.tolist()],
                   rewards.tolist())


def _layout(arrays: dict[str, np.ndarray], source: str) -> V2Layout:
    static = _array(arrays, "static", (None, None), source).astype(np.int64)
    starts = _array(arrays, "starts", (None, 2), source).astype(np.int64)
    recipes = _array(arrays, "possible_recipes", (None, MAX_INGREDIENTS), source).astype(np.int64)
    if static.size == 0 or not np.isin(static, list(_TILES)).all():
        raise StripsIntError(source, "static", "the layout must be a non-empty grid of OvercookedV2 tile codes")
    if len(starts) == 0 or len(recipes) == 0 or ((recipes < 0) | (recipes > 9)).any():
        raise StripsIntError(source, None, "the layout needs start cells and possible recipes of ingredient kinds 0-9")
    off = [(int(x), int(y)) for x, y in starts.tolist()
           if not (0 <= y < static.shape[0] and 0 <= x < static.shape[1] and static[y, x] == EMPTY)]
    if off:
        raise StripsIntError(source, "starts", f"start cell {off[0]} is not a floor cell of the "
                             f"{static.shape[1]} x {static.shape[0]} layout")
    if len({tuple(p) for p in starts.tolist()}) != len(starts):
        raise StripsIntError(source, "starts", "two agents start on one cell")
    return V2Layout(name=layout_name_of(arrays, source),
                    static=tuple(map(tuple, static.tolist())), starts=tuple(map(tuple, starts.tolist())),
                    recipes=tuple(tuple(sorted(r)) for r in recipes.tolist()))


def _options(arrays: dict[str, np.ndarray], source: str) -> dict[str, Any]:
    """The environment's options (JSON text, parsed, never evaluated), those of :data:`RULE_OPTIONS` typed."""
    text = arrays.get("options")
    try:
        options = json.loads(str(text)) if text is not None and text.dtype.kind == "U" and text.ndim == 0 else None
    except (ValueError, RecursionError):
        options = None
    if not isinstance(options, dict):
        raise StripsIntError(source, "options", "must be the environment's options as a JSON object")
    for key, kind in RULE_OPTIONS.items():
        value = options.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int) or (
                isinstance(value, int) and not isinstance(value, bool) and value < 0):
            raise StripsIntError(source, f"options {key}", f"found {brief(value)}, expected "
                                 f"{'true or false' if kind is bool else 'a whole number >= 0'}"
                                 f"{' or null' if isinstance(kind, tuple) else ''}")
    return options


def _states(fields: dict[str, np.ndarray], grid: np.ndarray, count: int) -> list[KitchenState]:
    """The kitchen states of the arrays' first ``count`` states."""
    positions, facing, held = (fields[k][:count].tolist() for k in ("agent_pos", "agent_dir", "agent_inv"))
    recipes, correct = fields["recipe"][:count].tolist(), fields["new_correct_delivery"][:count].tolist()
    layers: list[list[dict[tuple[int, int], int]]] = []
    for channel in (1, 2):  # each channel's nonzero cells, grouped by state (one pass over them all)
        by_state: list[dict[tuple[int, int], int]] = [{} for _ in range(count)]
        t, y, x = np.nonzero(grid[..., channel])
        for ti, yi, xi, code in zip(t.tolist(), y.tolist(), x.tolist(), grid[t, y, x, channel].tolist()):
            by_state[ti][(xi, yi)] = code
        layers.append(by_state)
    return [KitchenState(tuple(Agent((p[0], p[1]), d, h) for p, d, h in zip(positions[t], facing[t], held[t])),
                         layers[0][t], layers[1][t], recipes[t], bool(correct[t])) for t in range(count)]


def _hand_code(code: int) -> bool:
    """Whether an agent or a counter can hold ``code``: a plate, one ingredient, or a plated cooked soup."""
    if not 0 <= code <= MAX_CODE:
        return False
    size = len(kinds(code))
    return code in (0, PLATE) or (is_ingredient(code) and not code & COOKED and size == 1) or (
        code & PLATE and code & COOKED and 1 <= size <= MAX_INGREDIENTS)


def check_state(layout: V2Layout, state: KitchenState, source: str, where: str) -> None:
    """A state must fit the layout: agents on distinct floor cells facing a direction, holding what a hand
    holds; objects on counters and pots; timers on cooking pots (up to 20) and buttons (up to 10);
    a possible recipe."""
    height, width = len(layout.static), len(layout.static[0])

    def tile(pos: tuple[int, int]) -> int | None:
        return layout.static[pos[1]][pos[0]] if 0 <= pos[0] < width and 0 <= pos[1] < height else None

    for j, agent in enumerate(state.agents):
        if tile(agent.pos) != EMPTY or not 0 <= agent.facing < 4 or not _hand_code(agent.held):
            raise StripsIntError(source, where, f"agent {j} at {agent.pos} (tile {tile(agent.pos)}), direction "
                                 f"{agent.facing}, holding code {agent.held}: not a floor cell, a direction 0-3 "
                                 "and what a hand holds")
    if len({a.pos for a in state.agents}) != len(state.agents):
        raise StripsIntError(source, where, "two agents stand on one cell")
    for pos, code in state.items.items():
        fits = _hand_code(code) if tile(pos) == WALL else (
            tile(pos) == POT and 0 <= code <= MAX_CODE and not code & PLATE and 1 <= len(kinds(code)) <= MAX_INGREDIENTS)
        if not fits:
            raise StripsIntError(source, where, f"object code {code} ({describe(code)}) at {pos}, on tile "
                                 f"{tile(pos)}: not what a counter or a pot holds")
    for pos, left in state.timers.items():
        soup = state.items.get(pos, 0)
        cooking = tile(pos) == POT and 0 < left <= COOK_TIME and soup and not soup & COOKED
        if not (cooking or (tile(pos) == BUTTON and 0 < left <= INDICATOR_TIME)):
            raise StripsIntError(source, where, f"timer {left} at {pos}, on tile {tile(pos)}: not a cooking pot "
                                 f"(1-{COOK_TIME}) or a lit button (1-{INDICATOR_TIME})")
    if state.recipe not in {recipe_code(r) for r in layout.recipes}:
        raise StripsIntError(source, where, f"recipe code {state.recipe} ({describe(state.recipe)}) is not one of "
                             "the layout's possible recipes")
