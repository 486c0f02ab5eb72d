"""overcooked-ai's own formats and rules: the 2020 human-data CSV, episode JSON, layout files, recipe values."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace
from pathlib import Path

import pytest

from helpers import ROOT, SHARED_DATA
from strips_int.model.domain import load_domain
from strips_int.errors import StripsIntError
from strips_int.grounders.overcooked import game_trace
from strips_int.grounders.overcooked.formats import detect, read_games
from strips_int.grounders.overcooked.layouts import load_grid, read_layout_dict
from strips_int.grounders.overcooked.recipes import Values, every_recipe, recipe

CSV = SHARED_DATA / "overcooked-ai" / "2020_hh_trials_sample.csv"
DOMAIN = ROOT / "domains" / "overcooked.pddl"
needs_csv = pytest.mark.skipif(not CSV.is_file(), reason="../shared/data/overcooked-ai is absent")
needs_overcooked_ai = pytest.mark.skipif(importlib.util.find_spec("overcooked_ai_py") is None,
                                         reason="overcooked-ai is not installed")


def _deliveries(trace) -> list[tuple[int, str]]:
    return [(s.t, s.action.args[1]) for s in trace.steps if s.action.name == "deliver"]


@needs_csv
def test_2020_csv_every_trial_analysed_goal_is_the_rewarded_deliveries():
    domain = load_domain(DOMAIN)
    games = list(read_games(CSV))
    traces = {g.layout: game_trace(g, domain) for g in games}
    assert sorted(traces) == ["counter_circuit", "inverse_marshmallow_experiment", "you_shall_not_pass"]
    # Terrain from the CSV's own layout column: overcooked-ai's newer counter_circuit, not the classic one.
    assert traces["counter_circuit"].problem.objects.get("pot5_0") == "pot"
    for trace in traces.values():
        assert trace.meta["rules"] == "new" and trace.meta["roles"] == {"player0": "human", "player1": "human"}
    steps = {name: [t for t, _ in _deliveries(trace)] for name, trace in traces.items()}
    assert steps == {"you_shall_not_pass": [65, 134, 164, 317], "inverse_marshmallow_experiment": [50, 184, 278, 347],
                     "counter_circuit": [200, 364]}
    goals = {name: {a[1] for a in trace.problem.goal} for name, trace in traces.items()}
    assert goals["you_shall_not_pass"] == {soup for _, soup in _deliveries(traces["you_shall_not_pass"])}
    assert len(goals["inverse_marshmallow_experiment"]) == 4
    # The 3-tomato soup delivered at step 200 is no order of counter_circuit: delivered for 0, no goal.
    (first, tomato_soup), (_, ordered) = _deliveries(traces["counter_circuit"])
    assert goals["counter_circuit"] == {ordered} and tomato_soup not in goals["counter_circuit"]


@needs_csv
def test_pot_started_by_the_player_whose_logged_action_is_interact():
    """inverse_marshmallow: both face the pot; the player the engine credits starts the cooking."""
    domain = load_domain(DOMAIN)
    game = next(g for g in read_games(CSV) if g.layout == "inverse_marshmallow_experiment")
    trace = game_trace(game, domain)
    for step in trace.steps:
        if step.action.name == "start-cooking":
            seat = int(step.action.args[0].removeprefix("player"))
            assert game.actions[step.t][seat] == "interact"


@needs_csv
@needs_overcooked_ai
def test_logged_reward_must_match_the_layouts_recipe_values():
    domain = load_domain(DOMAIN)
    game = next(g for g in read_games(CSV) if g.layout == "you_shall_not_pass")
    rewards = list(game.rewards)
    rewards[65] += 1
    with pytest.raises(StripsIntError, match=r"step 65: logged reward 22, but the step delivers .*worth 21"):
        game_trace(replace(game, rewards=tuple(rewards)), domain)


def test_recipe_values_as_overcooked_ai_computes_them():
    values = Values(onion_value=21, tomato_value=13)
    orders = (recipe(["onion", "tomato", "tomato"]), recipe(["onion"]))
    assert values.reward(recipe(["tomato", "onion", "tomato"]), orders, (orders[0],)) == 94  # bonus x2
    assert values.reward(recipe(["onion"]), orders, ()) == 21
    assert values.reward(recipe(["tomato"] * 3), orders, ()) == 0  # no order: nothing
    assert Values().value(recipe(["onion"])) == 20 and len(every_recipe()) == 9


def test_layout_file_float_inf_parsed_but_no_other_call(tmp_path: Path):
    good = tmp_path / "t.layout"
    good.write_text('{"grid": """XPX\n              O1S\n              X2D""", "order_bonus": float(\'inf\'),'
                    ' "start_all_orders": [{"ingredients": ["onion"]}]}')
    assert read_layout_dict(good)["order_bonus"] == float("inf")
    layout = load_grid(good)
    assert not layout.old_rules and layout.orders == (("onion",),) and layout.values.order_bonus == float("inf")
    bad = tmp_path / "b.layout"
    bad.write_text('{"grid": __import__("os").system("true")}')
    with pytest.raises(StripsIntError, match="may call only float"):
        read_layout_dict(bad)


def test_episode_json_states_anywhere_older_observations_and_terrain(tmp_path: Path):
    state = {"players": [{"position": [1, 1], "orientation": [0, -1], "held_object": None},
                         {"position": [2, 1], "orientation": [0, -1], "held_object": None}],
             "objects": [], "all_orders": [{"ingredients": ["onion"]}], "bonus_orders": []}
    episode = {"mdp_params": {"layout_name": "mine", "terrain": [["X", "P", "X", "X"], ["O", " ", " ", "S"],
                                                                  ["X", "D", "X", "X"]]},
               "padding": "x" * 5000, "ep_actions": [[[0, 0], [0, 0]]], "ep_rewards": [0],
               "ep_observations": [state, state]}
    path = tmp_path / "episode.json"
    path.write_text(json.dumps({"trajectory": episode}))
    assert detect(path) == "episode-json"
    (game,) = read_games(path)
    assert game.terrain == ("XPXX", "O  S", "XDXX") and not game.old_rules
    trace = game_trace(game, load_domain(DOMAIN))
    assert trace.meta["rules"] == "new" and trace.meta["layout"] == "mine"


def test_rollout_seat_from_the_ranks_present(tmp_path: Path):
    from strips_int.grounders.overcooked import rollout_seat

    run = tmp_path / "h-proxy-cole"
    run.mkdir()
    for rank in range(6):
        (run / f"traj_{rank}_1.pkl").write_bytes(b"")
    assert [rollout_seat(str(run / f"traj_{r}_1.pkl")) for r in range(6)] == [0, 0, 0, 1, 1, 1]
    sample = tmp_path / "cole-fcp"
    sample.mkdir()
    (sample / "eval-1__traj_2_3.pkl").write_bytes(b"")
    assert rollout_seat(str(sample / "eval-1__traj_2_3.pkl"), "auto:10") == 0
    assert rollout_seat(str(sample / "eval-1__traj_2_3.pkl"), "auto:4") == 1
    with pytest.raises(StripsIntError, match="ranks 2 present beside it: not a whole run"):
        rollout_seat(str(sample / "eval-1__traj_2_3.pkl"))


def test_pandas_pickle_refused_with_the_conversion_to_do(tmp_path: Path):
    import pickle

    # The opcodes of a pickled pandas object, written by hand: nothing here imports or runs pandas.
    path = tmp_path / "2019_hh_trials_all.pickle"
    path.write_bytes(pickle.PROTO + bytes([4]) + b"\x8c\x11pandas.core.frame\x94\x8c\tDataFrame\x94\x93\x94)\x81\x94.")
    (result,) = read_games(path)
    assert isinstance(result, StripsIntError)
    assert "pandas.core.frame.DataFrame" in str(result) and "to_csv('trials.csv', index=False)" in str(result)


@needs_csv
def test_a_broken_trial_is_its_error_and_the_others_still_read(tmp_path: Path):
    import csv

    with CSV.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    first = rows[0]["trial_id"]
    broken = next(i for i, row in enumerate(rows) if row["trial_id"] == first and i > 10)
    rows[broken]["state"] = "{not json"
    path = tmp_path / "trials.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    results = list(read_games(path))
    assert len(results) == 3 and isinstance(results[0], StripsIntError)
    assert f"line {broken + 2}: malformed JSON in column state" in str(results[0])
    assert [g.layout for g in results[1:]] == ["inverse_marshmallow_experiment", "counter_circuit"]
