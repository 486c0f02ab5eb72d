"""RC's fast path (relaxed reachability, then Fast Downward's search on the ground projection, the planner only for
what is left open) gives the planner path's verdicts, reasons and witnesses, keeps the time limit, and finds the
ordered soup one player makes alone whichever recipe it is."""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, run_within

from strips_int.model.domain import load_domain

CORRIDOR = ROOT / "examples" / "overcooked" / "corridor.grid"
#: Two rooms parted by counters: onions only on the left (no serving window there), tomatoes, a pot, a dish and a
#: window on the right. The onion order needs both players, the tomato order player 1 alone.
TWO_ORDERS = {"grid": "XXXXXXXXX\nO  1X  2T\nX   X   P\nD   X   D\nXPXXXXSXX",
              "start_all_orders": [{"ingredients": ["onion"]}, {"ingredients": ["tomato"]}]}


def _benchmark(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def domain():
    return load_domain("overcooked")


@pytest.fixture(scope="module")
def compare():
    return _benchmark("rc_fast_path").differences


def test_every_known_layout_gets_the_planner_paths_answers(domain):
    """On every layout strips_int knows (overcooked-ai's too), each recipe: every witness executes, acts for its
    agent alone and delivers the soup, so the planner would find one too; every proof that an agent (or the
    team) cannot is relaxed reachability's, the planner path's own code (with negative preconditions kept, definitions
    section 6, it sees an idle partner in the way). ``benchmarks/rc_fast_path.py`` runs both paths whole on
    every layout; a proof by search is checked against the planner below."""
    from strips_int.analysis.rc import BY_RELAXATION, UNSOLVABLE, required_cooperation
    from strips_int.grounders.overcooked import get_layout, known_layouts, layout_alternatives

    witness_problems = _benchmark("rc_fast_path").witness_problems
    proofs, verdicts = set(), set()
    for name in known_layouts(aliases=False):
        for alternative in layout_alternatives(get_layout(name), domain):
            result = required_cooperation(domain, alternative.problem)
            assert witness_problems(result) == [], name
            verdicts.add(result.verdict)
            answers = [result.joint, *(agent.search for agent in result.agents.values())]
            proofs |= {answer.proof for answer in answers if answer.status == UNSOLVABLE}
    assert {"RC", "non-RC"} <= verdicts and proofs == {BY_RELAXATION}


#: Two agents, one key each; opening a door uses the key up. Either alone opens one door, the goal wants two:
#: relaxed-reachable (delete effects ignored), yet unsolvable alone, which only a search proves.
KEYS_DOMAIN = """(define (domain keys) (:requirements :strips :typing) (:types agent door)
  (:predicates (has ?a - agent) (open ?d - door))
  (:action unlock :parameters (?a - agent ?d - door) :precondition (has ?a)
   :effect (and (open ?d) (not (has ?a)))))"""
KEYS_PROBLEM = """(define (problem two-doors) (:domain keys) (:objects ann bob - agent d1 d2 - door)
  (:init (has ann) (has bob)) (:goal (and (open d1) (open d2))))"""


def test_a_proof_by_search_is_the_planners_too(compare, tmp_path):
    """Where relaxed reachability cannot tell, the search proves each agent unable alone (reason other) and the
    planner path agrees on everything: verdict, reason, each agent."""
    from strips_int.analysis.rc import BY_SEARCH, OTHER, RC
    from strips_int.model.problem import load_problem

    (tmp_path / "domain.pddl").write_text(KEYS_DOMAIN)
    (tmp_path / "problem.pddl").write_text(KEYS_PROBLEM)
    domain = load_domain(tmp_path / "domain.pddl")
    found, fast = compare(domain, [load_problem(domain, tmp_path / "problem.pddl")], jobs=2)
    assert found == [] and (fast.verdict, fast.reason) == (RC, OTHER)
    assert {agent.search.proof for agent in fast.agents.values()} == {BY_SEARCH}


def test_both_paths_whole_on_the_classic_layouts(domain, compare):
    """Verdict, reason, deciding recipe, each agent alone or not and why: the fast path and the planner path."""
    from strips_int.grounders.overcooked import get_layout, layout_alternatives

    for name in ("cramped_room", "forced_coordination", "coordination_ring", "asymmetric_advantages"):
        found, _ = compare(domain, [a.problem for a in layout_alternatives(get_layout(name), domain)], jobs=2)
        assert found == [], name


def test_generated_layouts_get_the_planner_paths_answers(domain, compare, tmp_path):
    """A sample of each kind of generated layout (``benchmarks/rc_fast_path.py`` compares a few hundred)."""
    from strips_int.grounders.overcooked import layout_alternatives, load_grid

    for path in _benchmark("generated_layouts").write(tmp_path, 6, seed=1):
        found, _ = compare(domain, [a.problem for a in layout_alternatives(load_grid(path), domain)], jobs=2)
        assert found == [], path.name


def test_an_ordered_soup_one_player_makes_alone_is_non_rc_whichever_order(tmp_path, capsys):
    """The start commit planned only the first makeable order here (onion: RC); the tomato soup is one player's."""
    from strips_int.cli.rc import main

    layout = tmp_path / "two_orders.layout"
    layout.write_text(repr(TWO_ORDERS))
    assert main(["--grid", str(layout), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["verdict"], data["rules"], data["recipe"]) == ("non-RC", "new", "tomato")
    assert data["agents"]["player1"]["solvable_alone"] is True and data["agents"]["player0"]["solvable_alone"] is False
    assert _benchmark("generated_layouts").flood_fill_verdict(layout.read_text(), ".layout") == "non-RC"


def test_an_idle_partners_body_is_proven_in_the_way_without_searching(domain):
    """corridor.grid: each player's start cell stays occupied for ever when only the other acts, and every way to
    a dispenser crosses it: relaxed reachability, keeping negative preconditions (definitions section 6), proves each
    projection unsolvable (reason reach; no search, no planner). The ground task holds the partner's cell as a
    fact that lasts, with no move into it."""
    from strips_int.analysis.ground_task import ground_task
    from strips_int.analysis.rc import BY_RELAXATION, RC, REACH, required_cooperation
    from strips_int.analysis.reachability import relaxed_reachable
    from strips_int.grounders.overcooked import load_grid
    from strips_int.grounders.overcooked.lift import layout_problem

    problem = layout_problem(load_grid(CORRIDOR), domain)
    result = required_cooperation(domain, problem)
    assert (result.verdict, result.reason) == (RC, REACH)
    assert {(a.search.proof, a.search.cpu) for a in result.agents.values()} == {(BY_RELAXATION, 0)}
    task = ground_task(domain, problem, relaxed_reachable(domain, problem, actors=["player0"]))
    assert ("occupied", "c4_1") in task.lasting
    assert not any(a.name == "move" and a.args[2] == "c4_1" for a in task.actions)


def test_the_fast_path_asks_the_planner_nothing_it_settles():
    """RC (the joint plan searched too) and non-RC without unified-planning ever imported."""
    code = """import sys
from strips_int import load_domain
from strips_int.analysis.rc import required_cooperation
from strips_int.grounders.overcooked import get_layout
from strips_int.grounders.overcooked.lift import layout_problem
domain = load_domain("overcooked")
for name in ("forced_coordination", "cramped_room"):
    result = required_cooperation(domain, layout_problem(get_layout(name), domain))
    print(result.verdict, result.joint.status, result.agents["player0"].search.detail)
print("unified_planning" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("RC solved ") and lines[1].startswith("non-RC unknown fast-downward search: 1 plan")
    assert lines[-1] == "False", done.stderr[-2000:]


def test_a_search_past_its_deadline_is_unknown_with_its_phase(domain):
    from strips_int.planners import downward
    from strips_int.planners.result import UNKNOWN

    answer = downward.search(frozenset({("p",)}), frozenset({("q",)}), [], time.monotonic() - 1)
    assert (answer.status, answer.limit, answer.detail) == (UNKNOWN, "search", "time limit reached in search")


def test_the_time_limit_bounds_relaxed_reachability_on_a_big_grid(tmp_path):
    """100 x 100 open floor: relaxed reachability alone takes 2-3 s of CPU; a 1 s limit stops it there."""
    grid = tmp_path / "open100.grid"
    grid.write_text(_benchmark("rc_layouts").open_grid(100))
    # CPU of the whole tree: start-up, the limit, the grace to answer (a bound that holds on a loaded machine)
    done, _ = run_within([sys.executable, "-m", "strips_int.rc", "--grid", str(grid), "--timeout", "1", "--json"],
                         8, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    # reading and lifting take 0.2 s of CPU: a loaded machine may still be at them when the second is up
    assert data["verdict"] == "unknown" and data["reason"] in (
        "time limit reached in relaxed reachability", "time limit reached in reading"), data["reason"]
    assert all(agent["solvable_alone"] is None for agent in data["agents"].values())


def test_a_table_keeps_the_time_limit_per_layout(tmp_path):
    """Each row has its own limit: the big grid is unknown (its relaxed reachability takes some 5 s of CPU), the
    small one beside it decided."""
    from strips_int.cli.rc import main

    (tmp_path / "open100.grid").write_text(_benchmark("rc_layouts").open_grid(100))
    (tmp_path / "corridor.grid").write_text(CORRIDOR.read_text())
    out = tmp_path / "table.csv"
    assert main(["--grid", str(tmp_path), "--timeout", "3", "--jobs", "2", "--out", str(out)]) == 0
    with open(out, newline="") as handle:
        rows = {Path(row["layout"]).name: row for row in csv.DictReader(handle)}
    assert rows["open100.grid"]["verdict"] == "unknown" and rows["open100.grid"]["reason"] in (
        "time limit reached in relaxed reachability", "time limit reached in reading")  # (the latter: much load)
    assert (rows["corridor.grid"]["verdict"], rows["corridor.grid"]["reason"]) == ("RC", "reach")
