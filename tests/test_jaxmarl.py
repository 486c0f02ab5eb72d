"""JaxMARL Overcooked: rollouts of jaxmarl itself saved, read back (without jax) and lifted.

The rollouts are made by ``jaxmarl_rollouts.py`` in a process of their own
(this one never imports jax; see there why). Skipped when the ``jaxmarl``
extra is not installed (CI installs it).
"""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from strips_int import analyze, load_domain
from strips_int.errors import StripsIntError
from strips_int.grounders import Head, kind_of
from strips_int.grounders.jaxmarl import GROUNDER, read_rollout

from helpers import ROOT, check_without_jax, child_rollouts, needs_jaxmarl, npz_arrays, refused_moves

pytestmark = needs_jaxmarl

DOMAIN = ROOT / "domains" / "overcooked.pddl"
RANDOM = [(layout, seed) for layout in ("cramped_room", "forced_coord") for seed in (0, 1)]


@pytest.fixture(scope="module")
def domain():
    return load_domain(DOMAIN)


@pytest.fixture(scope="module")
def rollouts(tmp_path_factory):
    """The folder of rollouts and ``facts.json`` that ``jaxmarl_rollouts.py`` writes."""
    return child_rollouts("jaxmarl_rollouts.py", tmp_path_factory.mktemp("jaxmarl"))


@pytest.mark.parametrize(("layout", "seed"), RANDOM)
def test_random_rollout_grounds_and_delivers_as_rewarded(layout, seed, domain, rollouts):
    path = rollouts / f"{layout}_{seed}.npz"
    assert GROUNDER.recognizes(Head.of(path))
    trace = read_rollout(path, domain)
    with np.load(path, allow_pickle=False) as data:
        total, steps, states = float(data["rewards"].sum()), len(data["actions"]), len(data["step"])
    assert (steps, states) == (400, 401)  # the last state is env.step's auto-reset one
    delivered = [s for s in trace.steps if s.action.name == "deliver"]
    assert len(delivered) == total / 20
    assert len(trace.problem.goal) == len(delivered)
    assert trace.meta["layout"] == layout and trace.meta["reward"] == total
    assert {s.action.name for s in trace.steps} >= {"move", "take-onion", "put", "take"}
    analyze(domain, trace)


@pytest.mark.parametrize("seed", [0, 1])
def test_refused_moves_of_a_rollout_are_its_attempts_and_collisions_two_blocks(seed, domain, rollouts):
    # Counted from the saved arrays alone: a move (actions 0-3: up, down, right, left) to a floor cell after
    # which the agent stands where it stood; both refused towards one cell or each other's: a collision.
    path = rollouts / f"cramped_room_{seed}.npz"
    with np.load(path, allow_pickle=False) as data:
        grid, actions, pos = [str(row) for row in data["grid"]], data["actions"], data["agent_pos"].tolist()
    refused, collisions = refused_moves(actions, pos, {0: (0, -1), 1: (0, 1), 2: (1, 0), 3: (-1, 0)},
                                        lambda x, y: grid[y][x] in " 12")
    report = analyze(domain, read_rollout(path, domain))
    assert [a.action.name for a in report.attempts] == ["move"] * refused and refused > 0
    assert sum(b.collision for b in report.blocks) == 2 * collisions


def test_counter_handover_is_one_constructive_interdependence(domain, rollouts):
    trace = read_rollout(rollouts / "handover.npz", domain)
    report = analyze(domain, trace)
    assert trace.meta["reward"] == 20
    assert [s.action.name for s in trace.steps if s.action.name in ("put", "take")] == ["put", "take"]
    assert report.counts["constructive"] == 1 and report.counts["interdependencies"] == 1
    (inter,) = report.interdependencies
    giver, receiver = inter.giver, inter.receiver
    assert (giver.action.name, giver.agent, receiver.action.name, receiver.agent) == (
        "put", "player0", "take", "player1")
    assert report.achieved >= report.goal and len(report.goal) == 1


def test_memory_reader_matches_the_file(domain, rollouts):
    from_file = read_rollout(rollouts / "memory.npz", domain)
    facts = json.loads((rollouts / "facts.json").read_text())
    assert [s.describe() for s in from_file.steps] == facts["memory_steps"]
    assert len(from_file.steps) > 20


