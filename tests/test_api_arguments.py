"""The public Python API called wrongly: every function of ``strips_int.__all__`` and of the documented API
(docs/api.md) raises only its documented error (a :class:`~strips_int.errors.StripsIntError`; an argument of
the wrong type or value an :class:`~strips_int.errors.ArgumentError` naming the function and argument), never
a TypeError, AttributeError, OSError or a numpy / matplotlib error, and never blocks (a FIFO for a path);
``states_trace`` and ``rollout_trace``, which the API page documents, too.

Each example replaces one argument of a real call (real files, a real report) by a wrong value, drawn by
hypothesis from values of every kind. ``required_cooperation`` is left out: its checks are RC's
(strips_int/analysis/rc.py, tests/test_rc*.py).
"""

from __future__ import annotations

import json
import math
import os
import signal
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from helpers import EXAMPLES, ROOT, SAR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strips_int
from strips_int import ArgumentError, StripsIntError

visualize = pytest.importorskip("strips_int.visualize")
grounders = pytest.importorskip("strips_int.grounders")
states_trace = pytest.importorskip("strips_int.grounders.overcooked").states_trace

TRACE = EXAMPLES / "kit-pass.trace.json"
#: overcooked-ai episode JSON, whose states and actions ``states_trace`` takes in memory.
EPISODE = ROOT / "tests" / "data" / "overcooked_ai" / "old_dynamics_cramped_room.json"
PROBLEM = EXAMPLES / "kit-pass.problem.pddl"
#: Seconds one call may take (a real one takes well under one; a FIFO read would block for ever).
CALL_SECONDS = 30


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Iterator[dict[str, Any]]:
    """The real arguments the calls are made with: a domain, files, a run, a report, rows, a summary; the
    calls run in a folder of their own (a wrong path that is still a path is written there)."""
    from strips_int.cli.evaluate import main as evaluate

    folder = tmp_path_factory.mktemp("api")
    cwd = os.getcwd()
    os.chdir(folder)
    assert evaluate([str(SAR), str(EXAMPLES), "--out", str(folder / "out"), "--jobs", "1"]) == 0  # a summary.csv
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    domain = strips_int.load_domain(SAR)
    trace = strips_int.load_trace(TRACE, domain)
    run = strips_int.execute(trace)
    report = strips_int.analyze_run(domain, run)
    yield {"domain": domain, "trace": trace, "run": run, "report": report, "folder": folder, "fifo": fifo,
           "episode": json.loads(EPISODE.read_text()),
           "rows": [report.to_dict()], "summary": folder / "out" / "summary.csv",
           "figure": visualize.plot_timeline(report)}
    os.chdir(cwd)


def _calls(r: dict[str, Any]) -> dict[str, tuple[Callable[..., Any], dict[str, Any]]]:
    """Each public function with the real arguments of a call that works, by parameter name."""
    out = r["folder"]
    return {
        "load_domain": (strips_int.load_domain, {"path": SAR, "pragmas": {"agent-types": ["agent"]}}),
        "load_problem": (strips_int.load_problem, {"domain": r["domain"], "path": PROBLEM}),
        "load_trace": (strips_int.load_trace, {"path": TRACE, "domain": r["domain"], "problem": PROBLEM}),
        "execute": (strips_int.execute, {"trace": r["trace"], "cache": r["domain"].cache}),
        "analyze_run": (strips_int.analyze_run, {"domain": r["domain"], "run": r["run"], "help_cost": False}),
        "analyze": (strips_int.analyze, {"domain": r["domain"], "game": TRACE, "problem": PROBLEM,
                                         "help_cost": False}),
        "analyze_games": (lambda domain, paths: list(strips_int.analyze_games(domain, paths)),
                          {"domain": "sar", "paths": TRACE}),
        "read_games": (lambda domain, paths: list(strips_int.read_games(domain, paths)),
                       {"domain": r["domain"], "paths": TRACE}),
        "evaluate_games": (lambda domain, paths, jobs, scheduler, frame, problem: strips_int.evaluate_games(
            domain, paths, jobs=jobs, scheduler=scheduler, frame=frame, problem=problem),
            {"domain": r["domain"], "paths": TRACE, "jobs": 1, "scheduler": None, "frame": False, "problem": None}),
        "register": (grounders.register, {"grounder": grounders.registered()["sar"]}),
        "grounder_for": (grounders.grounder_for, {"path": TRACE}),
        "read_input": (lambda path, domain, problem: list(grounders.read_input(path, domain, problem)),
                       {"path": TRACE, "domain": r["domain"], "problem": None}),
        "plot_timeline": (visualize.plot_timeline, {"report": r["report"], "width": 3.4, "window": (0, 3)}),
        "plot_agents": (visualize.plot_agents, {"games": r["rows"], "by_role": None, "title": "t", "width": 3.4}),
        "plot_influence": (visualize.plot_influence, {"report": r["report"], "obj": None, "since": 0,
                                                      "width": None, "whole": False}),
        "plot_summary": (visualize.plot_summary, {"path": r["summary"], "width": 7.0}),
        "save": (visualize.save, {"figure": r["figure"], "path": out / "t.png"}),
        "write_html": (visualize.write_html, {"report": r["report"], "path": out / "t.html"}),
        "html_report": (visualize.html_report, {"report": r["report"]}),
        "write_graphml": (visualize.write_graphml, {"report": r["report"], "path": out / "t.graphml"}),
        "states_trace": (states_trace, {"states": r["episode"]["ep_states"][0],
                                        "actions": r["episode"]["ep_actions"][0], "domain": "overcooked",
                                        "layout": "cramped_room", "source": "<states>"}),
    }


