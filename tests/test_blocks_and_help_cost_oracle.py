"""Blocks and self-help costs (definitions sections 13 and 14) against the independent reading in
``tests/spec_oracle.py``: hand-worked cases, random walks with random attempts in four domains, the SAR
examples and real user-study games (skipped without ``../shared/data``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXAMPLES, SHARED_DATA
from spec_oracle import blocks, compare, compare_costs, random_walk, self_help_costs, with_attempts

from strips_int import StripsIntError, analyze_run, execute, load_domain, load_problem
from strips_int.grounders import read_input
from strips_int.model.trace import trace_from_dict

DATA = Path(__file__).resolve().parent / "data"
USER_STUDY = SHARED_DATA / "user-study"

#: A maker makes an item ready in one action; anyone uses a ready item; only a maker can make one.
WORKS = """(define (domain works)
  (:requirements :strips :typing)
  (:types agent item - object maker user - agent)
  (:predicates (raw ?x - item) (ready ?x - item) (used ?x - item) (near ?a - agent ?x - item))
  (:action make :parameters (?a - maker ?x - item) :precondition (and (raw ?x) (near ?a ?x))
    :effect (and (ready ?x) (not (raw ?x))))
  (:action fetch :parameters (?a - agent ?x - item) :precondition (raw ?x) :effect (near ?a ?x))
  (:action use :parameters (?a - agent ?x - item) :precondition (ready ?x) :effect (used ?x)))
