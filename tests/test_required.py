"""definitions section 10: required or optional interdependences, on hand-made SAR traces and real games."""

from __future__ import annotations

import json

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze, analyze_run, execute, load_domain
from strips_int.cli.check import main as check
from strips_int.grounders import read_input
from strips_int.analysis.reachability import relaxed_reachable
from strips_int.analysis.required import fold
from strips_int.model.trace import trace_from_dict

OVERCOOKED = ROOT / "domains" / "overcooked.pddl"
ROOMS = ["(connected hall storage)", "(connected storage hall)", "(connected hall bedroom)",
         "(connected bedroom hall)", "(clear hall)", "(clear storage)", "(clear bedroom)", "(fire-free hall)",
         "(fire-free storage)", "(fire-free bedroom)", "(victim-at v1 bedroom)", "(at ff1 hall)", "(at nurse1 hall)"]
PEOPLE = {"hall": "location", "storage": "location", "bedroom": "location", "v1": "victim",
          "ff1": "firefighter", "nurse1": "nurse"}
#: The firefighter hands kit2 over; the nurse walks to the bedroom, finds the victim and treats it.
HAND_OVER = [
    {"agent": "ff1", "action": "(give ff1 nurse1 kit2 hall)"},
    {"agent": "nurse1", "action": "(move nurse1 hall bedroom)"},
    {"agent": "nurse1", "action": "(search nurse1 v1 bedroom)"},
    {"agent": "nurse1", "action": "(treat nurse1 kit2 v1 bedroom)"},
]


def run(domain, kits: dict, init: list[str], steps: list):
    problem = {"objects": {**PEOPLE, **kits}, "init": ROOMS + init, "goal": ["(treated v1)"]}
    data = {"format": "strips-int-trace/1", "domain": "sar", "problem": problem, "steps": steps}
    return analyze_run(domain, execute(trace_from_dict(data, domain, "inline.json")))


def need_why(inter) -> str:
    """The need's reason, which ``why`` gives after the category's."""
    return inter.why.rsplit("; ", 1)[1]


def needs(report) -> list[tuple[int, int, bool, str]]:
    return [(i.giver.index, i.receiver.index, i.required, need_why(i)) for i in report.interdependencies]


def test_a_kit_the_nurse_could_have_fetched_is_optional():
    # kit-pass: the kit lies in the storage room, next to the hall the nurse starts in.
    report = analyze(SAR, EXAMPLES / "kit-pass.trace.json")
    assert needs(report) == [(3, 6, False, "optional: nurse1 could make (has nurse1 kit1) alone")]
    assert (report.counts["constructive_required"], report.counts["constructive_optional"]) == (0, 1)


def test_an_extinguished_fire_is_required_by_capability():
    # fire-out: only a firefighter can make (fire-free kitchen); the nurse's move in and treat need it.
    report = analyze(SAR, EXAMPLES / "fire-out.trace.json")
    why = ("required: nurse1 cannot make (fire-free kitchen) alone: "
           "only extinguish by a firefighter makes fire-free (capability)")
    assert needs(report) == [(0, 1, True, why), (0, 3, True, why)]
    assert (report.counts["constructive_required"], report.counts["constructive_optional"]) == (2, 0)
    data = report.to_dict()
    assert data["agents"]["firefighter1"]["given_required"] == 2
    assert data["agents"]["nurse1"]["received_required"] == 2
    assert [item["required"] for item in data["interdependencies"]] == [True, True]
    assert data["interdependencies"][0]["why"].endswith(why)


def test_a_kit_the_receiver_held_from_the_start_is_optional():
    # medkit-loop: the nurse holds kit1 initially, gives it to police and gets it back.
    # Police could get it only from her (required); she had it before any help (optional).
    report = analyze(SAR, EXAMPLES / "medkit-loop.trace.json")
    assert [(i.required, need_why(i).split(":")[0]) for i in report.interdependencies] == [
        (True, "required"), (False, "optional")]
    assert need_why(report.interdependencies[1]) == "optional: (has nurse1 kit1) held in the initial state, before any help"
    # Both are looping, not constructive: neither counts in Int_cons,req or Int_cons,opt.
    assert (report.counts["constructive_required"], report.counts["constructive_optional"]) == (0, 0)
    agents = report.to_dict()["agents"]
    assert (agents["nurse1"]["given_required"], agents["police1"]["received_required"]) == (1, 1)


