"""CollabCapture and CollabEscape: games played by the LLM-Coordination benchmark's own code (driven by
scripted and random policies, recorded by the package's recorders) are read with no error, the package's
simulator writes the same episodes for the same policies and seeds, the help the paper is about is found
(Bob's press opening door 1-2 for Alice; a repair one survivor starts and the other completes), bad
episodes are one error naming file and turn, and rc is refused with its reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from strips_int import analyze
from strips_int.errors import StripsIntError
from strips_int.grounders import grounder_for, registered
from strips_int.grounders.collab import random_policy, read_episode, scripted, simulate_capture, simulate_escape
from strips_int.grounders.collab.grounder import NO_RC
from strips_int.model.domain import load_domain

from collab_published import BASELINE, CAPTURE_SCRIPT, ESCAPE_SCRIPT, play_capture, play_escape, published

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "collab"
STAY, WAIT = "Stay in current room", "wait"
DOOR_SETTINGS = [{1: a, 3: b} for a in (False, True) for b in (False, True)]
RANDOM_SEEDS = range(6)
ESCAPE_SEEDS = range(8)

needs_baseline = pytest.mark.skipif(not BASELINE.is_dir(), reason="the published LLM-Coordination code is absent")


def _capture_plans(kind: str, seed: int) -> tuple:
    if kind == "scripted":
        return scripted(CAPTURE_SCRIPT[0], STAY), scripted(CAPTURE_SCRIPT[1], STAY)
    return random_policy(2 * seed), random_policy(2 * seed + 1)


def _escape_plans(kind: str, seed: int) -> tuple:
    if kind == "scripted":
        return scripted(ESCAPE_SCRIPT[0], WAIT), scripted(ESCAPE_SCRIPT[1], WAIT)
    return random_policy(100 + seed), random_policy(200 + seed)


CAPTURE_GAMES = [(doors, kind, seed) for doors in DOOR_SETTINGS for kind, seeds in
                 (("scripted", [0]), ("random", RANDOM_SEEDS)) for seed in seeds]
ESCAPE_GAMES = [(kind, seed) for kind, seeds in (("scripted", [1]), ("random", ESCAPE_SEEDS)) for seed in seeds]


def _name(doors: dict, kind: str, seed: int) -> str:
    return f"capture-{int(doors[1])}{int(doors[3])}-{kind}-{seed}.jsonl"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every game above played by the published code (recorded) and by the simulator, with the published
    capture test's verdict and Escape's returned outcome."""
    if not BASELINE.is_dir():
        pytest.skip("the published LLM-Coordination code is absent")
    folder = tmp_path_factory.mktemp("collab")
    (folder / "published").mkdir()
    (folder / "simulated").mkdir()
    results = {}
    with published() as (cap, esc):
        for doors, kind, seed in CAPTURE_GAMES:
            name = _name(doors, kind, seed)
            results[name] = play_capture(cap, folder / "published" / name, doors, *_capture_plans(kind, seed))
            simulate_capture(folder / "simulated" / name, *_capture_plans(kind, seed), doors)
        for kind, seed in ESCAPE_GAMES:
            name = f"escape-{kind}-{seed}.jsonl"
            results[name] = play_escape(esc, folder / "published" / name, *_escape_plans(kind, seed), seed)
            simulate_escape(folder / "simulated" / name, *_escape_plans(kind, seed), seed)
    return {"folder": folder, "results": results}


def _turn_lines(path: Path) -> list[dict]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    head = {k: v for k, v in lines[0].items() if k != "source"}
    return [head, *lines[1:]]


@needs_baseline
def test_published_games_of_every_door_setting_and_escape_read_with_no_error(played: dict) -> None:
    folder, results = played["folder"], played["results"]
    outcomes = set()
    for name, result in results.items():
        game = "collab_capture" if name.startswith("capture") else "collab_escape"
        grounder = registered()[game]
        path = folder / "published" / name
        assert grounder_for(path) is grounder
        (trace,) = list(grounder.read(path, load_domain(game)))
        assert not isinstance(trace, StripsIntError), trace
        outcome = trace.meta["outcome"]
        outcomes.add(outcome)
        if game == "collab_capture":  # the recorder's outcome is the published capture test's
            turns, caught = result
            assert (outcome == "caught") == caught and trace.meta["turns"] == turns
        else:
            assert (outcome, trace.meta["turns"]) == tuple(result)
    assert {"caught", "not caught", "win", "loss"} <= outcomes


