"""Hanabi games played in JaxMARL, saved by ``save_game`` as hanab.live's JSON, read back and analysed.

The games are played by ``hanabi_engine_games.py`` in a process of its own (this one
never imports jax), two of each number of players from 2 to 5. Skipped when the
``jaxmarl`` extra is not installed (CI installs it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest
from helpers import ROOT, needs_jaxmarl
from test_hanabi import analysed, informed_plays_have_their_clues

from strips_int import load_domain
from strips_int.grounders import grounder_for
from strips_int.grounders.hanabi import GROUNDER

pytestmark = needs_jaxmarl


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The folder of saved games, and JaxMARL's facts about each (its score, its steps)."""
    out = tmp_path_factory.mktemp("hanabi")
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "hanabi_engine_games.py"), str(out), "2"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    facts = json.loads((out / "facts.json").read_text())
    (out / "facts.json").unlink()
    return out, facts


def test_engine_games_read_score_and_credit_every_informed_play(games):
    folder, facts = games
    facts = facts["games"]
    domain = load_domain("hanabi")
    kinds: Counter = Counter()
    for name, fact in sorted(facts.items()):
        path = folder / name
        assert grounder_for(path) is GROUNDER
        report = analysed(domain, path)
        players = int(name.split("_")[1][0])
        assert report.meta["score"] == fact["score"], name
        assert (report.meta["num_players"], report.meta["engine"]) == (players, "jaxmarl")
        assert max(s.t for s in report.steps) == fact["steps"] - 1  # t is the action's index
        informed_plays_have_their_clues(report)
        blind = {s.index for s in report.steps if s.action.name == "play-blind"}
        assert not any(i.receiver.index in blind for i in report.interdependencies)
        kinds.update(s.action.name for s in report.steps)
    assert sorted(Counter(int(n.split("_")[1][0]) for n in facts).items()) == [(2, 2), (3, 2), (4, 2), (5, 2)]
    # every kind of turn occurs: informed, partly informed and blind plays, misplays, discards, fives
    assert all(kinds[k] for k in ("play-informed", "play-blind", "fail-early", "discard", "clue", "fit")), kinds
    assert kinds["play-suit-known"] + kinds["play-rank-known"] > 0, kinds


def test_a_game_that_does_not_replay_as_played_is_not_saved(games):
    folder, facts = games
    assert facts["mismatch"].startswith(f"{folder / 'mismatch.json'}: action ")  # illegal by hanab.live's rules
    assert "JaxMARL and the replay of the JSON differ" in facts["altered"]  # legal, but not what JaxMARL played
    assert not (folder / "mismatch.json").exists() and not (folder / "altered.json").exists()
