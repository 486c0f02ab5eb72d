"""Defects of earlier rounds, one per kind, each through the real command line in a child process.

The promise: exit 1 (a game failed) or 2 (bad domain or usage), exactly one
error line naming the bad file (or option), never a traceback, within 60 s of CPU (wall time only guards
against a hang: the machine may be loaded).
The batch, worker-kill and manifest cases are ``evaluate``'s own tests.
"""

from __future__ import annotations

import csv
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from fuzz_inputs import (BIG_NUMBER, CLI_SECONDS, DEEP_ARRAY, DOMAINS, EXAMPLES, GRID, KIT_PASS, KIT_PROBLEM, check_cli,
                         csv_rows, csv_text, delivery_game, huge_string_pickle, json_text, pickle_bytes,
                         reset_pddl_parsers, rollout_list, run_cli, shared_halves, user_study_game, written)
from helpers import LOADED, SHARED_DATA, children_cpu



def _kit_pass(**changes: Any) -> str:
    """The kit-pass example trace with top-level keys changed, as JSON text."""
    return json.dumps({**json.loads(KIT_PASS.read_text()), **changes})


def one_error(result: subprocess.CompletedProcess, names: str, codes: tuple[int, ...] = (1, 2)) -> str:
    """The one error line of ``result`` (exit in ``codes``, no traceback), which must mention ``names``."""
    lines = check_cli(result, codes)
    assert len(lines) == 1, f"expected one error line, found {lines} (exit {result.returncode})"
    assert names in lines[0], f"the error does not name {names}: {lines[0]}"
    return lines[0]


@pytest.fixture(autouse=True)
def _fresh_parsers():
    """Each test leaves strips_int's PDDL parsers as it found them (see ``reset_pddl_parsers``)."""
    yield
    reset_pddl_parsers()


@pytest.fixture
def grid(tmp_path) -> Path:
    path = written(tmp_path / "scripted.grid", GRID)
    return path


def check_game(path: Path, grid: Path) -> subprocess.CompletedProcess:
    return run_cli("strips_int.check", "overcooked", str(path), "--grid", str(grid))


# ---------------------------------------------------------------- Overcooked games (episode JSON)

def _study(change: Callable[[dict], None]) -> str:
    """The synthesized user-study game, changed, as JSON text."""
    game = user_study_game()
    change(game)
    return json_text(game)


