"""The rules the definitions (v3) decide in sections 3, 4, 6 and 12, each on a small trace of a shop domain written
for them, and random walks in it against the independent reading of the definitions (``tests/spec_oracle.py``)."""

from __future__ import annotations

import dataclasses

import pytest
from spec_oracle import compare, random_walk

from strips_int import StripsIntError, analyze, load_domain
from strips_int.analysis.reachability import relaxed_reachable
from strips_int.model.domain import parse_domain
from strips_int.model.problem import problem_from_dict
from strips_int.model.trace import trace_from_dict

SHOP = """; @strips-int ignore-predicates: bench-free dusty
(define (domain shop)
  (:requirements :strips :typing :negative-preconditions)
  (:types agent item vault place)
  (:predicates (at ?a - agent ?p - place) (has ?a - agent ?i - item) (item-at ?i - item ?p - place)
               (in-vault ?i - item ?v - vault) (vault-at ?v - vault ?p - place) (locked ?v - vault)
               (keyed ?v - vault) (stamped ?i - item) (bench-free ?p - place) (vented ?p - place)
               (worked ?p - place) (called ?a ?b - agent) (alarm) (answered ?a - agent)
               (dusty ?i - item))
  (:action give :parameters (?a ?b - agent ?i - item ?p - place)
    :precondition (and (at ?a ?p) (at ?b ?p) (has ?a ?i)) :effect (and (not (has ?a ?i)) (has ?b ?i)))
  (:action wait :parameters (?a - agent) :precondition (and) :effect (and))
  (:action drop :parameters (?a - agent ?i - item ?p - place)
    :precondition (and (at ?a ?p) (has ?a ?i)) :effect (and (item-at ?i ?p) (not (has ?a ?i))))
  (:action pick :parameters (?a - agent ?i - item ?p - place)
    :precondition (and (at ?a ?p) (item-at ?i ?p)) :effect (and (has ?a ?i) (not (item-at ?i ?p)) (bench-free ?p)))
  (:action stash :parameters (?a - agent ?i - item ?v - vault ?p - place)
    :precondition (and (at ?a ?p) (vault-at ?v ?p) (has ?a ?i)) :effect (and (not (has ?a ?i)) (in-vault ?i ?v)))
  (:action unstash :parameters (?a - agent ?i - item ?v - vault ?p - place)
    :precondition (and (at ?a ?p) (vault-at ?v ?p) (in-vault ?i ?v) (not (locked ?v)))
    :effect (and (has ?a ?i) (not (in-vault ?i ?v))))
  (:action unlock :parameters (?a - agent ?v - vault ?p - place)
    :precondition (and (at ?a ?p) (vault-at ?v ?p) (keyed ?v) (locked ?v)) :effect (not (locked ?v)))
  (:action dust :parameters (?a - agent ?i - item) :precondition (has ?a ?i) :effect (dusty ?i))
  (:action stamp :parameters (?a - agent ?i - item) :precondition (has ?a ?i) :effect (stamped ?i))
  (:action vent :parameters (?p - place) :precondition (bench-free ?p) :effect (vented ?p))
  (:action work :parameters (?a - agent ?p - place) :precondition (and (at ?a ?p) (vented ?p)) :effect (worked ?p))
  (:action call :parameters (?a ?b - agent) :precondition (and) :effect (called ?a ?b))
  (:action ring :parameters (?a - agent) :precondition (and) :effect (alarm))
  (:action answer :parameters (?b ?a - agent) :precondition (and (called ?a ?b) (alarm)) :effect (answered ?b))
)"""

OBJECTS = {"ann": "agent", "bob": "agent", "blade": "item", "v1": "vault", "hall": "place"}
HALL = ["(at ann hall)", "(at bob hall)", "(vault-at v1 hall)"]


@pytest.fixture(scope="module")
def shop():
    return parse_domain(SHOP, "shop.pddl").check_agents()


def trace(domain, init: list[str], goal: list[str], steps: list[str]):
    data = {"format": "strips-int-trace/1", "steps": [{"action": a} for a in steps],
            "problem": {"objects": OBJECTS, "init": HALL + init, "goal": goal}}
    return trace_from_dict(data, domain, "shop.json")