"""


@pytest.fixture(scope="module")
def domains():
    return {name: load_domain(path) for name, path in
            (("sar", "sar"), ("overcooked", "overcooked"), ("workshop", DATA / "workshop.pddl"))}


def works_trace(tmp_path, objects: dict, init: list[str]):
    (tmp_path / "works.pddl").write_text(WORKS)
    domain = load_domain(tmp_path / "works.pddl")
    data = {"format": "strips-int-trace/1", "problem": {"objects": objects, "init": init, "goal": ["(used x)"]},
            "steps": [{"action": "(make a1 x)"}, {"action": "(use a2 x)"}]}
    return domain, trace_from_dict(data, domain, "works.json")


def test_a_help_the_receiver_could_make_in_one_action_costs_1_and_required_help_inf(tmp_path):
    # a2 stands near x: making it ready itself is one action (make), so a1's help saved it 1 step
    domain, trace = works_trace(tmp_path, {"a1": "maker", "a2": "maker", "x": "item"},
                                ["(raw x)", "(near a1 x)", "(near a2 x)"])
    [help_] = analyze_run(domain, execute(trace), help_cost=True).interdependencies
    assert (help_.required, help_.self_help_cost) == (False, 1)
    assert self_help_costs(domain, trace) == {(0, 1): 1}
    # two actions when it must fetch x first
    domain, trace = works_trace(tmp_path, {"a1": "maker", "a2": "maker", "x": "item"}, ["(raw x)", "(near a1 x)"])
    assert analyze_run(domain, execute(trace), help_cost=True).interdependencies[0].self_help_cost == 2
    # a user cannot make anything: required, and its cost is inf
    domain, trace = works_trace(tmp_path, {"a1": "maker", "a2": "user", "x": "item"}, ["(raw x)", "(near a1 x)"])
    report = analyze_run(domain, execute(trace), help_cost=True)
    [help_] = report.interdependencies
    assert (help_.required, help_.self_help_cost) == (True, "inf")
    assert self_help_costs(domain, trace) == {(0, 1): "inf"}
    assert report.agent_metrics()["a2"]["help_steps_received"] == 0
    assert report.to_dict()["interdependencies"][0]["self_help_cost"] == "inf"


@pytest.mark.parametrize("name, problems, steps", [
    ("sar", sorted(EXAMPLES.glob("*.problem.pddl")), 40),
    ("workshop", [DATA / "workshop-p01.pddl"], 40),
    ("overcooked", [DATA / "kitchen-old.pddl", DATA / "kitchen-new.pddl"], 120)])
def test_package_agrees_with_the_oracle_on_blocks_in_random_walks_with_random_attempts(domains, name, problems, steps):
    domain = domains[name]
    seen = 0
    for path in problems:
        problem = load_problem(domain, path)
        for seed in range(4):
            trace = with_attempts(domain, random_walk(domain, problem, steps, seed), seed)
            seen += len(blocks(trace))
            assert [str(d) for d in compare(domain, trace)] == []
    assert seen > 0


@pytest.mark.parametrize("name, problems, steps", [
    ("sar", sorted(EXAMPLES.glob("*.problem.pddl")), 30),
    ("workshop", [DATA / "workshop-p01.pddl"], 30)])
def test_package_agrees_with_the_oracle_on_self_help_costs_in_random_walks(domains, name, problems, steps):
    domain = domains[name]
    costs = []
    for path in problems:
        problem = load_problem(domain, path)
        for seed in range(3):
            trace = random_walk(domain, problem, steps, seed)
            report = analyze_run(domain, execute(trace), help_cost=True)
            costs += [f.self_help_cost for f in report.interdependencies]
            assert [str(d) for d in compare_costs(domain, trace, report=report)] == []
    assert any(isinstance(c, int) for c in costs)


def test_package_agrees_with_the_oracle_on_blocks_and_costs_in_published_style_domains():
    # IPC-style freight (trucks and airplanes named by the agent-types pragma) and its CoDMAP MA-PDDL form
    root = DATA.parent.parent
    agents = {"agent-types": ["truck", "airplane"]}
    freight = root / "examples" / "freight"
    cases = [(load_domain(freight / "domain.pddl", agents), freight / "p01.pddl"),
             (load_domain(DATA / "freight-codmap.pddl", agents), DATA / "freight-codmap-p01.pddl")]
    blocked = 0
    for domain, path in cases:
        problem = load_problem(domain, path)
        for seed in range(3):
            trace = with_attempts(domain, random_walk(domain, problem, 30, seed), seed)
            blocked += len(blocks(trace))
            assert [str(d) for d in compare(domain, trace)] == []
            assert [str(d) for d in compare_costs(domain, trace, limit=20_000)] == []
    assert blocked > 0


def test_package_agrees_with_the_oracle_on_blocks_and_costs_in_random_domains():
    from test_spec_oracle import random_domain

    blocked, numbers = 0, 0
    for seed in range(25):
        domain, problem = random_domain(seed)
        trace = with_attempts(domain, random_walk(domain, problem, 25, seed), seed)
        blocked += len(blocks(trace))
        assert [str(d) for d in compare(domain, trace)] == []
        report = analyze_run(domain, execute(trace), help_cost=True)
        numbers += sum(isinstance(f.self_help_cost, int) for f in report.interdependencies)
        assert [str(d) for d in compare_costs(domain, trace, limit=20_000, report=report)] == []
    assert blocked > 0 and numbers > 0


@pytest.mark.parametrize("path", sorted(p.name for p in EXAMPLES.glob("*.trace.json")))
def test_package_agrees_with_the_oracle_on_self_help_costs_of_the_sar_examples(domains, path):
    [trace] = read_input(EXAMPLES / path, domains["sar"])
    assert not isinstance(trace, StripsIntError), trace
    assert [str(d) for d in compare_costs(domains["sar"], trace)] == []


def test_package_agrees_with_the_oracle_on_self_help_costs_in_an_overcooked_kitchen(domains):
    overcooked = domains["overcooked"]
    compared = 0
    for rules in ("old", "new"):
        problem = load_problem(overcooked, DATA / f"kitchen-{rules}.pddl")
        for seed in range(2):
            trace = random_walk(overcooked, problem, 60, seed)
            report = analyze_run(overcooked, execute(trace), help_cost=True)
            mine = self_help_costs(overcooked, trace, limit=20_000)
            compared += sum(isinstance(f.self_help_cost, int) and mine[f.giver.index, f.receiver.index] != "unknown"
                            for f in report.interdependencies)
            assert [str(d) for d in compare_costs(overcooked, trace, limit=20_000, report=report)] == []
    assert compared > 0


@pytest.mark.skipif(not USER_STUDY.is_dir(), reason="../shared/data is absent")
@pytest.mark.parametrize("game", ["cole/5_10_2025_15_23_0_human=1.json", "mep/5_9_2025_14_48_11_human=1.json"])
def test_package_agrees_with_the_oracle_on_self_help_costs_and_blocks_of_user_study_games(domains, game):
    # counter_circuit: help is optional and has a cost; the oracle's plain search finishes on the cheapest
    overcooked = domains["overcooked"]
    [trace] = read_input(USER_STUDY / game, overcooked)
    report = analyze_run(overcooked, execute(trace), help_cost=True)
    mine = self_help_costs(overcooked, trace, limit=3000)
    assert any(isinstance(f.self_help_cost, int) and f.self_help_cost == mine[f.giver.index, f.receiver.index]
               for f in report.interdependencies)
    assert [str(d) for d in compare_costs(overcooked, trace, limit=3000, report=report)] == []
    assert [str(d) for d in compare(overcooked, trace) if d.where == "blocks"] == []


@pytest.mark.skipif(not USER_STUDY.is_dir(), reason="../shared/data is absent")
def test_every_hand_over_on_forced_coordination_costs_inf():
    # the pot side's cook can reach no onion and no dish alone: all its help is required (section 10)
    overcooked = load_domain("overcooked")
    [trace] = read_input(USER_STUDY / "hsp/5_10_2025_15_19_2_human=0.json", overcooked)
    report = analyze_run(overcooked, execute(trace), help_cost=True)
    assert len(report.interdependencies) == 19
    assert all(f.self_help_cost == "inf" for f in report.interdependencies if f.required)
    assert all(f.self_help_cost != "inf" for f in report.interdependencies if not f.required)


@pytest.mark.skipif(not USER_STUDY.is_dir(), reason="../shared/data is absent")
def test_evaluate_with_help_cost_writes_each_roles_steps_of_help_received(tmp_path):
    import csv
    import shutil

    from strips_int.cli.evaluate import main as evaluate

    games = tmp_path / "games"
    games.mkdir()
    for name in ("cole/5_10_2025_15_23_0_human=1.json", "mep/5_9_2025_14_48_11_human=1.json"):
        shutil.copy(USER_STUDY / name, games / Path(name).name)
    assert evaluate(["overcooked", str(games), "--out", str(tmp_path / "out"), "--help-cost"]) == 0
    with open(tmp_path / "out" / "games.csv", newline="") as handle:
        rows = {Path(r["source"]).name: r for r in csv.DictReader(handle)}
    overcooked = load_domain("overcooked")
    for name, row in rows.items():
        report = analyze_run(overcooked, execute(next(read_input(games / name, overcooked))), help_cost=True)
        for agent, metrics in report.agent_metrics().items():
            role = report.meta["roles"][agent]
            assert int(row[f"{role}_help_steps_received"]) == metrics["help_steps_received"] == sum(
                f.self_help_cost for f in report.interdependencies
                if f.receiver.agent == agent and isinstance(f.self_help_cost, int))
        assert int(row["blocks"]) == len(report.blocks)
    assert "human steps of help received" in (tmp_path / "out" / "summary.md").read_text()
    assert evaluate(["overcooked", str(games), "--out", str(tmp_path / "plain")]) == 0
    assert "help_steps_received" not in (tmp_path / "plain" / "games.csv").read_text()
