"""definitions sections 3-6 on small inline traces whose counts are worked out here."""

from __future__ import annotations

import networkx as nx
import pytest

from strips_int import StripsIntError, analyze_run, execute
from strips_int.analysis.causal import INIT
from strips_int.model.trace import trace_from_dict


def _house(objects: dict, init: list[str], goal: list[str]) -> dict:
    return {"objects": objects, "init": init, "goal": goal}


def run_steps(domain, problem: dict, steps: list, **trace):
    data = {"format": "strips-int-trace/1", "domain": "sar", "problem": problem, "steps": steps, **trace}
    return analyze_run(domain, execute(trace_from_dict(data, domain, "inline.json")))


FIRE = _house(
    {"hall": "location", "kitchen": "location", "pantry": "location", "ext1": "extinguisher",
     "ext2": "extinguisher", "ff1": "firefighter", "ff2": "firefighter"},
    ["(connected hall kitchen)", "(connected kitchen hall)", "(connected pantry kitchen)",
     "(connected kitchen pantry)", "(on-fire kitchen)", "(on-fire pantry)", "(fire-free hall)",
     "(clear hall)", "(clear kitchen)", "(clear pantry)", "(at ff1 hall)", "(at ff2 hall)",
     "(has ff1 ext1)", "(has ff2 ext2)"],
    ["(fire-free kitchen)"],
)


def test_chain_through_an_environment_step(sar):
    # ff1 puts the kitchen fire out (adds (fire-free kitchen)); the fire spreads
    # back from the pantry (environment step 1 needs that fact); ff2 puts it out
    # again (step 2 needs (on-fire kitchen), added by step 1). Chain ff1 -> env
    # -> ff2: one interdependence (0, 2) whose linking fact is the last link's.
    report = run_steps(sar, FIRE, [
        {"agent": "ff1", "action": "(extinguish ff1 ext1 hall kitchen)"},
        {"action": "(spread-fire pantry kitchen)"},
        {"agent": "ff2", "action": "(extinguish ff2 ext2 hall kitchen)"},
    ])
    [inter] = report.interdependencies
    assert (inter.giver.index, inter.receiver.index, inter.facts, inter.objects) == (
        0, 2, (("on-fire", "kitchen"),), ("kitchen",))
    # Step 2 last achieves the goal (fire-free kitchen): goal-reaching, constructive.
    assert report.interdependencies[0].category == "constructive"
    assert report.graph.nodes[1]["kind"] == "environment" and report.graph.nodes[1]["agent"] is None


def test_same_agent_through_environment_is_not_an_interdependence(sar):
    # As above but ff1 puts the fire out both times: same actor, no pair.
    report = run_steps(sar, FIRE, [
        {"agent": "ff1", "action": "(extinguish ff1 ext1 hall kitchen)"},
        {"action": "(spread-fire pantry kitchen)"},
        {"agent": "ff1", "action": "(extinguish ff1 ext1 hall kitchen)"},
    ])
    assert report.interdependencies == ()


KITS = _house(
    {"hall": "location", "bedroom": "location", "v1": "victim", "kit1": "medkit",
     "police1": "police", "nurse1": "nurse"},
    ["(connected hall bedroom)", "(connected bedroom hall)", "(clear hall)", "(clear bedroom)",
     "(fire-free hall)", "(fire-free bedroom)", "(victim-at v1 bedroom)", "(at police1 hall)",
     "(at nurse1 hall)", "(has police1 kit1)"],
    ["(treated v1)"],
)


def test_pointless_back_and_forth_is_looping_and_irrelevant(sar):
    # police gives kit1 (0), nurse gives it back (1), police drops it (2).
    # (0,1): receiver is nurse's give, kit1 state {}; later (1,2) is received by
    #        police (the giver) with kit1 in {}: giver loop.
    # (1,2): earlier (0,1) was given by police (this receiver) in {}: receiver loop.
    # The victim is never treated: nothing is goal-reaching, yet looping comes first.
    report = run_steps(sar, KITS, [
        {"agent": "police1", "action": "(give police1 nurse1 kit1 hall)"},
        {"agent": "nurse1", "action": "(give nurse1 police1 kit1 hall)"},
        {"agent": "police1", "action": "(drop police1 kit1 hall)"},
    ])
    assert [(i.giver.index, i.receiver.index) for i in report.interdependencies] == [(0, 1), (1, 2)]
    assert [(v.giver_loop, v.receiver_loop, v.goal_reaching, v.category) for v in report.interdependencies] == [
        (True, False, False, "looping"), (False, True, False, "looping")]
    assert report.counts == {
        "interdependencies": 2, "constructive": 0, "non_constructive": 2, "looping": 2, "irrelevant": 0,
        "constructive_required": 0, "constructive_optional": 0}


