"""Plan files as traces (definitions v3 section 1): one ground action a line, as Fast Downward and VAL write them,
told apart from JSON traces by content, read with ``--problem`` or the problem beside them; errors name
the plan's line; ``evaluate`` takes a folder of plans."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from strips_int import StripsIntError, load_domain, load_problem
from strips_int.batch.games import game_files
from strips_int.model.execution import execute
from strips_int.model.plan import is_plan, opens_as_plan, problem_beside
from strips_int.model.trace_file import load_trace

FREIGHT = ROOT / "examples" / "freight"
AGENTS = {"agent-types": ["truck", "airplane"]}
#: The start of examples/freight/p01.plan, written the ways planners write plans.
WRITTEN = """; a plan as VAL and Fast Downward write them

(LOAD pkg2 truck2 depot2)
1: (load pkg1 truck1 depot1)
   2.000: (drive-truck truck2 depot2 port2 city2) [1.000]

(unload pkg2 truck2 port2) ; pkg2 waits at the airport
; cost = 4 (unit cost)
"""


@pytest.fixture(scope="module")
def freight():
    return load_domain(FREIGHT / "domain.pddl", AGENTS)


@pytest.fixture(scope="module")
def p01(freight):
    return load_problem(freight, FREIGHT / "p01.pddl")


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=300, cwd=cwd, check=False)


def test_plan_lines_as_fast_downward_and_val_write_them(tmp_path, freight, p01):
    plan = tmp_path / "written.plan"
    plan.write_text(WRITTEN)
    trace = load_trace(plan, freight, p01)
    assert [str(s.action) for s in trace.steps] == [
        "(load pkg2 truck2 depot2)", "(load pkg1 truck1 depot1)", "(drive-truck truck2 depot2 port2 city2)",
        "(unload pkg2 truck2 port2)"]
    assert [s.t for s in trace.steps] == [0, 1, 2, 3]  # the line's index among the actions, not its prefix
    assert [s.agent for s in trace.steps] == ["truck2", "truck1", "truck2", "truck2"]
    assert trace.lines == (3, 4, 5, 7)
    assert trace.meta == {"format": "plan", "problem": "freight-p01"}
    assert execute(trace).final >= {("at", "pkg2", "port2"), ("in", "pkg1", "truck1")}


def test_a_plan_is_told_from_a_json_trace_by_content():
    for data in (WRITTEN.encode(), (FREIGHT / "p01.plan").read_bytes(), b"; cost = 0 (unit cost)\n",
                 b"0.000: (load pkg1 truck1 depot1) [1.000]\n"):
        assert is_plan(data) and opens_as_plan(data)
    for data in (b"", b'{"format": "strips-int-trace/1"}', b"12", b"drive truck1 depot1 port1\n",
                 (ROOT / "examples" / "sar" / "kit-pass.trace.json").read_bytes()):
        assert not is_plan(data) and not opens_as_plan(data)
    # A problem file is no plan in a folder walk; given as a trace, it is read as one, to say what is wrong.
    problem = (FREIGHT / "p01.pddl").read_bytes()
    assert is_plan(problem) and not opens_as_plan(problem)


def test_an_empty_plan_is_a_trace_of_no_steps(tmp_path, freight, p01):
    plan = tmp_path / "sas_plan"
    plan.write_text("; cost = 0 (unit cost)\n")
    trace = load_trace(plan, freight, p01)
    assert trace.steps == () and execute(trace).goal_achieved == frozenset()


@pytest.mark.parametrize("line, message", [
    ("(load pkg1 truck1)", "line 2: (load pkg1 truck1) has 2 arguments, load takes 3"),
    ("(teleport pkg1 depot2)", "line 2: unknown action 'teleport' in (teleport pkg1 depot2)"),
    ("(load pkg9 truck1 depot1)", "line 2: unknown object 'pkg9' in (load pkg9 truck1 depot1)"),
    ("(load pkg1 city1 depot1)", "line 2: city1 is a city, but ?veh of load must be a airplane/truck"),
    ("load pkg1 truck1 depot1", ("line 2: a plan line is one ground action, '(name arg ...)', optionally with 'N:' "
                                 "before and '[duration]' after; found 'load pkg1 truck1 depot1'")),
    ("(load pkg1 truck1 depot1) (load pkg3 truck1 depot1)", "line 2: a plan line is one ground action"),
])
def test_a_bad_plan_line_is_an_error_naming_the_line(tmp_path, freight, p01, line, message):
    plan = tmp_path / "bad.plan"
    plan.write_text(f"; first line\n{line}\n")
    with pytest.raises(StripsIntError) as info:
        load_trace(plan, freight, p01)
    assert str(info.value).startswith(f"{plan}: {message}")


def test_an_inapplicable_plan_line_is_one_error_naming_its_line_and_step(tmp_path, freight, p01):
    plan = tmp_path / "inapplicable.plan"
    plan.write_text("(load pkg1 truck1 depot1)\n\n; the truck has not moved\n(unload pkg1 truck1 port1)\n")
    trace = load_trace(plan, freight, p01)
    with pytest.raises(StripsIntError) as info:
        execute(trace)
    assert str(info.value) == (f"{plan}: line 4, step 1 (t=1, agent truck1): (unload pkg1 truck1 port1) is not "
                               "applicable: failed (at truck1 port1)")
    result = cli("strips_int.check", str(FREIGHT / "domain.pddl"), str(plan), "--problem", str(FREIGHT / "p01.pddl"),
                 "--agent-types", "truck", "airplane")
    assert result.returncode == 1 and result.stdout == ""
    assert [line for line in result.stderr.splitlines() if line.startswith("error:")] == [f"error: {info.value}"]


@pytest.mark.parametrize("plan, problem", [
    ("p01.plan", "p01.pddl"), ("p01.pddl.soln", "p01.pddl"), ("p01.plan.2", "p01.pddl"), ("p01.sol", "p01.pddl"),
    ("sas_plan", "p02.pddl"), ("sas_plan.3", "p02.pddl")])
def test_the_problem_beside_a_plan(tmp_path, plan, problem):
    ipc = tmp_path / "ipc"
    ipc.mkdir()
    shutil.copy(FREIGHT / "p01.pddl", ipc / "p01.pddl")
    shutil.copy(FREIGHT / "domain.pddl", ipc / "domain.pddl")  # a domain beside them is no problem file
    (ipc / plan).write_text("")
    alone = tmp_path / "fd"  # Fast Downward's sas_plan next to the one problem it solved
    alone.mkdir()
    shutil.copy(FREIGHT / "p01.pddl", alone / "p02.pddl")
    (alone / plan).write_text("")
    found = problem_beside(ipc / plan) if problem == "p01.pddl" else problem_beside(alone / plan)
    assert found.name == problem


def test_no_problem_or_several_beside_a_plan_is_an_error(tmp_path):
    (tmp_path / "sas_plan").write_text("")
    with pytest.raises(StripsIntError, match="no problem for this plan: give its problem, or put one problem file"):
        problem_beside(tmp_path / "sas_plan")
    for name in ("p01.pddl", "p02.pddl"):
        shutil.copy(FREIGHT / "p01.pddl", tmp_path / name)
    with pytest.raises(StripsIntError, match=r"2 problem files beside this plan \(p01.pddl, p02.pddl\): give its "
                                             r"problem, or name the plan after its problem"):
        problem_beside(tmp_path / "sas_plan")
    named = tmp_path / "named"
    named.mkdir()
    (named / "p03.plan").write_text("")
    with pytest.raises(StripsIntError, match="put p03.pddl beside it or one problem file in its folder"):
        problem_beside(named / "p03.plan")


def test_check_reads_a_plan_with_its_problem_given_or_beside_it(tmp_path):
    given = cli("strips_int.check", str(FREIGHT / "domain.pddl"), str(FREIGHT / "p01.plan"), "--problem",
                str(FREIGHT / "p01.pddl"), "--agent-types", "truck", "airplane", "--json")
    beside = cli("strips_int.check", str(FREIGHT / "domain.pddl"), str(FREIGHT / "p01.plan"), "--agent-types",
                 "truck", "airplane", "--json")
    assert given.returncode == beside.returncode == 0, given.stderr + beside.stderr
    assert given.stdout == beside.stdout
    report = json.loads(given.stdout)
    assert (report["problem"], report["steps"], report["counts"]["constructive"]) == ("freight-p01", 18, 3)
    # what the file's action costs were is said once, on standard error
    assert given.stderr.count("action costs (road-length, total-cost) read and dropped") == 1


def test_a_folder_walk_takes_plan_files_and_passes_over_pddl(tmp_path):
    for name in ("domain.pddl", "p01.pddl", "p01.plan"):
        shutil.copy(FREIGHT / name, tmp_path / name)
    (tmp_path / "sas_plan.1").write_text((FREIGHT / "p01.plan").read_text())
    (tmp_path / "notes.txt").write_text("who helped whom\n")
    files, _ = game_files([tmp_path])
    assert [f.name for f in files] == ["p01.plan", "sas_plan.1"]


def _rows(out: Path) -> list[dict[str, str]]:
    with open(out / "games.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_evaluate_a_folder_of_plans_beside_their_problems(tmp_path):
    # An IPC folder: pNN.pddl with pNN.plan (the same problem under two names here).
    plans = tmp_path / "plans"
    plans.mkdir()
    for stem in ("p01", "p02"):
        shutil.copy(FREIGHT / "p01.pddl", plans / f"{stem}.pddl")
        shutil.copy(FREIGHT / "p01.plan", plans / f"{stem}.plan")
    result = cli("strips_int.evaluate", str(FREIGHT / "domain.pddl"), str(plans), "--out", str(tmp_path / "out"),
                 "--agent-types", "truck", "airplane", "--jobs", "1", "--resamples", "10")
    assert result.returncode == 0, result.stderr
    rows = _rows(tmp_path / "out")
    assert [(Path(r["source"]).name, r["error"], r["constructive"], r["format"]) for r in rows] == [
        ("p01.plan", "", "3", "plan"), ("p02.plan", "", "3", "plan")]
    settings = json.loads((tmp_path / "out" / "manifest.json").read_text())["inputs"]["options"]
    assert settings["pragmas"] == {"agent-types": ["airplane", "truck"]}


def test_evaluate_a_folder_of_plans_with_one_problem(tmp_path):
    plans = tmp_path / "sas"
    plans.mkdir()
    for n in (1, 2):
        shutil.copy(FREIGHT / "p01.plan", plans / f"sas_plan.{n}")
    (plans / "sas_plan.3").write_text("(load pkg1 truck1 depot1)\n(unload pkg1 truck1 port1)\n")
    result = cli("strips_int.evaluate", str(FREIGHT / "domain.pddl"), str(plans), "--problem",
                 str(FREIGHT / "p01.pddl"), "--out", str(tmp_path / "out"), "--agent-types", "truck", "airplane",
                 "--jobs", "2", "--resamples", "10")
    assert result.returncode == 1  # the third plan's error row
    rows = _rows(tmp_path / "out")
    assert [r["constructive"] for r in rows[:2]] == ["3", "3"]
    assert rows[2]["error"].endswith("sas_plan.3: line 2, step 1 (t=1, agent truck1): (unload pkg1 truck1 port1) "
                                     "is not applicable: failed (at truck1 port1)")
    settings = json.loads((tmp_path / "out" / "manifest.json").read_text())["inputs"]["options"]
    assert settings["problem"] == str(FREIGHT / "p01.pddl")
