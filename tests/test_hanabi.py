"""Hanabi: hanab.live's game JSON replayed by its rules, lifted into domains/hanabi.pddl, and what help means there.

The games here are built by the tests (``hanabi_json.py``) to pin each rule and each
error; engine-played games are in ``test_hanabi_engines.py``. Real hanab.live games are
read from ``../shared/data/hanabi-live`` (or the folder ``$HANABI_LIVE_GAMES``), in
place, when they are there: hanab.live's own example games are GPL, so none is copied
into this repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hanabi_json import BLUE, COLOUR, DISCARD, END, GREEN, HELP, PLAY, RANK, RED, YELLOW, clue_and_discard, game, write
from helpers import ROOT, SHARED_DATA

from strips_int import StripsIntError, analyze, load_domain
from strips_int.cli.check import main as check_main
from strips_int.grounders import grounder_for, read_input
from strips_int.grounders.hanabi import GROUNDER
from strips_int.analysis.report import Report
from strips_int.model.execution import execute

REAL = Path(os.environ.get("HANABI_LIVE_GAMES", SHARED_DATA / "hanabi-live"))


@pytest.fixture(scope="module")
def domain():
    return load_domain("hanabi")


def analysed(domain, path: Path) -> Report:
    (trace,) = list(read_input(path, domain))
    assert not isinstance(trace, StripsIntError), trace
    execute(trace)  # every step is applicable in the domain
    return analyze(domain, trace)


def informed_plays_have_their_clues(report: Report) -> int:
    """Every informed play is the receiver of interdependences from clues to its player that gave it the
    card's suit and its rank (the issue's promise); the number of informed plays."""
    plays = [s for s in report.steps if s.action.name == "play-informed"]
    for play in plays:
        player, card = play.action.args[0], play.action.args[1]
        facts = set()
        for inter in report.interdependencies:
            clue = inter.giver.action
            if inter.receiver.index == play.index and clue.name == "clue" and clue.args[1] == player:
                assert card in inter.objects and inter.giver.agent != player
                facts.update(f[0] for f in inter.facts)
        assert facts == {"suit-known", "rank-known"}, (play, facts)
    return len(plays)


def test_the_packaged_domain_and_the_registry(domain):
    assert domain.name == "hanabi" and domain.ignore_predicates == {"firework"}
    assert GROUNDER.actions <= domain.schemas.keys()
    assert {n for n, s in domain.schemas.items() if s.actor is not None} == {
        "clue", "discard", "play-informed", "play-suit-known", "play-rank-known", "play-touched", "play-blind"}
    assert not domain.navigation_actions  # no pragma: every turn changes a card, a token or knowledge: a sub-task


def test_a_clue_is_help_to_the_play_it_informs_and_a_discard_to_the_clue_it_pays_for(domain, tmp_path):
    report = analysed(domain, write(tmp_path / "help.json", HELP))
    found = {(i.giver.action.name, i.giver.t, i.receiver.action.name, i.receiver.t): (i.facts, i.category, i.required)
             for i in report.interdependencies}
    assert found == {
        ("clue", 0, "play-informed", 3): ((("suit-known", "c5-red1", "hand1"),), "constructive", True),
        ("clue", 2, "play-informed", 3): ((("rank-known", "c5-red1", "hand1"),), "constructive", True),
        ("discard", 1, "clue", 2): ((("available", "token9"),), "constructive", False),
    }
    assert informed_plays_have_their_clues(report) == 1
    kinds = [s.action.name for s in report.steps if s.agent]
    assert kinds == ["clue", "discard", "clue", "play-informed", "play-blind", "play-blind"]
    assert [s.action.name for s in report.steps if s.t == 5] == ["play-blind", "fail-early", "draw"]
    assert report.meta == {"players": ["Alice", "Bob"], "num_players": 2, "variant": "No Variant", "score": 2,
                           "reward": 2, "end": "unfinished"}
    assert report.achieved == {("firework", "red", "r1"), ("firework", "yellow", "r1")}
    metrics = report.agent_metrics()
    assert (metrics["player0"]["subtasks"], metrics["player0"]["triggers"]) == (3, 2)  # two clues, a blind play
    assert (metrics["player1"]["triggers"], metrics["player1"]["accepted_triggers"]) == (1, 1)  # the discard


def test_negative_clues_complete_knowledge_and_the_last_one_is_the_giver(domain, tmp_path):
    # Bob's card 5 is purple 1: red, yellow, green and blue clues to his other cards leave it purple
    top = ["y2", "y2", "r4", "g4", "g4", "p1", "r3", "y3", "g3", "b3"]
    actions = [(COLOUR, 1, RED), (DISCARD, 6), (COLOUR, 1, YELLOW), (DISCARD, 7), (COLOUR, 1, GREEN),
               (DISCARD, 8), (COLOUR, 1, BLUE), (DISCARD, 9), (RANK, 1, 1), (PLAY, 5)]
    report = analysed(domain, write(tmp_path / "negative.json", game(top, actions)))
    learned = [(s.t, s.action.name) for s in report.steps if s.action.args[:1] == ("c5-purple1",)]
    assert learned == [(6, "learn-suit"), (8, "note-touch"), (8, "learn-rank"), (9, "fit")]
    givers = sorted(i.giver.t for i in report.interdependencies if i.receiver.action.name == "play-informed")
    assert givers == [6, 8]
    assert informed_plays_have_their_clues(report) == 1


def test_a_played_five_gives_back_the_token_a_partners_clue_spends(domain, tmp_path):
    top = ["y1", "y1", "y1", "g1", "g1", "r1", "r2", "r3", "r4", "r5"]
    actions = [(COLOUR, 1, RED), (PLAY, 5), (COLOUR, 1, RED), (PLAY, 6), (RANK, 1, 3), (PLAY, 7), (RANK, 1, 4),
               (PLAY, 8), (RANK, 1, 5), (PLAY, 9), (COLOUR, 1, RED)]
    report = analysed(domain, write(tmp_path / "five.json", game(top, actions)))
    tokens = [(i.giver.action.name, i.giver.t, str(i.receiver.action)) for i in report.interdependencies
              if i.receiver.action.name == "clue"]
    assert tokens == [("play-informed", 9, "(clue player0 player1 hand1 red token9)")]
    assert [str(s.action) for s in report.steps if s.t == 9][1] == "(fit-five c9-red5 red token9)"
    assert report.meta["score"] == 5


def test_a_variant_clue_that_leaves_two_suits_is_a_touch(domain, tmp_path):
    # Rainbow: a red clue touches Bob's rainbow 1 (red or rainbow?), a blue clue then tells it is rainbow
    top = ["r1", "r1", "r1", "y1", "y1", (5, 1), "g3", "g3", "g4", "g4"]
    actions = [(COLOUR, 1, RED), (PLAY, 5)]
    report = analysed(domain, write(tmp_path / "rainbow.json", game(top, actions, variant="Rainbow (6 Suits)")))
    assert str(next(s.action for s in report.steps if s.agent == "player1")) == \
        "(play-touched player1 c5-rainbow1 hand1)"
    actions = [(COLOUR, 1, RED), (DISCARD, 9), (COLOUR, 1, BLUE), (DISCARD, 8), (RANK, 1, 1), (PLAY, 5)]
    report = analysed(domain, write(tmp_path / "rainbow2.json", game(top, actions, variant="Rainbow (6 Suits)")))
    assert [s.action.name for s in report.steps if s.agent == "player1"][-1] == "play-informed"
    assert sorted(i.giver.t for i in report.interdependencies if i.receiver.t == 5) == [2, 4]  # blue, 1
    assert informed_plays_have_their_clues(report) == 1


@pytest.mark.parametrize(("variant", "suits", "colours", "cards"), [
    ("No Variant", 5, 5, 50), ("6 Suits", 6, 6, 60), ("Black (6 Suits)", 6, 6, 55), ("Rainbow (6 Suits)", 6, 5, 60),
    ("White (6 Suits)", 6, 5, 60), ("Pink (6 Suits)", 6, 6, 60), ("Dark Rainbow (5 Suits)", 5, 4, 45),
    ("Black & Rainbow (6 Suits)", 6, 5, 55)])
def test_variants(variant, suits, colours, cards):
    from strips_int.grounders.hanabi.variants import variant as named

    rules = named(variant)
    assert (len(rules.suits), len(rules.colours), rules.deck_size) == (suits, colours, cards)


def test_a_game_ends_and_no_action_may_follow(domain, tmp_path):
    top = ["r1", "r1", "r1", "y1", "y1", "r3", "r4", "g2", "y3", "p5"]
    strikes = [(PLAY, 0), (PLAY, 5), (PLAY, 1), (PLAY, 6)]  # r1, then r3, a second r1 and r4: three strikes
    report = analysed(domain, write(tmp_path / "strikeout.json", game(top, strikes)))
    assert (report.meta["score"], report.meta["end"]) == (0, "strikeout")
    assert report.achieved == {("firework", "red", "r1")}  # the fireworks built stay the goal facts reached
    ended = write(tmp_path / "after.json", game(top, [*strikes, (COLOUR, 0, RED)]))
    (error,) = list(read_input(ended, domain))
    assert str(error) == f"{ended}: action 4: the game ended at action 3 (strikeout); no action may follow"
    quit_ = analysed(domain, write(tmp_path / "quit.json", game(top, [(PLAY, 0), (END, 1, 4)])))
    assert (quit_.meta["score"], quit_.meta["end"]) == (0, "terminated by a player")


def test_the_final_round_after_the_last_draw(domain, tmp_path):
    data = game([], [])
    actions, hands = clue_and_discard(data["deck"])  # Bob's discard at action 79 draws the last card
    last = {"type": RANK, "target": 1, "value": data["deck"][hands[1][0]]["rank"]}
    actions += [last, {"type": DISCARD, "target": hands[1][0]}]
    report = analysed(domain, write(tmp_path / "deck.json", {**data, "actions": actions}))
    assert (report.meta["end"], len(actions)) == ("final round over", 82)
    late = write(tmp_path / "late.json", {**data, "actions": [*actions, last]})
    (error,) = list(read_input(late, domain))
    assert str(error) == f"{late}: action 82: the game ended at action 81 (final round over); no action may follow"


@pytest.mark.parametrize(("actions", "options", "message"), [
    ([(PLAY, 7)], {}, "action 0: player0 plays card 7, which is not in their hand (cards 0 1 2 3 4)"),
    ([(COLOUR, 1, BLUE)], {}, "action 0: player0's clue (Blue) to player1 touches no card"),
    ([(COLOUR, 1, RED), (COLOUR, 0, YELLOW)] * 4 + [(COLOUR, 1, RED)], {},
     "action 8: player0 gives a clue with no clue token left"),
    ([(DISCARD, 0)], {}, "action 0: player0 discards card 0 (Yellow 1) at 8 clue tokens"),
    ([(COLOUR, 0, RED)], {}, "action 0: player0 gives a clue to themselves"),
    ([(RANK, 1, 6)], {}, "action 0: rank clue value 6; ranks are 1 to 5"),
    ([(COLOUR, 1, 5)], {}, "action 0: colour clue value 5; No Variant has colours 0 to 4"),
    ([(7, 0)], {}, "action 0: unknown action type 7"),
    ([(COLOUR, 1, RED), (END, 1, 2)], {}, "action 1: an end-game action with target 1 and value 2"),
    ([(COLOUR, 1, RED), (DISCARD, 0)], {}, "action 1: player1 discards card 0"),
])
def test_each_illegal_action_is_one_error_naming_it(domain, tmp_path, actions, options, message):
    path = write(tmp_path / "bad.json", game(HELP_TOP, actions, **options))
    results = list(read_input(path, domain))
    assert len(results) == 1 and isinstance(results[0], StripsIntError)
    assert str(results[0]).startswith(f"{path}: {message}"), str(results[0])


HELP_TOP = ["y1", "r2", "g1", "b1", "b2", "r1", "r3", "g2", "p4", "y4"]


def test_empty_clues_and_deck_plays_are_options(domain, tmp_path):
    empty = analysed(domain, write(tmp_path / "empty.json", game(HELP_TOP, [(COLOUR, 1, BLUE)], emptyClues=True)))
    assert [s.action.name for s in empty.steps] == ["clue"]  # "not blue" makes no card's suit known
    data = game([], [])
    actions, _ = clue_and_discard(data["deck"], left=1)
    actions.append({"type": PLAY, "target": 49})  # Alice plays the last card straight from the deck
    report = analysed(domain, write(tmp_path / "deckplay.json", {**data, "actions": actions,
                                                                 "options": {"deckPlays": True}}))
    assert [str(s.action) for s in report.steps if s.t == len(actions) - 1][:2] == [
        "(draw-last c49-purple5 hand0)", "(play-blind player0 c49-purple5 hand0)"]


@pytest.mark.parametrize(("change", "where"), [
    (lambda g: g["deck"].pop(), "deck: 49 cards; a No Variant deck has 50"),
    (lambda g: g["deck"][3].update(suitIndex=5), "deck 3 suitIndex: must be 0 to 4 in No Variant"),
    (lambda g: g["deck"][0].update(suitIndex=0, rank=5), "deck: 2 cards Red 5; a No Variant deck has 1"),
    (lambda g: g["deck"][3].update(rank="1"), "deck 3 rank: must be 1 to 5"),
    (lambda g: g.update(players=["Alice"]), "players: 1 players; hanab.live plays 2 to 6"),
    (lambda g: g.update(options={"variant": "Up or Down (5 Suits)"}), "options.variant: 'Up or Down (5 Suits)'"),
    (lambda g: g.update(options={"detrimentalCharacters": True}), "options.detrimentalCharacters: changes the rules"),
    (lambda g: g["actions"][2].update(target=None), "action 2 target: must be a whole number"),
])
def test_a_malformed_file_is_one_error_naming_the_field(domain, tmp_path, change, where):
    data = game(HELP_TOP, [(COLOUR, 1, RED), (DISCARD, 9), (RANK, 1, 1)])
    change(data)
    path = write(tmp_path / "malformed.json", data)
    (error,) = list(read_input(path, domain))
    assert str(error).startswith(f"{path}: {where}"), str(error)


def test_the_command_line_exits_1_with_one_line_per_bad_game(tmp_path, capsys):
    good = write(tmp_path / "good.json", HELP)
    bad = write(tmp_path / "bad.json", game(HELP_TOP, [(PLAY, 7)]))
    assert check_main(["hanabi", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"error: {bad}: action 0: player0 plays card 7, which is not in their hand "
                                "(cards 0 1 2 3 4)"]
    assert "interdependencies: 3 (constructive 3" in out


def test_a_file_of_several_games(domain, tmp_path):
    path = write(tmp_path / "two.json", [HELP, game(HELP_TOP, [(PLAY, 7)])])
    results = list(read_input(path, domain))
    assert results[0].source == f"{path}#0" and results[0].meta["score"] == 2
    assert str(results[1]).startswith(f"{path}#1: action 0:")


def test_recognized_by_content(tmp_path):
    assert grounder_for(write(tmp_path / "game.json", HELP)) is GROUNDER
    actions_first = {"actions": HELP["actions"] * 60, **HELP}  # the deck further than the first 4 KiB
    assert grounder_for(write(tmp_path / "late-deck.json", dict(reversed(list(actions_first.items()))))) is GROUNDER
    assert grounder_for(ROOT / "examples" / "sar" / "kit-pass.trace.json") is None
    assert grounder_for(write(tmp_path / "other.json", {"players": ["a", "b"], "actions": []})) is not GROUNDER


@pytest.mark.skipif(not REAL.is_dir(), reason=f"needs real hanab.live games in {REAL}")
def test_real_hanab_live_games(domain):
    games = sorted(REAL.rglob("*.json"))
    read = 0
    for path in games:
        for trace in read_input(path, domain):
            if isinstance(trace, StripsIntError):
                assert "options.variant" in str(trace), trace  # only variants with other rules are refused
                continue
            report = analyze(domain, trace)
            assert report.meta["score"] in (0, len(report.achieved))
            informed_plays_have_their_clues(report)
            read += 1
    assert read
