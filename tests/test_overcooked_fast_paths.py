"""The Overcooked reader's and lifter's fast paths (issue 16) give what the state-by-state checks give:
equal objects are shared, and a misfit found in bulk is still named by its first state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT

from strips_int import StripsIntError, load_domain
from strips_int.grounders.overcooked import read_traces
from strips_int.grounders.overcooked.formats import read_games

STAY, DOWN = 4, 1


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(ROOT / "domains" / "overcooked.pddl")


def state(first=(1, 1), second=(3, 1), objects=None) -> dict:
    return {"players": [{"position": list(first), "orientation": [0, -1]},
                        {"position": list(second), "orientation": [0, -1]}],
            "objects": objects or {}, "order_list": None}


def game_file(tmp_path: Path, states: list[dict], actions: list[list[int]]) -> Path:
    """A user-study file on cramped_room (pot at (2, 0), onion dispensers at (0, 1) and (4, 1))."""
    path = tmp_path / "game_human=0.json"
    path.write_text(json.dumps({"ep_states": [states], "ep_actions": [actions], "ep_rewards": [[0] * len(actions)],
                                "mdp_params": [{"layout_name": "cramped_room", "cook_time": 20}]}))
    return path


def test_a_misfit_object_after_the_first_state_is_named_by_its_state(tmp_path, overcooked):
    onion = {"2,0": {"name": "onion", "position": [2, 0]}}
    path = game_file(tmp_path, [state(), state(first=(1, 2)), state(first=(1, 2), objects=onion)],
                     [[DOWN, STAY], [STAY, STAY], [STAY, STAY]])
    with pytest.raises(StripsIntError, match=r"state 2: a onion lies at \(2, 0\), which is 'P' in layout "
                                             r"cramped_room: the game does not fit"):
        list(read_traces(path, overcooked))


def test_a_player_off_the_floor_after_the_first_state_is_named_by_its_state(tmp_path, overcooked):
    path = game_file(tmp_path, [state(), state(first=(1, 2)), state(first=(1, 2), second=(4, 1))],
                     [[DOWN, STAY], [STAY, STAY], [STAY, STAY]])
    with pytest.raises(StripsIntError, match=r"state 2: player 1 stands at \(4, 1\), which is 'O' in layout "
                                             r"cramped_room, not floor"):
        list(read_traces(path, overcooked))


def test_cooking_ticks_share_the_objects_and_the_soup_still_finishes(tmp_path, overcooked):
    soup = [{"2,0": {"name": "soup", "position": [2, 0], "state": ["onion", 3, ticks]}} for ticks in range(1, 21)]
    path = game_file(tmp_path, [state(objects=objects) for objects in soup], [[STAY, STAY]] * len(soup))
    [game] = read_games(path)
    assert all(s.objects is game.states[0].objects for s in game.states[:19])
    assert game.states[19].objects is not game.states[0].objects
    assert game.states[19].objects[(2, 0)].status == "ready"
    [trace] = read_traces(path, overcooked)
    assert [(s.t, str(s.action)) for s in trace.steps] == [(18, "(finish-cooking soup1 pot2_0)")]
