"""Bad Overcooked input, in every format, ends as one StripsIntError naming the file and the place (issue 15).

Each game here is a minimal variant of one good game on cramped_room: player 0 stands by the
serving window holding a ready soup and delivers it (reward 20).
"""

from __future__ import annotations

import copy
import csv
import json
import os
import pickle
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from strips_int import StripsIntError, execute, load_domain
from strips_int.grounders import read_input
from strips_int.grounders.overcooked import load_grid

DOMAIN = ROOT / "domains" / "overcooked.pddl"
SOUP = {"name": "soup", "position": [3, 2], "state": ["onion", 3, 20]}
NEW_SOUP = {"name": "soup", "position": [3, 2], "_ingredients": [{"name": "onion", "position": [3, 2]}] * 3,
            "cooking_tick": 20, "cook_time": 20, "is_cooking": False, "is_ready": True, "is_idle": False}


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(DOMAIN)


def states(soup=SOUP, objects=None):
    """Player 0 at (3, 2) faces the window (3, 3) with a soup, then without it."""
    first = {"players": [{"position": [3, 2], "orientation": [0, 1], "held_object": soup},
                         {"position": [1, 1], "orientation": [0, -1]}],
             "objects": {} if objects is None else objects, "order_list": None}
    second = copy.deepcopy(first)
    del second["players"][0]["held_object"]
    return [first, second]


def user_study():
    """The web app's format: one episode nested in lists, action indices, no state after the last action."""
    return {"ep_states": [states()], "ep_actions": [[[5, 4], [4, 4]]], "ep_rewards": [[20, 0]],
            "mdp_params": [{"layout_name": "cramped_room", "cook_time": 20}]}


def rollout():
    """ZSC-Eval's pickle: [state, joint action, events] repeated, then the final state."""
    first, second = states(soup={**SOUP, "position": (3, 2), "state": ("onion", 3, 20)})
    for state in (first, second):
        state["objects"] = []
    events = [{"delivery": 1, "MOVEMENT": 0}, {"delivery": 0, "MOVEMENT": 0}]
    return [first, ("interact", (0, 0)), events, second]


def write(tmp_path: Path, data, name="game_human=0.json") -> Path:
    path = tmp_path / name
    if name.endswith(".pkl"):
        path.write_bytes(pickle.dumps(data))
    else:
        path.write_text(json.dumps(data))
    return path


def one_error(path: Path, domain, **options) -> str:
    """The single result of reading ``path``: it must be one StripsIntError naming the file."""
    results = list(read_input(path, domain, **options))
    assert len(results) == 1 and isinstance(results[0], StripsIntError), results
    message = str(results[0])
    assert message.startswith(str(path)) and "\n" not in message and len(message) - len(str(path)) < 340, message
    return message


def test_the_base_games_read(tmp_path, overcooked):
    for path in (write(tmp_path, user_study()), write(tmp_path, rollout(), "traj_0_1.pkl")):
        [trace] = read_input(path, overcooked, layout="cramped_room")
        assert [s.action.name for s in trace.steps] == ["deliver"] and trace.meta["reward"] == 20
        assert execute(trace).goal_achieved == trace.problem.goal == {("delivered", "soup1")}


