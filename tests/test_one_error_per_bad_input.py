"""Inputs of the fourth campaign (issue 37), each through the real command line in a child process: a pragma
in capitals is read; a Hanabi game is recognised whatever its key order; a Hanabi deal larger than its deck,
``inf`` or ``nan`` in a ``.layout`` file, a ragged grid, a start digit given twice, an empty folder of
grids, and JaxMARL rollouts with a huge layout name, off-grid starts, a delivery before the first step, a
foreign ``.npy`` header, an unreadable ``format`` member or more steps than are read are each one error
line naming the file and what is wrong (never a traceback, an internal error, or a silent skip).

Each child runs under an address-space limit (``run_cli``: 3 GiB) and a time limit of 60 s.
"""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fuzz_inputs import check_cli, npz_bytes, rollout_arrays, run_cli, v2_rollout_arrays, written
from hanabi_json import HELP, deck

from helpers import ROOT

OVERCOOKED = ROOT / "domains" / "overcooked.pddl"
GAME = ROOT / "tests" / "data" / "overcooked_ai" / "old_dynamics_cramped_room.json"
CRAMPED = "XXPXX\nO  2O\nX1  X\nXDXSX\n"


def one_error(result: subprocess.CompletedProcess, *named: str) -> str:
    """The one error line of ``result`` (exit 1 or 2, no traceback), which must name each of ``named``."""
    lines = check_cli(result, (1, 2))
    assert len(lines) == 1, f"expected one error line, found {lines}"
    for name in named:
        assert name in lines[0], f"the error does not name {name!r}: {lines[0]}"
    assert "internal error" not in lines[0] and "<ast." not in lines[0], lines[0]
    return lines[0]


def interdependences(domain: Path) -> list[int]:
    """The interdependences ``check --json`` finds in each game of the cramped-room file with ``domain``."""
    done = run_cli("strips_int.check", str(domain), str(GAME), "--json")
    assert check_cli(done, (0,)) == [], done.stderr
    return [json.loads(line)["counts"]["interdependencies"] for line in done.stdout.decode().splitlines()]


# ---------------------------------------------------------------- PDDL

def test_a_pragma_marker_in_capitals_is_read(tmp_path):
    capitals = written(tmp_path / "OVERCOOKED.PDDL", OVERCOOKED.read_text().upper())
    assert "; @STRIPS-INT IGNORE-PREDICATES: OCCUPIED" in capitals.read_text()
    assert interdependences(capitals) == interdependences(OVERCOOKED) == [7, 8]


def test_a_pragma_of_mixed_case_is_read():
    from strips_int.model.domain import read_pragmas

    found = read_pragmas("; @Strips-Int Navigation-Actions: Move\n;@strips-INT ignore-predicates: A b\n", "d.pddl")
    assert found == [(1, "navigation-actions", frozenset({"move"})), (2, "ignore-predicates", frozenset({"a", "b"}))]


# ---------------------------------------------------------------- Hanabi

def test_a_hanabi_deal_larger_than_its_deck(tmp_path):
    variant = "Dark Rainbow & Dark Pink (3 Suits)"  # 20 cards; 6 players of 3 + 1 cards need 24
    game = {"players": [f"p{i}" for i in range(6)], "deck": deck([], variant), "actions": [],
            "options": {"variant": variant, "oneExtraCard": True}}
    path = written(tmp_path / "deal.json", json.dumps(game))
    error = one_error(run_cli("strips_int.check", "hanabi", str(path)), str(path), "options")
    assert "the deal needs 24 cards (6 players, 4 each)" in error and "deck has 20" in error


def test_a_hanabi_game_whose_notes_come_first_is_recognised(tmp_path):
    notes = [["a long note on this card, written during the game"] * 60 for _ in HELP["players"]]  # > 4 KiB
    game = {"notes": notes, **HELP}
    path = written(tmp_path / "noted.json", json.dumps(game, indent=2))
    assert path.read_text().find('"suitIndex"') > 4096
    done = run_cli("strips_int.check", "hanabi", str(path), "--json")
    assert check_cli(done, (0,)) == [], done.stderr
    assert json.loads(done.stdout)["counts"] == json.loads(
        run_cli("strips_int.check", "hanabi", str(written(tmp_path / "help.json", json.dumps(HELP))), "--json").stdout
    )["counts"]


# ---------------------------------------------------------------- Overcooked grids and layout files

def _layout(tmp_path: Path, **numbers: str) -> Path:
    """An overcooked-ai layout file of the cramped room with ``numbers`` (Python text) among its keys."""
    keys = "".join(f'    "{key}": {value},\n' for key, value in numbers.items())
    grid = CRAMPED.strip().replace("\n", "\n        ")
    return written(tmp_path / "bad.layout", f'{{\n    "grid": """{grid}""",\n'
                   f'    "start_all_orders": [{{"ingredients": ["onion", "onion", "onion"]}}],\n{keys}}}\n')


@pytest.mark.parametrize("key, value", [("cook_time", "float('inf')"), ("delivery_reward", "float('nan')"),
                                        ("recipe_times", "[float('nan')]"), ("order_bonus", "float('-inf')")])
def test_inf_or_nan_in_a_layout_file(tmp_path, key, value):
    path = _layout(tmp_path, **{key: value})
    one_error(run_cli("strips_int.rc", "--grid", str(path), "--timeout", "20"), str(path), key)


def test_order_bonus_inf_as_overcooked_ai_ships_it(tmp_path):
    path = _layout(tmp_path, order_bonus="float('inf')")
    done = run_cli("strips_int.rc", "--grid", str(path), "--timeout", "30", "--json")
    assert check_cli(done, (0,)) == [], done.stderr


