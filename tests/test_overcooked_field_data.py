"""Overcooked as the field records it (definitions v3 section 11): rules decided by the dynamics, the game's own
reward per soup, one game per episode, spare fresh objects, what could not be checked, rollout seats.

Real files: overcooked-ai's 2019 and 2020 human samples, the user-study games and ZSC-Eval rollouts in
``../shared/data`` (skipped without it), and games overcooked-ai itself made and saved
(``tests/data/overcooked_ai``, made by ``tests/overcooked_ai_games.py``).
"""

from __future__ import annotations

import csv
import json
import shutil
from dataclasses import replace

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int import analyze, load_domain
from strips_int.cli.check import main as check_main
from strips_int.errors import StripsIntError
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.grounders.overcooked import game_trace, read_traces, rollout_seat
from strips_int.grounders.overcooked.formats import read_games
from strips_int.analysis.report import format_text

HUMAN_DATA = SHARED_DATA / "overcooked-ai"
CSV_2019 = HUMAN_DATA / "2019_hh_trials_sample.csv"
CSV_2020 = HUMAN_DATA / "2020_hh_trials_sample.csv"
USER_STUDY = SHARED_DATA / "user-study"
ROLLOUTS = SHARED_DATA / "zsceval-rollouts"
MADE = ROOT / "tests" / "data" / "overcooked_ai"
#: Each game file overcooked-ai made, with how (rules, episodes, layout file).
MADE_GAMES = json.loads((MADE / "games.json").read_text())
needs_human_data = pytest.mark.skipif(not CSV_2019.is_file(), reason="../shared/data/overcooked-ai is absent")
needs_user_study = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="../shared/data/user-study is absent")
needs_rollouts = pytest.mark.skipif(not ROLLOUTS.is_dir(), reason="../shared/data/zsceval-rollouts is absent")


@pytest.fixture(scope="module")
def overcooked():
    return load_domain("overcooked")


def _delivered(trace) -> dict[str, tuple[int, str]]:
    """Each delivered soup's (transition, agent)."""
    return {s.action.args[1]: (s.t, s.agent) for s in trace.steps if s.action.name == "deliver"}


def _goal_deliveries(trace) -> list[tuple[int, str]]:
    """The (transition, agent) of the deliveries of the goal soups, in order."""
    delivered = _delivered(trace)
    return sorted(delivered[soup] for _, soup in trace.problem.goal)


