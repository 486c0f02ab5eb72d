"""Rollouts of jaxmarl's Overcooked for ``test_jaxmarl.py``, made in their own process.

``python tests/jaxmarl_rollouts.py OUTDIR`` writes the rollouts the tests read
and ``facts.json`` (what the in-memory reader and ``start_problem`` give).
The tests run it as a subprocess so that pytest's own process never imports
jax: jax is multithreaded, and other tests fork (``evaluate --jobs``).
"""

from __future__ import annotations

import functools
import json
import sys
import warnings
from pathlib import Path

import jax
import jaxmarl
import numpy as np
from jaxmarl.environments.overcooked.layouts import overcooked_layouts

from strips_int import load_domain
from strips_int.grounders.jaxmarl import GROUNDER, rollout_trace, save_rollout

DOMAIN = Path(__file__).resolve().parents[1] / "domains" / "overcooked.pddl"
UP, DOWN, RIGHT, LEFT, STAY, INTERACT = range(6)
#: A random policy biased to interact (half the time), the rest spread over moves and stay.
BIASED = np.array([0.1, 0.1, 0.1, 0.1, 0.1, 0.5])
#: The random rollouts the tests check: layout and seed.
RANDOM = [(layout, seed) for layout in ("cramped_room", "forced_coord") for seed in (0, 1)]


@functools.cache
def make_env(layout: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # jaxmarl suggests OvercookedV2
        return jaxmarl.make("overcooked", layout=overcooked_layouts[layout])


@functools.cache
def compiled(env):
    """``env.reset`` and a whole rollout of ``env.step`` (auto-reset included) in one ``lax.scan``, jitted once."""

    def turn(carry, joint):
        key, state = carry
        key, sub = jax.random.split(key)
        _, state, reward, _, _ = env.step(sub, state, dict(zip(env.agents, joint)))
        return (key, state), (state, reward[env.agents[0]])

    return jax.jit(env.reset), jax.jit(lambda key, state, policy: jax.lax.scan(turn, (key, state), policy)[1])


def play(env, seed: int, policy):
    """A rollout of ``env`` under ``policy`` (joint actions): the states (reset's first), joint actions, rewards."""
    reset, rollout = compiled(env)
    key, sub = jax.random.split(jax.random.PRNGKey(seed))
    _, first = reset(sub)
    stacked, rewards = rollout(key, first, jax.numpy.asarray(policy, dtype=jax.numpy.int32))
    stacked = jax.tree.map(np.asarray, stacked)
    states = [first] + [jax.tree.map(lambda x, i=i: x[i], stacked) for i in range(len(policy))]
    return states, [[int(a) for a in joint] for joint in policy], [float(r) for r in np.asarray(rewards)]


def random_policy(seed: int, steps: int = 400) -> np.ndarray:
    return np.random.default_rng(seed).choice(6, size=(steps, 2), p=BIASED)


def counter_handover() -> list[tuple[int, int]]:
    """cramped_room: agent 1 cooks and delivers one soup; one of its onions agent 0 fetched and left on a counter.

    Grid (x right, y down): pot (2,0); onion piles (0,1), (4,1); plate pile (1,3); goal (3,3); agent 0
    starts at (1,1), agent 1 at (3,1). A move into a wall only turns the agent, which sets what it faces.
    """
    agent0 = [LEFT, INTERACT, UP, INTERACT, DOWN, RIGHT]  # onion from (0,1) onto counter (1,0); park at (2,2)
    agent1 = [RIGHT, INTERACT, LEFT, UP, INTERACT,  # onion 1 from (4,1) into the pot
              RIGHT, RIGHT, INTERACT, LEFT, UP, INTERACT,  # onion 2
              LEFT, UP, INTERACT, RIGHT, UP, INTERACT,  # agent 0's onion from counter (1,0): pot full, cooks
              LEFT, DOWN, DOWN, INTERACT, UP, RIGHT, UP]  # a plate from (1,3), back to face the pot
    agent1 += [STAY] * 14 + [INTERACT, RIGHT, DOWN, DOWN, INTERACT]  # cooked: plate the soup, deliver at (3,3)
    agent0 += [STAY] * (len(agent1) - len(agent0))
    return list(zip(agent0, agent1))


def main(out: Path) -> None:
    for layout, seed in RANDOM:
        env = make_env(layout)
        save_rollout(out / f"{layout}_{seed}.npz", env, *play(env, seed, random_policy(seed)))
    env = make_env("cramped_room")
    save_rollout(out / "handover.npz", env, *play(env, 7, counter_handover()))
    env = make_env("forced_coord")
    states, actions, rewards = play(env, 3, random_policy(3, 60))
    save_rollout(out / "memory.npz", env, states, actions, rewards)
    domain = load_domain(DOMAIN)
    as_dicts = [dict(zip(env.agents, joint)) for joint in actions]  # what env.step takes and returns
    trace = rollout_trace(states, as_dicts, [{a: r for a in env.agents} for r in rewards], env, domain)
    start = GROUNDER.start_problem("forced_coord", domain)
    facts = {
        "memory_steps": [step.describe() for step in trace.steps],
        "start_forced_coord_at": sorted(" ".join(f) for f in start.init if f[0] == "at"),
        "start_prefixed_name": GROUNDER.start_problem("jaxmarl:cramped_room", domain).name,
        "start_unknown": GROUNDER.start_problem("no_such_layout", domain),
    }
    (out / "facts.json").write_text(json.dumps(facts))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