@needs_baseline
def test_simulator_writes_the_published_games_turn_for_turn(played: dict) -> None:
    folder = played["folder"]
    for name in played["results"]:
        assert _turn_lines(folder / "simulated" / name) == _turn_lines(folder / "published" / name), name


def _findings(path: Path, game: str):
    report = analyze(game, path)
    return report, [(f.giver.action, f.receiver.action, f) for f in report.interdependencies]


@needs_baseline
def test_alice_through_door_1_2_after_bob_opened_it_is_constructive_help_from_the_press(played: dict) -> None:
    """Every capture by Alice that went through door 1-2 when Bob's press last opened it has a constructive
    interdependence from that press; a move through the door while it was open from the start has none."""
    from_press = from_start = 0
    for name in played["results"]:
        if not name.startswith("capture"):
            continue
        report, found = _findings(played["folder"] / "published" / name, "collab_capture")
        steps = report.steps
        pairs = {(f.giver.index, f.receiver.index): f for _, _, f in found}
        alice_caught = any(s.action.name == "catch" and s.agent == "alice" for s in steps)
        for step in steps:
            if step.agent != "alice" or step.action.name != "move-through" or step.action.args[3] != "d12":
                continue
            opener = next((s for s in reversed(steps[:step.index]) if s.action.name.endswith("-door")
                           and s.action.args[2] == "d12"), None)
            if opener is None:  # open from the start: no step gave (open d12)
                assert ("open", "d12") in report.problem.init
                assert not any(f.receiver == step and ("open", "d12") in f.facts for _, _, f in found)
                from_start += 1
            elif opener.action.name == "open-door" and opener.agent == "bob" and alice_caught:
                finding = pairs[(opener.index, step.index)]
                assert finding.category == "constructive" and finding.facts == (("open", "d12"),)
                assert not finding.required  # Alice could have pressed the button herself
                from_press += 1
    assert from_press >= 1 and from_start >= 1


@needs_baseline
def test_escape_repair_started_by_one_and_completed_by_the_other_is_optional_help(played: dict) -> None:
    checked = 0
    for name in played["results"]:
        if not name.startswith("escape"):
            continue
        report, found = _findings(played["folder"] / "published" / name, "collab_escape")
        pairs = {(f.giver.index, f.receiver.index): f for _, _, f in found}
        for step in report.steps:
            if step.action.name != "finish-fix":
                continue
            room = step.action.args[1]
            start = next(s for s in reversed(report.steps[:step.index]) if s.action.name == "start-fix"
                         and s.action.args[1] == room)
            if start.agent == step.agent:
                assert (start.index, step.index) not in pairs
                continue
            finding = pairs[(start.index, step.index)]
            assert finding.facts == (("half-fixed", room),) and not finding.required
            assert finding.category == ("constructive" if report.meta["outcome"] == "win" else "irrelevant")
            checked += 1
    assert checked >= 1


def test_shipped_examples_are_the_published_code_recorded() -> None:
    """The episodes in examples/collab are those tests/collab_published.py writes (the published code)."""
    if not BASELINE.is_dir():
        pytest.skip("the published LLM-Coordination code is absent")
    from collab_published import write_examples

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        write_examples(Path(folder))
        for path in EXAMPLES.glob("*.jsonl"):
            assert (Path(folder) / path.name).read_text() == path.read_text()


# Attempts ----------------------------------------------------------------------------------------------


def test_a_move_towards_a_closed_door_is_an_attempt(tmp_path: Path) -> None:
    path = tmp_path / "blocked.jsonl"
    simulate_capture(path, scripted([2], STAY), scripted([], STAY), {1: False, 3: True})
    report = analyze("collab_capture", path)
    first = report.attempts[0]
    assert (first.t, first.agent, str(first.action)) == (1, "alice", "(move-through alice r1 r2 d12)")
    assert "attempts" not in report.meta
    assert all(s.agent != "alice" for s in report.steps if s.t == 1)
    # the door was closed from the start, by no one: no block (definitions section 13)
    assert report.blocks == () and report.agent_metrics()["bob"]["blocks_given"] == 0


def test_a_move_through_the_door_the_partner_just_closed_is_a_block_by_the_press(tmp_path: Path) -> None:
    path = tmp_path / "closed.jsonl"
    simulate_capture(path, scripted([STAY, 2], STAY), scripted(["Press button in room 9"], STAY), {1: True, 3: False},
                     start={"Alice": 1, "Bob": 9, "Thief": 4})
    report = analyze("collab_capture", path)
    assert [(b.giver.t, str(b.giver.action), b.attempt.t, str(b.attempt.action), b.facts) for b in report.blocks] == [
        (1, "(close-door bob r9 d12)", 2, "(move-through alice r1 r2 d12)", ("(open d12)",))]
    metrics = report.agent_metrics()
    assert (metrics["bob"]["blocks_given"], metrics["alice"]["blocks_received"]) == (1, 1)


