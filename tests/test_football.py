"""Google Research Football: gfootball 2.10.2's own episode dumps (``../shared/data/grf``), read with the
restricted unpickler, checked step by step, lifted into domains/football.pddl, and what help means there.

The counts the analysis must match are computed here again from the raw observations (who owns the
ball at each step), by code that shares nothing with the lifter; damaged dumps are real dumps with one
thing broken.
"""

from __future__ import annotations

import os
import sys
import pickle
from pathlib import Path

import numpy as np
import pytest
from helpers import SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strips_int import StripsIntError, analyze, load_domain
from strips_int.analysis.report import Report
from strips_int.cli.check import main as check_main
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.grounders import grounder_for, read_input
from strips_int.grounders.football.dump import pickled_steps

GRF = SHARED_DATA / "grf"
DUMPS = sorted(GRF.rglob("*.dump")) if GRF.is_dir() else []
FULL_GAME = GRF / "11_vs_11_easy_stochastic" / "episode-1.dump"
AI_ACADEMY = GRF / "academy_3_vs_1_with_keeper" / "episode-1.dump"
AGENTS = GRF / "academy_3_vs_1_with_keeper-agents"
needs_data = pytest.mark.skipif(not FULL_GAME.is_file(), reason="shared gfootball dumps absent")
PASS_BUTTONS = {"long_pass", "high_pass", "short_pass"}


@pytest.fixture(scope="module")
def domain():
    return load_domain("football")


def analysed(domain, path: Path, **options) -> Report:
    (trace,) = list(read_input(path, domain, **options))
    assert not isinstance(trace, StripsIntError), trace
    return analyze(domain, trace)


def raw(path: Path) -> list[dict]:
    """Each step's observation dict as the dump holds it."""
    return [step["observation"] for step in pickled_steps(path)]


def team_agents(observations: list[dict], team: int) -> set[int]:
    """The players the study is about: those an agent controlled, else the whole team."""
    key = ("left", "right")[team] + "_agent_controlled_player"
    controlled = {int(p) for o in observations for p in o[key]}
    return controlled or set(range(len(observations[0][("left_team", "right_team")[team]])))


def owner_changes(observations: list[dict], team: int) -> dict[str, int]:
    """From the owners alone: hand-overs between two of the team's agents (ZSC-Eval's completed passes),
    those with no whistle and no goal between (the passes the analysis links), and assists."""
    agents = team_agents(observations, team)
    counts = {"zsc": 0, "linked": 0, "assists": 0}
    last = None  # (team, player, step) of the last step someone owned the ball
    owners = []  # every owned step's (team, player)
    for k, o in enumerate(observations):
        side, who = int(o["ball_owned_team"]), int(o["ball_owned_player"])
        if k and o["score"][team] > observations[k - 1]["score"][team]:
            scorer = owners[-1] if owners else None
            before = [w for w in owners if w != scorer]
            if scorer and scorer[0] == team and scorer[1] in agents and before and before[-1][0] == team \
                    and before[-1][1] in agents:
                counts["assists"] += 1
        if side < 0:
            continue
        if last and last[0] == side == team and last[1] != who and {last[1], who} <= agents:
            counts["zsc"] += 1
            between = range(last[2] + 1, k + 1)
            whistle = any(observations[i]["game_mode"] != 0 and observations[i - 1]["game_mode"] == 0
                          or observations[i]["score"] != observations[i - 1]["score"] for i in between)
            counts["linked"] += not whistle
        last = (side, who, k)
        owners.append((side, who))
    return counts