def tasks(report) -> dict[str, tuple]:
    return {agent: (t.subtasks, t.triggers, t.accepted) for agent, t in report.tasks.items()}


def pairs(report) -> dict[tuple[int, int], str]:
    return {(f.giver.index, f.receiver.index): f.category for f in report.interdependencies}


# ---------------------------------------------------------------- section 6: navigation on the ground step

def test_navigation_is_decided_on_the_ground_step(shop):
    # Giving to oneself and waiting are navigation; giving to another agent is a sub-task.
    report = analyze(shop, trace(shop, ["(has ann blade)"], ["(stamped blade)"], [
        "(give ann ann blade hall)", "(wait bob)", "(give ann bob blade hall)", "(stamp bob blade)"]))
    assert tasks(report) == {"ann": ((2,), (2,), (2,)), "bob": ((3,), (), ())}
    assert pairs(report) == {(2, 3): "constructive"}
    ground = {str(s.action): shop.is_navigation(s.action) for s in report.steps}
    assert ground == {"(give ann ann blade hall)": True, "(wait bob)": True, "(give ann bob blade hall)": False,
                      "(stamp bob blade)": False}
    named = shop.with_pragmas({"navigation-actions": ["stamp"]})  # the pragma: exactly its schemas
    assert tasks(analyze(named, trace(named, ["(has ann blade)"], ["(stamped blade)"], [
        "(give ann ann blade hall)", "(wait bob)", "(give ann bob blade hall)", "(stamp bob blade)"]))) == {
        "ann": ((0, 2), (2,), (2,)), "bob": ((1,), (), ())}


# ---------------------------------------------------------------- section 6: negative preconditions kept

def test_relaxed_reachability_keeps_negative_preconditions(shop):
    locked = problem_from_dict(shop, {"objects": OBJECTS, "init": HALL + ["(locked v1)", "(has bob blade)"]}, "p")
    reached = relaxed_reachable(shop, locked)
    assert ("in-vault", "blade", "v1") in reached.facts
    assert not any(a.name == "unstash" for a in reached.actions)  # (not (locked v1)): nothing unlocks it
    keyed = dataclasses.replace(locked, init=locked.init | {("keyed", "v1")})
    assert any(a.name == "unstash" for a in relaxed_reachable(shop, keyed).actions)


def test_a_drop_into_a_vault_nobody_can_open_is_no_trigger(shop):
    steps = ["(stash bob blade v1 hall)"]
    locked = analyze(shop, trace(shop, ["(locked v1)", "(has bob blade)"], ["(in-vault blade v1)"], steps))
    assert tasks(locked)["bob"] == ((0,), (), ())
    keyed = analyze(shop, trace(shop, ["(locked v1)", "(keyed v1)", "(has bob blade)"], ["(in-vault blade v1)"], steps))
    assert tasks(keyed)["bob"] == ((0,), (0,), ())  # ann can unlock it, then take the blade


def test_required_help_when_a_partners_body_stays_in_the_way():
    # Overcooked: p0 starts on x, the only cell next to counter k, puts an onion there and steps aside;
    # p1 steps in and takes it. Alone, p1 could never stand on x: p0 stays there in its projection, and
    # (not (occupied x)) is kept under the relaxation. Required (definitions sections 6 and 10).
    overcooked = load_domain("overcooked")
    objects = {"p0": "agent", "p1": "agent", "x": "cell", "y": "cell", "z": "cell", "k": "counter",
               "od": "onion-dispenser", "on1": "onion", "on2": "onion"}
    init = ["(at p0 x)", "(at p1 y)", "(occupied x)", "(occupied y)", "(hand-empty p0)", "(hand-empty p1)",
            "(adjacent x y)", "(adjacent y x)", "(adjacent x z)", "(adjacent z x)", "(next-to x k)",
            "(next-to x od)", "(next-to y od)", "(empty k)", "(fresh on1)", "(fresh on2)"]
    steps = ["(take-onion p0 on1 od x)", "(put p0 on1 k x)", "(move p0 x z)", "(move p1 y x)", "(take p1 on1 k x)"]
    data = {"format": "strips-int-trace/1", "steps": [{"action": a} for a in steps],
            "problem": {"objects": objects, "init": init, "goal": ["(holding p1 on1)"]}}
    [finding] = analyze(overcooked, trace_from_dict(data, overcooked, "corner.json")).interdependencies
    assert (finding.giver.index, finding.receiver.index, finding.category, finding.required) == (
        1, 4, "constructive", True)