@pytest.mark.parametrize("change, expected", [
    (lambda g: g["ep_states"][0][1].update(objects=None), r"state 1: objects must be a list or a mapping, found None"),
    (lambda g: g.update(ep_actions=5), r"ep_actions: expected a list holding a list, as ep_states is, found 5"),
    (lambda g: g["ep_states"][0][1]["players"].pop(), r"state 1: 1 players, but state 0 has 2"),
    (lambda g: g["mdp_params"][0].update(cook_time=float("nan")), r"mdp_params.cook_time: .* found nan"),
    (lambda g: g["mdp_params"][0].update(cook_time="twenty"), r"mdp_params.cook_time: .* found 'twenty'"),
    (lambda g: g["mdp_params"].__setitem__(0, "twenty"), r"mdp_params: expected an object, found 'twenty'"),
    (lambda g: g["ep_states"][0][0]["players"][1].update(held_object={"name": "banana"}),
     r"state 0, player 1: unknown object 'banana'"),
    (lambda g: g["ep_states"][0][0]["players"][0].update(held_object={**SOUP, "state": ["banana", 3, 20]}),
     r"state 0, player 0: a soup's state must be .* found \['banana', 3, 20\]"),
    (lambda g: g["ep_states"][0][0]["players"][0].update(held_object={**SOUP, "state": ["onion", 7, 20]}),
     r"state 0, player 0: a soup's state must be"),
    (lambda g: g["ep_states"][0][0]["players"][0].update(held_object={"name": ["soup"]}),
     r"state 0, player 0: unknown object a list of 1 items"),
    (lambda g: g["ep_states"][0][0].update(objects={"1,0": {"name": "onion", "position": [1, 0]},
                                                      "1,0 ": {"name": "dish", "position": [1, 0]}}),
     r"state 0: two objects at \(1, 0\)"),
    (lambda g: g["ep_states"][0][0].update(all_orders=[{"ingredients": 5}]), r"state 0, all_orders: expected"),
    (lambda g: g["ep_states"][0][0]["players"][1].update(position=[1, 2.5]),
     r"state 0, player 1: expected \[x, y\], .* found \[1, 2.5\]"),
    # Partial games: a game must be whole (states, actions and rewards fit each other).
    (lambda g: g.pop("ep_actions"), r"no \"ep_actions\""),
    (lambda g: g["ep_states"][0].extend(copy.deepcopy(g["ep_states"][0]) * 2),
     r"6 states for 2 joint actions: a game has as many states as joint actions, or one more"),
    (lambda g: g["ep_rewards"].__setitem__(0, [20]), r"1 rewards logged for 2 joint actions"),
    (lambda g: g.update(ep_rewards=[20, 0]), r"ep_rewards: expected a list holding a list"),
    (lambda g: g["ep_rewards"].__setitem__(0, [0, 0]), r"step 0: logged reward 0, but the step delivers 1 soup"),
    (lambda g: g["ep_rewards"].__setitem__(0, [20, float("inf")]), r"step 1: reward inf is not a finite number"),
    (lambda g: g["ep_actions"][0].__setitem__(1, [4]), r"action 1: 1 moves for 2 players"),
])
def test_a_bad_episode_is_one_error(tmp_path, overcooked, change, expected):
    game = user_study()
    change(game)
    message = one_error(write(tmp_path, game), overcooked)
    assert re.search(expected, message), message


def test_json_too_deep_or_with_a_huge_number_is_one_error(tmp_path, overcooked):
    deep = user_study()
    deep["ep_states"][0][0]["players"][1]["held_object"] = "HERE"
    text = json.dumps(deep).replace('"HERE"', "[" * 100_000 + "]" * 100_000)
    path = tmp_path / "deep.json"
    path.write_text(text)
    message = one_error(path, overcooked)  # orjson 3.8 parses 100,000 levels, later ones and json refuse them
    assert ("state 0, player 1: expected an object with a name, found a list of 1 items" in message
            or "nested too deeply" in message), message
    huge = json.dumps(user_study()).replace("[3, 2]", "[3" + "0" * 5000 + ", 2]", 1)
    path.write_text(huge)
    assert "state 0, player 0: expected [x, y]" in one_error(path, overcooked) or "JSON" in one_error(path, overcooked)


def test_new_rules_soup_delivered_for_nothing_where_every_recipe_is_ordered(tmp_path, overcooked):
    # The states show no orders and the layout names none, so every recipe is ordered (overcooked-ai's
    # default): a delivered three-onion soup must earn reward, and a zero is a partial log.
    first, second = states(soup=NEW_SOUP)
    for state in (first, second):
        state["objects"] = []
    episode = {"ep_states": [first, second, copy.deepcopy(second)], "ep_actions": [["interact", [0, 0]], [[0, 0]] * 2],
               "ep_rewards": [0, 0], "mdp_params": {"layout_name": "cramped_room"}}
    assert "step 0: logged reward 0, but the step delivers 1 soup(s), 1 of an ordered recipe" in one_error(
        write(tmp_path, episode), overcooked)
    episode["ep_rewards"] = [20, 0]
    [trace] = read_input(write(tmp_path, episode), overcooked)
    assert trace.problem.goal == {("delivered", "soup1")} and trace.meta["rules"] == "new"


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.__setitem__(2, [{"delivery": -5}, {"delivery": 0}]), r"step 0: player 0's delivery count is -5"),
    (lambda d: d.append(d[0]), r"5 entries are not whole steps of 3 and a final state"),
    (lambda d: d.extend(d[:2]), r"6 entries are not whole steps of 3 and a final state"),
    (lambda d: d[0]["players"][1].update(position=(10**5000, 0)),
     r"state 0, player 1: expected \[x, y\], .* found \[a number with more than 20 digits, 0\]"),
    (lambda d: d.__setitem__(2, "x" * 10**6), r"step 0: expected a list of per-player events, found 'xxx"),
])
def test_a_bad_rollout_is_one_error(tmp_path, overcooked, change, expected):
    data = rollout()
    change(data)
    message = one_error(write(tmp_path, data, "traj_0_1.pkl"), overcooked, layout="cramped_room")
    assert re.search(expected, message), message


