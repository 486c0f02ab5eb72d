"""The plug-in boundary: a grounder registered from outside the package, the notebook API, the console script,
the wheel, and the two crashes the issue found (pyperplan's action names; a game read with the wrong domain)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

import strips_int
from strips_int import StripsIntError, analyze, analyze_games, evaluate_games, load_domain, load_problem
from strips_int import grounders
from strips_int.cli.check import main as check_main
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.grounders import Option
from strips_int.cli.rc import main as rc_main
from strips_int.model.trace import ActionGrounder, Step, step_label, Trace
from strips_int.model.execution import apply
from strips_int.model.task import parse_atom

GAME = SHARED_DATA / "user-study" / "cole" / "5_10_2025_15_21_40_human=0.json"
needs_data = pytest.mark.skipif(not GAME.is_file(), reason="shared data absent")


class ToyGrounder:
    """A toy environment: ``toy-game/1`` files, games separated by blank lines, one ``(action ...)`` per line,
    all on the SAR problem of kit-pass. It lives in this test module; the package knows nothing of it."""

    name = "toy"
    domain = "sar"
    actions = frozenset({"move", "pick-up", "give", "search", "treat"})
    options = (Option("--toy-speed", "toy_speed", "toy: ticks per line", "N", int),)

    def recognizes(self, head: grounders.Head) -> grounders.Claim | None:
        """Its files name their format on their first line."""
        tagged = head.data.split(b"\n", 1)[0].strip() == b"toy-game/1"
        return grounders.Claim(grounders.GAMES, grounders.TAGGED) if tagged else None

    def read(self, path: Path, domain, toy_speed: int = 1, **_: Any) -> Iterator[Trace | StripsIntError]:
        problem = load_problem(domain, EXAMPLES / "kit-pass.problem.pddl")
        blocks = path.read_text().split("\n\n")
        blocks[0] = blocks[0].split("\n", 1)[1]
        for n, block in enumerate(blocks):
            source = f"{path}#{n}"
            grounder, state, steps = ActionGrounder(domain, problem, source), set(problem.init), []
            try:
                for i, line in enumerate(block.strip().splitlines()):
                    action = grounder.ground(parse_atom(line), step_label(i, i * toy_speed, None))
                    failure = apply(state, action)
                    if failure:
                        raise StripsIntError(source, f"line {i}", failure)
                    steps.append(Step(i, i * toy_speed, action))
                yield Trace(source, problem, tuple(steps), {"toy": True})
            except StripsIntError as exc:
                yield exc

    def start_problem(self, name: str, domain, **_: Any):
        return None


KIT_PASS = [
    "(move firefighter1 hall storage)", "(pick-up firefighter1 kit1 storage)", "(move firefighter1 storage hall)",
    "(give firefighter1 nurse1 kit1 hall)", "(move nurse1 hall bedroom)", "(search nurse1 v2 bedroom)",
    "(treat nurse1 kit1 v2 bedroom)",
]


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """The toy grounder registered for one test, and a file with a good game, a bad game and a good game."""
    monkeypatch.setattr(grounders, "_added", {})
    grounders.register(ToyGrounder())
    bad = KIT_PASS[:3] + ["(treat nurse1 kit1 v2 bedroom)"]
    path = tmp_path / "games.toy"
    path.write_text("toy-game/1\n" + "\n\n".join("\n".join(g) for g in (KIT_PASS, bad, KIT_PASS)) + "\n")
    return path


def test_a_grounder_registered_from_a_test_module_is_read_by_check(toy, capsys):
    assert "toy" in grounders.registered() and grounders.grounder_for(toy).name == "toy"
    assert check_main(["sar", str(toy), "--json", "--toy-speed", "2"]) == 1
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    good = [line for line in lines if "counts" in line]
    assert [line["source"] for line in good] == [f"{toy}#0", f"{toy}#2"]
    assert all(line["counts"]["constructive"] == 1 and line["meta"] == {"toy": True} for line in good)
    assert good[0]["interdependencies"][0]["receiver"]["t"] == 12  # --toy-speed reached the grounder
    [error] = [line for line in lines if "error" in line]
    assert f"{toy}#1: line 3: (treat nurse1 kit1 v2 bedroom) is not applicable" in error["error"]


def test_a_grounder_is_refused_a_domain_without_its_actions(toy, capsys):
    assert check_main([str(ROOT / "domains" / "overcooked.pddl"), str(toy)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "domain overcooked has no action give, pick-up, search ...: use the sar domain" in err


@needs_data
def test_an_overcooked_game_with_the_sar_domain_is_one_line_and_evaluate_keeps_the_batch(tmp_path, capsys):
    assert check_main([str(SAR), str(GAME)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {GAME}: domain sar has no action add-ingredient, auto-cook, deliver ...: " \
                  "use the overcooked domain\n"
    out = tmp_path / "out"
    assert evaluate_main(["sar", str(GAME), str(EXAMPLES / "kit-pass.trace.json"), "--out", str(out), "--jobs", "1"]) == 1
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [bool(r["error"]) for r in rows] == [True, False] and rows[1]["constructive"] == 1
    assert "1 games, 1 errors" in capsys.readouterr().err


def test_pyperplan_uses_the_converted_action_names(capsys):
    # auto-cook is also a predicate of the Overcooked domain, so the planner sees the action as auto-cook-action.
    assert rc_main(["--layout", "cramped_room", "--planner", "pyperplan", "--json", "--timeout", "60",
                    "--plans", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["planner"] == "pyperplan" and data["verdict"] in ("non-RC", "unknown")
    assert any(a.startswith("(auto-cook ") for a in data["joint_plan"])
    assert sum(a.startswith("(deliver ") for a in data["joint_plan"]) == 1


@needs_data
def test_analyze_reads_a_raw_game_with_the_domain_by_name():
    report = analyze("overcooked", GAME)
    # definitions v2: deliver needs only the held soup, so the 4 deliveries no longer repeat a plating link (14 -> 10).
    # counter_circuit is an open kitchen: every constructive one is optional (definitions section 10).
    assert report.counts == {"interdependencies": 10, "constructive": 10, "non_constructive": 0, "looping": 0,
                             "irrelevant": 0, "constructive_required": 0, "constructive_optional": 10}
    assert (len(report.steps), report.meta["agent"], report.meta["roles"]) == \
        (422, "cole", {"player0": "human", "player1": "ai"})
    human = report.agent_metrics()["player0"]
    assert (human["subtasks"], human["triggers"], human["given"], human["received"]) == (30, 13, 9, 1)


@needs_data
def test_in_memory_states_many_games_and_evaluate_as_a_function():
    from strips_int.grounders.overcooked import states_trace

    data = json.loads(GAME.read_text())
    trace = states_trace(data["ep_states"][0], data["ep_actions"][0], load_domain("overcooked"), "counter_circuit")
    assert analyze("overcooked", trace).counts == analyze("overcooked", GAME).counts
    results = list(analyze_games("overcooked", GAME.parent))
    assert len(results) == len(list(GAME.parent.glob("*.json"))) and all(not isinstance(r, StripsIntError) for r in results)
    [row] = evaluate_games("overcooked", GAME)
    # definitions v2 values (v1: 14, 40.0, 100.0): no delivery duplicates; the third onion a trigger through the pot.
    assert (row["constructive"], round(row["human_pct_triggers"], 2), round(row["ai_pct_not_accepted"], 2),
            row["error"]) == (10, 43.33, 91.67, "")


def test_library_errors_name_no_command_line_flag():
    from strips_int.grounders.overcooked import get_layout

    with pytest.raises(StripsIntError) as info:
        get_layout("nowhere")
    assert str(info.value).startswith("layout 'nowhere': unknown layout 'nowhere'") and "--" not in str(info.value)
    with pytest.raises(StripsIntError) as info:
        analyze("no-such-domain", EXAMPLES / "kit-pass.trace.json")
    packaged = ", ".join(sorted(p.stem for p in (ROOT / "domains").glob("*.pddl")))
    assert f"no such file, nor a packaged domain (packaged: {packaged})" in str(info.value)


def test_console_script_version_and_lazy_imports():
    version = subprocess.run([sys.executable, "-m", "strips_int", "--version"], capture_output=True, text=True)
    assert version.stdout.strip() == f"strips-int {strips_int.__version__}"
    from importlib.metadata import version as installed

    assert installed("strips_int") == strips_int.__version__
    probe = ("import sys; from strips_int.cli import main; main(['check', 'sar', sys.argv[1]]); "
             "print('matplotlib' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", probe, str(EXAMPLES / "kit-pass.trace.json")], capture_output=True,
                         text=True)
    assert "constructive 1" in run.stdout and run.stdout.strip().endswith("False")


def test_the_wheel_holds_every_subpackage_found_at_build_time_every_grounder_and_every_domain(tmp_path):
    """No package list is kept by hand (setup.py finds them): every folder with an ``__init__.py``, every
    grounder (a sub-package of grounders/ with a GROUNDER) and every domains/*.pddl is in the wheel."""
    assert "packages = [" not in (ROOT / "pyproject.toml").read_text()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    [wheel] = tmp_path.glob("strips_int-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    installed = {"grounders": "strips_int/grounders", "planners": "strips_int/planners",
                 "visualize": "strips_int/visualize", "domains": "strips_int/domains", "strips_int": "strips_int"}
    grounder_packages = [init.parent.name for init in sorted(ROOT.glob("grounders/*/__init__.py"))
                         if "\nGROUNDER = " in init.read_text()]
    assert {"hanabi", "jaxmarl", "overcooked", "sar"} <= set(grounder_packages)
    assert {f"strips_int/grounders/{name}/__init__.py" for name in grounder_packages} <= names
    assert {f"strips_int/domains/{p.name}" for p in ROOT.glob("domains/*.pddl")} <= names
    assert {"strips_int/py.typed", "strips_int/grounders/base.py", "strips_int/model/domain.py"} <= names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "strips-int = strips_int.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    for init in sorted(ROOT.glob("*/**/__init__.py")):  # every sub-package, however deep, without a list
        folder = init.relative_to(ROOT)
        if folder.parts[0] in installed:
            assert "/".join((installed[folder.parts[0]], *folder.parts[1:])) in names, folder


