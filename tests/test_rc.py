"""Required cooperation with a real planner (Fast Downward, pyperplan): verdicts, reasons, joint plans."""

from __future__ import annotations

import csv
import json

import pytest
from helpers import EXAMPLES, ROOT, SAR

from strips_int import load_domain, load_problem
from strips_int.analysis.rc import required_cooperation
from strips_int.cli.rc import main
from strips_int.grounders.overcooked import get_layout, load_grid
from strips_int.grounders.overcooked.lift import layout_problem
from strips_int.model.domain import packaged_domain

CORRIDOR = ROOT / "examples" / "overcooked" / "corridor.grid"


@pytest.fixture(scope="module")
def layout_table(tmp_path_factory):
    """``--all-layouts --out table.csv --plans 1``, run once: every classic layout classified, each with a
    joint plan from the planner."""
    out = tmp_path_factory.mktemp("rc") / "layouts.csv"
    assert main(["--all-layouts", "--out", str(out), "--plans", "1"]) == 0
    with open(out, newline="") as handle:
        return {row["layout"]: row for row in csv.DictReader(handle)}


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(packaged_domain("overcooked"))


def test_forced_coordination_requires_cooperation_for_reach(layout_table):
    row = layout_table["forced_coordination"]
    assert (row["verdict"], row["reason"]) == ("RC", "reach")
    # Three onions and a dish handed over the middle counter.
    assert row["interdependencies"] == row["constructive"] == "4"


@pytest.mark.parametrize("name", ["cramped_room", "asymmetric_advantages", "coordination_ring", "paper_counter_circuit"])
def test_open_layouts_are_not_rc(layout_table, name):
    row = layout_table[name]
    assert (row["verdict"], row["reason"]) == ("non-RC", "")
    assert int(row["joint_plan_length"]) > 0
    assert float(row["seconds"]) < 60


def test_fire_in_front_of_victim_requires_both_capabilities(sar):
    result = required_cooperation(sar, load_problem(sar, EXAMPLES / "fire-out.problem.pddl"))
    assert (result.verdict, result.reason) == ("RC", "capability")
    nurse, firefighter = result.agents["nurse1"], result.agents["firefighter1"]
    assert nurse.solvable_alone is False and nurse.search.proof == "relaxed reachability"
    assert nurse.why.missing_actions == ("extinguish",)
    assert nurse.why.unreachable_goals == (("treated", "v3"),)
    assert ("fire-free", "kitchen") in nurse.why.first_missing
    assert firefighter.why.missing_actions == ("treat",)
    # The joint plan: extinguish, then the nurse walks in and treats (3 interdependences, all constructive).
    [report] = result.reports
    assert report.achieved == {("treated", "v3")}
    assert report.counts["constructive"] == report.counts["interdependencies"] >= 2
    assert {i.giver.action.name for i in report.interdependencies} >= {"extinguish"}


def test_without_fire_the_nurse_does_it_alone(sar):
    result = required_cooperation(sar, load_problem(sar, EXAMPLES / "no-fire.problem.pddl"))
    assert result.verdict == "non-RC" and result.reason is None
    nurse = result.agents["nurse1"]
    assert nurse.solvable_alone is True
    assert [a.name for a in nurse.search.plan] == ["move", "search", "treat"]
    assert result.agents["firefighter1"].solvable_alone is False


def test_pyperplan_fallback_finds_the_same_verdict(sar):
    result = required_cooperation(sar, load_problem(sar, EXAMPLES / "no-fire.problem.pddl"), planner="pyperplan")
    assert result.verdict == "non-RC" and result.planner == "pyperplan"
    assert [a.name for a in result.agents["nurse1"].search.plan] == ["move", "search", "treat"]


def test_an_idle_partners_body_blocks_the_way(overcooked):
    # Relaxed reachability keeps negative preconditions (definitions v3 section 6): the partner's body, idle in
    # the corridor, is a (not (occupied ...)) nothing deletes, so the relaxation proves it (reach).
    problem = layout_problem(load_grid(CORRIDOR), overcooked)
    idle = required_cooperation(overcooked, problem, others="idle")
    assert (idle.verdict, idle.reason) == ("RC", "reach")
    for agent in idle.agents.values():
        assert agent.solvable_alone is False and agent.search.proof == "relaxed reachability"
    absent = required_cooperation(overcooked, problem, others="absent")
    assert absent.verdict == "non-RC"
    assert all(agent.solvable_alone for agent in absent.agents.values())


def test_a_planner_timeout_is_unknown_never_a_guess(overcooked):
    problem = layout_problem(load_grid(CORRIDOR), overcooked)
    result = required_cooperation(overcooked, problem, timeout=0.01, search="planner")
    assert result.verdict == "unknown"
    # an agent is unknown alone, or proven unable by relaxed reachability (its partner's body): no guess
    assert all((agent.solvable_alone, agent.why) == (None, None) or agent.search.proof == "relaxed reachability"
               for agent in result.agents.values())
    assert result.joint.status == "unknown" and result.reports == ()


