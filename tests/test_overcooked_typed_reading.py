"""Overcooked reading: the typed decoding of the user-study files gives the general path's games,
and a file it refuses gets the general path's game or exact message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import SHARED_DATA

from strips_int import StripsIntError
from strips_int.grounders.overcooked import formats

USER_STUDY = SHARED_DATA / "user-study"
needs_study = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="needs ../shared/data")


def general(raw: bytes, source: str) -> formats.Game:
    """The general path: JSON dicts, checked value by value."""
    return formats._read_episode(formats._json(raw, source, None), source, None)


def sharing(game: formats.Game) -> list[tuple[bool, ...]]:
    """Which states, grids and players are the very objects of the state before (the lifter skips those)."""
    s = game.states
    return [(s[i] is s[i - 1], s[i].objects is s[i - 1].objects,
             *(p is q for p, q in zip(s[i].players, s[i - 1].players))) for i in range(1, len(s))]


@needs_study
def test_every_user_study_game_reads_typed_as_the_general_path_reads_it():
    files = sorted(USER_STUDY.glob("*/*.json"))
    assert len(files) == 302
    for path in files:
        raw = path.read_bytes()
        typed, slow = formats._typed_episode(raw, str(path), None), general(raw, str(path))
        assert typed is not None, path
        assert typed == slow, path  # states, actions, rewards, layout, cook time, rules
        assert sharing(typed) == sharing(slow), path


@pytest.fixture(scope="module")
def study_game() -> dict:
    path = next(iter(sorted(USER_STUDY.glob("*/*.json"))), None)
    if path is None:
        pytest.skip("needs ../shared/data")
    return json.loads(path.read_bytes())


def written(tmp_path: Path, data: dict | str) -> Path:
    path = tmp_path / "game_human=0.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def read(path: Path) -> formats.Game | StripsIntError:
    (result,) = formats.read_games(path)
    return result


def spoiled(data: dict, how: str) -> dict:
    """``data`` with one fault (or one shape the typed path leaves to the general one)."""
    data = json.loads(json.dumps(data))
    states = data["ep_states"][0]
    if how == "float position":
        states[3]["players"][1]["position"] = [1.5, 2]
    elif how == "unknown object":
        states[4]["players"][0]["held_object"] = {"name": "fish", "position": [1, 1]}
    elif how == "two objects at one place":
        states[5]["objects"] = {"1,0": {"name": "onion", "position": [1, 0]},
                                "2,0": {"name": "dish", "position": [1, 0]}}
    elif how == "soup without state":
        states[5]["objects"] = {"3,0": {"name": "soup", "position": [3, 0]}}
    elif how == "action index 6":
        data["ep_actions"][0][2] = [6, 0]
    elif how == "reward true":
        data["ep_rewards"][0][1] = True
    elif how == "one player fewer":
        del states[7]["players"][1]
    elif how == "negative position":  # the general path reads it; the layout then refuses it
        states[2]["players"][0]["position"] = [-1, 2]
    elif how == "orders shown":  # new rules: only the general path reads orders
        states[0]["all_orders"] = [{"ingredients": ["onion", "onion", "onion"]}]
    return data


FAULTS = ("float position", "unknown object", "two objects at one place", "soup without state", "action index 6",
          "reward true", "one player fewer")


@pytest.mark.parametrize("how", FAULTS)
def test_a_fault_the_typed_path_refuses_gets_the_general_message(tmp_path, study_game, how):
    path = written(tmp_path, spoiled(study_game, how))
    raw = path.read_bytes()
    assert formats._typed_episode(raw, str(path), None) is None
    with pytest.raises(StripsIntError) as slow:
        general(raw, str(path))
    error = read(path)
    assert isinstance(error, StripsIntError)
    assert (error.source, error.where, error.message) == (slow.value.source, slow.value.where, slow.value.message)


def test_the_messages_are_the_general_paths_own(tmp_path, study_game):
    error = read(written(tmp_path, spoiled(study_game, "float position")))
    assert (error.where, error.message) == ("state 3, player 1", "expected [x, y], two whole numbers under 10000 in "
                                            "size, found [1.5, 2]")
    error = read(written(tmp_path, spoiled(study_game, "two objects at one place")))
    assert (error.where, error.message) == ("state 5", "two objects at (1, 0)")
    error = read(written(tmp_path, json.dumps(study_game)[:-9]))
    assert error.message.startswith("malformed JSON: ") and error.where.startswith("line 1, column ")


@pytest.mark.parametrize("how", ("negative position", "orders shown"))
def test_a_shape_the_typed_path_leaves_alone_is_read_by_the_general_path(tmp_path, study_game, how):
    path = written(tmp_path, spoiled(study_game, how))
    raw = path.read_bytes()
    assert formats._typed_episode(raw, str(path), None) is None
    game = read(path)
    assert game.meta.pop("format") == "episode-json" and game == general(raw, str(path))
