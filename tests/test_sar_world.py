"""The SAR grid world: scenarios simulated, logged, lifted, analysed and classified end to end."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, SAR

from strips_int import StripsIntError, analyze
from strips_int.cli.check import main as check_main
from strips_int.grounders.sar import (AgentState, Grid, State, World, dump_log, lift_log, load_scenario, log_from_json,
                                      read_log, scenario_from_json, scenario_problem, simulate)
from strips_int.grounders.sar.world import act
from strips_int.cli.rc import main as rc_main
from strips_int.analysis.rc import required_cooperation


def shipped(name: str, kind: str):
    return EXAMPLES / f"{name}.{kind}.json"


def interdependences(report) -> list[tuple[str, str, str]]:
    """(giver action, receiver action, category) of every interdependence."""
    return [(str(i.giver.action), str(i.receiver.action), i.category)
            for i in report.interdependencies]


# name, ticks, symbolic steps, counts, interdependences (giver, receiver, category), RC verdict and reason
SCENARIOS = [
    ("fire-door", 17, 18, (2, 2, 0, 0),
     [("(extinguish firefighter1 ext1 door5_2 c6_2)", "(move nurse1 door5_2 c6_2)", "constructive"),
      ("(extinguish firefighter1 ext1 c6_2 c7_2)", "(move nurse1 c6_2 c7_2)", "constructive")],
     "RC", "capability"),
    ("search-party", 14, 14, (2, 2, 0, 0),
     [("(clear-debris firefighter1 door6_2 c7_2)", "(move nurse1 door6_2 c7_2)", "constructive"),
      ("(search firefighter1 v1 c9_2)", "(treat nurse1 kit1 v1 c9_2)", "constructive")],
     "non-RC", None),
    ("kit-back-and-forth", 14, 14, (6, 2, 4, 0),
     [("(move police1 c2_1 c1_1)", "(give nurse1 police1 kit1 c1_1)", "constructive"),
      ("(give nurse1 police1 kit1 c1_1)", "(give police1 nurse1 kit1 c1_1)", "looping"),
      ("(move police1 c2_1 c1_1)", "(give nurse1 police1 kit1 c1_1)", "constructive"),
      ("(give police1 nurse1 kit1 c1_1)", "(give nurse1 police1 kit1 c1_1)", "looping"),
      ("(give nurse1 police1 kit1 c1_1)", "(give police1 nurse1 kit1 c1_1)", "looping"),
      ("(give police1 nurse1 kit1 c1_1)", "(treat nurse1 kit1 v1 c6_2)", "looping")],
     "non-RC", None),
]


@pytest.mark.parametrize("name, ticks, steps, counts, links, verdict, reason", SCENARIOS,
                         ids=[s[0] for s in SCENARIOS])
def test_scenario_end_to_end(sar, tmp_path, name, ticks, steps, counts, links, verdict, reason):
    log_path = tmp_path / f"{name}.log.json"
    done = subprocess.run([sys.executable, "-m", "strips_int.grounders.sar.simulate",
                           str(shipped(name, "scenario")), "--out", str(log_path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"{name}: {ticks} ticks, 1 of 1 victims treated")
    assert log_path.read_text() == shipped(name, "log").read_text()  # the shipped log is this simulation's

    report = analyze(sar, lift_log(read_log(log_path), sar))
    assert len(report.steps) == steps
    assert report.achieved == report.goal == {("treated", "v1")}
    c = report.counts
    assert (c["interdependencies"], c["constructive"], c["looping"], c["irrelevant"]) == counts
    assert interdependences(report) == links
    assert report.meta["reward"] == 10 and report.meta["scenario"] == name

    result = required_cooperation(sar, scenario_problem(shipped(name, "scenario"), sar))
    assert (result.verdict, result.reason) == (verdict, reason)


def test_fire_spread_is_an_environment_step(sar):
    trace = lift_log(read_log(shipped("fire-door", "log")), sar)
    env = [(s.t, str(s.action)) for s in trace.steps if s.agent is None]
    assert env == [(2, "(spread-fire c6_2 c7_2)")]
    assert [str(s.action) for s in trace.steps if s.action.name == "extinguish"] == [
        "(extinguish firefighter1 ext1 door5_2 c6_2)", "(extinguish firefighter1 ext1 c6_2 c7_2)"]


def test_check_reads_logs_directly(capsys):
    logs = [shipped(n, "log") for n in ("fire-door", "search-party", "kit-back-and-forth")]
    assert check_main([str(SAR), *map(str, logs), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["problem"] for line in lines] == ["sar-fire-door", "sar-search-party", "sar-kit-back-and-forth"]
    assert [line["counts"]["looping"] for line in lines] == [0, 0, 4]
    assert lines[0]["agents"]["nurse1"]["received"] == 2


def test_rc_accepts_a_scenario(capsys):
    assert rc_main(["--scenario", str(shipped("fire-door", "scenario")), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["verdict"], result["reason"]) == ("RC", "capability")
    agents = result["agents"]
    assert {a: (r["solvable_alone"], r["missing_actions"]) for a, r in agents.items()} == {
        "firefighter1": (False, ["treat"]), "nurse1": (False, ["extinguish"])}


def test_rc_accepts_a_log_as_the_scenario(sar):
    from_log = scenario_problem(shipped("search-party", "log"), sar)
    assert from_log.init == scenario_problem(shipped("search-party", "scenario"), sar).init


def test_log_round_trips(sar):
    log, unfinished = simulate(load_scenario(shipped("kit-back-and-forth", "scenario")))
    assert unfinished == ()
    again = log_from_json(json.loads(dump_log(log)), log.source)
    assert again == log


# -- a log whose states do not follow from its actions -----------------------------------------

def tampered(change) -> dict:
    data = json.loads(shipped("fire-door", "log").read_text())
    change(data["steps"])
    return data


def rejection(sar, data) -> str:
    with pytest.raises(StripsIntError) as caught:
        lift_log(log_from_json(data, "bad.log.json"), sar)
    return str(caught.value)


def test_a_teleporting_agent_is_rejected_naming_the_step(sar):
    def jump(steps):
        for entry in steps[12:]:
            entry["state"]["agents"]["nurse1"]["at"] = [9, 1]
    message = rejection(sar, tampered(jump))
    assert message.startswith("bad.log.json: step 11: the next state does not follow from the actions: ")
    assert "the log has nurse1 at [9, 1], but 'right' from [6, 2] facing right leads to [7, 2]" in message


def test_a_fire_that_goes_out_by_itself_is_rejected(sar):
    def no_firefighter(steps):
        steps[3]["actions"]["firefighter1"] = "stay"
    message = rejection(sar, tampered(no_firefighter))
    assert message.startswith("bad.log.json: step 3: ") and "the fire at [6, 2] goes out, but no firefighter" in message


def test_a_fire_with_no_burning_neighbour_is_rejected(sar):
    def arson(steps):
        for entry in steps[8:]:
            entry["state"]["fire"].append([1, 1])
    message = rejection(sar, tampered(arson))
    assert message == ("bad.log.json: step 7: the next state does not follow from the actions: "
                       "[1, 1] catches fire, but no neighbouring cell burns")


def test_an_item_that_changes_hands_unseen_is_rejected(sar):
    def swap(steps):
        steps[5]["state"]["agents"]["nurse1"]["holding"] = ["kit1", "ext1"]
        steps[5]["state"]["agents"]["firefighter1"]["holding"] = []
    message = rejection(sar, tampered(swap))
    assert message.startswith("bad.log.json: step 4: ")
    assert "the log has firefighter1 holding [], but after 'right'" in message


@pytest.mark.parametrize("change, where, what", [
    (lambda s: s[3]["actions"].update(nurse1="jump"), "step 3 actions nurse1", '"jump" is not one of up, down'),
    (lambda s: s[2]["state"]["agents"]["nurse1"].update(at=[0, 0]), "step 2 state",
     "nurse1 stands at [0, 0], which is a wall"),
    (lambda s: s[2]["state"]["agents"].pop("nurse1"), "step 2 state agents", "the log declares firefighter1, nurse1"),
    (lambda s: s[-1].update(actions={"nurse1": "up", "firefighter1": "up"}), "step 17",
     "the last entry has actions but no state after them"),
    (lambda s: s[4]["state"]["agents"]["nurse1"].update(holding=["kit9"]), "step 4 state agents nurse1 holding",
     "unknown name 'kit9'"),
])
def test_malformed_log_entries_are_named(change, where, what):
    with pytest.raises(StripsIntError) as caught:
        log_from_json(tampered(change), "bad.log.json")
    assert str(caught.value).startswith(f"bad.log.json: {where}: ")
    assert what in str(caught.value)


def test_check_cli_reports_a_bad_log_in_one_line(tmp_path):
    path = tmp_path / "bad.log.json"
    path.write_text(json.dumps(tampered(lambda s: s[3]["actions"].update(firefighter1="stay"))))
    done = subprocess.run([sys.executable, "-m", "strips_int.check", str(SAR), str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: {path}: step 3: the next state does not follow from the actions")


def test_check_refuses_a_scenario_naming_the_simulator(capsys):
    scenario = shipped("fire-door", "scenario")
    assert check_main([str(SAR), str(scenario)]) == 1
    assert f"{scenario}: is a SAR scenario, not a log: simulate it first (strips_int.grounders.sar.simulate " \
           "writes its log)" in capsys.readouterr().err


def test_a_log_needs_the_sar_domain(capsys):
    assert check_main([str(ROOT / "domains" / "overcooked.pddl"), str(shipped("fire-door", "log"))]) == 1
    assert "domain overcooked has no action clear-debris, drop, extinguish ...: use the sar domain" \
        in capsys.readouterr().err


# -- scenarios ----------------------------------------------------------------------------------

def scenario(**changes) -> dict:
    data = json.loads(shipped("fire-door", "scenario").read_text())
    data.update(changes)
    return data


@pytest.mark.parametrize("changes, where, what", [
    ({"grid": ["#####", "#F.x#", "#N.v#", "#####"]}, "grid row 1 column 3", "unknown character 'x'"),
    ({"grid": ["######", "#F.v~#", "######"]}, "agents nurse1", "is not drawn in the grid"),
    ({"legend": {"#": "firefighter1"}}, "legend", "must be one character other than"),
    ({"agents": {"firefighter1": {"role": "firefighter", "holding": ["ext1"], "script": ["run 3 4"]},
                 "nurse1": {"role": "nurse", "holding": ["kit1"]}}},
     "agents firefighter1 script[0]", "'run 3 4' is not a command"),
    ({"agents": {"firefighter1": {"role": "firefighter", "holding": ["ext1"], "script": ["go 0 0"]},
                 "nurse1": {"role": "nurse", "holding": ["kit1"]}}},
     "agents firefighter1 script[0]", "(0, 0) is not a floor or door cell"),
    ({"agents": {"firefighter1": {"role": "medic", "holding": ["ext1"]}, "nurse1": {"role": "nurse"}}},
     "agents firefighter1 role", "\"medic\" is not one of nurse, firefighter, police"),
    ({"agents": {"firefighter1": {"role": "firefighter", "holding": ["ext1"]},
                 "nurse1": {"role": "nurse", "holding": ["kit1", "ext1"]}}},
     "grid", "ext1 is in 2 places"),
])
def test_bad_scenarios_are_named(changes, where, what):
    with pytest.raises(StripsIntError) as caught:
        scenario_from_json(scenario(**changes), "bad.scenario.json")
    assert str(caught.value).startswith(f"bad.scenario.json: {where}: ") and what in str(caught.value)


def test_the_step_limit_is_said(tmp_path):
    path = tmp_path / "short.scenario.json"
    path.write_text(json.dumps(scenario(max_steps=5)))
    log, unfinished = simulate(load_scenario(path))
    assert len(log.actions) == 5 and unfinished == ("firefighter1", "nurse1")
    done = subprocess.run([sys.executable, "-m", "strips_int.grounders.sar.simulate", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["scenario"] == "fire-door"
    assert "note: stopped after max_steps=5 ticks; the scripts of firefighter1, nurse1 had not finished" in done.stderr


# -- the world's rules --------------------------------------------------------------------------

@pytest.fixture
def room():
    """Nurse and police on one cell beside a wall, a victim under them, a medkit lying next door."""
    world = World(grid=Grid(("#####", "#...#", "#####")), roles={"nurse1": "nurse", "police1": "police"},
                  kinds={"kit1": "medkit", "kit2": "medkit"}, victims={"v1": (1, 1)})
    state = State(agents={"nurse1": AgentState((1, 1), "up", ("kit1",)), "police1": AgentState((1, 1), "down")},
                  items={"kit2": (2, 1)}, fire=frozenset(), debris=frozenset())
    return world, state


def test_a_blocked_move_turns_without_a_domain_step(room):
    world, state = room
    after, atom = act(world, state, "nurse1", "left")
    assert atom is None and after.agents["nurse1"] == AgentState((1, 1), "left", ("kit1",))


def test_interact_searches_then_treats_before_handing_over(room):
    world, state = room
    state, first = act(world, state, "nurse1", "interact")
    state, second = act(world, state, "nurse1", "interact")
    state, third = act(world, state, "nurse1", "interact")
    assert [first, second, third] == [("search", "nurse1", "v1", "c1_1"), ("treat", "nurse1", "kit1", "v1", "c1_1"),
                                      ("give", "nurse1", "police1", "kit1", "c1_1")]
    assert state.used == {"kit1"} and state.agents["police1"].holding == ("kit1",)


def test_pick_up_then_drop(room):
    world, state = room
    state, _ = act(world, state, "police1", "right")
    state, took = act(world, state, "police1", "interact")
    state, left = act(world, state, "police1", "interact")
    assert (took, left) == (("pick-up", "police1", "kit2", "c2_1"), ("drop", "police1", "kit2", "c2_1"))
    assert state.items == {"kit2": (2, 1)}


def test_the_lifted_initial_state_is_the_scenario(sar):
    problem = scenario_problem(shipped("fire-door", "scenario"), sar)
    assert {("on-fire", "c6_2"), ("fire-free", "c7_2"), ("at", "nurse1", "c2_3"), ("has", "firefighter1", "ext1"),
            ("victim-at", "v1", "c10_2"), ("connected", "door5_2", "c6_2")} <= problem.init
    assert problem.goal == {("treated", "v1")}
    assert sum(t == "location" for t in problem.objects.values()) == 22


def test_rc_scenario_takes_a_domain_too(capsys):
    assert rc_main([str(SAR), "--scenario", str(shipped("kit-back-and-forth", "scenario"))]) == 0
    assert capsys.readouterr().out.startswith(f"{shipped('kit-back-and-forth', 'scenario')}: non-RC")