def test_several_joint_plans_from_the_anytime_search(overcooked):
    problem = layout_problem(get_layout("cramped_room"), overcooked)
    result = required_cooperation(overcooked, problem, plans=2)
    assert len(result.reports) == 2
    first, second = (tuple(s.action for s in r.steps) for r in result.reports)
    assert first != second and len(second) < len(first)


def test_json_output_for_a_pddl_problem(capsys):
    assert main([str(SAR), str(EXAMPLES / "fire-out.problem.pddl"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "RC" and data["reason"] == "capability"
    assert data["agents"]["nurse1"]["solvable_alone"] is False
    assert data["agents"]["nurse1"]["reason"] == "capability"
    assert data["agents"]["nurse1"]["plan"] is None
    assert data["joint_plan"][0].startswith("(extinguish firefighter1")
    assert {i["category"] for i in data["interdependencies"]} == {"constructive"}


def test_layout_option_with_soups(capsys):
    assert main(["--layout", "forced_coordination", "--soups", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "RC"
    assert sum(line.startswith("(deliver ") for line in data["joint_plan"]) == 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["--layout", "nowhere"], "unknown layout 'nowhere'"),
        ([str(SAR), str(EXAMPLES / "missing.problem.pddl")], "missing.problem.pddl"),
        (["--layout", "cramped_room", "--soups", "0"], "need at least 1 soup"),
        (["--layout", "cramped_room", "--planner", "lpg"], "unknown planner 'lpg'"),
    ],
)
def test_bad_input_is_one_error_line(capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_problem_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([str(SAR)])
    assert exit_info.value.code == 2
    assert "give DOMAIN PROBLEM" in capsys.readouterr().err


def _alone_can_make(layout, seat: int) -> bool:
    """Flood fill: can player ``seat``, the others idle on their start tiles, reach every station one ordered soup needs?"""
    from strips_int.grounders.overcooked.lift import makeable_recipes

    starts = layout.starts()
    blocked = set(starts) - {starts[seat]}
    region, frontier = {starts[seat]}, [starts[seat]]
    while frontier:
        x, y = frontier.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if layout.tile(near) == " " and near not in blocked and near not in region:
                region.add(near)
                frontier.append(near)
    seen = {layout.tile((x + dx, y + dy)) for x, y in region for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    dispenser = {"onion": "O", "tomato": "T"}
    if layout.old_rules:
        kinds = [{k} for k in dispenser if any(layout.tile(p) == dispenser[k] for p in layout.positions())]
    else:
        kinds = [set(r) for r in makeable_recipes(layout)]
    return {"P", "D", "S"} <= seen and any({dispenser[k] for k in needed} <= seen for needed in kinds)


def test_every_layout_verdict_agrees_with_a_flood_fill(layout_table):
    """Each layout's verdict (overcooked-ai's too, when installed) against reach by flood fill over its terrain,
    start tiles and recipes: non-RC exactly when one player alone reaches all a soup of an order needs."""
    from strips_int.grounders.overcooked import known_layouts

    assert set(layout_table) == set(known_layouts(aliases=False))
    for name, row in layout_table.items():
        layout = get_layout(name)
        alone = any(_alone_can_make(layout, seat) for seat in range(len(layout.starts())))
        assert row["verdict"] in ("RC", "non-RC", "unsolvable"), (name, row)
        assert (row["verdict"] == "non-RC") == alone, (name, row)


def test_all_layouts_table_formats(tmp_path, capsys, layout_table):
    """Stable column names, each layout's own rules and recipe, and .tex/.md/--json outputs; other suffixes refused."""
    from strips_int.grounders.overcooked.layouts import overcooked_ai_layout_files

    assert all(" " not in column for row in layout_table.values() for column in row)
    assert layout_table["forced_coordination"]["rules"] == "old"
    if "counter_circuit" in overcooked_ai_layout_files():  # overcooked-ai's: soups with a tomato only
        assert (layout_table["counter_circuit"]["rules"], layout_table["counter_circuit"]["recipe"]) == (
            "new", "onion+tomato")
    with pytest.raises(SystemExit):
        main(["--all-layouts", "--out", str(tmp_path / "table.txt")])
    assert "the table is written as .csv, .md, .tex" in capsys.readouterr().err


def test_table_writers_tex_json_and_error_rows(tmp_path, capsys):
    from strips_int.batch.layouts import TABLE_COLUMNS, Outcome, Start, table_row, write_layout_table
    from strips_int.errors import StripsIntError

    row = table_row(Outcome(Start("x_y", ()), error=str(StripsIntError("x.layout", None, "not an overcooked-ai "
                                                                      "layout file"))))
    assert (row["layout"], row["verdict"], row["seconds"]) == ("x_y", "error", "")
    assert list(row) == list(TABLE_COLUMNS) and TABLE_COLUMNS[-1] == "seconds"
    write_layout_table([row], tmp_path / "t.tex")
    tex = (tmp_path / "t.tex").read_text()
    assert r"\begin{tabular}" in tex and r"x\_y &  &  & error" in tex and r"joint\_plan\_length" in tex
    write_layout_table([row], None, as_json=True)
    assert json.loads(capsys.readouterr().out)["error"] == "x.layout: not an overcooked-ai layout file"
