"""Reports as pandas DataFrames: ``Report.to_frame``, ``reports_frame``, and findings that ``pd.DataFrame`` and
``dataclasses.asdict`` take as they are (issue 43)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, SHARED_DATA

from strips_int import StripsIntError, analyze, analyze_games, reports_frame

pd = pytest.importorskip("pandas", reason="the extra 'pandas' (pip install -e '.[pandas]')")

KIT_PASS = EXAMPLES / "kit-pass.trace.json"


def test_every_finding_goes_into_a_dataframe_and_asdict_as_it_is():
    report = analyze("sar", EXAMPLES / "fire-out.trace.json")
    frame = pd.DataFrame(report.interdependencies)
    assert len(frame) == len(report.interdependencies) > 0
    assert list(frame["category"]) == [f.category for f in report.interdependencies]
    record = dataclasses.asdict(report.interdependencies[0])
    assert record["giver"].action["name"] == report.interdependencies[0].giver.action.name
    tasks = pd.DataFrame(report.tasks.values())  # each agent's sub-tasks, triggers, accepted
    assert list(tasks.columns) == ["subtasks", "triggers", "accepted"]


def test_a_reports_interdependencies_are_one_flat_row_each():
    report = analyze("sar", KIT_PASS)
    frame = report.to_frame()
    assert frame.to_dict("records") == [{
        "source": str(KIT_PASS), "giver_index": 3, "giver_t": 3, "giver_agent": "firefighter1",
        "giver_action": "(give firefighter1 nurse1 kit1 hall)", "receiver_index": 6, "receiver_t": 6,
        "receiver_agent": "nurse1", "receiver_action": "(treat nurse1 kit1 v2 bedroom)", "facts": "(has nurse1 kit1)",
        "objects": "kit1", "goal_reaching": True, "giver_loop": False, "receiver_loop": False,
        "category": "constructive", "required": False,
        "why": "step 6 leads to goal fact (treated v2); no loop; optional: nurse1 could make (has nurse1 kit1) alone",
        "self_help_cost": None,
    }]
    assert report.rows() == frame.to_dict("records")
    # with self-help costs asked for (definitions section 14): nurse1 alone fetches the kit in 2 actions
    assert analyze("sar", KIT_PASS, help_cost=True).rows()[0]["self_help_cost"] == 2


def test_a_reports_agents_are_one_row_each_with_the_metrics_of_the_text():
    report = analyze("sar", KIT_PASS)
    frame = report.to_frame("agents").set_index("agent")
    metrics = report.agent_metrics()
    assert list(frame.index) == list(metrics)
    assert frame.loc["firefighter1", "given"] == 1 and frame.loc["nurse1", "received"] == 1
    assert frame["given"].to_dict() == {agent: row["given"] for agent, row in metrics.items()}
    missing = {agent: row["pct_not_accepted"] is None for agent, row in metrics.items()}
    assert frame["pct_not_accepted"].isna().to_dict() == missing


def test_many_games_make_one_frame_whose_rows_add_up_to_each_games_counts():
    reports = [r for r in analyze_games("sar", EXAMPLES)]
    frame = reports_frame(reports)
    by_game = frame.groupby("source")["category"].value_counts().unstack(fill_value=0)
    for report in reports:
        counts = report.counts
        row = by_game.loc[report.source] if report.source in by_game.index else {}
        assert row.get("constructive", 0) == counts["constructive"]
        assert row.get("looping", 0) == counts["looping"]
    agents = reports_frame(iter(reports), "agents")
    assert len(agents) == sum(len(r.agents) for r in reports)


#: The definitions page's user-study game (section 13): 15 attempts, all blocks, 14 given by the human (player1).
BLOCKED = SHARED_DATA / "user-study" / "cole" / "5_10_2025_15_23_0_human=1.json"


@pytest.mark.skipif(not BLOCKED.exists(), reason="the shared user-study data is absent")
def test_a_reports_blocks_are_one_flat_row_each_adding_up_to_each_agents_blocks():
    report = analyze("overcooked", BLOCKED)
    frame = report.to_frame("blocks")
    assert len(frame) == len(report.blocks) == 15
    assert frame.iloc[0].to_dict() == {
        "source": report.source, "giver_kind": "step", "giver_index": report.blocks[0].giver.index, "giver_t": 109,
        "giver_agent": "player1", "giver_action": "(move player1 c1_3 c1_2)",
        "attempt_index": report.blocks[0].attempt.index, "attempt_t": report.blocks[0].attempt.t,
        "attempt_agent": "player0", "attempt_action": str(report.blocks[0].attempt.action),
        "facts": " ".join(report.blocks[0].facts), "collision": False}
    metrics = report.agent_metrics()
    assert frame["giver_agent"].value_counts().to_dict() == {a: m["blocks_given"] for a, m in metrics.items()
                                                             if m["blocks_given"]}
    assert frame["attempt_agent"].value_counts().to_dict() == {a: m["blocks_received"] for a, m in metrics.items()
                                                               if m["blocks_received"]}
    assert metrics["player1"]["blocks_given"] == 14


def test_a_game_without_interdependences_is_an_empty_frame_with_the_columns(tmp_path):
    trace = tmp_path / "idle.trace.json"
    trace.write_text(json.dumps({"format": "strips-int-trace/1", "problem": str(EXAMPLES / "kit-pass.problem.pddl"),
                                 "steps": []}))
    report = analyze("sar", trace)
    assert not report.interdependencies
    frame = report.to_frame()
    assert frame.empty and {"giver_agent", "category", "required", "self_help_cost"} <= set(frame.columns)
    assert report.to_frame("blocks").empty and report.attempts is None


def test_an_error_among_the_games_is_raised_not_left_out(tmp_path):
    bad = tmp_path / "bad.trace.json"
    bad.write_text('{"format": "strips-int-trace/1", "steps": []}')
    with pytest.raises(StripsIntError, match="bad.trace.json"):
        reports_frame([analyze("sar", KIT_PASS), *analyze_games("sar", bad)])
    with pytest.raises(StripsIntError, match="'interdependencies' or 'agents' or 'blocks'"):
        analyze("sar", KIT_PASS).to_frame("blocs")


def test_without_pandas_a_frame_is_one_error_naming_the_extra():
    code = ("import sys; sys.modules['pandas'] = None\n"
            "from strips_int import analyze, StripsIntError\n"
            f"report = analyze('sar', {str(KIT_PASS)!r})\n"
            "assert report.rows()\n"
            "try:\n    report.to_frame()\nexcept StripsIntError as exc:\n    print(exc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pandas: not installed: pip install 'strips_int[pandas]'"


def test_required_cooperation_findings_go_into_a_dataframe_and_asdict():
    from strips_int import load_domain, load_problem, required_cooperation

    domain = load_domain("sar")
    result = required_cooperation(domain, load_problem(domain, EXAMPLES / "fire-out.problem.pddl"))
    agents = pd.DataFrame(list(result.agents.values()))
    assert list(agents["agent"]) == ["firefighter1", "nurse1"] and not agents["solvable_alone"].any()
    assert dataclasses.asdict(result)["verdict"] == "RC"