def test_an_entry_point_of_another_package_is_loaded_once(monkeypatch, tmp_path):
    """A package outside this repository names its grounder in the entry-point group strips_int.grounders."""
    loaded = []

    class Point:
        name = "toy"

        def load(self):
            loaded.append(self.name)
            return sys.modules[__name__]  # a module with a GROUNDER, as a plug-in package would give

    monkeypatch.setattr(sys.modules[__name__], "GROUNDER", ToyGrounder(), raising=False)
    monkeypatch.setattr(grounders, "entry_points", lambda group: [Point()] if group == grounders.ENTRY_POINTS else [])
    built_in = sorted(init.parent.name for init in ROOT.glob("grounders/*/__init__.py")
                      if "\nGROUNDER = " in init.read_text())
    grounders._found.cache_clear()
    try:
        assert list(grounders.registered()) == [*built_in, "toy"]
        assert "--toy-speed" in grounders.declared()
        grounders.registered()
        assert loaded == ["toy"]
    finally:
        grounders._found.cache_clear()


class ToyScenarios(ToyGrounder):
    """A toy grounder whose start problems share Overcooked's --layout option."""

    options = (Option("--layout", "layout", "toy: a scenario name", "NAME"),)

    def start_problem(self, name: str, domain, **_: Any):
        return load_problem(domain, EXAMPLES / f"{name}.problem.pddl")


def test_rc_takes_a_start_problem_from_a_registered_grounder(monkeypatch, capsys):
    monkeypatch.setattr(grounders, "_added", {})
    grounders.register(ToyScenarios())
    assert rc_main(["sar", "--layout", "kit-pass", "--json"]) == 0  # DOMAIN tells the toy from Overcooked
    data = json.loads(capsys.readouterr().out)
    assert (data["problem"], data["verdict"]) == ("kit-pass", "non-RC")
    # Without DOMAIN the grounders sharing --layout are asked in turn: Overcooked has no layout of that name.
    assert rc_main(["--layout", "kit-pass", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["problem"] == "kit-pass"
    assert rc_main(["--layout", "nowhere"]) == 2
    assert "unknown layout 'nowhere'" in capsys.readouterr().err
