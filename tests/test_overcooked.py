"""Overcooked: scripted games the tests write themselves, and every real game in ../shared/data."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int import StripsIntError, analyze, execute, load_domain
from strips_int.cli.check import main
from strips_int.grounders import read_input
from strips_int.grounders.overcooked import get_layout, read_traces

DOMAIN = ROOT / "domains" / "overcooked.pddl"
# Player 0 at (1,1) reaches only the onion dispenser and the middle counter;
# player 1 at (3,1) reaches that counter, the pot, the dish dispenser and the window.
GRID = "XXXSX\nO1X2P\nXXXDX\n"
N, S, E, W, STAY, INTERACT = 0, 1, 2, 3, 4, 5
VECTORS = {N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0], STAY: [0, 0], INTERACT: "interact"}


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(DOMAIN)


class Script:
    """Writes a game step by step: each step's joint action and how the state changes."""

    def __init__(self):
        self.state = {"players": [{"position": [1, 1], "orientation": [-1, 0]},
                                  {"position": [3, 1], "orientation": [-1, 0]}],
                      "objects": {}, "order_list": None}
        self.states, self.actions, self.rewards = [], [], []

    def step(self, a0, a1, *changes, reward=0):
        self.states.append(copy.deepcopy(self.state))
        self.actions.append([a0, a1])
        self.rewards.append(reward)
        for change in changes:
            change(self.state)
        return self

    def face(self, j, action):
        return lambda s: s["players"][j].update(orientation=VECTORS[action])

    def hold(self, j, item):
        def change(s):
            player = s["players"][j]
            player.pop("held_object", None)
            if item:
                player["held_object"] = {**item, "position": player["position"]}
        return change

    def place(self, pos, item):
        def change(s):
            key = f"{pos[0]},{pos[1]}"
            s["objects"].pop(key, None)
            if item:
                s["objects"][key] = {**item, "position": list(pos)}
        return change

    def user_study(self, path: Path, cook_time: int) -> Path:
        path.write_text(json.dumps({
            "ep_states": [self.states], "ep_actions": [self.actions], "ep_rewards": [self.rewards],
            "mdp_params": [{"layout_name": "scripted", "num_items_for_soup": 3, "cook_time": cook_time}]}))
        return path


ONION = {"name": "onion"}


def pass_onion(game: Script, then_pot: bool, count: int = 0):
    """Player 0 fetches an onion and leaves it on the counter; player 1 takes it (and puts it in the pot)."""
    game.step(INTERACT, STAY, game.hold(0, ONION))
    game.step(E, STAY, game.face(0, E))
    game.step(INTERACT, STAY, game.hold(0, None), game.place((2, 1), ONION))
    game.step(W, INTERACT, game.face(0, W), game.place((2, 1), None), game.hold(1, ONION))
    if then_pot:
        game.step(STAY, E, game.face(1, E))
        soup = {"name": "soup", "state": ["onion", count + 1, 1 if count == 2 else 0]}
        game.step(STAY, INTERACT, game.hold(1, None), game.place((4, 1), soup))
        game.step(STAY, W, game.face(1, W))


def grid_file(tmp_path):
    path = tmp_path / "scripted.grid"
    path.write_text(GRID)
    return path


def test_counter_passes_ending_in_a_delivered_soup_are_constructive(tmp_path, overcooked):
    # Three onions cross the counter from player 0 to player 1, who cooks them
    # (old rules, cook_time 3) and serves the soup. Each pass is one
    # interdependence on its onion: (on onionK counter2_1) is what the take needs.
    # Each onion ends in the delivered soup (causal chain take -> pot -> auto-cook
    # -> finish -> plate -> deliver) and never comes back: 3 constructive.
    # Player 1 does all the pot work alone: no interdependence on the soup.
    game = Script()
    for count in range(3):
        pass_onion(game, then_pot=True, count=count)
    ready = {"name": "soup", "state": ["onion", 3, 3]}
    game.step(STAY, S, game.face(1, S), game.place((4, 1), ready))  # 3 steps after the third onion: ready
    game.step(STAY, INTERACT, game.hold(1, {"name": "dish"}))
    game.step(STAY, E, game.face(1, E))
    game.step(STAY, INTERACT, game.hold(1, ready), game.place((4, 1), None))
    game.step(STAY, N, game.face(1, N))
    game.step(STAY, INTERACT, game.hold(1, None), reward=20)  # the last action: no state follows it
    path = game.user_study(tmp_path / "pass_human=0.json", cook_time=3)
    [trace] = read_traces(path, overcooked, grid=grid_file(tmp_path))
    report = analyze(overcooked, trace)
    assert report.achieved == {("delivered", "soup1")}
    assert trace.meta["roles"] == {"player0": "human", "player1": "ai"}
    assert [(i.giver.action.name, i.receiver.action.name, i.objects)
            for i in report.interdependencies] == [("put", "take", (f"onion{k}",)) for k in (1, 2, 3)]
    # Player 1 has no onion dispenser on its side: every pass is required.
    assert report.counts == {"interdependencies": 3, "constructive": 3, "non_constructive": 0,
                             "looping": 0, "irrelevant": 0, "constructive_required": 3,
                             "constructive_optional": 0}
    # Cooking is environment steps: the pot starts by itself at 3 onions, then finishes.
    env = [str(s.action) for s in report.steps if s.agent is None]
    assert env == ["(auto-cook soup1 pot4_1)", "(finish-cooking soup1 pot4_1)"]
    # Player 0: 3 take-onion + 3 put = 6 sub-tasks; each put leaves an onion where
    # player 1 can take it: 3 triggers, all accepted. Player 1's sub-tasks (3 takes,
    # start-soup, 2 add-ingredient, take-dish, plate, deliver = 9) serve only itself
    # (player 0 can never reach the pot): 0 triggers.
    p0, p1 = report.tasks["player0"], report.tasks["player1"]
    assert (len(p0.subtasks), len(p0.triggers), len(p0.accepted)) == (6, 3, 3)
    assert (p0.pct_triggers, p0.pct_not_accepted) == (50.0, 0.0)
    assert (len(p1.subtasks), len(p1.triggers), p1.pct_not_accepted) == (9, 0, None)