@needs_data
@pytest.mark.parametrize("path", DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("team", [0, 1])
def test_each_real_dump_reads_and_its_counts_equal_the_owner_changes(domain, path, team):
    assert grounder_for(path).name == "football"
    report = analysed(domain, path, team=("left", "right")[team])
    expected = owner_changes(raw(path), team)
    assert report.counts["interdependencies"] == expected["linked"]
    assert report.meta["completed_passes"] == expected["zsc"]
    assert report.meta["assists"] == expected["assists"]
    for finding in report.interdependencies:  # every interdependence is a pass: a kick, then a team-mate's gain
        assert (finding.giver.action.name, finding.receiver.action.name) == ("kick", "gain")


@needs_data
def test_the_full_game_has_its_score_and_passes(domain):
    report = analysed(domain, FULL_GAME)
    assert (report.meta["score_for"], report.meta["score_against"], report.meta["goals"]) == (2, 1, 2)
    assert (report.meta["completed_passes"], report.meta["assists"], report.counts["interdependencies"]) == (44, 2, 40)
    assert (report.counts["constructive"], report.counts["looping"]) == (3, 6)
    assert report.meta["events_from"] == "ball"  # the built-in AI records no actions


@needs_data
@pytest.mark.parametrize("team", ["left", "right"])
def test_each_goal_ends_a_constructive_chain(domain, team):
    """Every goal whose scorer got the ball from a team-mate's pass: that pass, and each pass of the same
    spell before it, is constructive; and every constructive pass leads to a goal of the team."""
    report = analysed(domain, FULL_GAME, team=team)
    steps = report.steps
    scored = [s for s in steps if s.action.name == "score"]
    assert len(scored) == report.meta["score_for"]
    by_receiver = {f.receiver.index: f for f in report.interdependencies}
    chains = 0
    for goal in scored:
        shot = steps[goal.index - 1]
        assert shot.action.name in ("kick", "other-kick")  # the ball the last owner left loose went in
        scorer = shot.action.args[0]
        gained = max(s.index for s in steps[:shot.index] if s.action.args[:1] == (scorer,) and "gain" in s.action.name)
        finding = by_receiver.get(gained)
        while finding is not None:
            assert finding.category == "constructive", finding.why
            chains += 1
            gained = max(s.index for s in steps[:finding.giver.index]
                         if s.action.args[:1] == finding.giver.action.args[:1] and "gain" in s.action.name)
            finding = by_receiver.get(gained)
    assert chains == report.counts["constructive"]
    assert chains == (3 if team == "left" else 0)


@needs_data
def test_agent_dumps_count_presses_as_zsc_eval_does(domain):
    """ZSC-Eval's passes and shots are the owner's presses: counted here from debug.action of step k, chosen
    from the observation of step k - 1 by the controlled players listed there."""
    for path in sorted(AGENTS.glob("*.dump")):
        steps = list(pickled_steps(path))
        presses = {"passes": 0, "shots": 0}
        for before, now in zip(steps, steps[1:]):
            o = before["observation"]
            owner = int(o["ball_owned_player"]) if o["ball_owned_team"] == 0 else None
            for player, action in zip(o["left_agent_controlled_player"], now["debug"]["action"]):
                if player == owner:
                    presses["passes"] += action.name in PASS_BUTTONS
                    presses["shots"] += action.name == "shot"
        report = analysed(domain, path)
        assert {k: report.meta[k] for k in presses} == presses
        assert report.meta["events_from"] == "actions"
        assert report.meta["agents"] == ["left01", "left02", "left03"]  # the dump's controlled players
        assert analysed(domain, path, football_players="all").meta["agents"] == ["left00", "left01", "left02", "left03"]


@needs_data
def test_a_chosen_shot_lost_to_a_tackle_is_a_failed_kick(domain):
    report = analysed(domain, AGENTS / "episode-1.dump")
    assert report.meta["failed_kick_choices"] == [{"t": 18, "chosen_at": 17, "agent": "left01", "chose": "shot",
                                                  "action": "(kick left01 ball final-third final-third)"}]


@needs_data
def test_check_and_evaluate_read_every_dump(tmp_path, capsys):
    assert check_main(["football", str(AI_ACADEMY)]) == 0
    assert "interdependencies: 2 (constructive 0, non-constructive 2: looping 2" in capsys.readouterr().out
    out = tmp_path / "out"
    assert evaluate_main(["football", str(GRF), "--out", str(out), "--jobs", "1"]) == 0
    import pandas as pd

    games = pd.read_csv(out / "games.csv")
    assert len(games) == len(DUMPS) and games["error"].isna().all()
    assert {"passes", "completed_passes", "shots", "goals", "assists"} <= set(games.columns)


# Damaged dumps: one error naming the file and the step, and nothing from the file runs.


def written(path: Path, steps: list[dict]) -> Path:
    path.write_bytes(b"".join(pickle.dumps(step, protocol=4) for step in steps))
    return path


def one_error(domain, path: Path) -> str:
    results = list(read_input(path, domain))
    assert len(results) == 1 and isinstance(results[0], StripsIntError), results
    return str(results[0])


@needs_data
def test_a_truncated_dump_is_one_error_naming_its_step(domain, tmp_path):
    data = AI_ACADEMY.read_bytes()
    whole = len(list(pickled_steps(AI_ACADEMY)))
    cut = tmp_path / "cut.dump"
    cut.write_bytes(data[:-7])
    assert one_error(domain, cut) == f"{cut}: step {whole - 1}: the stream ends inside this step's pickle " \
                                     "(a truncated dump)"


class _Runs:
    """A pickle that would run a shell command when loaded by an unrestricted unpickler."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


@needs_data
def test_a_pickle_naming_a_class_is_refused_and_runs_nothing(domain, tmp_path, capsys):
    sentinel = tmp_path / "ran"
    steps = [step for step in pickled_steps(AI_ACADEMY)][:5]
    steps[3]["debug"]["action"] = [_Runs(f"touch {sentinel}")]
    path = written(tmp_path / "evil.dump", steps)
    assert one_error(domain, path) == f"{path}: step 3: refusing class posix.system: a dump holds numpy arrays " \
                                      "and gfootball's actions only"
    assert check_main(["football", str(path)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "step 3" in err
    assert not sentinel.exists()


@needs_data
def test_an_object_array_a_large_reconstruction_and_dtype_flags_are_refused(domain, tmp_path):
    steps = [step for step in pickled_steps(AI_ACADEMY)][:3]
    steps[1]["observation"]["ball"] = np.array([print, 0, 0], dtype=object)
    path = written(tmp_path / "o.dump", steps)
    assert one_error(domain, path) == f"{path}: step 1: numpy dtype 'O8': a dump holds numbers and booleans only"
    steps[1]["observation"]["ball"] = np.array(["a", "b"])
    assert "step 1: numpy dtype 'U1'" in one_error(domain, written(tmp_path / "s.dump", steps))
    shell = pickle.dumps(np.zeros(3), protocol=4)
    assert shell.count(b"K\x00\x85") == 1  # the shape (0,) numpy reconstructs into
    path = tmp_path / "big.dump"
    path.write_bytes(shell.replace(b"K\x00\x85", b"J\x00\x00\x00\x40\x85"))  # (2**30,): a 1 GiB allocation
    assert one_error(domain, path) == f"{path}: step 0: an array reconstruction that is not numpy's (ndarray, (0,), " \
                                      "b'b')"
    path = tmp_path / "flags.dump"  # numpy's own __setstate__ would take flags that make f8 data object pointers
    plain_flags = b"J\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00t"  # the dtype state's last items: -1, -1, flags 0
    path.write_bytes(shell.replace(plain_flags, plain_flags.replace(b"K\x00", b"K\x3f")))
    assert one_error(domain, path) == f"{path}: step 0: numpy dtype state a list of 8 items is not a plain number's"


@needs_data
@pytest.mark.parametrize("damage, message", [
    (lambda s: s[40]["observation"].update(ball_owned_team=0, ball_owned_player=4),
     "step 40: ball_owned_player 4 is out of range: the left team has 4 players"),
    (lambda s: s[40]["observation"].update(ball_owned_team=0, ball_owned_player=3),
     "step 40: owner change to left03 with no ball movement to them: they are 0.32 from it (an owner is within 0.06)"),
    (lambda s: [step["observation"].update(score=[1, 0]) for step in s[70:]] + [s[70].update(reward=1)],
     "step 70: a goal for the left team, but the ball was at (0.55, -0.03) the step before, not at the goal (x=1)"),
    (lambda s: s[70]["observation"].update(steps_left=3),
     "step 70: steps_left 3 after 331: it counts down by one a step (a step missing or repeated?)"),
])
def test_a_step_that_contradicts_the_game_is_one_error_naming_it(domain, tmp_path, damage, message):
    steps = list(pickled_steps(AI_ACADEMY))
    damage(steps)
    path = written(tmp_path / "damaged.dump", steps)
    assert one_error(domain, path) == f"{path}: {message}"


@needs_data
def test_a_goal_without_a_score_change_is_one_error_naming_its_step(domain, tmp_path):
    """The full game's first goal (step 79) with the score change taken out: the ball went from the goal mouth
    to the centre spot."""
    steps = []
    for k, step in zip(range(100), pickled_steps(FULL_GAME)):
        if k >= 79:
            step["observation"]["score"], step["reward"] = [0, 0], 0
        steps.append(step)
    path = written(tmp_path / "no-score.dump", steps)
    assert one_error(domain, path) == f"{path}: step 79: a goal without a score change: the ball was in the goal " \
                                      "mouth at (1.001, -0.029, 0.11) at step 78, then at (0.00, -0.00), and the " \
                                      "score stays [0, 0]"



@needs_data
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.tuples(st.integers(0, 39_000), st.binary(min_size=1, max_size=4)), min_size=1, max_size=4))
def test_damaged_bytes_give_a_trace_or_one_error_never_an_internal_one(domain, tmp_path, cuts):
    """Bytes of a real agents' dump overwritten at random: each result is a trace or a StripsIntError naming
    the file, never an internal error (a crash of the reader)."""
    data = bytearray((AGENTS / "episode-1.dump").read_bytes())
    for at, chunk in cuts:
        data[at:at + len(chunk)] = chunk
    path = tmp_path / "fuzzed.dump"
    path.write_bytes(bytes(data))
    for result in read_input(path, domain):
        if isinstance(result, StripsIntError):
            assert str(result).startswith(f"{path}:") and "internal error" not in str(result), result
        else:
            analyze(domain, result).to_dict()


@needs_data
def test_a_dump_that_opens_with_a_set_piece_reads_as_a_restart(domain, tmp_path):
    """As a corner or free-kick scenario starts: game_mode not normal until the taker has the ball."""
    steps = list(pickled_steps(AI_ACADEMY))
    for step in steps[:2]:
        step["observation"]["game_mode"] = 4
    report = analysed(domain, written(tmp_path / "corner.dump", steps))
    assert ("dead", "ball") in report.problem.init and report.steps[0].action.name == "restart"
    assert report.counts["looping"] == 2


@needs_data
def test_each_stoppage_restarts_with_the_set_piece_game_mode_names(domain):
    """The full game's restarts by kind: one per goal (a kick-off) and one per step where game_mode leaves
    normal play (1 kick-off, 2 goal kick, 3 free kick, 4 corner, 5 throw-in, 6 penalty)."""
    from collections import Counter

    observations = raw(FULL_GAME)
    names = {1: "kick-off", 2: "goal-kick", 3: "free-kick", 4: "corner", 5: "throw-in", 6: "penalty"}
    expected = Counter(names[o["game_mode"]] for before, o in zip(observations, observations[1:])
                       if before["game_mode"] == 0 and o["game_mode"] != 0)
    expected["kick-off"] += sum(o["score"] != before["score"] for before, o in zip(observations, observations[1:]))
    report = analysed(domain, FULL_GAME)
    assert Counter(s.action.args[1] for s in report.steps if s.action.name == "restart") == expected
    assert expected == {"kick-off": 3, "goal-kick": 4, "free-kick": 5, "throw-in": 1}


class _GfootballCoreAction:
    """gfootball's CoreAction as it pickles (a class of module gfootball.env.football_action_set, its fields
    as the instance dict), for dumps the tests write."""

    __module__, __qualname__ = "gfootball.env.football_action_set", "CoreAction"

    def __init__(self, name: str) -> None:
        self._name, self._sticky, self._directional = name, False, False


@pytest.fixture
def gfootball_actions(monkeypatch):
    """Pickling writes _GfootballCoreAction as gfootball.env.football_action_set.CoreAction."""
    import types

    for name in ("gfootball", "gfootball.env", "gfootball.env.football_action_set"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules["gfootball.env.football_action_set"].CoreAction = _GfootballCoreAction
    return _GfootballCoreAction


def mirrored(step: dict, actions: type) -> dict:
    """A step with the teams swapped: the right team plays the left's game, attacking towards x = -1."""
    o = step["observation"]
    flip = {key: (key.replace("left", "@").replace("right", "left").replace("@", "right")
                  if key.startswith(("left_", "right_")) else key) for key in o}
    new = {flip[key]: value for key, value in o.items()}
    for key in ("ball", "ball_direction", "left_team", "right_team", "left_team_direction", "right_team_direction"):
        new[key] = new[key] * np.array([-1, -1, 1][:new[key].shape[-1]])
    new["ball_owned_team"] = {-1: -1, 0: 1, 1: 0}[int(o["ball_owned_team"])]
    new["score"] = list(reversed(o["score"]))
    return {**step, "observation": new, "reward": -step["reward"],
            "debug": {**step["debug"], "action": [actions(a.name) for a in step["debug"]["action"]]}}


@needs_data
@pytest.mark.parametrize("path", sorted(AGENTS.glob("*.dump")) + [FULL_GAME], ids=lambda p: p.parent.name + p.name)
def test_the_right_team_mirrored_reads_as_the_left_one(domain, tmp_path, gfootball_actions, path):
    """A dump with the teams swapped (the agents on the right, their actions after the left's none) analysed
    for the right team gives the left team's counts and events, player for player."""
    left = analysed(domain, path)
    right = analysed(domain, written(tmp_path / "mirrored.dump", [mirrored(s, gfootball_actions)
                                                                 for s in pickled_steps(path)]), team="right")
    assert right.counts == left.counts
    assert right.meta["agents"] == [a.replace("left", "right") for a in left.meta["agents"]]
    for key in ("passes", "shots", "completed_passes", "goals", "assists", "failed_kicks", "score_for"):
        assert right.meta[key] == left.meta[key], key
    swapped = [str(s.action).replace("left", "@").replace("right", "left").replace("@", "right") for s in right.steps]
    assert swapped == [str(s.action) for s in left.steps]
