"""What every JaxMARL rollout file records the same way, Overcooked or OvercookedV2 (:mod:`.rollout`,
:mod:`.v2_rollout`): its format tag, joint actions, per-step rewards and step counters."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from strips_int.errors import StripsIntError

#: The format tag stored in every rollout file (its ``format`` array): Overcooked, and OvercookedV2
#: (:mod:`.v2_rollout`).
FORMAT = "strips-int/jaxmarl-overcooked/1"
FORMAT_V2 = "strips-int/jaxmarl-overcooked-v2/1"
FORMATS = (FORMAT, FORMAT_V2)
#: The most joint actions a rollout may have (JaxMARL's episodes are 400 steps by default): a longer
#: one is refused before its arrays are unpacked, as hanab.live games are past 10,000 actions; a rollout
#: takes some 1-2 KiB of memory per step while it is read and lifted.
MAX_STEPS = 50_000
#: The longest layout name a file may give (JaxMARL's are short; the name is carried into every report).
MAX_LAYOUT_NAME = 100


def unwrapped(state: Any) -> Any:
    """The environment's state inside a wrapper's (``env_state``, however deep)."""
    while hasattr(state, "env_state"):
        state = state.env_state
    return state


def joint_actions(env: Any, actions: Sequence[Any]) -> np.ndarray:
    """Joint actions as integers in ``env.agents`` order, one row per step (a dict keyed by agent, as
    ``env.step`` takes it, or a sequence)."""
    agents = list(env.agents)
    rows = [[int(a[name]) for name in agents] if isinstance(a, Mapping) else [int(x) for x in a] for a in actions]
    return np.array(rows, dtype=np.int64).reshape(len(actions), len(agents))


def step_rewards(env: Any, rewards: Sequence[Any]) -> np.ndarray:
    """Per-step rewards, a number or the dict ``env.step`` returns (its agents share it: the first agent's)."""
    first = env.agents[0]
    return np.array([float(r[first]) if isinstance(r, Mapping) else float(r) for r in rewards], dtype=np.float64)


def layout_name_of(arrays: Mapping[str, np.ndarray], source: str) -> str:
    """The layout's name a rollout records (its ``layout`` array: text of 1 to :data:`MAX_LAYOUT_NAME`
    characters), ``"custom"`` when it records none."""
    name = arrays.get("layout")
    if name is None:
        return "custom"
    if name.dtype.kind != "U" or name.ndim != 0 or not 0 < len(str(name)) <= MAX_LAYOUT_NAME:
        found = (f"text of {len(str(name)):,} characters" if name.dtype.kind == "U" and name.ndim == 0
                 else f"a {name.dtype} array of shape {name.shape}")
        raise StripsIntError(source, "layout", f"the layout's name must be text of 1 to {MAX_LAYOUT_NAME} "
                             f"characters, found {found}")
    return str(name)


def check_length(actions: int, states: int, source: str) -> None:
    """A rollout of ``actions`` joint actions and ``states`` states must be within :data:`MAX_STEPS`."""
    if actions > MAX_STEPS or states > MAX_STEPS + 1:
        found = f"{actions:,} joint actions" if actions > MAX_STEPS else f"{states:,} states"
        raise StripsIntError(source, None, f"{found}; a rollout of at most {MAX_STEPS:,} steps is read")


def kept_states(steps: np.ndarray, actions: int, source: str) -> int:
    """How many of a rollout's states (``steps``: their step counters) to read for ``actions`` joint actions.

    One more state than actions; ``env.step`` replaces the state after an episode's last step by a fresh
    ``reset`` one (counter back to 0), which is dropped, so the last joint action then has no following
    state. The counters kept must run on by one: one episode per file.
    """
    count = len(steps)
    check_length(actions, count, source)
    if count > 1 and count == actions + 1 and steps[-1] == 0 and steps[-2] == actions - 1 + steps[0]:
        count -= 1  # the auto-reset state after the episode's end
    elif count != actions + 1:
        raise StripsIntError(source, None, f"{count} states for {actions} joint actions: expected one more "
                             "state than actions")
    bad = np.flatnonzero(steps[:count] != steps[0] + np.arange(count))
    if len(bad):
        t = int(bad[0])
        why = ": a new episode began (env.step resets at the episode's end); save one episode per file" \
            if steps[t] == 0 else ""
        raise StripsIntError(source, f"state {t}", f"its step counter is {steps[t]}, expected {steps[0] + t}{why}")
    return count
