"""Overcooked lifting: the moves told from the players' positions, the terrain checked in full only
when lifting fails, and the problem built without repeating make_problem's checks give what the general
serialization and make_problem give, games and messages alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA
from test_overcooked_fast_paths import game_file, state  # cramped_room: floor (1..3, 1) and (1..3, 2)

from strips_int import StripsIntError, load_domain
from strips_int.model.problem import make_problem
from strips_int.grounders.overcooked import read_traces

USER_STUDY = SHARED_DATA / "user-study"
needs_study = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="needs ../shared/data")
DOMAIN = ROOT / "domains" / "overcooked.pddl"
UP, DOWN, RIGHT, LEFT, STAY = 0, 1, 2, 3, 4


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(DOMAIN)


@pytest.fixture(scope="module")
def general(tmp_path_factory):
    """The domain with a delivery that also deletes a fact never true: the same games, but another action than
    move may now change where players are, so the lifter serializes every move the general way."""
    text = DOMAIN.read_text()
    path = tmp_path_factory.mktemp("general") / "overcooked.pddl"
    path.write_text(text.replace("(not (holding ?a ?s))))\n)", "(not (holding ?a ?s)) (not (adjacent ?c ?c))))\n)"))
    return load_domain(path)


def steps(trace) -> list[tuple[int, str]]:
    return [(step.t, str(step.action)) for step in trace.steps]


@needs_study
def test_every_user_study_game_lifts_as_the_general_serialization_lifts_it(overcooked, general):
    files = sorted(USER_STUDY.glob("*/*.json"))
    assert len(files) == 302
    for path in files:
        [fast], [slow] = read_traces(path, overcooked), read_traces(path, general)
        assert steps(fast) == steps(slow), path
        assert (fast.problem.init, fast.problem.goal, fast.problem.objects) == (
            slow.problem.init, slow.problem.goal, slow.problem.objects), path


@needs_study
def test_every_user_study_problem_is_make_problems(overcooked):
    for path in sorted(USER_STUDY.glob("*/*.json")):
        [trace] = read_traces(path, overcooked)
        p = trace.problem
        declared = {name: kind for name, kind in p.objects.items() if name not in overcooked.constants}
        assert p == make_problem(overcooked, p.name, declared, p.init, p.goal, p.source), path


def lifted(path: Path, domain) -> list[tuple[int, str]] | str:
    try:
        [trace] = read_traces(path, domain)
    except StripsIntError as exc:
        return str(exc)
    return steps(trace)


# Every move the last transitions make, made before (so told from the positions, not serialized as new ones):
# player 0 ends at (1, 1), player 1 at (2, 1).
WARM_UP = [(((2, 1), (3, 1)), [RIGHT, STAY]), (((1, 1), (3, 1)), [LEFT, STAY]), (((1, 2), (2, 1)), [DOWN, LEFT]),
           (((1, 2), (1, 1)), [STAY, LEFT]), (((1, 2), (2, 1)), [STAY, RIGHT]), (((1, 2), (3, 1)), [STAY, RIGHT]),
           (((1, 2), (2, 1)), [STAY, LEFT]), (((1, 1), (2, 1)), [UP, STAY])]
LAST = {"follow": (((2, 1), (3, 1)), [RIGHT, RIGHT]),  # player 1 must go first
        "lead": (((1, 2), (1, 1)), [DOWN, LEFT]),  # player 0 must go first: the player order
        "swap": (((2, 1), (1, 1)), [RIGHT, LEFT]),  # no order
        "into": (((2, 1), (2, 1)), [RIGHT, STAY]),  # player 1 stays in the cell
        "mislogged": (((2, 1), (3, 1)), [RIGHT, LEFT])}


@pytest.mark.parametrize("case", sorted(LAST))
def test_two_moves_take_the_general_order_or_message(tmp_path, overcooked, general, case):
    played = [*WARM_UP, LAST[case]]
    path = game_file(tmp_path, [state((1, 1), (3, 1))] + [state(*p) for p, _ in played], [a for _, a in played])
    fast, slow = lifted(path, overcooked), lifted(path, general)
    assert fast == slow
    if case == "follow":
        assert fast[-2:] == [(8, "(move player1 c2_1 c3_1)"), (8, "(move player0 c1_1 c2_1)")]
    elif case == "lead":
        assert fast[-2:] == [(8, "(move player0 c1_1 c1_2)"), (8, "(move player1 c2_1 c1_1)")]
    else:
        assert "step 8" in fast


def test_a_misfit_in_a_later_state_comes_before_an_earlier_step_error(tmp_path, overcooked):
    """Only the first state's terrain is checked up front; when lifting fails the rest is, for the misfit to be
    the error, as the state-by-state check found it first."""
    path = game_file(tmp_path, [state((1, 1), (3, 1)), state((1, 2), (3, 1)), state((1, 2), (4, 1))],
                     [[STAY, STAY], [STAY, STAY], [STAY, STAY]])  # player 0 moved, logged to stay
    with pytest.raises(StripsIntError, match=r"state 2: player 1 stands at \(4, 1\), which is 'O' in layout "
                                             r"cramped_room, not floor"):
        list(read_traces(path, overcooked))


def test_a_bad_fact_is_named_as_make_problem_names_it_though_others_passed_before(tmp_path, overcooked):
    """A domain without (empty ?k): make_problem names the first bad fact, in every game, whatever passed before."""
    text = DOMAIN.read_text()
    assert "(empty ?k - counter)" in text
    path = tmp_path / "overcooked.pddl"
    path.write_text(text.replace("(empty ?k - counter)", "(vacant ?k - counter)").replace("(empty ?k)", "(vacant ?k)")
                    .replace("occupied empty pot-empty", "occupied vacant pot-empty"))
    domain = load_domain(path)
    game = game_file(tmp_path, [state((1, 1), (3, 1))] * 2, [[STAY, STAY]] * 2)
    for _ in range(2):
        with pytest.raises(StripsIntError, match=r"init: unknown predicate 'empty' in \(empty counter0_0\)"):
            list(read_traces(game, domain))

