"""Hill-climbing a simple policy in overcooked-ai's cramped_room, with and without the interdependence reward.

    .venv/bin/python examples/online/hill_climb.py [--iterations 100] [--seed 0]

A demonstration of ``strips_int.grounders.overcooked.online.OnlineOvercooked`` in a training loop, not a
result: both players share one policy, a table of action preferences (softmax) by what the player holds
(nothing, onion, dish, soup) and whether it faces floor or a station. Each iteration perturbs the table and
keeps the perturbation when an episode of 400 steps scores at least as well: by the environment's reward
alone, or by it plus the shaped reward (``Shaping``: per interdependence at its step, per constructive one at
the end). Printed: per iteration the kept score, and at the end the interdependences and constructive ones per
episode of each policy over a few fresh episodes. CPU only; about a minute.

overcooked-ai 1.1.0 names ``np.Inf``, gone from numpy 2: set back here before it is imported.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from strips_int.grounders.overcooked.online import OnlineOvercooked, Shaping

HELD = {None: 0, "onion": 1, "dish": 2, "soup": 3}


def features(mdp, player) -> int:
    """The policy's context: what the player holds (4) times whether it faces a station (2)."""
    x, y = player.position
    dx, dy = player.orientation
    faces = mdp.get_terrain_type_at_pos((x + dx, y + dy)) != " "
    held = HELD.get(player.held_object.name if player.held_object else None, 0)
    return 2 * held + int(faces)


def play(env, table: np.ndarray, rng: np.random.Generator) -> dict[str, float]:
    """One episode with the policy ``table`` (contexts x 6 preferences): the environment's reward, the shaped
    return, interdependences and constructive ones."""
    from overcooked_ai_py.mdp.actions import Action

    env.reset()
    probabilities = np.exp(table) / np.exp(table).sum(axis=1, keepdims=True)
    sparse = shaped = 0.0
    done = False
    while not done:
        joint = tuple(Action.ALL_ACTIONS[rng.choice(6, p=probabilities[features(env.mdp, player)])]
                      for player in env.state.players)
        _, reward, done, info = env.step(joint)
        shaped += reward
        sparse += sum(info["sparse_r_by_agent"])
    counts = info["interdependence_report"]["counts"]
    return {"sparse": sparse, "shaped": shaped, "interdependencies": counts["interdependencies"],
            "constructive": counts["constructive"]}


def climb(env, iterations: int, seed: int, shaped: bool) -> np.ndarray:
    """The policy table kept after ``iterations`` perturbations, scoring by the shaped return or the reward."""
    rng = np.random.default_rng(seed)
    table = np.zeros((8, 6))
    key = "shaped" if shaped else "sparse"
    best = play(env, table, rng)[key]
    for iteration in range(iterations):
        trial = table + rng.normal(scale=0.5, size=table.shape)
        score = play(env, trial, rng)[key]
        if score >= best:
            table, best = trial, score
        if iteration % 10 == 9:
            print(f"  {'shaped' if shaped else 'plain '} iteration {iteration + 1}: kept score {best:.1f}", flush=True)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--episodes", type=int, default=5, help="fresh episodes to evaluate each policy on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    np.Inf = np.inf  # type: ignore[attr-defined]  # overcooked-ai 1.1.0 under numpy 2
    from overcooked_ai_py.mdp.overcooked_env import OvercookedEnv
    from overcooked_ai_py.mdp.overcooked_mdp import OvercookedGridworld

    mdp = OvercookedGridworld.from_layout_name("cramped_room")
    weights = Shaping(interdependence=1.0, constructive=5.0, block=1.0)
    for shaped in (False, True):
        env = OnlineOvercooked(OvercookedEnv.from_mdp(mdp, horizon=400, info_level=0),
                               shaping=weights if shaped else None)
        table = climb(env, args.iterations, args.seed, shaped)
        rng = np.random.default_rng(args.seed + 1000)
        runs = [play(env, table, rng) for _ in range(args.episodes)]
        print(f"{'with' if shaped else 'without'} shaping: per episode, reward "
              f"{statistics.mean(r['sparse'] for r in runs):.1f}, interdependences "
              f"{statistics.mean(r['interdependencies'] for r in runs):.1f}, constructive "
              f"{statistics.mean(r['constructive'] for r in runs):.1f} (mean of {args.episodes})", flush=True)


if __name__ == "__main__":
    main()