def test_object_state_change_breaks_the_loop(sar):
    # police gives kit1 (0); the nurse walks, searches, treats with it (3: kit1
    # becomes used), walks back and returns it (5); police drops it (6).
    # Pairs on kit1: (0,3) state {} before 3; (0,5) and (5,6) state {(used kit1)}.
    # (0,3): police never receives kit1 back in {} and the nurse never handed
    #        it on in {}: constructive (the treat achieves the goal).
    # (0,5): (5,6) is received later by police, the giver, in {(used kit1)}: giver loop.
    # (5,6): (0,5) was received earlier, given by police, in {(used kit1)}:
    #        receiver loop; the drop feeds no goal fact.
    report = run_steps(sar, KITS, [
        {"agent": "police1", "action": "(give police1 nurse1 kit1 hall)"},
        {"agent": "nurse1", "action": "(move nurse1 hall bedroom)"},
        {"agent": "nurse1", "action": "(search nurse1 v1 bedroom)"},
        {"agent": "nurse1", "action": "(treat nurse1 kit1 v1 bedroom)"},
        {"agent": "nurse1", "action": "(move nurse1 bedroom hall)"},
        {"agent": "nurse1", "action": "(give nurse1 police1 kit1 hall)"},
        {"agent": "police1", "action": "(drop police1 kit1 hall)"},
    ])
    got = {(i.giver.index, i.receiver.index): i for i in report.interdependencies}
    assert set(got) == {(0, 3), (0, 5), (5, 6)}
    assert got[0, 3].category == "constructive"
    assert (got[0, 5].giver_loop, got[0, 5].category) == (True, "looping")
    assert (got[5, 6].receiver_loop, got[5, 6].goal_reaching, got[5, 6].category) == (True, False, "looping")


REACH = _house(
    {"roof": "location", "hall": "location", "v1": "victim", "kit1": "medkit",
     "ff1": "firefighter", "nurse1": "nurse"},
    ["(connected roof hall)", "(clear roof)", "(clear hall)", "(fire-free roof)", "(fire-free hall)",
     "(victim-at v1 roof)", "(at ff1 roof)", "(at nurse1 hall)", "(has ff1 kit1)"],
    ["(treated v1)"],
)


def test_trigger_only_where_the_partner_can_reach(sar):
    # The roof connects to the hall one way only: the nurse can never get there.
    # ff1 drops kit1 on the roof (0): (item-at kit1 roof) is needed by the
    # nurse's pick-up only with (at nurse1 roof), unreachable: not a trigger.
    # ff1 picks it up (1): (has ff1 kit1) serves only ff1: not a trigger.
    # ff1 moves down (2, navigation) and drops it in the hall (3): the nurse can
    # pick it up there: a trigger, accepted when she does (4).
    # The victim on the roof is never treated: (3,4) is an irrelevant pass.
    report = run_steps(sar, REACH, [
        {"agent": "ff1", "action": "(drop ff1 kit1 roof)"},
        {"agent": "ff1", "action": "(pick-up ff1 kit1 roof)"},
        {"agent": "ff1", "action": "(move ff1 roof hall)"},
        {"agent": "ff1", "action": "(drop ff1 kit1 hall)"},
        {"agent": "nurse1", "action": "(pick-up nurse1 kit1 hall)"},
    ])
    tasks = report.tasks["ff1"]
    assert (tasks.subtasks, tasks.triggers, tasks.accepted) == ((0, 1, 3), (3,), (3,))
    assert tasks.pct_triggers == pytest.approx(100 / 3)
    assert tasks.pct_not_accepted == 0.0
    assert report.tasks["nurse1"].subtasks == (4,) and report.tasks["nurse1"].triggers == ()
    [verdict] = report.interdependencies
    assert (verdict.goal_reaching, verdict.category) == (False, "irrelevant")
    assert report.counts["irrelevant"] == 1 and report.counts["non_constructive"] == 1


def test_unaccepted_trigger(sar):
    # ff1 drops kit1 in the hall (a trigger: the nurse could pick it up) but
    # nobody does: 1 trigger, 0 accepted, %P_not-acc = 100.
    report = run_steps(sar, REACH, [
        {"agent": "ff1", "action": "(move ff1 roof hall)"},
        {"agent": "ff1", "action": "(drop ff1 kit1 hall)"},
    ])
    tasks = report.tasks["ff1"]
    assert (len(tasks.triggers), len(tasks.accepted), tasks.pct_not_accepted) == (1, 0, 100.0)
    assert report.tasks["nurse1"].pct_triggers is None  # no sub-tasks at all