def test_a_fix_of_the_generator_the_partner_just_repaired_is_a_block_by_the_repair(tmp_path: Path) -> None:
    path = tmp_path / "repaired.jsonl"
    fix = "fix generator in room 1"
    simulate_escape(path, scripted([fix, WAIT, fix], WAIT), scripted([WAIT, fix], WAIT), seed=0,
                    start={"Alice": "room 1", "Bob": "room 1", "Killer": "room 6"})
    report = analyze("collab_escape", path)
    assert [(b.giver.t, str(b.giver.action), b.attempt.t, str(b.attempt.action), b.facts) for b in report.blocks] == [
        (2, "(finish-fix bob room1)", 3, "(start-fix alice room1)", ("(not (fixed room1))",))]


def test_a_fix_of_a_repaired_generator_is_an_attempt(tmp_path: Path) -> None:
    path = tmp_path / "refix.jsonl"
    fixes = ["fix generator in room 1"] * 3
    simulate_escape(path, scripted(fixes, WAIT), scripted([], WAIT), seed=0)
    trace = next(iter(registered()["collab_escape"].read(path, load_domain("collab_escape"))))
    assert (3, "alice", "(start-fix alice room1)") in [(a.t, a.agent, str(a.action)) for a in trace.attempts]
    assert json.loads(path.read_text().splitlines()[3])["after"]["generators"]["room 1"] == {"fix_count": 3,
                                                                                             "fixed": True}


# Bad episodes: one error each, naming file and turn --------------------------------------------------


def _rewrite(source: Path, target: Path, turn: int, change) -> Path:
    lines = source.read_text().splitlines()
    row = json.loads(lines[turn])
    change(row)
    lines[turn] = json.dumps(row)
    target.write_text("\n".join(lines) + "\n")
    return target


def _error(path: Path, game: str) -> str:
    results = list(registered()[game].read(path, load_domain(game)))
    assert len(results) == 1 and isinstance(results[0], StripsIntError)
    return str(results[0])


CAPTURE_EXAMPLE = EXAMPLES / "capture-doors-closed.jsonl"
ESCAPE_EXAMPLE = EXAMPLES / "escape-seed1.jsonl"


def test_a_move_to_a_room_not_next_to_the_player_is_an_error_naming_the_turn(tmp_path: Path) -> None:
    path = _rewrite(CAPTURE_EXAMPLE, tmp_path / "far.jsonl", 1, lambda r: r["actions"].update(Alice=5))
    assert _error(path, "collab_capture") == f"{path}: turn 1 (line 2): Alice: room 5 is not next to room 1"


def test_a_press_outside_a_button_room_is_an_error_naming_the_turn(tmp_path: Path) -> None:
    path = _rewrite(CAPTURE_EXAMPLE, tmp_path / "press.jsonl", 1,
                    lambda r: r["actions"].update(Alice="Press button in room 9"))
    assert _error(path, "collab_capture") == (f"{path}: turn 1 (line 2): Alice: 'Press button in room 9' in room 1, "
                                              "which has no button")


def test_a_state_that_does_not_follow_is_an_error_naming_the_turn(tmp_path: Path) -> None:
    path = _rewrite(CAPTURE_EXAMPLE, tmp_path / "doors.jsonl", 2, lambda r: r["after"]["doors"].update({"1-2": False}))
    message = _error(path, "collab_capture")
    assert message.startswith(f"{path}: turn 2 (line 3): the state after does not follow: by the rules it is ")
    path = _rewrite(ESCAPE_EXAMPLE, tmp_path / "killer.jsonl", 2, lambda r: r["killer"].update(to="room 9"))
    assert _error(path, "collab_escape").startswith(f"{path}: turn 2 (line 3): the killer")
    path = _rewrite(ESCAPE_EXAMPLE, tmp_path / "fix.jsonl", 1,
                    lambda r: r["after"]["generators"]["room 1"].update(fix_count=2, fixed=True))
    assert _error(path, "collab_escape").startswith(f"{path}: turn 1 (line 2): the state after does not follow")


