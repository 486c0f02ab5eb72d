"""The new rules of definitions v2 (sections 3, 6 and 11 and the Overcooked domain fixes), on traces worked out here."""

from __future__ import annotations

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int import StripsIntError, analyze_run, execute, load_domain
from strips_int.grounders.overcooked import read_traces
from strips_int.model.trace import trace_from_dict


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(ROOT / "domains" / "overcooked.pddl")


# A kitchen of two cells: player0 at c1 reaches the onion dispenser, the counter k, pot pa and the
# window; player1 at c2 reaches the counter, both pots, the dish dispenser and (``cook``) the onions.
def kitchen(cook: bool = False, auto_cook: bool = True) -> dict:
    objects = {"player0": "agent", "player1": "agent", "c1": "cell", "c2": "cell", "k": "counter",
               "od": "onion-dispenser", "pa": "pot", "pb": "pot", "dd": "dish-dispenser", "w": "window",
               "soup1": "soup", "soup2": "soup", "dish1": "dish",
               **{f"onion{i}": "onion" for i in range(1, 5)}}
    init = ["(at player0 c1)", "(at player1 c2)", "(occupied c1)", "(occupied c2)", "(hand-empty player0)",
            "(hand-empty player1)", "(empty k)", "(pot-empty pa)", "(pot-empty pb)", "(succ n0 n1)",
            "(succ n1 n2)", "(succ n2 n3)", *(f"(next-to c1 {s})" for s in ("od", "k", "pa", "w")),
            *(f"(next-to c2 {s})" for s in ("k", "pa", "pb", "dd", *(("od", "w") if cook else ()))),
            *(f"(fresh {o})" for o in objects if o[:-1] in ("onion", "soup", "dish"))]
    if auto_cook:
        init.append("(auto-cook)")
    return {"objects": objects, "init": init, "goal": ["(delivered soup1)", "(delivered soup2)"]}


def analyse(domain, problem: dict, actions: list[str]):
    steps = [{"action": a} for a in actions]
    data = {"format": "strips-int-trace/1", "domain": "overcooked", "problem": problem, "steps": steps}
    return analyze_run(domain, execute(trace_from_dict(data, domain, "inline.json")))


def test_onion_of_an_unserved_soup_is_irrelevant(overcooked):
    # player0 hands onion1 over the counter (1 -> 2); player1 starts soup1 with it in pot pa (3), never
    # served, then makes soup2 alone in pot pb and serves it. Step 3 links on only through
    # (hand-empty player1) to step 4: an agent's own status carries no relevance (definitions v2 section 3), so
    # steps 3 and 2 are irrelevant. (definitions v1 called the pass constructive through that link.)
    report = analyse(overcooked, kitchen(cook=True, auto_cook=False), [
        "(take-onion player0 onion1 od c1)", "(put player0 onion1 k c1)", "(take player1 onion1 k c2)",
        "(start-soup player1 onion1 soup1 pa c2)", "(take-onion player1 onion2 od c2)",
        "(start-soup player1 onion2 soup2 pb c2)", "(start-cooking player1 soup2 pb c2)",
        "(finish-cooking soup2 pb)", "(take-dish player1 dish1 dd c2)", "(plate-soup player1 dish1 soup2 pb c2)",
        "(deliver player1 soup2 w c2)"])
    assert report.achieved == {("delivered", "soup2")}
    [inter] = report.interdependencies
    assert (inter.giver.index, inter.receiver.index, inter.objects) == (1, 2, ("onion1",))
    assert inter.category == "irrelevant"
    assert not inter.goal_reaching


THIRD_ONION = [
    "(take-onion player0 onion1 od c1)", "(start-soup player0 onion1 soup1 pa c1)",
    "(take-onion player0 onion2 od c1)", "(add-ingredient player0 onion2 soup1 pa c1 n1 n2)",
    "(take-onion player0 onion3 od c1)", "(add-ingredient player0 onion3 soup1 pa c1 n2 n3)",
    "(auto-cook soup1 pa)", "(finish-cooking soup1 pa)", "(take-dish player1 dish1 dd c2)",
    "(plate-soup player1 dish1 soup1 pa c2)",
]


def test_third_onion_is_an_accepted_trigger(overcooked):
    # player0 fills pot pa (steps 1, 3, 5); it cooks by itself (6, 7); player1 plates the soup (9).
    # Step 1 adds (in-pot soup1 pa), which player1's plate-soup needs: a trigger. Step 5 adds
    # (size soup1 n3): no action of player1 needs it, but auto-cook does, whose (cooking soup1) feeds
    # finish-cooking, whose (ready soup1) player1's plate-soup needs: a trigger through environment
    # actions (definitions v2 section 6; v1 counted only steps 1 and 3). Step 3's (size soup1 n2) is needed
    # by player1's add-ingredient (player1 can get an onion over the counter): a trigger, never taken
    # up. Steps 1 and 5 give an interdependence to step 9 (step 5 through the environment chain
    # 6 -> 7): accepted.
    report = analyse(overcooked, kitchen(), THIRD_ONION)
    assert [(i.giver.index, i.receiver.index) for i in report.interdependencies] == [(1, 9), (5, 9)]
    p0 = report.tasks["player0"]
    assert (p0.subtasks, p0.triggers, p0.accepted) == ((0, 1, 2, 3, 4, 5), (1, 3, 5), (1, 5))