def test_onion_passed_back_and_forth_is_looping(tmp_path, overcooked):
    # Player 0 leaves onion1 on the counter; player 1 takes it and puts it back;
    # player 0 takes it again. (put0 -> take1) has a giver loop (onion1 comes back
    # to player 0 in the same state {}); (put1 -> take0) a receiver loop (player 0
    # had handed it on in that state). Nothing is delivered.
    game = Script()
    pass_onion(game, then_pot=False)
    game.step(E, INTERACT, game.face(0, E), game.hold(1, None), game.place((2, 1), ONION))
    game.step(INTERACT, STAY, game.hold(0, ONION), game.place((2, 1), None))
    game.step(STAY, STAY)
    [trace] = read_traces(game.user_study(tmp_path / "loop.json", 20), overcooked, grid=grid_file(tmp_path))
    report = analyze(overcooked, trace)
    assert [(v.giver_loop, v.receiver_loop, v.category) for v in report.interdependencies] == [
        (True, False, "looping"), (False, True, "looping")]
    assert report.counts["looping"] == 2 and report.counts["constructive"] == 0


def test_pass_whose_soup_is_never_served_is_irrelevant(tmp_path, overcooked):
    game = Script()
    pass_onion(game, then_pot=True)
    game.step(STAY, STAY)
    [trace] = read_traces(game.user_study(tmp_path / "unserved.json", 20), overcooked, grid=grid_file(tmp_path))
    report = analyze(overcooked, trace)
    assert report.goal == frozenset()
    assert [(i.objects, i.category) for i in report.interdependencies] == [
        (("onion1",), "irrelevant")]


def test_overcooked_ai_episode_with_new_rules(tmp_path, overcooked):
    # overcooked-ai >= 1.0: objects as a list, soups with _ingredients and flags,
    # actions as vectors, a final state, and cooking started by an interaction.
    def soup(**flags):
        return {"name": "soup", "_ingredients": [{"name": "onion", "position": [4, 1]}],
                "cooking_tick": -1, "cook_time": -1, **flags}

    game = Script()
    pass_onion(game, then_pot=False)
    game.step(STAY, E, game.face(1, E))
    game.step(STAY, INTERACT, game.hold(1, None), game.place((4, 1), soup(is_idle=True)))
    game.step(STAY, INTERACT, game.place((4, 1), soup(is_cooking=True)))
    game.step(STAY, S, game.face(1, S), game.place((4, 1), soup(is_ready=True)))
    game.step(STAY, INTERACT, game.hold(1, {"name": "dish"}))
    game.step(STAY, E, game.face(1, E))
    game.step(STAY, INTERACT, game.hold(1, soup(is_ready=True)), game.place((4, 1), None))
    game.step(STAY, N, game.face(1, N))
    game.step(STAY, INTERACT, game.hold(1, None), reward=20)
    states = game.states + [copy.deepcopy(game.state)]
    for state in states:
        state["objects"] = list(state["objects"].values())
    path = tmp_path / "episode.json"
    path.write_text(json.dumps({
        "ep_states": states, "ep_actions": [[VECTORS[a] for a in joint] for joint in game.actions],
        "ep_rewards": game.rewards, "mdp_params": {"layout_name": "scripted", "cook_time": 1}}))
    [trace] = read_traces(path, overcooked, grid=grid_file(tmp_path), roles=["human", "ai"])
    report = analyze(overcooked, trace)
    assert trace.meta["rules"] == "new" and trace.meta["roles"] == {"player0": "human", "player1": "ai"}
    assert any(str(s.action) == "(start-cooking player1 soup1 pot4_1 c3_1)" for s in report.steps)
    assert report.achieved == {("delivered", "soup1")}
    assert [v.category for v in report.interdependencies] == ["constructive"]


