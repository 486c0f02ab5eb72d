"""``rc`` bounded, validated and parallel: arguments checked at the door, the time limit over the whole call
(conversion included), planner calls side by side with the sequential answers, LaTeX tables escaped, cheap imports."""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import LOADED, ROOT, children_cpu, needs_jaxmarl, run_within

from strips_int.analysis.rc import required_cooperation, some_goal
from strips_int.analysis.reachability import OutOfTime, relaxed_reachable
from strips_int.cli.rc import main
from strips_int.errors import ArgumentError, StripsIntError, brief
from strips_int.grounders.overcooked import get_layout, load_grid
from strips_int.grounders.overcooked.lift import layout_problem
from strips_int.model.domain import packaged_domain

CORRIDOR = ROOT / "examples" / "overcooked" / "corridor.grid"


def open_grid(size: int) -> str:
    """The benchmark's ``size`` x ``size`` open grid (benchmarks/rc_layouts.py), counters around open floor."""
    spec = importlib.util.spec_from_file_location("rc_layouts", ROOT / "benchmarks" / "rc_layouts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.open_grid(size)


def rc(*args: str, cpu: float = 60, cwd: Path = ROOT, tmp: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m strips_int.rc ARGS`` in a child limited to 3 GB (the start code built a billion soups) and to
    ``cpu`` seconds of CPU for its whole process tree (:func:`helpers.run_within`: a limit that holds however
    loaded the machine is); its temporary files (the planner calls' folders) under ``tmp``."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    env = {**os.environ, "TMPDIR": str(tmp)} if tmp else None
    return run_within([sys.executable, "-m", "strips_int.rc", *args], cpu, capture_output=True, text=True,
                      preexec_fn=limit, cwd=cwd, env=env)[0]


@pytest.fixture(scope="module")
def overcooked():
    from strips_int import load_domain

    return load_domain(packaged_domain("overcooked"))


@pytest.mark.parametrize("args, option", [
    (["--timeout", "nan"], "--timeout"),
    (["--timeout", "inf"], "--timeout"),
    (["--timeout", "0"], "--timeout"),
    (["--timeout", "-1"], "--timeout"),
    (["--plans", "0"], "--plans"),
    (["--jobs", "0"], "--jobs"),
    (["--soups", "0"], "--soups"),
])
def test_numeric_options_are_checked_at_the_door(capsys, args, option):
    started = time.process_time()
    assert main(["--layout", "cramped_room", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {option}: need" in err and "Traceback" not in err
    assert time.process_time() - started < 0.5  # refused before any planning


def test_a_billion_soups_is_refused_at_once():
    done = rc("--layout", "cramped_room", "--soups", "1000000000", cpu=10)  # start-up, then refused
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "argument --soups: need at least 1 soup and at most" in done.stderr


SECONDS = "seconds above 0 and at most 604800"
INSTANT = "None or a time.monotonic() instant at most 604800 seconds ahead"


@pytest.mark.parametrize("argument, value, need", [
    ("timeout", float("nan"), SECONDS), ("timeout", float("inf"), SECONDS), ("timeout", 0, SECONDS),
    ("timeout", -1, SECONDS), ("timeout", "10", SECONDS),  # a TypeError from math.isfinite before
    ("timeout", 10**30, SECONDS), ("timeout", 10**400, SECONDS),  # OverflowErrors before
    ("deadline", float("nan"), INSTANT), ("deadline", 10**30, INSTANT), ("deadline", "soon", INSTANT),
    ("others", "gone", "'idle' or 'absent'"), ("others", ["idle"], "'idle' or 'absent'"),
    ("plans", 0, "None or a whole number of plans, at least 1"), ("jobs", 0, "None or a whole number of jobs, at least 1"),
    ("jobs", 1.5, "None or a whole number of jobs, at least 1"),
])
def test_library_arguments_are_one_argument_error_naming_no_flag(overcooked, argument, value, need):
    """Bare ValueErrors and TypeErrors before: now a StripsIntError that is also a ValueError."""
    problem = layout_problem(load_grid(CORRIDOR), overcooked)
    with pytest.raises(ArgumentError) as error:
        required_cooperation(overcooked, problem, **{argument: value})
    assert isinstance(error.value, StripsIntError) and isinstance(error.value, ValueError)
    assert str(error.value) == f"required_cooperation: argument {argument}: need {need}, not {brief(value)}"


@pytest.mark.parametrize("timeout", [10**30, float("nan"), 0, -2.5])
def test_some_goal_checks_its_time_limit_before_taking_the_clock(overcooked, timeout):
    problem = layout_problem(load_grid(CORRIDOR), overcooked)
    with pytest.raises(ArgumentError) as error:
        some_goal(overcooked, [problem], timeout=timeout)
    assert str(error.value) == f"some_goal: argument timeout: need {SECONDS}, not {brief(timeout)}"


def test_the_longest_time_limit_is_taken(overcooked):
    result = required_cooperation(overcooked, layout_problem(load_grid(CORRIDOR), overcooked), timeout=604800)
    assert (result.verdict, result.reason) == ("RC", "reach")


def test_the_time_limit_bounds_conversion_on_a_big_grid(tmp_path):
    """40x40: the start code enumerated every ground fluent before planning (no verdict after 300 s)."""
    grid = tmp_path / "open40.grid"
    grid.write_text(open_grid(40))
    # start-up, then 2 s, and the 3 s of grace to answer, of a classification and its planner calls (not 300 s)
    done = rc("--grid", str(grid), "--timeout", "2", "--json", "--search", "planner", cpu=20, tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "unknown" and data["reason"].startswith("time limit reached in ")
    # unknown alone, or proven unable by relaxed reachability (the partner's body blocks the onions)
    assert all(agent["solvable_alone"] is None or agent["proof"] == "relaxed reachability"
               for agent in data["agents"].values())
    assert not [p for p in Path("/proc").glob("[0-9]*") if _planning_in(p, tmp_path)], "a planner outlived its limit"


def test_the_time_limit_bounds_relaxed_reachability_on_a_200_grid(tmp_path):
    """200 x 200 cells: relaxed reachability alone ran 30 s past --timeout 10 (on 400 x 400 it never ended);
    it now looks at the clock as it goes, symmetry classes included."""
    grid = tmp_path / "open200.grid"
    grid.write_text(open_grid(200))
    done = rc("--grid", str(grid), "--timeout", "2", "--json", cpu=12, tmp=tmp_path)  # (not 30 s past the limit)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    # reading and lifting the grid take under 1 s of CPU; a loaded machine may still be at them after 2 s
    assert data["verdict"] == "unknown" and data["reason"] in (
        "time limit reached in relaxed reachability", "time limit reached in reading"), data["reason"]


@pytest.mark.parametrize("table", [False, True])
def test_the_time_limit_covers_reading_and_lifting_the_biggest_grid(tmp_path, table):
    """500 x 500 cells (the most a grid may have) under --timeout 1: reading and lifting took 5 s of CPU past
    the limit (95 s on a loaded machine) before the limit began; now they are within it, in a table's rows too."""
    grid = tmp_path / "open500.grid"
    grid.write_text(open_grid(500))
    if table:
        (tmp_path / "open300.grid").write_text(open_grid(300))
        done = rc("--grid", str(tmp_path), "--timeout", "1", "--jobs", "2", "--json", cpu=8, tmp=tmp_path)
    else:  # start-up (0.5 s of CPU), at most the second, and no more
        done = rc("--grid", str(grid), "--timeout", "1", "--json", cpu=4, tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == (2 if table else 1)
    assert all(row["verdict"] == "unknown" and row["reason"].startswith("time limit reached in ") for row in rows)


def test_a_grid_of_more_than_500_x_500_cells_is_refused_before_it_is_lifted():
    from strips_int.grounders.overcooked.layouts import parse_grid

    with pytest.raises(StripsIntError) as error:
        parse_grid(("X" * 501 + "\n") * 500, "big", "big.grid")
    assert str(error.value) == "big.grid: a grid of 250,500 cells, more than the 250,000 (500 x 500) a grid may have"


def test_relaxed_reachability_past_its_deadline_stops_and_keeps_nothing(overcooked):
    problem = layout_problem(load_grid(CORRIDOR), overcooked)
    overcooked.cache.clear()  # nothing explored before
    with pytest.raises(OutOfTime):
        relaxed_reachable(overcooked, problem, deadline=time.monotonic() - 1)
    assert relaxed_reachable(overcooked, problem, deadline=time.monotonic() + 60) == relaxed_reachable(
        overcooked, problem)


def test_a_planner_stopped_while_planning_leaves_no_process(tmp_path):
    """unified-planning starts Fast Downward in a session of its own: stopping the call must still end it."""
    grid = tmp_path / "open20.grid"
    grid.write_text(open_grid(20))
    command = [sys.executable, "-m", "strips_int.rc", "--grid", str(grid), "--soups", "13", "--timeout", "10",
               "--json", "--jobs", "2", "--search", "planner"]
    before, seen = children_cpu(), False
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp_path)},
                          cwd=ROOT) as child:
        while child.poll() is None:  # Fast Downward seen at work (a loaded machine may not get so far in 10 s)
            seen = seen or any(_planning_in(p, tmp_path) for p in Path("/proc").glob("[0-9]*"))
            time.sleep(0.05)
        out, _ = child.communicate(timeout=40 * LOADED)
    # two planner calls at once for 10 s, with their grace (5 s), and start-up
    assert children_cpu() - before <= 40
    data = json.loads(out)
    assert data["verdict"] == "unknown" and data["reason"].startswith("time limit reached in "), data["reason"]
    assert not seen or "time limit reached in planning" in data["reason"], data["reason"]
    assert not [p for p in Path("/proc").glob("[0-9]*") if _planning_in(p, tmp_path)], "a planner outlived its limit"


def _planning_in(process: Path, tmp: Path) -> bool:
    """Whether a process is a Fast Downward working in one of rc's per-call folders under ``tmp``."""
    try:
        command = (process / "cmdline").read_bytes()
    except OSError:
        return False
    return str(tmp).encode() in command and b"downward" in command


def test_the_planner_is_given_only_the_true_initial_facts(overcooked):
    """A 28x28 grid has 532,703 ground fluents; the planner's problem lists the true ones only."""
    from strips_int.planners import to_unified_planning

    problem = layout_problem(load_grid_text(open_grid(28), "open28"), overcooked)
    started = time.process_time()
    task = to_unified_planning(overcooked, problem, ("player0",))
    assert len(task.up.initial_values) == len(problem.init) + 1  # (acting player0)
    assert time.process_time() - started < 5


def load_grid_text(text: str, name: str):
    from strips_int.grounders.overcooked.layouts import parse_grid

    return parse_grid(text, name, name)


def test_an_unknown_verdict_names_the_phase_the_limit_stopped(capsys):
    assert main(["--grid", str(CORRIDOR), "--timeout", "0.01"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    # named as given while it is read, by the layout's name once it is
    assert first.startswith((f"{CORRIDOR}: unknown (time limit reached in reading)",
                             "layout corridor: unknown (time limit reached in ")), first


@pytest.mark.parametrize("name, others", [("cramped_room", "idle"), ("forced_coordination", "idle"),
                                          ("corridor", "absent")])
def test_parallel_calls_give_the_sequential_answers(overcooked, name, others):
    layout = load_grid(CORRIDOR) if name == "corridor" else get_layout(name)
    problem = layout_problem(layout, overcooked)
    one, three = (required_cooperation(overcooked, problem, others=others, jobs=jobs) for jobs in (1, 3))
    assert (one.verdict, one.reason) == (three.verdict, three.reason)
    assert one.joint.plans == three.joint.plans
    for agent in one.agents:
        a, b = one.agents[agent], three.agents[agent]
        assert (a.solvable_alone, a.search.plans, a.search.proof, a.why) == (
            b.solvable_alone, b.search.plans, b.search.proof, b.why)


def test_latex_table_escapes_every_special(tmp_path):
    from strips_int.batch.layouts import Outcome, Start, table_row, write_layout_table
    from strips_int.errors import StripsIntError

    error = StripsIntError("a~b^c.layout", None, "50% <of> {x} | $y & #z \\ w\nnext")
    row = table_row(Outcome(Start("a~b^c", ()), error=str(error)))
    write_layout_table([row], tmp_path / "t.tex")
    body = (tmp_path / "t.tex").read_text().split(r"\midrule")[1].split(r"\bottomrule")[0]
    assert r"a\textasciitilde{}b\textasciicircum{}c" in body
    # (the error's line break is shown as its escape, errors.printable: a backslash LaTeX escapes)
    assert (r"50\% \textless{}of\textgreater{} \{x\} \textbar{} \$y \& \#z \textbackslash{} "
            r"w\textbackslash{}nnext") in body
    cells = body.replace(r"\textasciitilde{}", "").replace(r"\textasciicircum{}", "")
    assert "~" not in cells and "^" not in cells and body.strip().count("\n") == 0


def test_import_does_not_load_the_planner():
    code = "import sys, strips_int.analysis.rc, strips_int.cli.rc; print('unified_planning' in sys.modules)"
    done, _ = run_within([sys.executable, "-c", code], 10, capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.parametrize("text", [
    '{"grid": "XPXX\\nO12S\\nXDXX", "start_all_orders": 5}',
    '{"grid": ["XPXX", "O12S", "XDXX"]}',
    '{"grid": "XPXX\\nO12S\\nXDXX", "start_all_orders": [{"ingredients": 5}]}',
])
def test_a_bad_layout_file_is_one_error_line(tmp_path, capsys, text):
    layout = tmp_path / "bad.layout"
    layout.write_text(text)
    assert main(["--grid", str(layout)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err


def test_environment_is_not_littered(tmp_path):
    """Fast Downward writes output.sas into the working folder; calls side by side get folders of their own.
    (asymmetric_advantages: both agents and the team are planned, three calls; the corridor's agents are
    proven unable by relaxed reachability, definitions v3 section 6, and need none.)"""
    before = set(os.listdir(tmp_path))
    done = rc("--layout", "asymmetric_advantages", "--jobs", "3", cwd=tmp_path)
    assert done.returncode == 0 and "non-RC" in done.stdout and done.stdout.count("solvable alone, plan of") == 2
    assert set(os.listdir(tmp_path)) == before


def test_output_into_a_closed_pipe_ends_quietly():
    """``python -m strips_int.rc ... | head -1``: no traceback when the reader has gone."""
    from helpers import EXAMPLES, SAR

    command = [sys.executable, "-m", "strips_int.rc", str(SAR), str(EXAMPLES / "fire-out.problem.pddl")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) as child:
        child.stdout.close()  # gone before the verdict is written
        err = child.stderr.read().decode()
    assert child.returncode == 141 and err == ""  # 128 + SIGPIPE, as every command line ends on a closed pipe


@pytest.mark.parametrize("prelude", ["", pytest.param("import jax.numpy; jax.numpy.zeros(1)", marks=needs_jaxmarl)])
def test_planner_children_from_a_script_on_stdin_and_beside_jax(prelude):
    """Children fork from the caller when that is safe, and from a forkserver beside JAX's threads;
    either way a caller whose main module cannot be imported again (a script on stdin) gets its verdicts."""
    script = f"""{prelude}
from strips_int import load_domain
from strips_int.grounders.overcooked import load_grid
from strips_int.grounders.overcooked.lift import layout_problem
from strips_int.analysis.rc import required_cooperation, some_goal
domain = load_domain("overcooked")
result = required_cooperation(domain, layout_problem(load_grid({str(CORRIDOR)!r}), domain), jobs=3)
print(result.verdict, result.reason)
"""
    done, _ = run_within([sys.executable, "-"], 120, input=script, capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "RC reach", done.stderr[-2000:]
