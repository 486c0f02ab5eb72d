"""Definitions section 13: attempts in traces and the blocks found from them, on hand-made Overcooked traces and
on overcooked-ai's real human games (collisions counted independently from the raw CSV)."""

from __future__ import annotations

import ast
import csv
import json
from collections import defaultdict
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int import analyze_games, analyze_run, execute, load_domain
from strips_int.cli.check import main as check
from strips_int.errors import StripsIntError
from strips_int.model.trace import trace_from_dict

OVERCOOKED = ROOT / "domains" / "overcooked.pddl"
HH = SHARED_DATA / "overcooked-ai"
#: A corridor c0_0 - c1_0 - c2_0 - c3_0 with a counter next to c1_0 and c2_0; player0 at c0_0, player1 at c3_0.
CELLS = ["c0_0", "c1_0", "c2_0", "c3_0"]
KITCHEN = {
    "objects": {"player0": "agent", "player1": "agent", **dict.fromkeys(CELLS, "cell"), "counter1_1": "counter",
                "onion1": "onion"},
    "init": [f"(adjacent {a} {b})" for a, b in zip(CELLS, CELLS[1:])]
    + [f"(adjacent {b} {a})" for a, b in zip(CELLS, CELLS[1:])]
    + ["(at player0 c0_0)", "(occupied c0_0)", "(at player1 c3_0)", "(occupied c3_0)", "(hand-empty player0)",
       "(hand-empty player1)", "(next-to c1_0 counter1_1)", "(next-to c2_0 counter1_1)", "(on onion1 counter1_1)"],
    "goal": [],
}


@pytest.fixture(scope="module")
def domain():
    return load_domain(OVERCOOKED)


def report(domain, steps: list, attempts: list, init: list[str] = ()):
    problem = {**KITCHEN, "init": KITCHEN["init"] + list(init)}
    data = {"format": "strips-int-trace/1", "domain": "overcooked", "problem": problem, "steps": steps,
            "attempts": attempts}
    return analyze_run(domain, execute(trace_from_dict(data, domain, "inline.json")))


def blocks(found) -> list[tuple]:
    return [(type(b.giver).__name__, b.giver.index, b.attempt.index, b.facts) for b in found.blocks]


def move(t: int, agent: str, a: str, b: str) -> dict:
    return {"t": t, "agent": agent, "action": f"(move {agent} {a} {b})"}


def test_a_move_into_the_cell_the_partner_just_entered_is_one_block_by_that_move(domain):
    found = report(domain, [move(0, "player0", "c0_0", "c1_0"), move(0, "player1", "c3_0", "c2_0")],
                   [move(1, "player0", "c1_0", "c2_0")])
    assert blocks(found) == [("Step", 1, 0, ("(not (occupied c2_0))",))]
    metrics = found.agent_metrics()
    assert (metrics["player1"]["blocks_given"], metrics["player0"]["blocks_received"]) == (1, 1)
    assert found.counts == report(domain, [move(0, "player0", "c0_0", "c1_0"), move(0, "player1", "c3_0", "c2_0")],
                                  []).counts  # blocks change no other number


def test_a_body_there_from_the_start_own_changes_and_environment_changes_make_no_block(domain):
    # player1 never moved: (occupied c3_0) held from the initial state
    found = report(domain, [move(0, "player0", "c0_0", "c1_0"), move(1, "player0", "c1_0", "c2_0")],
                   [move(2, "player0", "c2_0", "c3_0")])
    assert len(found.attempts) == 1 and found.blocks == ()
    # player0's own take emptied the counter: no block on its second take
    found = report(domain, [move(0, "player0", "c0_0", "c1_0"),
                            {"t": 1, "agent": "player0", "action": "(take player0 onion1 counter1_1 c1_0)"}],
                   [{"t": 2, "agent": "player0", "action": "(take player0 onion1 counter1_1 c1_0)"}])
    assert found.blocks == ()