def test_game_that_does_not_fit_its_layout(tmp_path, overcooked):
    game = Script()
    game.step(STAY, STAY)
    path = game.user_study(tmp_path / "misfit.json", 20)
    with pytest.raises(StripsIntError, match=r"state 0: player 1 stands at \(3, 1\), which is 'S' in layout "
                                             r"asymmetric_advantages.*does not fit"):
        list(read_traces(path, overcooked, layout="unident_s"))


def test_state_that_does_not_follow_names_the_step(tmp_path, overcooked):
    game = Script()
    game.step(INTERACT, STAY, game.hold(0, {"name": "dish"}))  # a dish from the onion dispenser
    game.step(STAY, STAY)
    path = game.user_study(tmp_path / "wrong.json", 20)
    with pytest.raises(StripsIntError, match=r"step 0 \(player 0\): player 0 took a dish from a onion-dispenser"):
        list(read_traces(path, overcooked, grid=grid_file(tmp_path)))


def test_pickles_admit_no_classes(tmp_path, overcooked):
    path = tmp_path / "evil.pkl"
    path.write_bytes(pickle.dumps([{"players": []}, Path("x"), []]))
    with pytest.raises(StripsIntError, match="refusing to load pathlib"):
        list(read_traces(path, overcooked, layout="cramped_room"))


def test_layout_names_old_and_new():
    assert get_layout("random0").rows == get_layout("forced_coordination").rows
    assert get_layout("unident_s").name == "asymmetric_advantages"
    with pytest.raises(StripsIntError, match="unknown layout 'nowhere'"):
        get_layout("nowhere")


def _real_games():
    if not SHARED_DATA.is_dir():
        return []
    return sorted(SHARED_DATA.glob("user-study/*/*.json")) + sorted(SHARED_DATA.glob("zsceval-rollouts/**/*.pkl"))


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data (third-party games) is absent")
def test_every_real_game_grounds_validates_and_matches_its_reward(overcooked):
    games = _real_games()
    assert len(games) == 355  # 302 user-study games + 53 rollouts (shared/data/README.md)
    for path in games:
        [trace] = read_input(path, overcooked)
        run = execute(trace)  # every step applicable from the initial state
        delivered = {f for f in run.final if f[0] == "delivered"}
        assert len(delivered) * 20 == trace.meta["reward"], path
        assert run.goal_achieved == trace.problem.goal


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data (third-party games) is absent")
def test_check_reads_real_games_of_every_format_in_one_process(capsys):
    games = [sorted(SHARED_DATA.glob("user-study/cole/*.json"))[0],
             sorted(SHARED_DATA.glob("zsceval-rollouts/random3/cole-fcp/*.pkl"))[0],
             sorted(SHARED_DATA.glob("zsceval-rollouts/stride4/random3/*.pkl"))[0]]
    assert main([str(DOMAIN), *map(str, games), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["meta"]["format"] for line in lines] == ["episode-json", "zsceval-pickle", "zsceval-pickle"]
    assert lines[0]["meta"]["layout"] == "counter_circuit" and lines[1]["meta"]["layout"] == "counter_circuit_o_1order"
    assert lines[0]["meta"]["roles"] == {"player0": "human", "player1": "ai"}
    assert lines[2]["meta"]["stride"] == 4 and "roles" not in lines[2]["meta"]
    # The rollout seat rule: traj_2 of a 10-game cross-play run has the ego agent in seat 0.
    assert main([str(DOMAIN), str(games[1]), "--json", "--ego-seat", "auto:10"]) == 0
    assert json.loads(capsys.readouterr().out)["meta"]["roles"] == {"player0": "ego", "player1": "partner"}
    # A sample of a run (one rank beside the file) cannot tell N: the rule says so rather than guess.
    assert main([str(DOMAIN), str(games[2]), "--json", "--ego-seat", "auto"]) == 1
    assert "ranks 0 present beside it: not a whole run" in json.loads(capsys.readouterr().out)["error"]


def test_human_data_csv_gives_one_trace_per_trial(tmp_path, overcooked):
    # overcooked-ai human data: one row per step, the state and joint action as JSON text.
    import csv

    game = Script()
    pass_onion(game, then_pot=True)
    game.step(STAY, STAY)
    path = tmp_path / "human.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, ["state", "joint_action", "reward", "layout_name", "trial_id"])
        writer.writeheader()
        for trial in ("a", "b"):
            for state, joint in zip(game.states, game.actions):
                writer.writerow({"state": json.dumps(state), "joint_action": json.dumps([VECTORS[a] for a in joint]),
                                 "reward": 0, "layout_name": "scripted", "trial_id": trial})
    traces = list(read_traces(path, overcooked, grid=grid_file(tmp_path)))
    assert [t.source for t in traces] == [f"{path}#a", f"{path}#b"]
    for trace in traces:
        report = analyze(overcooked, trace)
        assert [(i.objects, i.category) for i in report.interdependencies] == [
            (("onion1",), "irrelevant")]
