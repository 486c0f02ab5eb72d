"""Reasons (``why``) as a reader needs them: required help told of the interdependence's own object, not of
the representative its interchangeable class is computed with, and loops in words, not state sets."""

from __future__ import annotations

import re

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_required_help_reasons_name_the_object_handed_over():
    report = analyze(ROOT / "domains" / "overcooked.pddl", GAME)
    required = [f for f in report.interdependencies if f.required]
    assert len(required) == 25  # all but the one handed back by the AI (player1 could take its own onion)
    for finding in required:
        (obj,) = finding.objects
        reason = finding.why.split("; required: ", 1)[1]
        chain = reason.split(": ", 1)[1]  # after "player0 cannot make (...) alone[, nor with ...]"
        kind = re.sub(r"\d+$", "", obj)
        named = set(re.findall(rf"\b{kind}\d+\b", chain))
        assert named == {obj}, finding.why  # onion2's link cites onion2, never onion1
    onion2 = next(f for f in required if f.objects == ("onion2",))
    assert "(on onion2 counter2_1) needs (holding player0 onion2) (to put)" in onion2.why


def test_loop_reasons_are_in_words():
    report = analyze(SAR, EXAMPLES / "medkit-loop.trace.json")
    first, second = (f.why for f in report.interdependencies)
    assert first.startswith("giver loop: kit1 came back to nurse1 unchanged at step ")
    assert second.startswith("receiver loop: nurse1 had already handed kit1 on unchanged (received at step ")
    assert not any("in state" in f.why or "{" in f.why for f in report.interdependencies)