@needs_human_data
def test_2019_human_data_read_under_the_old_rules_with_five_per_soup(overcooked):
    """The 2019 trials are stored in the new state format, but their pots start cooking by themselves."""
    traces = list(read_traces(CSV_2019, overcooked))
    assert [t.source.rsplit("#", 1)[1] for t in traces] == ["76", "103", "110"]
    with CSV_2019.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    for trace in traces:
        trial = trace.meta["trial_id"]
        rewards = [float(r["reward"]) for r in rows if r["trial_id"] == trial]
        assert trace.meta["rules"] == "old" and trace.meta["soup_reward"] == 5
        assert trace.meta["roles"] == {"player0": "human", "player1": "human"} and "unchecked" not in trace.meta
        # The goal soups are exactly the rewarded deliveries, 5 each: score_total = 5 x deliveries.
        assert [t for t, _ in _goal_deliveries(trace)] == [i for i, r in enumerate(rewards) for _ in range(int(r // 5))]
        assert sum(rewards) == 5 * len(trace.problem.goal) == float(next(r["score_total"] for r in rows
                                                                          if r["trial_id"] == trial))
        assert any(s.action.name == "auto-cook" for s in trace.steps)


@needs_human_data
def test_rules_forced_or_neither_rule_set_explaining_name_each_first_failure(overcooked):
    game = next(g for g in read_games(CSV_2019) if g.meta["trial_id"] == "76")
    with pytest.raises(StripsIntError, match=r"#76: step 50: the pot at \(4, 2\) started cooking with no player "
                                             "starting it: under the new rules a player starts a pot"):
        game_trace(game, overcooked, rules="new")
    assert game_trace(game, overcooked, rules="old").meta["rules"] == "old"
    rewards = list(game.rewards)
    first, second = [i for i, r in enumerate(rewards) if r][:2]
    rewards[first] = 7.0  # no rule set explains a reward of 7 for the first soup and 5 for the next
    with pytest.raises(StripsIntError) as error:
        game_trace(replace(game, rewards=tuple(rewards)), overcooked)
    assert str(error.value) == (
        f"{CSV_2019}#76: neither rule set explains the game: under the new rules, step 50: the pot at (4, 2) started "
        "cooking with no player starting it: under the new rules a player starts a pot by interacting with it; "
        f"under the old rules, step {second}: logged reward 5, but the step delivers 1 soup(s), 1 of an ordered "
        f"recipe (7 each under the old rules as step {first} shows): 7")


@needs_human_data
def test_2020_human_data_still_new_rules_and_checked(overcooked):
    for trace in read_traces(CSV_2020, overcooked):
        assert trace.meta["rules"] == "new" and "soup_reward" not in trace.meta and "unchecked" not in trace.meta
    with pytest.raises(StripsIntError, match=r"step 33: the pot at \(12, 2\) started cooking with 1 ingredient\(s\): "
                                             "under the old rules a pot starts by itself at three"):
        list(read_traces(CSV_2020, overcooked, rules="old"))


@pytest.mark.parametrize("name", sorted(MADE_GAMES))
def test_overcooked_ai_saved_games_ground_and_their_goal_is_what_overcooked_ai_rewarded(name, overcooked):
    how = MADE_GAMES[name]
    path = MADE / name
    saved = json.loads(path.read_text())
    grid = MADE / how["grid"] if "grid" in how else None
    traces = list(read_traces(path, overcooked, grid=grid))
    episodes = how.get("games", 1)
    assert len(traces) == episodes == len(saved["ep_states"])
    assert [t.source for t in traces] == ([f"{path}#{k}" for k in range(episodes)] if episodes > 1 else [str(path)])
    for trace, rewards in zip(traces, saved["ep_rewards"]):
        assert trace.meta["rules"] == how["rules"] and "unchecked" not in trace.meta
        rewarded = [t for t, r in enumerate(rewards) if r]
        assert [t for t, _ in _goal_deliveries(trace)] == rewarded
        if how["rules"] == "old":
            assert trace.meta["soup_reward"] == 20 and sum(rewards) == 20 * len(rewarded)


def test_multi_recipe_layout_checks_values_and_cooking_times_or_says_it_could_not(tmp_path, overcooked):
    game = MADE / "multi_recipe.json"
    unchecked = list(read_traces(game, overcooked))
    assert all(t.meta["unchecked"].startswith("recipe values and cooking times: layout multi_recipe is known "
                                              "neither by name nor by a grid file") for t in unchecked)
    layout = (MADE / "multi_recipe.layout").read_text()
    slower = tmp_path / "slower.layout"
    slower.write_text(layout.replace('"recipe_times": [20, 18, 9, 7]', '"recipe_times": [20, 18, 10, 7]'))
    with pytest.raises(StripsIntError, match=r"multi_recipe.json#0: neither rule set explains the game: under the new "
                                             r"rules, step \d+: the soup in the pot at \(2, 0\) \(onion\+onion\) is "
                                             r"ready after 9 steps of cooking \(from step \d+\), but it cooks 10; under "
                                             r"the old rules, step \d+: the pot at \(2, 0\) started cooking with 2"):
        list(read_traces(game, overcooked, grid=slower))
    dearer = tmp_path / "dearer.layout"
    dearer.write_text(layout.replace('"recipe_values": [20, 25, 10, 12]', '"recipe_values": [20, 25, 11, 12]'))
    with pytest.raises(StripsIntError, match=r"logged reward 10, but the step delivers soup\d+ \(onion\+onion\), "
                                             "worth 11 by the layout's orders and values"):
        list(read_traces(game, overcooked, grid=dearer))


def test_check_and_evaluate_give_every_episode_of_a_file(tmp_path, capsys):
    path = MADE / "old_dynamics_cramped_room.json"
    assert check_main(["overcooked", str(path), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["source"] for line in lines] == [f"{path}#0", f"{path}#1"]
    assert evaluate_main(["overcooked", str(path), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    capsys.readouterr()
    with (tmp_path / "out" / "games.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["source"], r["rules"], r["soup_reward"], r["error"]) for r in rows] == [
        (f"{path}#0", "old", "20.0", ""), (f"{path}#1", "old", "20.0", "")]


def test_a_bad_episode_is_its_error_and_the_others_still_read(tmp_path):
    saved = json.loads((MADE / "old_dynamics_cramped_room.json").read_text())
    saved["ep_actions"][0] = "lost"
    path = tmp_path / "two.json"
    path.write_text(json.dumps(saved))
    first, second = read_games(path)
    assert isinstance(first, StripsIntError) and str(first).startswith(f"{path}#0: ep_actions: expected a list holding "
                                                                       "2 lists, one per episode, as ep_states does")
    assert second.source == f"{path}#1"


@needs_user_study
def test_spare_dish_lets_the_third_onion_into_a_pot_be_a_trigger(overcooked):
    """fcp/5_10_2025_17_2_9: nobody took a dish; the partner could have fetched one and plated the soup."""
    [trace] = read_traces(USER_STUDY / "fcp" / "5_10_2025_17_2_9_human=0.json", overcooked)
    objects = trace.problem.objects
    assert sorted(o for o, kind in objects.items() if kind == "dish") == ["dish1"]
    assert ("fresh", "dish1") in trace.problem.init and not any("dish1" in s.action.args for s in trace.steps)
    report = analyze(overcooked, trace)
    assert {agent: len(tasks.triggers) for agent, tasks in report.tasks.items()} == {"player0": 3, "player1": 3}
    assert trace.meta["rules"] == "old" and "soup_reward" not in trace.meta  # nothing delivered shows it
    assert "agents: player0 (human), player1 (ai)" in format_text(report)


@needs_rollouts
def test_rollout_seats_from_the_ranks_beside_or_per_partner_population(tmp_path, overcooked):
    sample = ROLLOUTS / "random1" / "h-proxy-cole" / "eval-cole-S2-s75-1__traj_18_3.pkl"
    with pytest.raises(StripsIntError, match=r"ranks 18, 28, 32 present beside it: .* give the ego seat as auto:N .*"
                                             r"e\.g\. auto:h-proxy=40,10"):
        rollout_seat(str(sample))
    rule = "auto:h-proxy=40,10"
    assert [rollout_seat(str(sample.with_name(f"eval-cole-S2-s75-1__traj_{r}_1.pkl")), rule) for r in (18, 28)] == [0, 1]
    cross = ROLLOUTS / "random3" / "cole-mep" / "eval-mep-S2-s36-1__traj_6_3.pkl"
    assert rollout_seat(str(cross), rule) == 1 and rollout_seat(str(cross), "auto:40") == 0
    # A whole run, as ZSC-Eval writes trajs/<layout>/traj_<rank>_<n>.pkl: N from the ranks beside the file.
    run = tmp_path / "trajs" / "random3"
    run.mkdir(parents=True)
    for rank in range(4):
        shutil.copy(cross, run / f"traj_{rank}_1.pkl")
    traces = [next(read_traces(run / f"traj_{rank}_1.pkl", overcooked, ego_seat="auto")) for rank in range(4)]
    assert [t.meta["roles"]["player0"] for t in traces] == ["ego", "ego", "partner", "partner"]
    assert all(t.meta["rules"] == "old" and t.meta["soup_reward"] == 20 for t in traces if t.problem.goal)
    assert all(t.meta["unchecked"].startswith("reward per soup: a ZSC-Eval rollout logs deliveries, not rewards")
               for t in traces)


@needs_rollouts
def test_auto_seats_a_sample_cannot_tell_are_one_error_before_any_game_is_read(tmp_path, capsys):
    out = tmp_path / "out"
    assert evaluate_main(["overcooked", str(ROLLOUTS), "--ego-seat", "auto", "--out", str(out), "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {ROLLOUTS / 'random1' / 'h-proxy-cole'} (and 27 more "
                                                   "folders): ego seat auto: ranks 18, 28, 32 present: not a whole run")
    assert "give the ego seat as auto:N" in err and not (out / "games.csv").exists()
    assert evaluate_main(["overcooked", str(ROLLOUTS), "--ego-seat", "auto:h-proxy=40,10", "--out", str(out),
                          "--jobs", "1"]) == 0


def test_an_ego_seat_that_is_neither_a_seat_nor_a_rule_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        evaluate_main(["overcooked", str(tmp_path), "--ego-seat", "x", "--out", str(tmp_path / "out")])
    assert stop.value.code == 2 and "argument --ego-seat: invalid ego_seat value: 'x'" in capsys.readouterr().err