def test_a_pickle_declaring_a_huge_string_is_one_error(tmp_path, overcooked):
    for opcode in (b"\x8d", b"\x8e", b"\x96"):  # BINUNICODE8, BINBYTES8, BYTEARRAY8 of 2**62 bytes
        path = tmp_path / "huge.pkl"
        path.write_bytes(b"\x80\x04" + opcode + struct.pack("<Q", 2**62) + b"ab")
        assert "cannot load pickle" in one_error(path, overcooked, layout="cramped_room")


def test_a_pickle_declaring_a_10_gib_bytearray_under_a_memory_limit_is_one_line(tmp_path):
    """13 bytes declaring a 10 GiB bytearray: under a memory limit the allocation fails, and CPython 3.11 then
    may print a stray SystemError (the bytearray is freed before its count of exported buffers is set). Ten
    copies in one process, so that a stray line would show."""
    from fuzz_inputs import check_cli, run_cli

    grid = tmp_path / "kitchen.grid"
    grid.write_text("XXPXX\nO1 2O\nXDXSX\n")
    paths = []
    for k in range(10):
        paths.append(tmp_path / f"bytearray-{k}__traj_0_1.pkl")
        paths[-1].write_bytes(b"\x80\x05\x96" + struct.pack("<Q", 10 * 2**30) + b".")
    result = run_cli("strips_int.check", "overcooked", *map(str, paths), "--grid", str(grid))
    assert check_cli(result, codes=(1,)) == [f"error: {path}: cannot load pickle: it declares more data than memory "
                                             "holds" for path in paths]
    assert result.stderr.decode().count("\n") == 10, result.stderr.decode()


def test_an_ego_seat_beyond_the_players_is_one_error(tmp_path):
    """``--ego-seat 5`` of a two-player rollout named no seat the ego (both read as partners)."""
    from fuzz_inputs import check_cli, run_cli

    path = write(tmp_path, rollout(), "run__traj_0_1.pkl")
    result = run_cli("strips_int.check", "overcooked", str(path), "--layout", "cramped_room", "--ego-seat", "5")
    assert check_cli(result, codes=(1,)) == [f"error: {path}: ego seat: seat 5, but the game has 2 players (seats 0 "
                                             "to 1)"]


# -- overcooked-ai's human-data CSV: seats and layout names -------------------------------------------------------

HH_2019 = ROOT.parent / "shared" / "data" / "overcooked-ai" / "2019_hh_trials_sample.csv"
needs_2019 = pytest.mark.skipif(not HH_2019.is_file(), reason="needs ../shared/data/overcooked-ai")


def hh_trial(tmp_path: Path, **cells: str) -> Path:
    """The first 40 rows of trial 110 (cramped_room) of overcooked-ai's 2019 sample, ``cells`` changed in each."""
    with HH_2019.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["trial_id"] == "110"][:40]
    path = tmp_path / "trial.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows({**row, **cells} for row in rows)
    return path


def read_trial(path: Path, domain) -> tuple[list, list[str]]:
    """The traces and the error lines of a CSV, read in process."""
    results = list(read_input(path, domain))
    return [r for r in results if not isinstance(r, StripsIntError)], [str(r) for r in results
                                                                        if isinstance(r, StripsIntError)]


def check_line(path: Path) -> list[str]:
    """The error lines of ``check`` on ``path``, the real command line."""
    from fuzz_inputs import check_cli, run_cli

    return check_cli(run_cli("strips_int.check", "overcooked", str(path)), codes=(0, 1))


