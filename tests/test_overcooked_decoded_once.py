"""Overcooked reading and lifting: the players and objects of a user-study state decoded
from their text once per distinct text, and the lifter's direct path for one player's interaction, give what the
general reader and ``_serialize`` give: the same games, steps and messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int import StripsIntError, load_domain
from strips_int.grounders.overcooked import formats, lift
from strips_int.grounders.overcooked.layouts import OLD_RULES_NAMES, get_layout
from strips_int.model.execution import apply

USER_STUDY = SHARED_DATA / "user-study"
STAY, UP, INTERACT = 4, 0, 5


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(ROOT / "domains" / "overcooked.pddl")


def layout_of(game: formats.Game):
    return get_layout(OLD_RULES_NAMES.get(game.layout, game.layout))


def lifted(game: formats.Game, domain) -> list[tuple[int, str]]:
    """The steps the lifter gives (its fast paths included), as (transition, action)."""
    lifter = lift._Lifter(game, layout_of(game), domain)
    lifter.lift()
    return [(t, str(action)) for t, action in zip(lifter.times, lifter.actions)]


def serialized(game: formats.Game, domain) -> list[tuple[int, str]]:
    """The steps of every transition found by ``_serialize`` (no fast path), then the cooking steps, as
    ``_Lifter._lift`` adds them: the reference the fast paths must give exactly."""
    lifter = lift._Lifter(game, layout_of(game), domain)
    lifter.check_terrain(game.states[:1])
    tracker = lifter.build_init(game.states[0])
    lifter.known.update({**domain.constants, **lifter.objects, **tracker.kinds})
    state = lifter.init | lifter.static
    steps = []
    for i, (joint, before, after) in enumerate(zip(game.actions, game.states, [*game.states[1:], None])):
        tracker, chosen, state = lifter._serialize(tracker, state, i, joint, before, after)
        steps += [(i, str(action)) for _, action in chosen]
        if after is not None:
            for atom in lifter.environment(tracker, after, i):
                action = lifter.ground(atom, i)
                assert apply(state, action) is None
                steps.append((i, str(action)))
    return steps


@pytest.mark.skipif(not USER_STUDY.is_dir(), reason="needs ../shared/data")
def test_every_user_study_game_lifts_to_the_steps_serialize_gives(overcooked):
    files = sorted(USER_STUDY.glob("*/*.json"))
    assert len(files) == 302
    alone = 0
    for path in files:
        game = formats._typed_episode(path.read_bytes(), str(path), None)
        steps = lifted(game, overcooked)
        assert steps == serialized(game, overcooked), path
        s = game.states
        alone += sum(1 for b, a in zip(s, s[1:]) if b is not a and all(p.pos == q.pos for p, q in zip(b.players, a.players))
                     and sum(p.held != q.held for p, q in zip(b.players, a.players)) == 1)
    assert alone > 10_000  # the direct path was taken: about 13,000 interactions of one player alone


@pytest.fixture(scope="module")
def study_text() -> bytes:
    path = next(iter(sorted(USER_STUDY.glob("*/*.json"))), None)
    if path is None:
        pytest.skip("needs ../shared/data")
    return path.read_bytes()


@pytest.fixture
def study_game(study_text) -> dict:
    """A user-study game's JSON, to change (a new copy per test)."""
    return json.loads(study_text)


def written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game_human=0.json"
    path.write_text(text)
    return path


def both(path: Path) -> tuple[formats.Game | None, formats.Game]:
    """The typed path's game (None: refused) and the general path's."""
    raw, source = path.read_bytes(), str(path)
    return formats._typed_episode(raw, source, None), formats._read_episode(formats._json(raw, source, None), source,
                                                                            None)


def test_a_player_written_in_other_bytes_reads_and_lifts_as_the_general_path_reads_it(tmp_path, study_game,
                                                                                        overcooked):
    states = study_game["ep_states"][0]
    i = next(i for i in range(1, len(states)) if states[i]["players"][0] == states[i - 1]["players"][0])
    player = states[i]["players"][0]
    states[i]["players"][0] = dict(reversed(player.items()))  # equal, as text not the one before
    text = json.dumps(study_game)
    assert json.dumps(states[i]["players"][0]) != json.dumps(states[i - 1]["players"][0])
    typed, general = both(written(tmp_path, text))
    assert typed is not None and typed == general
    assert typed.states[i].players[0] == typed.states[i - 1].players[0]
    assert lifted(typed, overcooked) == lifted(general, overcooked)


def error_of(path: Path) -> StripsIntError:
    (result,) = formats.read_games(path)
    assert isinstance(result, StripsIntError)
    return result


