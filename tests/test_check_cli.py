"""``python -m strips_int.check``: output, several traces, and every error case."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import EXAMPLES, SAR

from strips_int.cli.check import main

PROBLEM = str(EXAMPLES / "medkit-loop.problem.pddl")


def write_trace(path, steps, problem=PROBLEM):
    path.write_text(json.dumps({"format": "strips-int-trace/1", "domain": "sar", "problem": problem, "steps": steps}))
    return path


def run_json(capsys, *args):
    status = main([str(a) for a in args] + ["--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, lines


def test_json_lines_for_several_traces(capsys):
    traces = sorted(EXAMPLES.glob("*.trace.json"))
    status, lines = run_json(capsys, SAR, *traces)
    assert status == 0
    assert [line["source"] for line in lines] == [str(t) for t in traces]
    kit = next(line for line in lines if line["source"].endswith("kit-pass.trace.json"))
    assert kit["steps"] == 7
    assert kit["goal"] == {"facts": ["(treated v2)"], "achieved": ["(treated v2)"]}
    assert kit["counts"] == {"interdependencies": 1, "constructive": 1, "non_constructive": 0,
                             "looping": 0, "irrelevant": 0, "constructive_required": 0,
                             "constructive_optional": 1}
    assert kit["agents"]["nurse1"]["received"] == 1
    [inter] = kit["interdependencies"]
    assert inter["giver"] == {"index": 3, "t": 3, "agent": "firefighter1",
                              "action": "(give firefighter1 nurse1 kit1 hall)"}
    assert inter["receiver"]["index"] == 6
    assert inter["facts"] == ["(has nurse1 kit1)"] and inter["objects"] == ["kit1"]
    assert (inter["goal_reaching"], inter["giver_loop"], inter["receiver_loop"], inter["category"]) == (
        True, False, False, "constructive")
    assert kit["meta"]["example"].startswith("D.3 example 2")


@pytest.mark.parametrize(
    "steps, expected",
    [
        ([{"agent": "nurse1", "action": "(move nurse1 hall garage)"}],
         "step 0 (t=0, agent nurse1): unknown object 'garage' in (move nurse1 hall garage)"),
        ([{"t": 3, "action": "(move nurse1 hall)"}],
         "step 0 (t=3): (move nurse1 hall) has 2 arguments, move takes 3"),
        ([{"agent": "police1", "action": "(move nurse1 hall bedroom)"}],
         "step 0 (t=0, agent police1): agent police1 is not the actor of (move nurse1 hall bedroom) "
         "(its actor is nurse1)"),
        ([{"agent": "nurse1", "action": "(move nurse1 hall bedroom)"},
          {"agent": "nurse1", "action": "(treat nurse1 kit1 v1 bedroom)"}],
         "step 1 (t=1, agent nurse1): (treat nurse1 kit1 v1 bedroom) is not applicable: failed (located v1)"),
        ([{"agent": "nurse1", "action": "(fly nurse1)"}],
         "step 0 (t=0, agent nurse1): unknown action 'fly' in (fly nurse1)"),
        ([{"action": "(spread-fire hall bedroom)", "agent": "nurse1"}],
         "is an environment action, but the step names agent nurse1"),
        ([{"t": 5, "action": "(move nurse1 hall bedroom)"}, {"t": 2, "action": "(move nurse1 bedroom hall)"}],
         "step 1 (t=2, agent nurse1): t goes back in time (previous step has t=5)"),
    ],
)
def test_bad_step_is_one_error_line_and_others_still_analysed(tmp_path, capsys, steps, expected):
    bad = write_trace(tmp_path / "bad.json", steps)
    good = EXAMPLES / "kit-pass.trace.json"
    status, lines = run_json(capsys, SAR, bad, good)
    assert status == 1
    assert lines[0]["source"] == str(bad)
    assert lines[0]["error"].startswith(f"{bad}: ")
    assert expected in lines[0]["error"]
    assert lines[1]["counts"]["constructive"] == 1  # the good trace is still analysed


def test_malformed_json_names_line_and_column(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "strips-int-trace/1",\n "steps": [\n')
    status, [line] = run_json(capsys, SAR, bad)
    assert status == 1
    assert line["error"].startswith(f"{bad}: line 3, column 1: malformed JSON")


def test_wrong_format_and_missing_problem(tmp_path, capsys):
    other = tmp_path / "other.json"
    other.write_text('{"states": []}')
    missing = write_trace(tmp_path / "missing.json", [], problem=str(tmp_path / "nope.pddl"))
    status, lines = run_json(capsys, SAR, other, missing)
    assert status == 1
    assert 'format: expected "strips-int-trace/1"' in lines[0]["error"]
    assert lines[1]["error"].startswith(f"{missing}: problem: {tmp_path / 'nope.pddl'}: cannot read")


def test_problem_option_overrides_the_trace(tmp_path, capsys):
    trace = write_trace(tmp_path / "t.json", [{"action": "(give nurse1 police1 kit1 hall)"}], problem="ignored.pddl")
    status, [line] = run_json(capsys, SAR, trace, "--problem", PROBLEM)
    assert status == 0 and line["problem"] == "medkit-loop" and line["steps"] == 1


def test_bad_domain_exits_2(tmp_path, capsys):
    domain = tmp_path / "bad.pddl"
    domain.write_text("(define (domain x)\n (:requirements :strips)\n (:predicates (p))\n"
                      " (:action a :parameters () :precondition (q) :effect (p)))\n")
    assert main([str(domain), str(EXAMPLES / "kit-pass.trace.json")]) == 2
    assert capsys.readouterr().err.strip() == f"error: {domain}: action a: undeclared predicate 'q' in (q)"
    domain.write_text("(define (domain x)\n  (:predicates (p)\n")
    assert main([str(domain), str(EXAMPLES / "kit-pass.trace.json")]) == 2
    assert f"error: {domain}: line " in capsys.readouterr().err


def test_unknown_pragma_names_its_line(tmp_path, capsys):
    domain = tmp_path / "pragma.pddl"
    domain.write_text(SAR.read_text().replace("; @strips-int navigation-actions: move",
                                              "; @strips-int navigation-actions: walk"))
    assert main([str(domain), str(EXAMPLES / "kit-pass.trace.json")]) == 2
    err = capsys.readouterr().err
    assert f"{domain}: line 5: navigation-actions: no action named 'walk'" in err


def test_text_output_and_module_entry_point():
    result = subprocess.run(
        [sys.executable, "-m", "strips_int.check", str(SAR), str(EXAMPLES / "medkit-loop.trace.json")],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "interdependencies: 2 (constructive 0, non-constructive 2: looping 2, irrelevant 0)" in out
    assert "step 0 (t=0) nurse1 -> step 1 (t=1) police1" in out
    assert "giver loop: kit1 came back to nurse1" in out


def test_usage_error_exits_2_without_traceback():
    result = subprocess.run([sys.executable, "-m", "strips_int.check"], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "usage:" in result.stderr
