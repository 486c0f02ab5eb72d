"""JaxMARL OvercookedV2: rollouts of jaxmarl itself saved, read back (without jax), replayed and lifted.

The rollouts are made by ``jaxmarl_v2_rollouts.py`` in a process of their own (this one never
imports jax; see there why), once per session: four 1,000-step episodes of a scripted policy on
four layouts (recipes drawn again on delivery, negative rewards, cooking by interaction, a button
indicator under partial observation, random resets) and a short one in which one agent lights the
button for the other. Skipped when the ``jaxmarl`` extra is not installed (CI installs it).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import ROOT, check_without_jax, child_rollouts, needs_jaxmarl, npz_arrays, refused_moves

from strips_int import analyze, load_domain
from strips_int.errors import StripsIntError
from strips_int.grounders.jaxmarl import GROUNDER, read_rollout
from strips_int.model.execution import apply

pytestmark = needs_jaxmarl

DOMAIN = ROOT / "domains" / "overcooked.pddl"
LONG = ["recipes_redrawn", "button_clues", "two_recipes", "random_resets"]


@pytest.fixture(scope="module")
def domain():
    return load_domain(DOMAIN)


@pytest.fixture(scope="module")
def rollouts(tmp_path_factory):
    """The folder of rollouts and ``facts.json`` that ``jaxmarl_v2_rollouts.py`` writes."""
    return child_rollouts("jaxmarl_v2_rollouts.py", tmp_path_factory.mktemp("jaxmarl_v2"))


@pytest.fixture(scope="module")
def facts(rollouts):
    return json.loads((rollouts / "facts.json").read_text())


@pytest.fixture(scope="module")
def traces(rollouts, domain):
    return {name: read_rollout(rollouts / f"{name}.npz", domain) for name in [*LONG, "clue"]}


def delivery_steps(trace, goal_only: bool) -> list[int]:
    goal = {fact[1] for fact in trace.problem.goal}
    return sorted(s.t for s in trace.steps if s.action.name == "deliver" and (s.action.args[1] in goal or not goal_only))


@pytest.mark.parametrize("name", LONG)
def test_goal_soups_are_the_deliveries_jaxmarl_flags_correct(name, rollouts, traces, facts, domain):
    trace = traces[name]
    with np.load(rollouts / f"{name}.npz", allow_pickle=False) as data:
        steps, states, last = len(data["actions"]), len(data["step"]), int(data["step"][-1])
    assert (steps, states, last) == (1000, 1001, 0)  # the last state is env.step's auto-reset one
    assert delivery_steps(trace, goal_only=True) == facts[name]["flags"]
    meta = trace.meta
    assert len(trace.problem.goal) == meta["correct_deliveries"] >= len(facts[name]["flags"]) > 0
    penalty = 20 * meta["wrong_deliveries"] if meta["negative_rewards"] else 0
    paid = 20 * meta["correct_deliveries"] - penalty - 5 * meta["activations"]
    assert meta["reward"] == sum(facts[name]["rewards"]) == paid
    report = analyze(domain, trace)
    assert report.achieved >= report.goal


def test_refused_moves_of_a_v2_rollout_are_its_attempts_and_collisions_two_blocks(rollouts, traces, domain):
    # Counted from the saved arrays alone: a move (actions 0-3: right, down, left, up) to a floor cell (code 0)
    # after which the agent stands where it stood; both refused towards one cell or each other's: a collision.
    arrays = npz_arrays(rollouts / "recipes_redrawn.npz")
    static, actions, pos = arrays["static"].tolist(), arrays["actions"], arrays["agent_pos"].tolist()
    assert not arrays["done"].any()
    refused, collisions = refused_moves(actions, pos, {0: (1, 0), 1: (0, 1), 2: (-1, 0), 3: (0, -1)},
                                        lambda x, y: 0 <= y < len(static) and 0 <= x < len(static[0])
                                        and static[y][x] == 0)
    report = analyze(domain, traces["recipes_redrawn"])
    assert [a.action.name for a in report.attempts] == ["move"] * refused and refused > 0
    assert sum(b.collision for b in report.blocks) == 2 * collisions > 0


def test_the_rollouts_cover_what_v2_adds(traces):
    """Wrong dishes with and without negative rewards, cooking by interaction, recipes drawn again, a button."""
    metas = {name: traces[name].meta for name in LONG}
    assert {m["negative_rewards"] for m in metas.values() if m["wrong_deliveries"]} == {True, False}
    assert all(m["correct_deliveries"] for m in metas.values())
    assert {m["cooking"] for m in metas.values()} == {"auto", "interaction"}
    assert all(len(metas[name]["recipes"].split(",")) > 2 for name in ("recipes_redrawn", "two_recipes"))
    assert metas["button_clues"]["activations"] > 0 and metas["random_resets"]["options"]["random_reset"]
    names = {s.action.name for name in LONG for s in traces[name].steps}
    assert names >= {"start-cooking", "auto-cook", "draw-recipe", "activate", "read-button", "read-recipe",
                     "start-soup-informed", "add-ingredient-informed", "add-ingredient", "take", "put", "plate-soup"}


def test_a_lit_button_read_by_the_partner_is_a_constructive_required_interdependence(traces, domain):
    """grounded_coord_simple, agents seeing 2 cells each way: player0 sees the recipe indicator, player1 does
    not; player0 lights the button, player1 reads it and cooks the recipe it shows."""
    trace = traces["clue"]
    report = analyze(domain, trace)
    assert trace.meta["correct_deliveries"] == 1 and trace.meta["reward"] == 15  # 20 for the soup, 5 for the button
    (inter,) = report.interdependencies
    assert (inter.giver.action.name, inter.giver.agent, inter.receiver.action.name, inter.receiver.agent) == (
        "activate", "player0", "read-button", "player1")
    assert inter.category == "constructive" and inter.required
    informed = [s for s in trace.steps if s.action.name.endswith("-informed")]
    assert len(informed) >= 3 and {s.agent for s in informed} == {"player1"}


def test_the_kitchen_drawing_shows_v2_tiles_and_the_lit_button(traces, domain):
    """The HTML report's drawing of the clue rollout's state after the activation: the indicator, the button
    (lit), the ingredient piles and the ingredients held are drawn."""
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure

    from strips_int.grounders import drawing_for
    from strips_int.grounders.overcooked.draw import LIT_COLOR, TILE_COLORS, tiles

    trace = traces["clue"]
    kinds = {kind for _, kind in tiles(trace.problem.objects).values()}
    assert kinds >= {"indicator", "button", "ingredient-dispenser", "dish-dispenser", "pot", "window", "counter"}
    state = set(trace.problem.init)
    for step in trace.steps[:2]:  # a step, then player0 lights the button
        assert apply(state, step.action) is None
    ax = Figure().subplots()
    drawing_for("overcooked", trace.problem)(ax, frozenset(state), ["player0", "player1"], [], ["#E69F00", "#009E73"])
    colors = {tuple(c) for c in ax.collections[0].get_facecolor()}
    assert {to_rgba(LIT_COLOR), to_rgba(TILE_COLORS["indicator"])} <= colors
    assert to_rgba(TILE_COLORS["button"]) not in colors  # grounded_coord_simple's one button is lit


def test_memory_reader_matches_the_file(traces, facts):
    assert [str(s.action) for s in traces["clue"].steps] == facts["clue"]["memory_steps"]


def test_a_wrappers_states_are_saved_as_the_envs_own(rollouts):
    plain, wrapped = npz_arrays(rollouts / "clue.npz"), npz_arrays(rollouts / "clue_wrapped.npz")
    assert plain.keys() == wrapped.keys() and all(np.array_equal(plain[k], wrapped[k]) for k in plain)


def test_a_state_or_reward_that_does_not_follow_names_its_step(rollouts, traces, domain, tmp_path):
    arrays = npz_arrays(rollouts / "clue.npz")
    delivered = delivery_steps(traces["clue"], goal_only=True)[0]
    rewards = arrays["rewards"].copy()
    rewards[delivered] = 0
    np.savez(tmp_path / "unpaid.npz", **{**arrays, "rewards": rewards})
    with pytest.raises(StripsIntError, match=rf"unpaid.npz: step {delivered}: logged reward 0, but under "
                                             r"OvercookedV2's rules the step pays 20 \(agent 1 delivers a dish"):
        read_rollout(tmp_path / "unpaid.npz", domain)
    inventory = arrays["agent_inv"].copy()
    inventory[5, 1] = 1  # agent 1 suddenly holds a plate
    np.savez(tmp_path / "jump.npz", **{**arrays, "agent_inv": inventory})
    with pytest.raises(StripsIntError, match=r"jump.npz: step 4: state 5 does not follow from state 4 under "
                                             r"OvercookedV2's rules: agent 1 is at .* holding a plate; the rules give"):
        read_rollout(tmp_path / "jump.npz", domain)
    flags = arrays["new_correct_delivery"].copy()
    flags[delivered + 1] = False
    np.savez(tmp_path / "unflagged.npz", **{**arrays, "new_correct_delivery": flags})
    with pytest.raises(StripsIntError, match=rf"step {delivered}: .* new_correct_delivery is False; the rules give "
                                             r"True"):
        read_rollout(tmp_path / "unflagged.npz", domain)


def test_bad_options_are_one_clear_error(rollouts, domain, tmp_path):
    arrays = npz_arrays(rollouts / "clue.npz")
    options = json.loads(str(arrays["options"]))
    np.savez(tmp_path / "options.npz", **{**arrays, "options": np.array(json.dumps({**options, "negative_rewards": 1}))})
    (result,) = GROUNDER.read(tmp_path / "options.npz", domain)
    assert isinstance(result, StripsIntError)
    assert str(result).endswith("options.npz: options negative_rewards: found 1, expected true or false")


def test_check_reads_a_v2_rollout_without_jax(rollouts):
    printed = check_without_jax(DOMAIN, rollouts / "clue.npz")
    assert "goal: 1/1 facts reached" in printed and "constructive 1" in printed


def test_start_problem_by_v2_layout_name_orders_one_possible_recipe(facts):
    start = facts["start"]
    assert start["name"] == "overcooked-v2-fun_coordination"
    assert start["recipes"] == ["recipe0_0_2", "recipe1_1_3"] and start["order"] == ["order recipe1_1_3"]
    assert start["goal"] == ["delivered soup1", "in-soup ing1_1 soup1", "in-soup ing1_2 soup1", "in-soup ing3_1 soup1"]
    assert start["unknown"].startswith("layout 'jaxmarl_v2:grounded_coord_simpel': unknown OvercookedV2 layout "
                                       "'grounded_coord_simpel'; did you mean grounded_coord_simple? (23 known: ")
