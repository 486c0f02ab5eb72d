"""JaxMARL Overcooked: rollouts of jaxmarl itself saved, read back (without jax) and lifted.

Skipped when the ``jaxmarl`` extra is not installed (CI installs it).
"""

from __future__ import annotations

import functools
import subprocess
import sys
import warnings

import numpy as np
import pytest

from strips_int import analyze, load_domain
from strips_int.errors import StripsIntError
from strips_int.grounders.jaxmarl import GROUNDER, read_rollout, rollout_trace, save_rollout

from helpers import ROOT

jax = pytest.importorskip("jax")
pytest.importorskip("jaxmarl")

import jaxmarl  # noqa: E402
from jaxmarl.environments.overcooked.layouts import overcooked_layouts  # noqa: E402

DOMAIN = ROOT / "domains" / "overcooked.pddl"
UP, DOWN, RIGHT, LEFT, STAY, INTERACT = range(6)
#: A random policy biased to interact (half the time), the rest spread over moves and stay.
BIASED = np.array([0.1, 0.1, 0.1, 0.1, 0.1, 0.5])


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


@pytest.fixture(scope="module")
def domain():
    return load_domain(DOMAIN)


@pytest.mark.parametrize("layout", ["cramped_room", "forced_coord"])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_rollout_grounds_and_delivers_as_rewarded(layout, seed, domain, tmp_path):
    env = make_env(layout)
    states, actions, rewards = play(env, seed, random_policy(seed))
    path = save_rollout(tmp_path / f"{layout}.npz", env, states, actions, rewards)
    assert GROUNDER.recognizes(path)
    trace = read_rollout(path, domain)
    total = sum(rewards)
    delivered = [s for s in trace.steps if s.action.name == "deliver"]
    assert len(delivered) == total / 20
    assert len(trace.problem.goal) == len(delivered)
    assert trace.meta["layout"] == layout and trace.meta["reward"] == total
    # Every step of the 400 is accounted for by some lifted action or none (blocked, idle).
    assert max(s.t for s in trace.steps) <= 399
    analyze(domain, trace)


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


def test_counter_handover_is_one_constructive_interdependence(domain, tmp_path):
    env = make_env("cramped_room")
    states, actions, rewards = play(env, 7, counter_handover())
    assert sum(rewards) == 20
    trace = read_rollout(save_rollout(tmp_path / "handover.npz", env, states, actions, rewards), domain)
    report = analyze(domain, trace)
    assert [s.action.name for s in trace.steps if s.action.name in ("put", "take")] == ["put", "take"]
    assert report.counts["constructive"] == 1 and report.counts["interdependencies"] == 1
    (inter,) = report.interdependencies
    giver, receiver = trace.steps[inter.giver], trace.steps[inter.receiver]
    assert (giver.action.name, giver.agent, receiver.action.name, receiver.agent) == (
        "put", "player0", "take", "player1")
    assert report.achieved >= report.goal and len(report.goal) == 1


def test_memory_reader_matches_the_file(domain, tmp_path):
    env = make_env("forced_coord")
    states, actions, rewards = play(env, 3, random_policy(3, 60))
    from_file = read_rollout(save_rollout(tmp_path / "r.npz", env, states, actions, rewards), domain)
    as_dicts = [dict(zip(env.agents, joint)) for joint in actions]  # what env.step takes and returns
    in_memory = rollout_trace(states, as_dicts, [{a: r for a in env.agents} for r in rewards], env, domain)
    assert [s.action for s in from_file.steps] == [s.action for s in in_memory.steps]


def test_a_state_that_does_not_follow_names_its_step(domain, tmp_path):
    env = make_env("cramped_room")
    states, actions, rewards = play(env, 7, counter_handover())
    rewards[-1] = 0.0  # the delivery went unrewarded
    path = save_rollout(tmp_path / "bad.npz", env, states, actions, rewards)
    with pytest.raises(StripsIntError, match=rf"step {len(actions) - 1}: reward 0, but the states show 1 soup"):
        read_rollout(path, domain)
    states[5] = states[5].replace(agent_inv=np.array([1, 9]))  # agent 1 suddenly holds a soup
    path = save_rollout(tmp_path / "bad2.npz", env, states, actions, [20.0 * (t == len(actions) - 1)
                                                                           for t in range(len(actions))])
    with pytest.raises(StripsIntError, match=r"bad2.npz: step 4"):
        read_rollout(path, domain)


def test_check_reads_a_rollout_without_jax(domain, tmp_path):
    env = make_env("cramped_room")
    path = save_rollout(tmp_path / "game.npz", env, *play(env, 7, counter_handover()))
    code = ("import sys; sys.modules['jax'] = None; sys.modules['jaxmarl'] = None\n"
            "from strips_int.check import main; sys.exit(main())")
    done = subprocess.run([sys.executable, "-c", code, str(DOMAIN), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "game.npz" in done.stdout


def test_a_rollout_missing_an_array_is_one_clear_error(domain, tmp_path):
    env = make_env("cramped_room")
    path = save_rollout(tmp_path / "game.npz", env, *play(env, 7, counter_handover()))
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files if name != "maze_map"}
    np.savez(tmp_path / "cut.npz", **arrays)
    assert GROUNDER.recognizes(tmp_path / "cut.npz")
    (result,) = GROUNDER.read(tmp_path / "cut.npz", domain)
    assert isinstance(result, StripsIntError) and str(result).endswith("cut.npz: the rollout has no 'maze_map' array")


def test_other_files_are_not_rollouts(tmp_path):
    plain = tmp_path / "plain.npz"
    np.savez(plain, x=np.arange(3))
    assert not GROUNDER.recognizes(plain)
    assert not GROUNDER.recognizes(tmp_path / "missing.npz")
    assert not GROUNDER.recognizes(ROOT / "domains" / "overcooked.pddl")


def test_start_problem_by_jaxmarl_layout_name(domain):
    problem = GROUNDER.start_problem("forced_coord", domain)
    assert ("at", "player0", "c1_2") in problem.init and ("at", "player1", "c3_1") in problem.init
    assert GROUNDER.start_problem("jaxmarl:cramped_room", domain).name == "overcooked-cramped_room"
    assert GROUNDER.start_problem("no_such_layout", domain) is None
