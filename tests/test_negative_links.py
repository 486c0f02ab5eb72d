"""A domain whose agents affect each other only through negative preconditions gets a note saying why it has
no interdependence (definitions section 3 links steps on positive preconditions): ``tests/data/gates.pddl``,
where a keeper unlocks a gate that a walker then passes (``(not (locked ?g))``)."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT, SAR

from strips_int import analyze, load_domain

DATA = ROOT / "tests" / "data"
GATES, PROBLEM, PLAN = DATA / "gates.pddl", DATA / "gates-p01.pddl", DATA / "gates-p01.plan"
NOTE = (f"{GATES}: no interdependence can be found here: one agent's action affects another's only through negative "
        "preconditions ((not (locked ...))), and interdependencies are causal links on positive preconditions "
        "(definitions section 3)")


def check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "strips_int.check", str(GATES), str(PLAN), "--problem", str(PROBLEM),
                           *args], capture_output=True, text=True, timeout=300, check=False)


def test_the_note_is_said_on_standard_error_in_the_text_and_in_the_json():
    text = check()
    assert text.returncode == 0, text.stderr
    assert text.stderr == f"note: {NOTE}\n"
    assert "interdependencies: 0 (constructive 0," in text.stdout and f"  note: {NOTE}\n" in text.stdout
    data = json.loads(check("--json").stdout)
    assert data["counts"]["interdependencies"] == 0 and data["notes"] == [NOTE]


def test_the_report_keeps_the_note_and_a_domain_with_positive_links_has_none():
    domain = load_domain(GATES)
    assert domain.negative_links_note == NOTE and domain.notes == (NOTE,)
    assert analyze(domain, PLAN, PROBLEM).notes == (NOTE,)
    for path, pragmas in ((SAR, None), (ROOT / "domains" / "overcooked.pddl", None),
                          (DATA / "relay.pddl", {"agent-types": ["runner"]})):
        assert load_domain(path, pragmas).negative_links_note is None, path
    report = analyze(load_domain(DATA / "relay.pddl", {"agent-types": ["runner"]}), DATA / "relay-p01.plan",
                     DATA / "relay-p01.pddl")
    assert report.notes == () and "notes" not in report.to_dict()


def test_an_own_fact_or_an_ignored_predicate_is_no_positive_link(tmp_path):
    # (at ?w ?x), which pass needs and adds for its own walker, links no two agents; ignoring locked leaves nothing
    ignored = tmp_path / "gates.pddl"
    ignored.write_text(GATES.read_text())
    assert load_domain(ignored, {"ignore-predicates": ["locked"]}).negative_links_note is None
    shared = tmp_path / "shared.pddl"
    shared.write_text(GATES.read_text().replace("(:action pass", "(:action lock\n   :parameters (?k - keeper ?g - gate)\n"
                                                "   :precondition (not (locked ?g))\n   :effect (locked ?g))\n\n"
                                                "  (:action pass"))
    assert load_domain(shared).negative_links_note is None  # unlock needs (locked ?g), which lock adds: positive