#: Wrong values of every kind; the names of a few that must be made per run (a FIFO, a folder, a device).
WRONG: list[Any] = [None, True, 0, -1, 10**30, 1.5, 0.0, -0.0, math.nan, math.inf, -math.inf, "", "\x00", "nosuch",
                    "x" * 5000, b"bytes", [], [1, "a"], {}, {"a": 1}, (), object(), print, "@fifo", "@folder",
                    "/dev/zero", Path("nosuch"), ("a", "b", "c"), (0, -5), (5, 0), (1.5, 2)]



def _value(wrong: Any, r: dict[str, Any]) -> Any:
    """A wrong value as passed: the markers of a FIFO and a folder replaced by real ones."""
    return {"@fifo": r["fifo"], "@folder": r["folder"]}.get(wrong, wrong) if isinstance(wrong, str) else wrong


def _out_of_time(signum: int, frame: Any) -> None:
    raise TimeoutError(f"a call took more than {CALL_SECONDS} s")


def outcome(function: Callable[..., Any], arguments: dict[str, Any]) -> BaseException | None:
    """What ``function(**arguments)`` raised (None when it returned), within :data:`CALL_SECONDS`."""
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.alarm(CALL_SECONDS)
    try:
        function(**arguments)
    except Exception as exc:  # noqa: BLE001 - the test is what it raised
        return exc
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return None


def misuse(r: dict[str, Any], name: str, argument: str, wrong: Any) -> BaseException | None:
    """The outcome of the real call of ``name`` with ``argument`` replaced by ``wrong``."""
    function, arguments = _calls(r)[name]
    return outcome(function, {**arguments, argument: _value(wrong, r)})


def documented(exc: BaseException | None, name: str, argument: str) -> bool:
    """A documented outcome: none, a StripsIntError, or an ArgumentError naming the function and argument."""
    if isinstance(exc, ArgumentError):
        return name in str(exc) and f"argument {argument}" in str(exc)
    return exc is None or isinstance(exc, StripsIntError)


def test_every_real_call_works(real):
    for name, (function, arguments) in _calls(real).items():
        assert outcome(function, arguments) is None, name


#: Wrong values: those above, and others of each kind.
WRONG_VALUES = st.one_of(st.sampled_from(WRONG), st.integers(), st.floats(), st.text(max_size=12),
                         st.lists(st.integers(), max_size=3), st.binary(max_size=4))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_wrong_argument_raises_only_the_documented_error(real, data):
    calls = _calls(real)
    name = data.draw(st.sampled_from(sorted(calls)), label="function")
    argument = data.draw(st.sampled_from(sorted(calls[name][1])), label="argument")
    wrong = data.draw(WRONG_VALUES, label="value")
    exc = misuse(real, name, argument, wrong)
    assert documented(exc, name, argument), f"{name}({argument}={wrong!r}): {type(exc).__name__}: {exc}"


def test_grounder_for_a_fifo_is_none_at_once(real):
    assert outcome(grounders.grounder_for, {"path": real["fifo"]}) is None
    assert grounders.grounder_for(real["fifo"]) is None


def test_a_figure_of_no_width_is_an_argument_error(real):
    with pytest.raises(ArgumentError, match=r"^plot_timeline: argument width: need a finite number at least 1"):
        visualize.plot_timeline(real["report"], width=0)


def test_register_refuses_what_is_no_grounder_and_the_registry_still_reads(real):
    before = dict(grounders.registered())
    for wrong in (object(), "sar", None, type("Named", (), {"name": "x"})()):
        with pytest.raises(ArgumentError, match=r"^register: argument grounder: need a Grounder"):
            grounders.register(wrong)
    assert grounders.registered() == before
    assert grounders.grounder_for(TRACE) is None and len(list(grounders.read_input(TRACE, real["domain"]))) == 1


@pytest.mark.parametrize("wrong", [{"states": None}, {"actions": "abc"}, {"rewards": 5}, {"env": object()},
                                   {"domain": None}, {"source": None}])
def test_rollout_trace_checks_its_arguments_before_it_needs_jax(real, wrong):
    from strips_int.grounders.jaxmarl import rollout_trace

    class Env:  # what rollout_trace asks of an environment before it reads a state
        agents, layout = ("agent_0", "agent_1"), {}

    arguments = {"states": [], "actions": [], "rewards": [], "env": Env(), "domain": "overcooked", "source": "<r>"}
    [name] = wrong
    with pytest.raises(ArgumentError, match=f"^rollout_trace: argument {name}: need "):
        rollout_trace(**{**arguments, **wrong})
