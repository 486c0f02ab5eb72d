"""``python -m strips_int.evaluate``: per-game rows, grouped tables, errors, the real user study."""

from __future__ import annotations

import csv
import shutil

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int.cli.evaluate import main
from strips_int.batch.stats import summarize


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_summary_statistics_are_exact_and_deterministic():
    s = summarize([1.0, 2.0, 3.0, None])
    assert (s.n, s.mean, s.sd) == (3, 2.0, 1.0)
    assert 1.0 <= s.ci_low <= 2.0 <= s.ci_high <= 3.0
    assert summarize([1.0, 2.0, 3.0]) == summarize([1.0, 2.0, 3.0])
    assert summarize([None]).n == 0


def test_a_folder_of_traces_and_sar_logs_with_one_broken_game(tmp_path, capsys):
    games = tmp_path / "games"
    shutil.copytree(EXAMPLES, games)
    (games / "broken.trace.json").write_text('{"format": "strips-int-trace/1", "steps": [')
    out = tmp_path / "out"
    assert main([str(SAR), str(games), "--out", str(out), "--jobs", "2", "--group-by", "folder"]) == 1
    err = capsys.readouterr().err
    assert "broken.trace.json" in err and "7 games, 1 errors" in err
    assert "passed over 3 SAR scenario file(s)" in err
    rows = read_csv(out / "games.csv")
    assert len(rows) == 8
    by_name = {r["source"].rsplit("/", 1)[1]: r for r in rows}
    assert by_name["broken.trace.json"]["error"].startswith(str(games / "broken.trace.json"))
    assert by_name["medkit-loop.trace.json"]["looping"] == "2"
    assert by_name["fire-out.trace.json"]["constructive"] == "2"
    assert by_name["kit-pass.trace.json"]["firefighter1_pct_triggers"] == "50.0"
    fire_door = by_name["fire-door.log.json"]
    assert (fire_door["scenario"], fire_door["reward"], fire_door["constructive"]) == ("fire-door", "10", "2")
    assert fire_door["firefighter_pct_triggers"] == "100.0"  # triggers by role, from the log's roles
    summary = read_csv(out / "summary.csv")
    cons = next(r for r in summary if r["metric"] == "constructive")
    # traces 1 + 1 + 2 + 0, logs 2 + 2 + 2
    assert (cons["folder"], cons["n"], float(cons["mean"])) == ("games", "7", pytest.approx(10 / 7, abs=1e-4))
    assert "| folder | games | reward | Int_cons | Int_cons,req | Int_cons,opt | Int_non-cons |" in (
        out / "summary.md").read_text()
    # definitions section 10: fire-out's 2 are required (capability), the others optional.
    assert [by_name[n]["constructive_required"] for n in ("fire-out.trace.json", "kit-pass.trace.json")] == ["2", "0"]
    assert by_name["fire-out.trace.json"]["firefighter1_given_required"] == "2"
    assert r"\toprule" in (out / "summary.tex").read_text()


def test_missing_path_is_a_usage_error(tmp_path, capsys):
    assert main([str(SAR), str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().err


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")
def test_user_study_rewards_match_the_data_readme(tmp_path):
    out = tmp_path / "study"
    assert main([str(ROOT / "domains" / "overcooked.pddl"), str(SHARED_DATA / "user-study"), "--out", str(out)]) == 0
    rows = read_csv(out / "games.csv")
    assert len(rows) == 302 and not any(r["error"] for r in rows)
    summary = {(r["layout"], r["agent"], r["metric"]): r for r in read_csv(out / "summary.csv")}
    # shared/data/README.md: games and mean reward per agent and layout.
    readme = {("counter_circuit", "cole"): (35, 80.57), ("forced_coordination", "cole"): (34, 57.06),
              ("counter_circuit", "fcp"): (43, 26.05), ("forced_coordination", "fcp"): (41, 37.56),
              ("counter_circuit", "hsp"): (36, 48.33), ("forced_coordination", "hsp"): (37, 66.49),
              ("counter_circuit", "mep"): (38, 51.58), ("forced_coordination", "mep"): (38, 47.37)}
    for (layout, agent), (n, reward) in readme.items():
        row = summary[layout, agent, "reward"]
        assert int(row["n"]) == n and float(row["mean"]) == pytest.approx(reward, abs=0.005)
    # The human's trigger figures are there for every group.
    assert int(summary["forced_coordination", "hsp", "human_pct_triggers"]["n"]) == 37
    # definitions section 10: on forced_coordination every constructive interdependence is required; on
    # counter_circuit none is, but for one hand-over (to the human) in each of five games, on a counter
    # that only the partner's starting cell touches: the partner's body stays there in the receiver's
    # projection, and relaxed reachability keeps negative preconditions (definitions v3 section 6). The parts
    # add up to Int_cons in every game.
    blocked = {"cole/5_10_2025_17_21_36_human=1.json", "cole/5_11_2025_0_18_59_human=1.json",
               "mep/5_10_2025_17_34_17_human=1.json", "mep/5_9_2025_14_48_11_human=1.json",
               "mep/5_9_2025_21_0_34_human=0.json"}
    for row in rows:
        cons, req, opt = (int(row[k]) for k in ("constructive", "constructive_required", "constructive_optional"))
        assert req + opt == cons
        if row["layout"] == "forced_coordination":
            assert (req, opt) == (cons, 0)
        else:
            game = row["source"].split("user-study/")[1]
            assert row["human_received_required"] == ("1" if game in blocked else "0") and req <= (game in blocked)
        assert int(row["human_given_required"]) + int(row["ai_given_required"]) >= req
    assert "Int_cons,req" in (out / "summary.md").read_text()