@needs_2019
@pytest.mark.parametrize("seats, roles", [
    (("True", "True"), ["human", "human"]),  # pandas' to_csv
    (("1", "0"), ["human", "ai"]),  # a writer of numbers
    (("TRUE", "false"), ["human", "ai"]),  # R, a spreadsheet; JSON-minded writers
    (("1.0", "0.0"), ["human", "ai"]),  # a float column
    (("", "True"), None),  # a missing value: not known
])
def test_csv_seats_as_writers_write_booleans(tmp_path, overcooked, seats, roles):
    traces, errors = read_trial(hh_trial(tmp_path, player_0_is_human=seats[0], player_1_is_human=seats[1]),
                                overcooked)
    assert errors == []
    assert traces[0].meta.get("roles") == (dict(zip(["player0", "player1"], roles)) if roles else None)


@needs_2019
@pytest.mark.parametrize("value", ["yes", "human", "2", "=1+1"])
def test_csv_seat_that_is_no_boolean_is_an_error_naming_the_cell(tmp_path, overcooked, value):
    path = hh_trial(tmp_path, player_0_is_human=value)
    assert read_trial(path, overcooked)[1] == [f"{path}#110: line 2, column player_0_is_human: expected True or "
                                               f"False (or 1 or 0), found {value!r}"]


@needs_2019
def test_check_of_csv_seats_1_and_yes(tmp_path):
    """``1`` read both seats as ai: now player 0 is the human; ``yes`` is one line naming the cell."""
    from fuzz_inputs import run_cli

    result = run_cli("strips_int.check", "overcooked", str(hh_trial(tmp_path, player_0_is_human="1",
                                                                    player_1_is_human="0")), "--json")
    assert json.loads(result.stdout)["meta"]["roles"] == {"player0": "human", "player1": "ai"}
    path = hh_trial(tmp_path, player_0_is_human="yes")
    assert check_line(path) == [f"error: {path}#110: line 2, column player_0_is_human: expected True or False (or 1 "
                                "or 0), found 'yes'"]


LAYOUT_NAMES = [
    ("asymmetric_advantages", "'asymmetric_advantages' is a layout of another grid than the terrain the file records"),
    ("<img src=x onerror=alert(1)>", "expected a layout name (letters, digits, _ . -), found '<img src=x onerror"),
    ("../../etc/passwd", "expected a layout name"),
]


@needs_2019
@pytest.mark.parametrize("name, expected", LAYOUT_NAMES)
def test_csv_layout_name_must_name_the_recorded_terrain(tmp_path, overcooked, name, expected):
    path = hh_trial(tmp_path, layout_name=name)
    errors = read_trial(path, overcooked)[1]
    assert len(errors) == 1 and errors[0].startswith(f"{path}#110: line 2, column layout_name: {expected}")


@needs_2019
def test_check_of_a_csv_naming_another_layout(tmp_path):
    path = hh_trial(tmp_path, layout_name=LAYOUT_NAMES[0][0])
    assert check_line(path) == [f"error: {path}#110: line 2, column layout_name: {LAYOUT_NAMES[0][1]}"]


@needs_2019
def test_csv_layout_name_of_a_layout_not_known_here_is_the_recorded_terrain(tmp_path, overcooked):
    traces, errors = read_trial(hh_trial(tmp_path, layout_name="my_kitchen"), overcooked)
    assert errors == [] and traces[0].meta["layout"] == "my_kitchen"


def test_an_episode_layout_name_beside_its_terrain_is_checked_too(tmp_path, overcooked):
    game = json.loads((ROOT / "tests" / "data" / "overcooked_ai" / "old_dynamics_cramped_room.json").read_text())
    game["mdp_params"] = [{**params, "layout_name": "forced_coordination"} for params in game["mdp_params"]] \
        if isinstance(game["mdp_params"], list) else {**game["mdp_params"], "layout_name": "forced_coordination"}
    path = tmp_path / "episode.json"
    path.write_text(json.dumps(game))
    errors = list(read_input(path, overcooked))  # one per episode
    assert errors and all(isinstance(e, StripsIntError) and str(e).startswith(f"{path}#") and
                          "layout_name: 'forced_coordination' is a layout of another grid" in str(e) for e in errors)