@pytest.mark.parametrize("grid, where, what", [
    ("XXPXX\nO  2O\nX1  XX\nXDXSX\n", "row 3", "a grid is a rectangle"),
    ("XXPXX\nO  1O\nX1  X\nXDXSX\n", "row 3, column 2", "player 1 starts twice"),
    ("XXPXX\nO  3O\nX1  X\nXDXSX\n", "start digits are 1, 3", "1 to N"),
])
def test_a_grid_that_is_ragged_or_names_a_player_twice(tmp_path, grid, where, what):
    path = written(tmp_path / "bad.grid", grid)
    error = one_error(run_cli("strips_int.rc", "--grid", str(path), "--timeout", "20"), str(path), where)
    assert what in error


def test_an_empty_folder_of_grids_is_an_error_not_a_missing_row(tmp_path):
    (tmp_path / "empty").mkdir()
    good = written(tmp_path / "good.grid", CRAMPED)
    done = run_cli("strips_int.rc", "--grid", str(good), str(tmp_path / "empty"), "--timeout", "20")
    one_error(done, str(tmp_path / "empty"), "no start problem")


# ---------------------------------------------------------------- JaxMARL rollouts

def _rewritten(arrays: dict[str, Any], member: str, change: Any = None, method: int = zipfile.ZIP_STORED) -> bytes:
    """``arrays`` as an .npz archive whose ``member`` is compressed with ``method`` and its bytes ``change``d."""
    source = zipfile.ZipFile(io.BytesIO(npz_bytes(arrays)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info in source.infolist():
            data = source.read(info)
            mine = info.filename == f"{member}.npy"
            archive.writestr(info.filename, change(data) if mine and change else data,
                             compress_type=method if mine else zipfile.ZIP_STORED)
    return out.getvalue()


def _pickled_format() -> bytes:
    arrays = v2_rollout_arrays()
    arrays["format"] = np.array([arrays["format"].item()], dtype=object)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _v2(**changes: Any) -> bytes:
    arrays = v2_rollout_arrays()
    for key, value in changes.items():
        arrays[key] = value
    return npz_bytes(arrays)


def _no_delivery_before_the_first_state() -> bytes:
    arrays = v2_rollout_arrays()
    arrays["new_correct_delivery"][0] = True
    return npz_bytes(arrays)


ROLLOUTS = {
    "long name": (lambda: npz_bytes({**rollout_arrays(), "layout": np.array("L" * 100_000)}), "layout",
                  "found text of 100,000 characters"),
    "long name v2": (lambda: _v2(layout=np.array("L" * 100_000)), "layout", "text of 1 to 100 characters"),
    "start off the grid": (lambda: _v2(starts=np.array([[1, 1], [30, 1]])), "starts", "(30, 1) is not a floor cell"),
    "start on a wall": (lambda: _v2(starts=np.array([[0, 0], [3, 1]])), "starts", "(0, 0) is not a floor cell"),
    "delivery in state 0": (_no_delivery_before_the_first_state, "state 0", "delivery flag"),
    "bzip2 format": (lambda: _rewritten(v2_rollout_arrays(), "format", method=zipfile.ZIP_BZIP2), "member 'format'",
                     "compressed with bzip2"),
    "pickled format": (_pickled_format, "member 'format'", "Python objects"),
    "header with an expression": (lambda: _rewritten(v2_rollout_arrays(), "actions", lambda data: data.replace(
        b"'shape': (3, 2)", b"'shape': (1+2, 2)")), "member 'actions'", "'shape': (1+2, 2)"),
}


@pytest.mark.parametrize("case", ROLLOUTS)
def test_a_jaxmarl_rollout_that_cannot_be_right(tmp_path, case):
    make, where, what = ROLLOUTS[case]
    path = written(tmp_path / "rollout.npz", make())
    error = one_error(run_cli("strips_int.check", "overcooked", str(path)), str(path), where, what)
    assert "UTF-8" not in error and len(error) < 400


def _long_v2_rollout(steps: int) -> bytes:
    """An OvercookedV2 rollout of ``steps`` steps (agent 0 takes an ingredient, then both stay), compressed."""
    arrays = v2_rollout_arrays()
    for key in ("agent_pos", "agent_dir", "agent_inv", "grid", "recipe", "new_correct_delivery", "done"):
        arrays[key] = np.concatenate([arrays[key][:1], np.repeat(arrays[key][1:2], steps, axis=0)])
    arrays["grid"] = arrays["grid"].astype(np.int8)
    arrays.update(step=np.arange(steps + 1), actions=np.array([[5, 4]] + [[4, 4]] * (steps - 1)),
                  rewards=np.zeros(steps))
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


def test_a_rollout_longer_than_the_limit_is_refused_before_it_is_unpacked(tmp_path):
    from strips_int.grounders.jaxmarl.record import MAX_STEPS

    path = written(tmp_path / "long.npz", _long_v2_rollout(200_000))  # read whole, 55 s and 363 MB before
    done = run_cli("strips_int.check", "overcooked", str(path), memory=1 << 30)  # unpacked, it needs more
    one_error(done, str(path), "200,000 joint actions", f"at most {MAX_STEPS:,} steps")


def test_a_rollout_within_the_limit_is_read(tmp_path):
    path = written(tmp_path / "ok.npz", _long_v2_rollout(2_000))
    done = run_cli("strips_int.check", "overcooked", str(path), "--json")
    assert check_cli(done, (0,)) == [], done.stderr
    assert json.loads(done.stdout)["source"] == str(path)  # its 2,000 steps read (the stays are no steps)
