"""The shipped SAR examples (paper appendix D), counts worked out by hand."""

from __future__ import annotations

from strips_int import analyze

from helpers import EXAMPLES, SAR


def _pairs(report):
    return [
        (i.giver.index, i.receiver.index, [" ".join(f) for f in i.facts], list(i.objects), i.category)
        for i in report.interdependencies
    ]


def test_victim_found_by_firefighter_treated_by_nurse():
    # Step 1 (search firefighter1 v1 kitchen) adds (located v1); step 3, the
    # nurse's treat, needs it: one interdependence on v1. The treat achieves the
    # goal (treated v1), so it is goal-reaching; v1 is never handed back: constructive.
    report = analyze(SAR, EXAMPLES / "victim-found.trace.json")
    assert _pairs(report) == [(1, 3, ["located v1"], ["v1"], "constructive")]
    assert report.counts == {
        "interdependencies": 1, "constructive": 1, "non_constructive": 0, "looping": 0, "irrelevant": 0,
        "constructive_required": 0, "constructive_optional": 1,
    }
    # The search is the firefighter's only sub-task (move is navigation) and a
    # trigger (the nurse's treat needs (located v1)), accepted. The nurse's
    # treat adds (treated v1) and (used kit1), which no action needs: no trigger.
    agents = report.to_dict()["agents"]
    assert agents["firefighter1"] == {
        "type": "firefighter", "subtasks": 1, "triggers": 1, "accepted_triggers": 1,
        "pct_triggers": 100.0, "pct_not_accepted": 0.0, "given": 1, "received": 0,
        "given_required": 0, "received_required": 0,  # the nurse could have searched the kitchen herself
        "given_constructive": 1, "received_constructive": 0,  # the one interdependence is constructive
        "given_constructive_required": 0, "received_constructive_required": 0,
        # a trace without attempts records no choices: its blocks are unknown, and no self-help cost was asked
        "blocks_given": None, "blocks_received": None, "help_steps_received": None, "help_unknown_received": None,
    }
    assert agents["nurse1"]["subtasks"] == 1
    assert agents["nurse1"]["triggers"] == 0
    assert agents["nurse1"]["pct_triggers"] == 0.0
    assert agents["nurse1"]["pct_not_accepted"] is None  # no triggers: undefined, not 0


def test_kit_passed_from_firefighter_to_nurse():
    # The give (step 3) adds (has nurse1 kit1), which the treat (step 6) needs:
    # one interdependence on kit1. The kit's state before step 6 is {} (has is
    # about an agent, item-at is a position predicate) and it never returns.
    report = analyze(SAR, EXAMPLES / "kit-pass.trace.json")
    assert _pairs(report) == [(3, 6, ["has nurse1 kit1"], ["kit1"], "constructive")]
    # Firefighter: pick-up and give are sub-tasks; only the give adds a fact
    # another agent can use ((has firefighter1 kit1) serves only the firefighter).
    ff = report.to_dict()["agents"]["firefighter1"]
    assert (ff["subtasks"], ff["triggers"], ff["accepted_triggers"]) == (2, 1, 1)
    assert (ff["pct_triggers"], ff["pct_not_accepted"]) == (50.0, 0.0)
    # Nurse: search and treat; (located v2) is needed only by a nurse's treat.
    nurse = report.to_dict()["agents"]["nurse1"]
    assert (nurse["subtasks"], nurse["triggers"]) == (2, 0)


def test_fire_put_out_before_treatment():
    # (fire-free kitchen) from the extinguish (step 0) is needed by the nurse's
    # move into the kitchen (step 1) and by her treat (step 3): two pairs, both
    # on the kitchen, both leading to (treated v3), no loops.
    report = analyze(SAR, EXAMPLES / "fire-out.trace.json")
    assert _pairs(report) == [
        (0, 1, ["fire-free kitchen"], ["kitchen"], "constructive"),
        (0, 3, ["fire-free kitchen"], ["kitchen"], "constructive"),
    ]
    ff = report.to_dict()["agents"]["firefighter1"]
    assert (ff["subtasks"], ff["triggers"], ff["accepted_triggers"], ff["given"]) == (1, 1, 1, 2)


def test_medkit_handed_back_is_looping_even_though_goal_reaching():
    # I1 = (0 nurse gives kit1 -> 1 police gives it back), kit1 in state {} at step 1.
    # I2 = (1 police gives -> 4 nurse treats), kit1 in state {} at step 4.
    # I1: a later interdependence on kit1 (I2) is received by the giver (nurse1)
    #     with kit1 in the same state {}: giver loop.
    # I2: an earlier one (I1) was given by the receiver (nurse1) with kit1 in {}:
    #     receiver loop. Both are goal-reaching (the chain ends in (treated v1))
    #     and still looping, as appendix D.4 says.
    report = analyze(SAR, EXAMPLES / "medkit-loop.trace.json")
    assert _pairs(report) == [
        (0, 1, ["has police1 kit1"], ["kit1"], "looping"),
        (1, 4, ["has nurse1 kit1"], ["kit1"], "looping"),
    ]
    first, second = report.interdependencies
    assert (first.goal_reaching, first.giver_loop, first.receiver_loop) == (True, True, False)
    assert (second.goal_reaching, second.giver_loop, second.receiver_loop) == (True, False, True)
    assert report.counts["non_constructive"] == 2
    assert "came back to nurse1" in first.why and "step 4" in first.why
