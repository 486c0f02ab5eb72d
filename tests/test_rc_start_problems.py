"""Start problems reach RC only through the grounder registry and protocol: alternative goals with what the table
says of each, the names --all-layouts lists, and defaults for grounders that give neither."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from helpers import EXAMPLES, ROOT

from strips_int import grounders
from strips_int.cli.rc import main
from strips_int.grounders import Alternative, Option, start_alternatives, start_names
from strips_int.model.domain import load_domain
from strips_int.model.problem import load_problem


class Scenarios:
    """A third-party grounder of SAR problem files that knows two by name and gives only ``start_problem``."""

    name, domain, actions = "scenarios", "sar", frozenset()
    options = (Option("--scenario-name", "scenario_name", "a SAR example by name", "NAME", use="start", names=True),)

    def recognizes(self, path: Any) -> None:
        return None

    def read(self, path: Any, domain: Any, **_: Any) -> Any:
        return iter(())

    def start_problem(self, name: str, domain: Any, **_: Any) -> Any:
        path = EXAMPLES / f"{name}.problem.pddl"
        return load_problem(domain, path) if path.exists() else None


class NamedScenarios(Scenarios):
    def start_names(self) -> list[str]:
        return ["fire-out", "no-fire"]


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setattr(grounders, "_added", {})
    return grounders.register


def test_a_grounder_with_only_a_start_problem_gets_the_defaults():
    sar = load_domain("sar")
    [alternative] = start_alternatives(Scenarios(), "fire-out", sar)
    assert alternative == Alternative(alternative.problem) and alternative.problem.name == "fire-out"
    assert start_alternatives(Scenarios(), "nowhere", sar) is None
    assert start_names(Scenarios()) == []


def test_a_new_rules_layout_is_one_alternative_per_makeable_order(tmp_path):
    from strips_int.grounders.overcooked import GROUNDER, layout_alternatives, load_grid

    overcooked = load_domain("overcooked")
    layout = tmp_path / "two.layout"
    layout.write_text(repr({"grid": "XXPXX\nO1 2T\nXDXSX", "start_all_orders": [
        {"ingredients": ["tomato", "onion"]}, {"ingredients": ["onion"] * 2}, {"ingredients": ["onion"]}]}))
    found = GROUNDER.start_alternatives("two", overcooked, grid=str(layout))
    # one per set of ingredient kinds, the smallest recipe of each
    assert [(a.rules, a.recipe) for a in found] == [("new", "onion"), ("new", "onion+tomato")]
    assert {f for f in found[1].problem.goal if f[0] == "in-soup"} == {("in-soup", "onion1", "soup1"),
                                                                        ("in-soup", "tomato1", "soup1")}
    [old] = layout_alternatives(load_grid(ROOT / "examples" / "overcooked" / "corridor.grid"), overcooked)
    assert (old.rules, old.recipe, old.problem.goal) == ("old", "any 3", frozenset({("delivered", "soup1")}))


def test_all_layouts_lists_the_names_the_registry_gives(registered, capsys):
    registered(NamedScenarios())
    assert main(["sar", "--all-layouts", "--json", "--jobs", "1"]) == 0  # DOMAIN keeps Overcooked's names out
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["layout"], r["verdict"], r["reason"], r["rules"]) for r in rows] == [
        ("fire-out", "RC", "capability", ""), ("no-fire", "non-RC", "", "")]


def test_a_name_option_of_a_third_party_grounder_takes_several_names(registered, capsys):
    registered(Scenarios())
    assert main(["sar", "--scenario-name", "no-fire", "fire-out", "--json", "--jobs", "2"]) == 0
    assert [json.loads(line)["verdict"] for line in capsys.readouterr().out.splitlines()] == ["non-RC", "RC"]


def test_the_rc_core_imports_no_particular_grounder():
    code = ("import sys, strips_int.cli.rc, strips_int.analysis.rc, strips_int.batch.layouts; "
            "print(sorted(m for m in sys.modules if m.startswith('strips_int.grounders.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "['strips_int.grounders.base']", done.stderr
    for module in ("strips_int/cli/rc.py", "strips_int/analysis/rc.py", "strips_int/batch/layouts.py"):
        text = (ROOT / module).read_text()
        assert not any(f"grounders.{init.parent.name}" in text for init in ROOT.glob("grounders/*/__init__.py")), module