def _set(path: tuple, value: Any) -> Callable[[dict], None]:
    def change(game: dict) -> None:
        node = game
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _halve(game: dict) -> None:
    states, actions = game["ep_states"][0], game["ep_actions"][0]
    del states[len(states) // 2:], actions[len(actions) // 2:]


def _third_player(game: dict) -> None:
    state = game["ep_states"][0][2]
    state["players"].append(dict(state["players"][0], position=[3, 1]))


def _drop_actions(game: dict) -> None:
    del game["ep_actions"]


GAMES = {
    "deep-array": _study(_set(("ep_rewards",), DEEP_ARRAY)),
    "5000-digit-number": _study(_set(("ep_rewards", 0, 0), BIG_NUMBER)),
    "cook-time-twenty": _study(_set(("mdp_params", 0, "cook_time"), "twenty")),
    "cook-time-nan": _study(_set(("mdp_params", 0, "cook_time"), float("nan"))),
    "no-ep-actions": _study(_drop_actions),
    "cut-in-half-rewards-kept": _study(_halve),
    "objects-null": _study(_set(("ep_states", 0, 1, "objects"), None)),
    "ep-actions-5": _study(_set(("ep_actions",), 5)),
    "player-count-changes": _study(_third_player),
    "rewards-zeroed": json_text(delivery_game(reward=0)),
}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_overcooked_game(tmp_path, grid, kind):
    path = written(tmp_path / f"{kind}_human=0.json", GAMES[kind])
    one_error(check_game(path, grid), str(path), codes=(1,))


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data (third-party games) is absent")
def test_real_game_with_its_rewards_zeroed(tmp_path):
    """A user-study game delivering 6 soups (reward 120) with every logged reward set to 0."""
    source = SHARED_DATA / "user-study" / "cole" / "5_10_2025_15_21_40_human=0.json"
    data = json.loads(source.read_text())
    assert sum(data["ep_rewards"][0]) == 120
    data["ep_rewards"][0] = [0] * len(data["ep_rewards"][0])
    path = written(tmp_path / source.name, json.dumps(data))
    one_error(run_cli("strips_int.check", "overcooked", str(path)), str(path), codes=(1,))


ROLES_LIST = "meta.roles: must be an object {agent: role name}, found a list of 2 items"


def test_meta_roles_as_a_list(tmp_path):
    """A trace whose ``meta.roles`` is a list (the readers and tables expect {agent: role}): its error row is the
    trace's error, not an internal one (an AttributeError in the row)."""
    meta = {"roles": ["firefighter", "nurse"]}
    path = written(tmp_path / "roles.trace.json", _kit_pass(problem=str(KIT_PROBLEM), meta=meta))
    out = tmp_path / "out"
    result = run_cli("strips_int.evaluate", "sar", str(path), str(KIT_PASS), "--out", str(out), "--jobs", "1",
                     "--resamples", "10")
    assert one_error(result, str(path), codes=(1,)) == f"error: {path}: {ROLES_LIST}"
    with (out / "games.csv").open(newline="") as handle:
        rows = {row["source"]: row for row in csv.DictReader(handle)}
    assert rows[str(path)]["error"] == f"{path}: {ROLES_LIST}" and not rows[str(KIT_PASS)]["error"]


@pytest.mark.parametrize("command", [["strips_int.check", "sar"], ["strips_int.plot", "timeline", "sar"],
                                     ["strips_int.plot", "agents", "sar"]])
def test_meta_roles_as_a_list_in_check_and_plot(tmp_path, command):
    """plot gave ``internal error: TypeError`` (check --html an AttributeError): the same one line now."""
    roles = {"roles": ["firefighter", "nurse"]}
    path = written(tmp_path / "roles.trace.json", _kit_pass(problem=str(KIT_PROBLEM), meta=roles))
    out = ["--out", str(tmp_path / "figure.png")] if command[0] == "strips_int.plot" else ["--html", str(tmp_path)]
    line = one_error(run_cli(*command, str(path), *out), str(path))
    assert line == f"error: {path}: {ROLES_LIST}"


# ---------------------------------------------------------------- Overcooked games (rollout pickles, CSV)

def _rollout(events=None, held=None) -> bytes:
    data = rollout_list(3)
    if events is not None:
        data[2] = events
    if held is not None:
        data[3]["players"][0]["held_object"] = held
    return pickle_bytes(data)


PICKLES = {
    "huge-string": huge_string_pickle(),
    "shared-halves-held-object": _rollout(held=shared_halves(60)),
    "delivery-minus-5": _rollout(events=[{"delivery": -5}, {"delivery": 0}]),
    # found by the fuzz suite: opcodes appending to a number; a frame longer than any file
    "append-to-a-number": pickle.PROTO + b"\x04" + pickle.BININT1 + b"\x01" + pickle.BININT1 + b"\x02" + pickle.APPEND
    + pickle.STOP,
    "frame-of-2-to-the-64": pickle.PROTO + b"\x04" + pickle.FRAME + b"\xff" * 8 + pickle.NONE + pickle.STOP,
}


@pytest.mark.parametrize("kind", sorted(PICKLES))
def test_rollout_pickle(tmp_path, grid, kind):
    path = written(tmp_path / f"{kind}__traj_0_1.pkl", PICKLES[kind])
    one_error(check_game(path, grid), str(path), codes=(1,))


def test_csv_field_over_the_csv_module_limit(tmp_path):
    """A CSV cell of 140,000 characters (Python's csv refuses fields over 131,072)."""
    path = written(tmp_path / "trials.csv", csv_text(csv_rows()).replace("scripted", "s" * 140_000, 1))
    one_error(run_cli("strips_int.check", "overcooked", str(path)), str(path), codes=(1,))


def test_csv_row_shorter_than_its_header(tmp_path):
    """Found by the fuzz suite: a row with fewer cells than the header (csv gives None for the rest)."""
    header = "state,joint_action,trial_id,player_0_is_human,player_1_is_human"
    path = written(tmp_path / "trials.csv", f"{header}\n{{}},[],a\n")
    one_error(run_cli("strips_int.check", "overcooked", str(path)), str(path), codes=(1,))


def test_unknown_layout_names_the_game(tmp_path):
    """Found by the fuzz suite: a game naming a layout nobody knows (and no --grid); which game?"""
    game = user_study_game()
    game["mdp_params"][0]["layout_name"] = "nowhere"
    path = written(tmp_path / "nowhere_human=0.json", json_text(game))
    one_error(run_cli("strips_int.check", "overcooked", str(path)), str(path), codes=(1,))


# ---------------------------------------------------------------- PDDL domains and problems

TINY = """(define (domain tiny)
  (:requirements :strips :typing{requirements})
  (:types {types})
  (:predicates (at ?a - agent ?p - place))
  (:action go :parameters (?a - agent ?from ?to - place)
    :precondition {precondition}
    :effect (and (not (at ?a ?from)) (at ?a ?to))){more})
"""
TINY_PROBLEM = """(define (problem walk) (:domain tiny)
  (:requirements :strips :typing{requirements})
  (:objects {objects})
  (:init (at bob home))
  (:goal {goal}))
"""
TINY_PARTS = {"requirements": "", "types": "agent place - object", "precondition": "(at ?a ?from)", "more": "",
              "objects": "bob - agent home work - place", "goal": "(at bob work)"}
TINY_STEPS = [{"t": 0, "agent": "bob", "action": "(go bob home work)"}]
SECOND_GO = "\n  (:action go :parameters (?a - agent ?p - place) :precondition (at ?a ?p) :effect (not (at ?a ?p)))"
DOMAINS_BAD = {
    "cyclic-types": {"types": "agent - place place - agent"},
    "duplicate-types": {"types": "agent place place - object"},
    "equality-without-requirement": {"precondition": "(and (at ?a ?from) (not (= ?from ?to)))"},
    "duplicate-action-names": {"more": SECOND_GO},
}
PROBLEMS_BAD = {
    "duplicate-objects": {"objects": "bob - agent home work home - place"},
    "or-goal": {"goal": "(or (at bob work) (at bob home))", "requirements": " :disjunctive-preconditions"},
    "exists-goal": {"goal": "(exists (?p - place) (at bob ?p))", "requirements": " :existential-preconditions"},
}


def _tiny(tmp_path: Path, **parts: str) -> tuple[Path, Path, Path]:
    """The tiny domain, its problem and a one-step trace, with ``parts`` changed."""
    parts = {**TINY_PARTS, **parts}
    domain, problem, trace = tmp_path / "tiny.pddl", tmp_path / "walk.pddl", tmp_path / "walk.trace.json"
    domain.write_text(TINY.format(**parts))
    problem.write_text(TINY_PROBLEM.format(**parts))
    trace.write_text(json.dumps({"format": "strips-int-trace/1", "problem": "walk.pddl", "steps": TINY_STEPS}))
    return domain, problem, trace


def test_the_tiny_domain_reads(tmp_path):
    domain, _, trace = _tiny(tmp_path)
    assert "interdependencies: 0" in run_cli("strips_int.check", str(domain), str(trace)).stdout.decode()


@pytest.mark.parametrize("kind", sorted(DOMAINS_BAD))
def test_domain(tmp_path, kind):
    domain, _, trace = _tiny(tmp_path, **DOMAINS_BAD[kind])
    one_error(run_cli("strips_int.check", str(domain), str(trace)), str(domain), codes=(2,))


def test_a_domain_that_fails_to_parse_leaves_the_next_one_readable(tmp_path):
    """In one process (a notebook, a worker): pddl's cached parser must not stay broken after a bad domain."""
    from strips_int import load_domain
    from strips_int.errors import StripsIntError

    bad, _, _ = _tiny(tmp_path, types="agent place - object) (:types other - object")
    with pytest.raises(StripsIntError, match=str(bad)):
        load_domain(bad)
    fresh = written(tmp_path / "fresh.pddl", f"; not cached: {tmp_path}\n{DOMAINS['overcooked'].read_text()}")
    assert load_domain(fresh).name == "overcooked"


@pytest.mark.parametrize("kind", sorted(PROBLEMS_BAD))
def test_problem(tmp_path, kind):
    domain, problem, trace = _tiny(tmp_path, **PROBLEMS_BAD[kind])
    one_error(run_cli("strips_int.check", str(domain), str(trace)), str(problem))


def test_problem_path_to_dev_zero(tmp_path):
    """A trace whose ``"problem"`` is /dev/zero (endless bytes): refused, not read into memory; the error
    names the trace or the problem it names."""
    path = written(tmp_path / "zero.trace.json", _kit_pass(problem="/dev/zero"))
    line = one_error(run_cli("strips_int.check", "sar", str(path)), "", codes=(1,))
    assert str(path) in line or "/dev/zero" in line, line


def test_problem_path_to_a_private_file_does_not_echo_it(tmp_path):
    """A trace whose ``"problem"`` names some other file: the error must not show that file's content."""
    secret = written(tmp_path / "secret.txt", "hunter2-token and more private words\n")
    path = written(tmp_path / "leak.trace.json", _kit_pass(problem=str(secret)))
    line = one_error(run_cli("strips_int.check", "sar", str(path)), "", codes=(1,))
    assert str(path) in line or str(secret) in line, line
    assert "hunter2" not in line, line


# ---------------------------------------------------------------- command lines

def test_plot_summary_of_a_binary_file(tmp_path):
    path = written(tmp_path / "summary.csv", bytes(range(256)) * 4)
    one_error(run_cli("strips_int.plot", "summary", str(path), "--out", str(tmp_path / "s.png")), str(path))


def test_plot_summary_of_a_short_file(tmp_path):
    path = written(tmp_path / "summary.csv", "group,n\n")
    one_error(run_cli("strips_int.plot", "summary", str(path), "--out", str(tmp_path / "s.png")), str(path))


@pytest.mark.parametrize("option, name", [("--plot", "kit.png"), ("--graphml", "kit.graphml")])
def test_output_into_a_missing_folder(tmp_path, option, name):
    """The folder is made (exit 0, the file written) or refused in one error line naming it."""
    out = tmp_path / "missing" / name
    result = run_cli("strips_int.check", "sar", str(KIT_PASS), option, str(out))
    if check_cli(result) or result.returncode:
        one_error(result, str(out.parent))
    else:
        assert out.is_file() and out.stat().st_size > 0


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_rc_timeout_not_a_finite_positive_number(value):
    one_error(run_cli("strips_int.rc", "sar", str(KIT_PROBLEM), "--timeout", value), "--timeout", codes=(2,))


def test_rc_soups_beyond_reason():
    one_error(run_cli("strips_int.rc", "--layout", "cramped_room", "--soups", "1000000000"), "--soups",
              codes=(2,))


def test_evaluate_resamples_zero(tmp_path):
    """No bootstrap resamples for groups of several games: refused at the door, or summaries without
    intervals (exit 0, summary.csv written)."""
    out = tmp_path / "out"
    result = run_cli("strips_int.evaluate", "sar", str(EXAMPLES), "--out", str(out), "--resamples", "0",
                     "--jobs", "1")
    if check_cli(result, codes=(0, 2)) or result.returncode:
        one_error(result, "--resamples", codes=(2,))
    else:
        assert (out / "summary.csv").is_file()


@pytest.mark.parametrize("command", ["check", "rc"])
def test_layout_file_whose_grid_is_a_list(tmp_path, command):
    listed = {"grid": GRID.split(), "start_all_orders": [{"ingredients": ["onion"] * 3}]}
    layout = written(tmp_path / "listed.layout", repr(listed))
    game = written(tmp_path / "game_human=0.json", json_text(user_study_game()))
    # (rc's time limit covers reading: 10 minutes, so that no loaded machine turns the error into "unknown")
    args = (["strips_int.check", "overcooked", str(game)] if command == "check"
            else ["strips_int.rc", "overcooked", "--layout", "listed", "--timeout", "600"])
    one_error(run_cli(*args, "--grid", str(layout)), str(layout))


def test_check_into_a_closed_pipe():
    """``check ... | head -1``: the reader goes away; check stops quietly."""
    traces = sorted(map(str, EXAMPLES.glob("*.trace.json")))
    before = children_cpu()
    child = subprocess.Popen([sys.executable, "-m", "strips_int.check", str(DOMAINS["sar"]), *traces * 20],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=CLI_SECONDS * LOADED) in (0, 1, 2, 141), err  # 141: killed by SIGPIPE, as a shell says
    assert children_cpu() - before <= CLI_SECONDS
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err, err


# ---------------------------------------------------------------- a batch of them

def test_evaluate_gives_an_error_row_for_each_bad_game(tmp_path, grid):
    """Every bad Overcooked game above in one folder with a good one: one error line and one error row
    each, the good game analysed, exit 1."""
    folder = tmp_path / "games"
    folder.mkdir()
    bad = [written(folder / f"{kind}_human=0.json", text) for kind, text in GAMES.items()]
    bad += [written(folder / f"{kind}__traj_0_1.pkl", data) for kind, data in PICKLES.items()]
    written(folder / "good_human=1.json", json_text(user_study_game()))
    out = tmp_path / "out"
    result = run_cli("strips_int.evaluate", "overcooked", str(folder), "--grid", str(grid), "--out", str(out),
                     "--jobs", "1", "--resamples", "10", timeout=180)
    lines = check_cli(result, codes=(1,))
    for path in bad:
        assert sum(str(path) in line for line in lines) == 1, (path, lines)
    with (out / "games.csv").open(newline="") as handle:
        rows = {row["source"]: row["error"] for row in csv.DictReader(handle)}
    assert sorted(source for source, error in rows.items() if error) == sorted(map(str, bad))
    assert rows[str(folder / "good_human=1.json")] == ""


def test_evaluate_summarizes_games_whose_seats_have_different_roles(tmp_path, grid):
    """A user-study game (seats human, ai) beside overcooked-ai trials (both human): each role's columns
    exist only for some games, and the summary still covers every game."""
    folder = tmp_path / "games"
    folder.mkdir()
    written(folder / "study_human=0.json", json_text(user_study_game()))
    written(folder / "trials.csv", csv_text(csv_rows()))
    out = tmp_path / "out"
    result = run_cli("strips_int.evaluate", "overcooked", str(folder), "--grid", str(grid), "--out", str(out),
                     "--jobs", "1", "--resamples", "10")
    assert check_cli(result, codes=(0,)) == []
    with (out / "games.csv").open(newline="") as handle:
        assert [row["error"] for row in csv.DictReader(handle)] == ["", "", ""]
    assert (out / "summary.csv").is_file()