def test_reaching_for_an_onion_the_partner_just_took_is_a_block_on_it(domain):
    found = report(domain, [move(0, "player0", "c0_0", "c1_0"), move(0, "player1", "c3_0", "c2_0"),
                            {"t": 1, "agent": "player1", "action": "(take player1 onion1 counter1_1 c2_0)"}],
                   [{"t": 1, "agent": "player0", "action": "(take player0 onion1 counter1_1 c1_0)"}])
    assert blocks(found) == [("Step", 2, 0, ("(on onion1 counter1_1)",))]


PAIRS = """(define (domain pairs)
  (:requirements :strips :typing)
  (:types agent item)
  (:predicates (free ?x - item) (held ?a - agent ?x - item) (paired ?a - agent))
  (:action grab :parameters (?a - agent ?x - item) :precondition (free ?x)
    :effect (and (not (free ?x)) (held ?a ?x)))
  (:action pair :parameters (?a - agent ?x ?y - item) :precondition (and (free ?x) (free ?y))
    :effect (paired ?a))
  (:action vanish :parameters (?x - item) :precondition (free ?x) :effect (not (free ?x))))
"""


def test_an_attempt_failed_on_two_facts_by_two_agents_is_two_blocks(tmp_path):
    (tmp_path / "pairs.pddl").write_text(PAIRS)
    pairs = load_domain(tmp_path / "pairs.pddl")
    problem = {"objects": {"a1": "agent", "a2": "agent", "a3": "agent", "x": "item", "y": "item"},
               "init": ["(free x)", "(free y)"], "goal": []}
    data = {"format": "strips-int-trace/1", "domain": "pairs", "problem": problem,
            "steps": [{"action": "(grab a1 x)"}, {"action": "(grab a2 y)"}],
            "attempts": [{"t": 1, "action": "(pair a3 x y)"}]}
    found = analyze_run(pairs, execute(trace_from_dict(data, pairs, "pairs.json")))
    assert blocks(found) == [("Step", 0, 0, ("(free x)",)), ("Step", 1, 0, ("(free y)",))]
    assert [found.agent_metrics()[a]["blocks_given"] for a in ("a1", "a2", "a3")] == [1, 1, 0]
    assert found.agent_metrics()["a3"]["blocks_received"] == 2
    data["steps"][0] = {"action": "(vanish x)"}  # an environment step last changed (free x): none by it
    found = analyze_run(pairs, execute(trace_from_dict(data, pairs, "pairs.json")))
    assert blocks(found) == [("Step", 1, 0, ("(free y)",))]


def test_two_players_entering_one_cell_block_each_other(domain):
    found = report(domain, [move(0, "player0", "c0_0", "c1_0")],
                   [move(1, "player0", "c1_0", "c2_0"), move(1, "player1", "c3_0", "c2_0")])
    assert blocks(found) == [("Attempt", 1, 0, ("(not (occupied c2_0))",)),
                             ("Attempt", 0, 1, ("(not (occupied c2_0))",))]
    assert all(b.collision for b in found.blocks)


def test_two_players_swapping_cells_block_each_other(domain):
    found = report(domain, [move(0, "player0", "c0_0", "c1_0"), move(0, "player1", "c3_0", "c2_0")],
                   [move(1, "player0", "c1_0", "c2_0"), move(1, "player1", "c2_0", "c1_0")])
    assert blocks(found) == [("Attempt", 1, 0, ("(not (occupied c2_0))",)),
                             ("Attempt", 0, 1, ("(not (occupied c1_0))",))]