def test_a_held_object_sharing_its_halves_does_not_hang_check(tmp_path):
    # 60 levels of x = [x, x]: tiny as a pickle, 2**60 items as text; the error must describe it in brief.
    shared: list = []
    for _ in range(60):
        shared = [shared, shared]
    data = rollout()
    data[0]["players"][1]["held_object"] = shared
    path = write(tmp_path, data, "traj_0_1.pkl")
    done = subprocess.run([sys.executable, "-m", "strips_int", "check", str(DOMAIN), str(path), "--layout",
                           "cramped_room"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "state 0, player 1: expected an object with a name, found a list of 2 items" in done.stdout + done.stderr


def _csv_game(path: Path, state_text: str) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, ["state", "joint_action", "reward", "layout_name", "trial_id"])
        writer.writeheader()
        for state, reward in zip(states(), (20, 0)):
            writer.writerow({"state": state_text or json.dumps(state), "joint_action": '["interact", [0, 0]]',
                             "reward": reward, "layout_name": "cramped_room", "trial_id": "t1"})
    return path


def test_csv_field_beyond_the_field_size_limit_is_one_error(tmp_path, overcooked):
    [trace] = read_input(_csv_game(tmp_path / "good.csv", ""), overcooked)
    assert [s.action.name for s in trace.steps] == ["deliver"]
    message = one_error(_csv_game(tmp_path / "long.csv", "x" * 200_000), overcooked)
    assert "line 2: malformed CSV: field larger than field limit" in message


@pytest.mark.parametrize("text, expected", [
    ('{"grid": ["XXPXX", "O  2O", "X1  X", "XDXSX"]}', 'no "grid" text'),
    ('{"grid": "XXPXX\\nO  2O\\nX1  X\\nXDXSX", "start_all_orders": 5}', "start_all_orders: expected a list of "
                                                                         "recipes"),
    ('{"grid": "XXPXX\\nO  2O\\nX1  X\\nXDXSX", "start_all_orders": [{"ingredients": 5}]}', "start_all_orders:"),
    ('{"grid": "XXPXX\\nO  2O\\nX1  X\\nXDXSX", "start_all_orders": [{"ingredients": ["onion"]}], '
     '"recipe_values": ["x"]}', "recipe_values: expected one number per order"),
    ('{"grid": "XXPXX", "onion_value": "3"}', "onion_value: expected a number, found '3'"),
    ('{"grid": "XXPXX", "old_dynamics": "yes"}', "old_dynamics: expected true or false"),
    ('{"grid": ' + "[" * 10_000 + "]" * 10_000 + "}", "not an overcooked-ai layout file"),
])
def test_a_malformed_layout_file_is_one_error(tmp_path, text, expected):
    path = tmp_path / "bad.layout"
    path.write_text(text)
    with pytest.raises(StripsIntError, match=re.escape(expected)) as caught:
        load_grid(path)
    assert str(caught.value).startswith(str(path))


@pytest.mark.parametrize("raw, expected", [
    (b"\x80\x04K\x01K\x02a.", "cannot load pickle: AttributeError"),  # APPEND onto an int (found by the fuzz suite)
    (b"\x80\x04\x95" + b"\xff" * 8 + b"N.", "cannot load pickle: OverflowError"),  # a FRAME longer than memory
])
def test_a_pickle_whose_opcodes_break_is_one_error_not_an_internal_one(tmp_path, overcooked, raw, expected):
    path = tmp_path / "broken.pkl"
    path.write_bytes(raw)
    assert expected in one_error(path, overcooked, layout="cramped_room")


def test_a_csv_row_shorter_than_its_header_is_one_error_naming_its_line(tmp_path, overcooked):
    path = tmp_path / "short.csv"
    path.write_text("state,joint_action,trial_id,player_0_is_human,player_1_is_human\n{},[],a\n")
    assert "line 2: 5 columns in the header" in one_error(path, overcooked)


def test_a_pickle_over_the_size_limit_is_refused_before_it_is_read(tmp_path, overcooked):
    path = tmp_path / "huge.pkl"
    path.write_bytes(pickle.PROTO + b"\x04")
    os.truncate(path, 257 * 2**20)  # sparse: nothing is written, nothing need be read
    assert one_error(path, overcooked, layout="cramped_room").endswith("cannot read: larger than 256 MiB")
