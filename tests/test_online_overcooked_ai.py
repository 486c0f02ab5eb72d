"""overcooked-ai's environment wrapped (``strips_int.grounders.overcooked.online``): a full 400-step episode of
random agents gives, step by step, what the online analysis of the same episode gives once saved with
overcooked-ai's own saver and read back through the grounder (docs/definitions.md section 15)."""

from __future__ import annotations

import random

import pytest

from strips_int import load_domain, read_games
from strips_int.online import Online

pytest.importorskip("overcooked_ai_py")


@pytest.fixture
def overcooked_ai(monkeypatch):
    """overcooked-ai's environment module and saver (overcooked-ai 1.1.0 names ``np.Inf``, gone from numpy 2)."""
    import numpy as np

    monkeypatch.setattr(np, "Inf", np.inf, raising=False)
    from overcooked_ai_py.agents.benchmarking import AgentEvaluator
    from overcooked_ai_py.mdp.actions import Action
    from overcooked_ai_py.mdp.overcooked_env import OvercookedEnv
    from overcooked_ai_py.mdp.overcooked_mdp import OvercookedGridworld

    return OvercookedGridworld, OvercookedEnv, Action, AgentEvaluator


def episode(overcooked_ai, layout: str, seed: int, interact: float = 1 / 6, shaping=None):
    """A 400-step episode of two random agents (each interacting with probability ``interact``, else moving or
    staying uniformly) in the wrapped environment: the wrapper, its infos and rewards, and the trajectories as
    overcooked-ai's ``get_rollouts`` makes them."""
    import numpy as np

    from strips_int.grounders.overcooked.online import OnlineOvercooked

    gridworld, environment, action, _ = overcooked_ai
    mdp = gridworld.from_layout_name(layout)
    env = OnlineOvercooked(environment.from_mdp(mdp, horizon=400, info_level=0), shaping=shaping)
    env.reset()
    rng = random.Random(seed)
    rows, done = [], False
    while not done:
        before = env.state
        joint = tuple("interact" if rng.random() < interact else rng.choice(action.ALL_ACTIONS[:5]) for _ in "ab")
        _, reward, done, info = env.step(joint)
        rows.append((before, joint, reward, done, info))
    table = np.array(rows, dtype=object)
    sparse = sum(reward for _, _, reward, *_ in rows)
    trajectories = {"ep_states": [table.T[0]], "ep_actions": [table.T[1]],
                    "ep_rewards": [table.T[2]],
                    "ep_dones": [table.T[3]], "ep_infos": [table.T[4]], "ep_returns": [sparse], "ep_lengths": [400],
                    "mdp_params": [mdp.mdp_params], "env_params": [env.env_params], "metadatas": {}}
    return env, rows, {key: np.array(value) if key != "metadatas" else value for key, value in trajectories.items()}


def told(step_results) -> list[tuple]:
    """Each interdependence as a step tells it: giver and receiver (t, action), facts, objects."""
    return [(item["giver"]["t"], item["giver"]["action"], item["receiver"]["t"], item["receiver"]["action"],
             tuple(item["facts"]), tuple(item["objects"])) for item in step_results]


@pytest.mark.parametrize("layout, seed, interact", [("cramped_room", 0, 1 / 6), ("forced_coordination", 3, 0.5),
                                                    ("coordination_ring", 1, 0.5)])
def test_wrapped_episode_info_is_the_online_analysis_of_the_saved_episode(overcooked_ai, tmp_path, layout, seed,
                                                                          interact):
    env, rows, trajectories = episode(overcooked_ai, layout, seed, interact)
    assert len(rows) == 400 and rows[-1][3]
    saved = tmp_path / "episode.json"
    overcooked_ai[3].save_traj_as_json(trajectories, str(saved))

    domain = load_domain("overcooked")
    [trace] = list(read_games(domain, saved))
    online = Online(domain, trace.problem, trace.source, trace.meta)
    stepped = [online.step(step.action, step.t) for step in trace.steps]
    replayed = [item for result in stepped for item in result.to_dict()["interdependencies"]]
    live = [item for *_, info in rows for item in info["interdependencies"]]
    assert live
    # The saver keeps the state before each joint action, not the one after the last: of the last joint action
    # a file holds only a delivery (which the reward shows), the wrapper all of it.
    last = len(rows) - 1
    assert told(replayed) == told(i for i in live if i["receiver"]["t"] < last) + told(
        i for i in replayed if i["receiver"]["t"] == last)
    assert set(told(i for i in replayed if i["receiver"]["t"] == last)) <= set(told(live))
    for kind in ("subtasks", "triggers"):
        wrapped = sorted((t, agent) for t, (*_, info) in enumerate(rows[:last]) for agent in info[kind])
        read = sorted((s.t, s.agent) for s, result in zip(trace.steps, stepped) if s.t < last
                      and getattr(result, kind.removesuffix("s")))
        assert wrapped == read, kind
    ended, batch = rows[-1][4]["interdependence_report"], online.finish().to_dict()
    assert ended["goal"] == batch["goal"]
    if [str(s.action) for s in env.online.steps if s.t == last] == [str(s.action) for s in trace.steps if s.t == last]:
        assert {k: ended[k] for k in ("counts", "agents", "interdependencies")} == {
            k: batch[k] for k in ("counts", "agents", "interdependencies")}


def test_shaped_reward_adds_the_weighted_interdependences_and_constructive_ones_at_the_end(overcooked_ai):
    from strips_int.grounders.overcooked.online import Shaping

    weights = Shaping(interdependence=0.5, constructive=3.0, block=1.0)
    _, plain, _ = episode(overcooked_ai, "coordination_ring", 1, 0.5)
    _, shaped, _ = episode(overcooked_ai, "coordination_ring", 1, 0.5, shaping=weights)
    assert [row[1] for row in shaped] == [row[1] for row in plain]  # the same episode
    for (*_, reward, done, info), (_, _, base, _, plain_info) in zip(shaped, plain):
        assert info["interdependencies"] == plain_info["interdependencies"]
        bonus = 0.5 * len(info["interdependencies"])
        if done:
            bonus += 3.0 * info["interdependence_report"]["counts"]["constructive"]
        assert info["interdependence_reward"] == bonus and reward == base + bonus
    assert sum(info["interdependence_reward"] for *_, info in shaped) > 0
    assert "interdependence_reward" not in plain[-1][4]