def test_plated_soup_handed_back_to_its_cook_is_not_a_loop(overcooked):
    # player0 cooks soup1, player1 plates it (9), puts it on the counter (10), player0 takes it (11) and
    # serves it (12). plate-soup adds (plated soup1), so the soup player0 gets back is not in the state
    # it left in: (1, 9), (5, 9) and (10, 11) are constructive. (Without (plated) its state {size n3,
    # ready, in-soup ...} was the same at 9 and 11: three loops, as definitions v1 with the old domain said.)
    # deliver needs only the held soup, not (ready soup1), so it receives nothing from player1's plating.
    report = analyse(overcooked, kitchen(), THIRD_ONION + [
        "(put player1 soup1 k c2)", "(take player0 soup1 k c1)", "(deliver player0 soup1 w c1)"])
    assert [(i.giver.index, i.receiver.index, i.objects) for i in report.interdependencies] == [
        (1, 9, ("soup1",)), (5, 9, ("soup1",)), (10, 11, ("soup1",))]
    assert [i.category for i in report.interdependencies] == ["constructive"] * 3


def test_reward_without_a_delivery_is_an_error_naming_the_step(tmp_path, overcooked):
    from test_overcooked import INTERACT, ONION, STAY, Script, grid_file

    game = Script()
    game.step(INTERACT, STAY, game.hold(0, ONION))
    game.step(STAY, STAY, reward=20)  # nothing is delivered at step 1
    game.step(STAY, STAY)
    path = game.user_study(tmp_path / "reward.json", cook_time=20)
    with pytest.raises(StripsIntError, match=r"step 1: logged reward 20, but the step delivers 0 soup"):
        list(read_traces(path, overcooked, grid=grid_file(tmp_path)))


COLE = SHARED_DATA / "user-study" / "cole" / "5_10_2025_15_45_18_human=1.json"


@pytest.mark.skipif(not COLE.is_file(), reason="needs ../shared/data")
def test_onion_of_a_real_unserved_soup_is_not_constructive(overcooked):
    # The example: step 36 (t=59) takes onion4 off a counter; onion4 ends in soup2, which holds
    # two onions and is never served. definitions v1 called it constructive ("leads to (delivered soup1)")
    # only through (hand-empty player0), twice.
    [trace] = read_traces(COLE, overcooked)
    report = analyze_run(overcooked, execute(trace))
    [inter] = [i for i in report.interdependencies if i.receiver.index == 36]
    assert (report.steps[36].t, str(report.steps[36].action)[:22]) == (59, "(take player0 onion4 c")
    assert inter.objects == ("onion4",) and inter.category == "irrelevant"
    assert ("delivered", "soup2") not in report.achieved
    assert any(("in-soup", "onion4", "soup2") in s.action.add for s in report.steps)


def test_reward_decides_the_goal_under_both_rule_sets():
    from strips_int.grounders.overcooked.formats import INTERACT, Game, Player, RawState
    from strips_int.grounders.overcooked.lift import rewarded_soups

    states = [RawState(players=(Player((1, 1), (0, 1), None),) * 2, objects={})] * 3

    steps = [(0, ("deliver", "player0", "soup1", "w", "c1")), (2, ("deliver", "player1", "soup2", "w", "c2"))]

    def game(rewards, old_rules):
        return Game(source="g.json", layout="x", states=states, actions=[(INTERACT,) * 2] * 3, reward=sum(rewards),
                    rewards=tuple(rewards), old_rules=old_rules)

    assert rewarded_soups(game([20, 0, 20], True), steps) == (["soup1", "soup2"], 20)
    # New rules: soup2 earned nothing (no ordered recipe): delivered, but not a goal.
    assert rewarded_soups(game([13, 0, 0], False), steps).soups == ["soup1"]
    # Old rules: every delivery earns the game's one reward per soup, so an unrewarded one is an error naming its step.
    with pytest.raises(StripsIntError, match=r"g.json: step 2: logged reward 0, but the step delivers 1 soup"):
        rewarded_soups(game([20, 0, 0], True), steps)
    with pytest.raises(StripsIntError, match=r"step 1: logged reward 5, but the step delivers 0 soup"):
        rewarded_soups(game([13, 5, 0], False), steps)
    with pytest.raises(StripsIntError, match="2 rewards logged for 3 joint actions"):
        rewarded_soups(Game(source="g.json", layout="x", states=states, actions=[(INTERACT,) * 2] * 3, reward=0,
                            rewards=(0, 0)), steps)
    # No reward logged: every delivered soup is the goal.
    assert rewarded_soups(Game(source="g.json", layout="x", states=states, actions=[(INTERACT,) * 2] * 3,
                               reward=None), steps).soups == [
        "soup1", "soup2"]