@pytest.mark.parametrize("attempt, message", [
    ({"t": 0, "agent": "player0", "action": "(move player0 c0_0 c9_9)"},
     "attempt 0 (t=0, agent player0): unknown object 'c9_9'"),
    ({"t": 0, "agent": "player1", "action": "(move player0 c0_0 c1_0)"},
     "attempt 0 (t=0, agent player1): agent player1 is not the actor"),
    ({"t": 0, "action": "(finish-cooking soup1 pot1)"}, "attempt 0"),
    ({"t": -1, "action": "(move player0 c0_0 c1_0)"}, "attempt 0: t must be a whole number"),
    ("(move player0 c0_0 c1_0)", "attempt 0: an attempt is"),
])
def test_a_bad_attempt_is_an_error_naming_the_file_and_the_attempt(domain, attempt, message):
    data = {"format": "strips-int-trace/1", "domain": "overcooked", "problem": KITCHEN, "steps": [],
            "attempts": [attempt]}
    with pytest.raises(StripsIntError) as raised:
        trace_from_dict(data, domain, "bad.json")
    assert str(raised.value).startswith("bad.json") and message in str(raised.value)


def test_attempts_are_not_executed_and_must_keep_time_order(domain):
    data = {"format": "strips-int-trace/1", "domain": "overcooked", "problem": KITCHEN, "steps": [],
            "attempts": [move(3, "player0", "c0_0", "c1_0"), move(2, "player1", "c3_0", "c2_0")]}
    with pytest.raises(StripsIntError, match=r"attempt 1 \(t=2, agent player1\): t goes back in time"):
        trace_from_dict(data, domain, "bad.json")
    data["attempts"] = data["attempts"][:1]
    run = execute(trace_from_dict(data, domain, "ok.json"))
    assert ("at", "player0", "c0_0") in run.final