def test_a_truncated_episode_is_an_error_naming_the_turn(tmp_path: Path) -> None:
    text = ESCAPE_EXAMPLE.read_text()
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: text.index("\n", text.index('"turn": 5')) - 40])
    assert _error(cut, "collab_escape").startswith(f"{cut}: turn 5 (line 6): malformed JSON")
    assert "truncated" in _error(cut, "collab_escape")
    whole_lines = tmp_path / "lines.jsonl"
    whole_lines.write_text("".join(text.splitlines(keepends=True)[:4]))
    assert _error(whole_lines, "collab_escape") == (f"{whole_lines}: turn 3 (line 4): truncated: the episode ends "
                                                    "without an outcome (no 'caught'/'not caught'/'win'/'loss')")


def test_a_turn_after_the_end_is_an_error(tmp_path: Path) -> None:
    lines = CAPTURE_EXAMPLE.read_text().splitlines()
    path = tmp_path / "after.jsonl"
    path.write_text("\n".join(lines + [lines[-1]]) + "\n")
    assert _error(path, "collab_capture").startswith(f"{path}: turn 4 (line 5): the game ended at turn 3 (caught)")


# Command lines -----------------------------------------------------------------------------------------


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "strips_int", *args], capture_output=True, text=True, cwd=cwd)


def test_check_names_the_bad_turn_and_fails(tmp_path: Path) -> None:
    path = _rewrite(CAPTURE_EXAMPLE, tmp_path / "far.jsonl", 1, lambda r: r["actions"].update(Alice=5))
    done = _cli("check", "collab_capture", str(path))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "turn 1 (line 2): Alice: room 5 is not next to room 1" in done.stdout + done.stderr


def test_evaluate_groups_games_by_scenario(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for doors in DOOR_SETTINGS:
        simulate_capture(games / _name(doors, "scripted", 0), *_capture_plans("scripted", 0), doors)
    done = _cli("evaluate", "collab_capture", str(games), "--out", str(tmp_path / "out"), "--group-by", "scenario",
                "--jobs", "1", "--resamples", "10")
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "out" / "games.csv").read_text()
    for label in ("doors 1-2 closed, 3-4 closed", "doors 1-2 open, 3-4 open"):
        assert label in rows


@pytest.mark.parametrize("game,flag", [("collab_capture", "--capture"), ("collab_escape", "--escape")])
def test_rc_is_refused_with_its_reason(game: str, flag: str) -> None:
    done = _cli("rc", game, flag, "start")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert NO_RC[game] in done.stdout + done.stderr


def test_episode_reader_gives_turns_and_outcome() -> None:
    episode = read_episode(CAPTURE_EXAMPLE)
    assert (episode.game, episode.outcome, len(episode.turns)) == ("collab_capture", "caught", 3)


# Any damage to an episode: an episode or one StripsIntError, never another exception ---------------------

_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
    ["room 1", "room 7", "wait", "Stay in current room", "Press button in room 9", "", "Alice", "Bob"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["Alice", "Bob", "Thief", "Killer", "1-2", "3-4", "room 1", "room 6", "from", "to", "fix_count", "fixed",
         "target", "can_see", "random"]), inner, max_size=3), max_leaves=6)
_KEYS = ["turn", "before", "actions", "thief", "killer", "after", "outcome", "rooms", "doors", "generators",
         "exit_gate", "scenario", "max_turns", "rules", "game"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(example=CAPTURE_EXAMPLE, line=1, path=["before", "rooms", "Alice"], value=[1])
@example(example=ESCAPE_EXAMPLE, line=2, path=["turn"], value=True)
@given(example=st.sampled_from([CAPTURE_EXAMPLE, ESCAPE_EXAMPLE]), line=st.integers(0, 8),
       path=st.lists(st.sampled_from(_KEYS), min_size=1, max_size=3), value=_JSON)
def test_a_damaged_episode_is_read_or_refused_with_one_error(tmp_path: Path, example: Path, line: int,
                                                             path: list, value: object) -> None:
    lines = example.read_text().splitlines()
    row = json.loads(lines[line % len(lines)])
    target = row
    for key in path[:-1]:
        if not isinstance(target.get(key), dict):
            break
        target = target[key]
    target[path[-1]] = value
    lines[line % len(lines)] = json.dumps(row)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join(lines) + "\n")
    try:
        read_episode(damaged)
    except StripsIntError as exc:
        assert str(exc).startswith(f"{damaged}: ")


def test_check_draws_the_timeline_and_writes_the_html_report(tmp_path: Path) -> None:
    done = _cli("check", "collab_escape", str(ESCAPE_EXAMPLE), "--html", str(tmp_path / "report.html"),
                "--plot", str(tmp_path / "timeline.png"))
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "report.html").read_text()
    assert "(start-fix alice room1)" in html and "(finish-fix bob room1)" in html
    assert (tmp_path / "timeline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