def test_a_state_that_does_not_follow_names_its_step(domain, rollouts, tmp_path):
    arrays = npz_arrays(rollouts / "handover.npz")
    last = len(arrays["actions"]) - 1
    np.savez(tmp_path / "unpaid.npz", **{**arrays, "rewards": np.zeros(last + 1)})  # the delivery went unrewarded
    with pytest.raises(StripsIntError, match=rf"unpaid.npz: step {last}: logged reward 0, but the step delivers 1 soup"):
        read_rollout(tmp_path / "unpaid.npz", domain)
    inventory = arrays["agent_inv"].copy()
    inventory[5] = [1, 9]  # agent 1 suddenly holds a plated soup
    np.savez(tmp_path / "jump.npz", **{**arrays, "agent_inv": inventory})
    with pytest.raises(StripsIntError, match=r"jump.npz: step 4 \(player 1\): cannot explain player 1.s change"):
        read_rollout(tmp_path / "jump.npz", domain)


def test_a_rollout_missing_an_array_is_one_clear_error(domain, rollouts, tmp_path):
    arrays = npz_arrays(rollouts / "handover.npz")
    np.savez(tmp_path / "cut.npz", **{k: v for k, v in arrays.items() if k != "maze_map"})
    assert GROUNDER.recognizes(Head.of(tmp_path / "cut.npz"))
    (result,) = GROUNDER.read(tmp_path / "cut.npz", domain)
    assert isinstance(result, StripsIntError) and str(result).endswith("cut.npz: the rollout has no 'maze_map' array")


def test_check_reads_a_rollout_without_jax(rollouts):
    printed = check_without_jax(DOMAIN, rollouts / "handover.npz")
    assert "goal: 1/1 facts reached" in printed and "constructive 1" in printed


def test_a_damaged_archive_is_one_clear_error(domain, rollouts, tmp_path):
    data = bytearray((rollouts / "handover.npz").read_bytes())
    data[len(data) // 3: len(data) // 3 + 64] = bytes(64)  # zeros inside a compressed member
    (tmp_path / "damaged.npz").write_bytes(bytes(data))
    with pytest.raises(StripsIntError, match=r"damaged.npz: cannot read as a numpy .npz archive"):
        read_rollout(tmp_path / "damaged.npz", domain)


def test_other_files_are_not_rollouts(tmp_path):
    plain = tmp_path / "plain.npz"
    np.savez(plain, x=np.arange(3))
    assert not GROUNDER.recognizes(Head.of(plain))
    assert kind_of(tmp_path / "missing.npz") is None
    assert not GROUNDER.recognizes(Head.of(DOMAIN))


def test_a_rollout_is_told_by_its_start_as_np_load_tells_an_archive(rollouts, tmp_path):
    """A rollout behind a prefix is still a zip (its directory is at the end) but not an archive np.load
    opens, so not a rollout; the recognizer looks at the first 4 bytes of other files' heads."""
    data = (rollouts / "handover.npz").read_bytes()
    assert GROUNDER.recognizes(Head.of(rollouts / "handover.npz"))
    (tmp_path / "prefixed.npz").write_bytes(b"#!/bin/sh\n" + data)
    assert zipfile.is_zipfile(tmp_path / "prefixed.npz")
    assert not GROUNDER.recognizes(Head.of(tmp_path / "prefixed.npz"))
    with pytest.raises(StripsIntError, match="cannot read as a numpy .npz archive"):
        read_rollout(tmp_path / "prefixed.npz", load_domain(DOMAIN))


def test_start_problem_by_jaxmarl_layout_name(rollouts):
    facts = json.loads((rollouts / "facts.json").read_text())
    assert facts["start_forced_coord_at"] == ["at player0 c1_2", "at player1 c3_1"]
    assert facts["start_prefixed_name"] == "overcooked-cramped_room"
    assert facts["start_unknown"] is None


def test_an_unknown_name_after_the_jaxmarl_prefix_names_jaxmarls_layouts(domain):
    with pytest.raises(StripsIntError, match=r"^layout 'jaxmarl:cramped_rom': unknown JaxMARL Overcooked layout "
                                             r"'cramped_rom'; did you mean cramped_room\? \(\d+ known: .*forced_coord"):
        GROUNDER.start_problem("jaxmarl:cramped_rom", domain)