def test_check_json_lists_blocks_beside_interdependencies(domain, tmp_path, capsys):
    trace = {"format": "strips-int-trace/1", "domain": "overcooked", "problem": KITCHEN,
             "steps": [move(0, "player1", "c3_0", "c2_0"), move(1, "player0", "c0_0", "c1_0")],
             "attempts": [move(2, "player0", "c1_0", "c2_0")]}
    path = tmp_path / "blocked.json"
    path.write_text(json.dumps(trace))
    assert check([str(OVERCOOKED), str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["blocks"] == [{"giver": {"step": 0, "t": 0, "agent": "player1", "action": "(move player1 c3_0 c2_0)"},
                               "attempt": {"attempt": 0, "t": 2, "agent": "player0",
                                           "action": "(move player0 c1_0 c2_0)"},
                               "facts": ["(not (occupied c2_0))"], "collision": False}]
    assert (data["agents"]["player1"]["blocks_given"], data["agents"]["player0"]["blocks_received"]) == (1, 1)
    assert check([str(OVERCOOKED), str(path)]) == 0
    text = capsys.readouterr().out
    assert "blocks: 1 on 1 attempts; player0 gave 0, received 1; player1 gave 1, received 0" in text
    assert "block: step 0 (t=0) player1 -> attempt 0 (t=2) player0" in text


# -- overcooked-ai's human data: refusals counted from the raw CSV, independently of the grounder ------------

def raw_refusals(path: Path) -> dict[str, tuple[int, int]]:
    """Per trial, from the logged positions and joint actions alone: the collisions (both players chose a
    move to a floor cell, neither moved, and they chose one cell or each other's) and the moves refused
    because the partner's body, which stayed, held the cell it had entered at some time (not from the start)."""
    csv.field_size_limit(1 << 30)
    trials: dict[str, list[dict]] = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            trials[row["trial_id"]].append(row)
    found = {}
    for trial, rows in trials.items():
        grid = [list(r) for r in ast.literal_eval(rows[0]["layout"])]

        def floor(p):
            return 0 <= p[1] < len(grid) and 0 <= p[0] < len(grid[p[1]]) and grid[p[1]][p[0]] in " 0123456789"

        pos = [[tuple(pl["position"]) for pl in json.loads(r["state"])["players"]] for r in rows]
        acts = [json.loads(r["joint_action"].replace("'", '"')) for r in rows]
        collisions = bodies = 0
        for t in range(len(rows) - 1):
            moves = {}
            for j in (0, 1):
                a = acts[t][j]
                if isinstance(a, list) and a != [0, 0] and pos[t][j] == pos[t + 1][j]:
                    target = (pos[t][j][0] + a[0], pos[t][j][1] + a[1])
                    if floor(target):
                        moves[j] = target
            if len(moves) == 2 and (moves[0] == moves[1] or (moves[0] == pos[t][1] and moves[1] == pos[t][0])):
                collisions += 1
                continue
            for j, target in moves.items():
                k = 1 - j
                if target == pos[t][k] == pos[t + 1][k] and any(p[k] != target for p in pos[:t + 1]):
                    bodies += 1
        found[trial] = (collisions, bodies)
    return found


@pytest.mark.skipif(not HH.is_dir(), reason="overcooked-ai's human data is not beside the repository")
@pytest.mark.parametrize("name", ["2019_hh_trials_sample.csv", "2020_hh_trials_sample.csv"])
def test_every_collision_in_overcooked_ai_human_data_is_two_blocks_and_every_body_one(name):
    path = HH / name
    expected = raw_refusals(path)
    seen = {}
    for found in analyze_games("overcooked", path):
        assert not isinstance(found, Exception), found
        collision = [b for b in found.blocks if b.collision]
        assert all(b.giver.t == b.attempt.t and b.giver.agent != b.attempt.agent for b in collision)
        seen[found.source.split("#", 1)[1]] = (len(collision) // 2, len(found.blocks) - len(collision))
    assert seen == expected
    assert sum(c for c, _ in expected.values()) > 0 and sum(b for _, b in expected.values()) > 0


def test_the_html_report_and_the_timeline_draw_each_block(domain):
    import io

    from strips_int.visualize.html import html_report
    from strips_int.visualize.timeline import plot_timeline

    found = report(domain, [move(0, "player1", "c3_0", "c2_0"), move(1, "player0", "c0_0", "c1_0")],
                   [move(1, "player0", "c1_0", "c2_0")])
    page = html_report(found)
    assert '<section id="blocks"><h2>Blocks (1)</h2>' in page and page.count('<tr class="block">') == 1
    assert "(move player1 c3_0 c2_0)" in page.split('id="blocks"')[1]
    svg = io.StringIO()
    plot_timeline(found).savefig(svg, format="svg")
    assert 'id="block:0"' in svg.getvalue() and "blocks (1)" in svg.getvalue()
    plain = report(domain, [move(0, "player1", "c3_0", "c2_0")], [])
    plain = type(plain)(**{**plain.__dict__, "attempts": None})  # a trace that records no choices
    assert 'id="blocks"' not in html_report(plain)


def test_a_sar_agent_reaching_for_a_kit_its_partner_picked_up_that_tick_is_blocked(tmp_path):
    from strips_int.grounders.sar.formats import dump_log
    from strips_int.grounders.sar.scenario import scenario_from_json, simulate

    scenario = {"format": "strips-int-sar-scenario/1", "name": "one-kit", "grid": ["#######", "#N.k.P#", "#######"],
                "legend": {"N": "nurse1", "P": "police1", "k": "kit1"},
                "agents": {"nurse1": {"role": "nurse", "script": ["go 3 1", "interact"]},
                           "police1": {"role": "police", "script": ["go 3 1", "interact"]}},
                "items": {"kit1": "medkit"}, "victims": [], "max_steps": 10}
    log, _ = simulate(scenario_from_json(scenario, "one-kit.scenario.json"))
    path = tmp_path / "one-kit.log.json"
    path.write_text(dump_log(log))
    [found] = analyze_games("sar", path)
    assert not isinstance(found, Exception), found
    assert [str(a.action) for a in found.attempts] == ["(pick-up police1 kit1 c3_1)"]
    [block] = found.blocks
    assert (str(block.giver.action), block.facts) == ("(pick-up nurse1 kit1 c3_1)", ("(item-at kit1 c3_1)",))