def general_error(path: Path) -> StripsIntError:
    """The error of the general (untyped) episode reader on ``path``."""
    source = str(path)
    with pytest.raises(StripsIntError) as caught:
        formats._read_episode(formats._json(path.read_bytes(), source, None), source, None)
    return caught.value


def test_a_third_player_gets_the_general_message(tmp_path, study_game):
    study_game["ep_states"][0][4]["players"].append(study_game["ep_states"][0][4]["players"][0])
    path = written(tmp_path, json.dumps(study_game))
    assert formats._typed_episode(path.read_bytes(), str(path), None) is None
    error = error_of(path)
    assert (error.where, error.message) == ("state 4", "3 players, but state 0 has 2")


def test_a_held_object_nested_too_deep_to_skip_gets_the_general_message(tmp_path, study_game):
    study_game["ep_states"][0][6]["players"][1]["held_object"] = "HERE"
    path = written(tmp_path, json.dumps(study_game).replace('"HERE"', "[" * 5000 + "]" * 5000))
    assert formats._typed_episode(path.read_bytes(), str(path), None) is None
    error, general = error_of(path), general_error(path)
    assert (error.where, error.message) == (general.where, general.message)
    # which, depends on the JSON parser: orjson before 3.9 reads the depth, later ones and json refuse it
    assert (error.where, error.message) in (("state 6, player 1", "expected an object with a name, found a list of 1 "
                                             "items"), (None, "JSON nested too deeply"))


def test_a_bad_player_text_seen_late_gets_the_general_message(tmp_path, study_game):
    study_game["ep_states"][0][200]["players"][0]["position"] = [2, 1.5]
    path = written(tmp_path, json.dumps(study_game))
    assert formats._typed_episode(path.read_bytes(), str(path), None) is None
    error = error_of(path)
    assert (error.where, error.message) == ("state 200, player 0", "expected [x, y], two whole numbers under 10000 "
                                            "in size, found [2, 1.5]")


# -- One player's interaction alone, on cramped_room: counters at (1, 0) and (3, 0), the pot at (2, 0) ---------

def cramped(tmp_path: Path, states: list[tuple[dict, dict]], actions: list[list[int]]) -> Path:
    """A user-study file on cramped_room from (players, objects) per state; player 1 stays at (3, 1)."""
    data = {"ep_states": [[{"players": list(players), "objects": objects, "order_list": None}
                           for players, objects in states]],
            "ep_actions": [actions], "ep_rewards": [[0] * len(actions)],
            "mdp_params": [{"layout_name": "cramped_room", "cook_time": 20}]}
    return written(tmp_path, json.dumps(data))


def player(pos, held: str | None = None) -> dict:
    value = {"position": list(pos), "orientation": [0, -1]}
    if held:
        value["held_object"] = {"name": held, "position": list(pos)}
    return value


ONION_ON_COUNTER = {"1,0": {"name": "onion", "position": [1, 0]}}


def test_an_interaction_alone_that_is_not_applicable_has_the_serialize_message(tmp_path, overcooked):
    # Player 0 puts an onion on the counter at (1, 0), which already holds one: the grid still shows one onion.
    path = cramped(tmp_path, [((player((1, 1), "onion"), player((3, 1))), ONION_ON_COUNTER),
                              ((player((1, 1)), player((3, 1))), ONION_ON_COUNTER)], [[INTERACT, STAY]])
    (game,) = formats.read_games(path)
    with pytest.raises(StripsIntError) as fast:
        lifted(game, overcooked)
    with pytest.raises(StripsIntError) as slow:
        serialized(game, overcooked)
    assert (fast.value.where, fast.value.message) == (slow.value.where, slow.value.message)
    assert fast.value.where == "step 0"
    assert fast.value.message == ("no order of the players' actions is applicable: (put player0 onion1 counter1_0 "
                                  "c1_1) is not applicable: failed (empty counter1_0)")


def test_an_interaction_alone_logged_as_a_move_has_the_serialize_message(tmp_path, overcooked):
    path = cramped(tmp_path, [((player((1, 1)), player((3, 1))), ONION_ON_COUNTER),
                              ((player((1, 1), "onion"), player((3, 1))), {})], [[UP, STAY]])
    (game,) = formats.read_games(path)
    with pytest.raises(StripsIntError) as fast:
        lifted(game, overcooked)
    with pytest.raises(StripsIntError) as slow:
        serialized(game, overcooked)
    assert (fast.value.where, fast.value.message) == (slow.value.where, slow.value.message) == (
        "step 0 (player 0)", "player 0's hands changed (nothing -> a onion) but the logged action is (0, -1), not "
        "interact")