def test_causal_graph_links_to_last_achiever(sar):
    # ff1 drops kit1 in the hall (1), picks it up (2), drops it again (3); the
    # nurse's pick-up (4) needs (item-at kit1 hall): its achiever is step 3, the
    # last adder, not step 1. Initial facts link from the init node.
    report = run_steps(sar, REACH, [
        {"agent": "ff1", "action": "(move ff1 roof hall)"},
        {"agent": "ff1", "action": "(drop ff1 kit1 hall)"},
        {"agent": "ff1", "action": "(pick-up ff1 kit1 hall)"},
        {"agent": "ff1", "action": "(drop ff1 kit1 hall)"},
        {"agent": "nurse1", "action": "(pick-up nurse1 kit1 hall)"},
    ])
    graph = report.graph
    assert isinstance(graph, nx.MultiDiGraph)
    assert graph.number_of_nodes() == 6  # init + 5 steps
    into_pickup = {data["fact"]: u for u, _, data in graph.in_edges(4, data=True)}
    assert into_pickup == {("item-at", "kit1", "hall"): 3, ("at", "nurse1", "hall"): INIT}
    assert graph.edges[3, 4, "(item-at kit1 hall)"]["objects"] == ("kit1",)
    # One causal link per precondition of every step.
    assert graph.number_of_edges() == sum(len(s.action.pre) for s in report.steps)
    assert [(i.giver.index, i.receiver.index) for i in report.interdependencies] == [(3, 4)]
    assert graph.nodes[4] == {"index": 4, "t": 4, "agent": "nurse1",
                              "action": "(pick-up nurse1 kit1 hall)", "kind": "agent"}


def test_relevance_is_transitive_and_partial_goals_count(sar):
    # Goal: both victims treated; only v1 is. Achieved goal facts: {(treated v1)}.
    # Relevant: treat (3) achieves it; move (1) and search (2) feed it; the
    # police's give (0) feeds the treat through (has nurse1 kit1).
    problem = dict(KITS, goal=["(treated v1)", "(located v1)"])
    report = run_steps(sar, problem, [
        {"agent": "police1", "action": "(give police1 nurse1 kit1 hall)"},
        {"agent": "nurse1", "action": "(move nurse1 hall bedroom)"},
        {"agent": "nurse1", "action": "(search nurse1 v1 bedroom)"},
        {"agent": "nurse1", "action": "(treat nurse1 kit1 v1 bedroom)"},
    ])
    assert report.achieved == {("treated", "v1"), ("located", "v1")}
    assert report.interdependencies[0].goal_reaching and report.interdependencies[0].category == "constructive"


def test_ignore_predicates_never_link_agents(sar):
    # Same kit pass, with has ignored: no interdependence, no trigger.
    domain = sar.with_pragmas({"ignore-predicates": ["has"]})
    report = run_steps(domain, KITS, [
        {"agent": "police1", "action": "(give police1 nurse1 kit1 hall)"},
        {"agent": "nurse1", "action": "(drop nurse1 kit1 hall)"},
    ])
    assert report.interdependencies == ()
    assert report.tasks["police1"].triggers == ()


def test_navigation_rule_without_pragma(sar):
    # Without the pragma, a step whose every add and delete mentions its actor
    # is navigation (definitions v3 section 6: decided on the ground step): move and
    # pick-up's (has ?a ?i)... pick-up also deletes (item-at ?i ?l), which does
    # not mention the actor: a sub-task.
    import dataclasses

    bare = dataclasses.replace(sar, navigation_actions=frozenset())

    def step(name: str, *args: str):
        return bare.ground(bare.schemas[name], args)

    assert bare.is_navigation(step("move", "nurse1", "hall", "bedroom"))
    assert not bare.is_navigation(step("pick-up", "nurse1", "kit1", "hall"))
    assert not bare.is_navigation(step("spread-fire", "hall", "bedroom"))  # no actor
    assert not bare.is_navigation(step("search", "nurse1", "v1", "hall"))


def test_inapplicable_step_names_step_and_failed_preconditions(sar):
    with pytest.raises(StripsIntError) as info:
        run_steps(sar, KITS, [
            {"t": 0, "agent": "nurse1", "action": "(move nurse1 hall bedroom)"},
            {"t": 7, "agent": "nurse1", "action": "(treat nurse1 kit1 v1 bedroom)"},
        ])
    message = str(info.value)
    assert message.startswith("inline.json: step 1 (t=7, agent nurse1): (treat nurse1 kit1 v1 bedroom) is not applicable")
    assert "(has nurse1 kit1)" in message and "(located v1)" in message