# ---------------------------------------------------------------- sections 3 and 4

def test_the_achiever_is_the_last_adder_even_of_a_fact_already_true(shop):
    # ann stamps, hands the blade on, bob stamps again: the pass serves bob's stamp, (stamped blade) is
    # achieved for the goal by bob's stamp (3), not ann's (0).
    report = analyze(shop, trace(shop, ["(has ann blade)"], ["(stamped blade)"], [
        "(stamp ann blade)", "(give ann bob blade hall)", "(wait ann)", "(stamp bob blade)"]))
    assert report.links.goal == {("stamped", "blade"): 3}
    assert pairs(report) == {(1, 3): "constructive"}
    assert tasks(report)["ann"] == ((0, 1), (1,), (1,))


def test_a_goal_facts_last_achiever_is_relevant_whatever_its_predicate(shop):
    # bob drops the blade, ann picks it up (a pass); the pick last achieves (bench-free hall), an ignored
    # predicate, and is relevant all the same: the pass is constructive. No link of a chain is on an
    # ignored fact: ann's pick does not reach bob's work through the vent, which needs (bench-free hall).
    report = analyze(shop, trace(shop, ["(has bob blade)"], ["(bench-free hall)", "(worked hall)"], [
        "(drop bob blade hall)", "(pick ann blade hall)", "(vent hall)", "(work bob hall)"]))
    assert pairs(report) == {(0, 1): "constructive"}
    assert tasks(report) == {"ann": ((1,), (), ()), "bob": ((0, 3), (0,), (0,))}


# ---------------------------------------------------------------- section 12: corners

def test_the_objects_of_facts_of_agents_only_and_of_no_arguments(shop):
    # bob's answer needs ann's call (called ann bob), of agents only: its object is its first argument;
    # and ann's (alarm), of no arguments: its object is the predicate's name.
    report = analyze(shop, trace(shop, [], ["(answered bob)"], ["(call ann bob)", "(ring ann)", "(answer bob ann)"]))
    assert [(f.giver.index, f.receiver.index, f.objects, f.category) for f in report.interdependencies] == [
        (0, 2, ("ann",), "constructive"), (1, 2, ("alarm",), "constructive")]


def test_an_objects_state_keeps_facts_of_ignored_predicates(shop):
    # Dust is bookkeeping (ignored), yet part of the blade's state: the pass before the dusting is no loop
    # (irrelevant: the dusting serves nothing); the pass back and forth after it is.
    report = analyze(shop, trace(shop, ["(has ann blade)"], ["(stamped blade)"], [
        "(give ann bob blade hall)", "(dust bob blade)", "(give bob ann blade hall)", "(stamp ann blade)"]))
    assert pairs(report) == {(0, 1): "irrelevant", (0, 2): "looping", (2, 3): "looping"}


def test_an_inline_negative_goal_is_refused_naming_the_problem(shop):
    with pytest.raises(StripsIntError, match=r"shop.json: problem.goal\[0\] of problem 'inline': \(not \(alarm\)\) "
                                             r"is a negative goal literal, which strips_int refuses"):
        trace(shop, [], ["(not (alarm))"], [])


# ---------------------------------------------------------------- against the oracle

def test_random_walks_in_the_shop_agree_with_the_oracle(shop):
    found = []
    for init in (["(item-at blade hall)", "(locked v1)"], ["(has bob blade)", "(locked v1)", "(keyed v1)"]):
        problem = problem_from_dict(shop, {"objects": OBJECTS, "init": HALL + init}, "shop")
        for seed in range(8):
            found += [str(d) for d in compare(shop, random_walk(shop, problem, 30, seed))]
    assert found == []
