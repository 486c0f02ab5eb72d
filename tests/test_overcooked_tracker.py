"""The Overcooked lift's object tracker tries another order of the players' actions by rolling back a log of
its changes (not by copying every object made so far): a rollback gives back exactly the tracker as it was,
as often as asked, and a game played as a loop many times over lifts as the same loop would."""

from __future__ import annotations

import json

import pytest

from helpers import SHARED_DATA
from strips_int import analyze, load_domain
from strips_int.grounders import read_input
from strips_int.grounders.overcooked.lift import _Tracker


def snapshot(tracker: _Tracker) -> tuple:
    return (dict(tracker.holding), dict(tracker.counters), dict(tracker.pots), dict(tracker.size),
            dict(tracker.status), dict(tracker.kinds), list(tracker.created), dict(tracker.counts),
            dict(tracker.started), list(tracker.due))


def test_a_rollback_gives_back_the_tracker_as_it_was_each_time():
    tracker = _Tracker(holding={0: None, 1: None}, counters={}, pots={})
    soup = tracker.new("soup")
    tracker.pots[(3, 0)], tracker.size[soup], tracker.status[soup] = soup, 1, "idle"
    before = snapshot(tracker)
    point = tracker.checkpoint()
    for _ in range(3):  # each order tried changes the tracker, and is undone
        onion = tracker.new("onion")
        tracker.holding[0] = onion
        tracker.counters[(1, 1)] = tracker.new("dish")
        tracker.size[soup], tracker.status[soup], tracker.started[soup] = 3, "cooking", 7
        tracker.due.append(soup)
        assert snapshot(tracker) != before
        tracker.rollback(point)
        assert snapshot(tracker) == before
    tracker.release()
    tracker.new("onion")  # after release nothing is logged: the order kept stays
    assert point.log == [] and tracker.created[-1] == "onion1"


def test_a_copy_is_independent_and_logs_nothing():
    tracker = _Tracker(holding={0: None}, counters={}, pots={})
    tracker.new("onion")
    copy = tracker.copy()
    copy.new("onion")
    assert tracker.created == ["onion1"] and copy.created == ["onion1", "onion2"]
    assert tracker.kinds == {"onion1": "onion"} and copy.kinds.log is None


STUDY = SHARED_DATA / "user-study"
#: A user-study game whose state 383 equals its first: its first 383 transitions form a loop.
LOOPED = STUDY / "mep" / "5_10_2025_17_14_9_human=1.json"


@pytest.mark.skipif(not LOOPED.is_file(), reason="needs ../shared/data/user-study")
def test_a_loop_played_five_times_lifts_as_five_loops(tmp_path):
    data = json.loads(LOOPED.read_text())
    assert data["ep_states"][0][0] == data["ep_states"][0][383]
    for key in ("ep_states", "ep_actions", "ep_rewards"):
        whole = data[key][0]
        data[key] = [whole[:383] * 5 + whole[383:]]
    path = tmp_path / "looped.json"
    path.write_text(json.dumps(data))
    domain = load_domain("overcooked")
    [once] = list(read_input(LOOPED, domain))
    [five] = list(read_input(path, domain))
    once_loop = sum(1 for step in once.steps if step.t < 383)
    assert len(five.steps) == 5 * once_loop + len(once.steps) - once_loop
    assert len(five.problem.goal) == 5 * 6 + len(once.problem.goal) - 6  # six deliveries a loop
    loop = [step.action.name for step in once.steps if step.t < 383]
    for k in range(5):  # each loop is lifted to the first loop's actions (on objects of its own)
        assert [step.action.name for step in five.steps if 383 * k <= step.t < 383 * (k + 1)] == loop
    assert analyze(domain, five).counts["interdependencies"] > 0