def test_a_kit_only_the_firefighter_holds_is_required_by_reach(sar):
    # kit2 starts in the firefighter's hands and the nurse cannot take it from them:
    # she would need it lying somewhere (pick-up), which only a drop by its holder makes.
    report = run(sar, {"kit2": "medkit"}, ["(has ff1 kit2)"], HAND_OVER)
    [(giver, receiver, required, why)] = needs(report)
    assert (giver, receiver, required) == (0, 3, True)
    assert why.startswith("required: nurse1 cannot make (has nurse1 kit2) alone: (has nurse1 kit2) needs "
                          "(item-at kit2 ")
    assert why.endswith(" (to pick-up), out of its reach (reach)")


def test_another_kit_just_like_it_makes_the_hand_over_optional(sar):
    # Two kits lie in the storage room (interchangeable: same type, same initial facts);
    # the firefighter fetches kit2 and hands it over. The nurse could have fetched
    # kit1 (or kit2) herself: optional, and the reason names the interchangeable kit.
    steps = [{"agent": "ff1", "action": "(move ff1 hall storage)"},
             {"agent": "ff1", "action": "(pick-up ff1 kit2 storage)"},
             {"agent": "ff1", "action": "(move ff1 storage hall)"}] + HAND_OVER
    report = run(sar, {"kit1": "medkit", "kit2": "medkit", "kit3": "medkit"},
                 ["(item-at kit1 storage)", "(item-at kit2 storage)", "(item-at kit3 storage)"], steps)
    assert needs(report) == [
        (3, 6, False, "optional: nurse1 could make (has nurse1 kit2) alone (with another medkit for kit2)")]


def test_check_json_and_text_carry_the_split(capsys):
    assert check([str(SAR), str(EXAMPLES / "fire-out.trace.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    counts = data["counts"]
    assert counts["constructive_required"] + counts["constructive_optional"] == counts["constructive"] == 2
    assert all(item["required"] and "(capability)" in item["why"] for item in data["interdependencies"])
    assert check([str(SAR), str(EXAMPLES / "kit-pass.trace.json")]) == 0
    text = capsys.readouterr().out
    assert "  constructive: required 0, optional 1" in text
    assert "constructive: step 6 leads to goal fact (treated v2); no loop; optional: nurse1 could make" in text


def _study_games(layout: str, count: int):
    files = sorted((SHARED_DATA / "user-study").rglob("*.json"))
    return [f for f in files if json.loads(f.read_text())["mdp_params"][0]["layout_name"] == layout][:count]


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")
@pytest.mark.parametrize("layout, required", [("forced_coordination", True), ("counter_circuit", False)])
def test_user_study_games_split_by_layout(layout, required, capsys):
    # forced_coordination: the pot side has no dispenser, so every constructive
    # interdependence (an onion or dish over the counter) is required; the open
    # counter_circuit kitchen lets everyone do everything: none is.
    games = _study_games(layout, 4)
    assert len(games) == 4
    assert check([str(OVERCOOKED), *map(str, games), "--json"]) == 0
    for line in capsys.readouterr().out.splitlines():
        data = json.loads(line)
        counts = data["counts"]
        constructive = [i for i in data["interdependencies"] if i["category"] == "constructive"]
        assert counts["constructive"] == len(constructive) > 0
        assert all(i["required"] is required for i in constructive)
        assert counts["constructive_required" if required else "constructive_optional"] == counts["constructive"]
        for agent, row in data["agents"].items():
            assert row["given_required"] == sum(i["required"] and i["giver"]["agent"] == agent
                                                for i in data["interdependencies"])
        if required:
            assert any("(to take-onion), out of its reach (reach)" in i["why"] for i in constructive)
        else:
            assert any("alone (with another onion for onion" in i["why"] for i in constructive)


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")
def test_games_of_one_layout_fold_to_one_problem():
    # Each game's problem has the onions, dishes and soups that game used; folded to
    # the representatives of its interchangeable objects, two games of a layout are
    # the same problem, so each agent's reachability is computed once for both.
    domain = load_domain(OVERCOOKED)
    first, second = (next(iter(read_input(path, domain))).problem for path in _study_games("counter_circuit", 2))
    assert first.objects != second.objects
    folded = [fold(p, relaxed_reachable(domain, p).classes) for p in (first, second)]
    assert folded[0].objects == folded[1].objects and folded[0].init == folded[1].init
    assert {"onion1", "dish1", "soup1"} <= set(folded[0].objects)
