"""Tables a paper takes as they are: who helped whom per role in every summary, and a summary.tex that
compiles in a two-column article with no overfull box (pdflatex; skipped where it is not installed)."""

from __future__ import annotations

import csv
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import EXAMPLES, SAR, SHARED_DATA
from strips_int import analyze
from strips_int.batch.stats import Summary
from strips_int.batch.summary import paper_tables, write_summaries
from strips_int.batch.tables import COLUMN_WIDTH, TEXT_WIDTH
from strips_int.cli.evaluate import main as evaluate_main

STUDY = SHARED_DATA / "user-study"
FORCED = STUDY / "hsp" / "5_11_2025_0_16_29_human=1.json"  # forced_coordination: help is required
HELP = ("given_constructive", "received_constructive", "given_constructive_required", "received_constructive_required")
needs_study = pytest.mark.skipif(not STUDY.is_dir(), reason="needs ../shared/data")
#: pdflatex with booktabs (Debian: texlive-latex-base, texlive-latex-recommended; .ci/run installs them).
LATEX = shutil.which("pdflatex") is not None and subprocess.run(
    ["kpsewhich", "booktabs.sty"], capture_output=True).returncode == 0
needs_pdflatex = pytest.mark.skipif(not LATEX, reason="needs pdflatex and booktabs (texlive-latex-recommended)")


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def check_help(report) -> None:
    """Each agent's constructive help given and received, and its required part, count the interdependences."""
    metrics = report.agent_metrics()
    found = report.interdependencies
    for agent, row in metrics.items():
        cons = [f for f in found if f.category == "constructive"]
        assert row["given_constructive"] == sum(f.giver.agent == agent for f in cons)
        assert row["received_constructive"] == sum(f.receiver.agent == agent for f in cons)
        assert row["given_constructive_required"] == sum(f.required and f.giver.agent == agent for f in cons)
        assert row["received_constructive_required"] == sum(f.required and f.receiver.agent == agent for f in cons)
        assert row["given_constructive"] <= row["given"] and row["received_constructive"] <= row["received"]
    counts = report.counts
    assert sum(r["given_constructive"] for r in metrics.values()) == counts["constructive"]
    assert sum(r["received_constructive_required"] for r in metrics.values()) == counts["constructive_required"]


def test_each_agent_gives_and_receives_constructive_help_of_the_sar_examples():
    loop = analyze(SAR, EXAMPLES / "medkit-loop.trace.json")  # two passes, both looping: no constructive help
    check_help(loop)
    assert {a: (r["given"], r["given_constructive"]) for a, r in loop.agent_metrics().items()
            if r["given"]} == {"nurse1": (1, 0), "police1": (1, 0)}
    fire = analyze(SAR, EXAMPLES / "fire-out.trace.json")  # the firefighter's help the nurse could not do without
    check_help(fire)
    firefighter = fire.agent_metrics()["firefighter1"]
    assert (firefighter["given"], firefighter["given_required"]) == (2, 2)  # the values of before stay
    assert (firefighter["given_constructive"], firefighter["given_constructive_required"]) == (2, 2)


@needs_study
def test_constructive_help_of_a_real_game_counts_its_interdependences():
    report = analyze("overcooked", FORCED)
    check_help(report)
    assert report.counts["constructive_required"] > 0


@needs_study
def test_a_study_summary_has_each_roles_help_given_and_received(tmp_path):
    out = tmp_path / "study"
    assert evaluate_main(["overcooked", str(STUDY), "--out", str(out), "--jobs", "2"]) == 0
    games = read_csv(out / "games.csv")
    summary = {(r["layout"], r["agent"], r["metric"]): r for r in read_csv(out / "summary.csv")}
    group = [g for g in games if (g["layout"], g["agent"]) == ("forced_coordination", "hsp")]
    for role in ("human", "ai"):
        for what in HELP:
            cell = summary["forced_coordination", "hsp", f"{role}_{what}"]
            values = [int(g[f"{role}_{what}"]) for g in group]
            assert int(cell["n"]) == len(values) == 37
            assert math.isclose(float(cell["mean"]), sum(values) / len(values), abs_tol=5e-5)
            assert float(cell["ci_low"]) <= float(cell["mean"]) <= float(cell["ci_high"])
    # Two roles: the human's help given is the AI's received, game by game.
    assert all(g["human_given_constructive"] == g["ai_received_constructive"] for g in games)
    forced = summary["forced_coordination", "hsp", "human_given_constructive"]
    assert forced["mean"] == summary["forced_coordination", "hsp", "human_given_constructive_required"]["mean"]
    table = (out / "summary.md").read_text()
    header = table.splitlines()[2]  # two roles: each direction once (the human's given is the AI's received)
    assert "| human→ai Int_cons | human→ai Int_cons,req | ai→human Int_cons | ai→human Int_cons,req |" in header
    assert "received" not in header and "given" not in header
    tex = (out / "summary.tex").read_text()
    # interdependencies, who helped whom, triggers and (Overcooked games record attempts) blocks
    assert tex.count(r"\begin{table") == 4 and r"\caption{Who helped whom" in tex and r"\caption{Blocks and" in tex
    assert r"\multicolumn{2}{c}{human$\to$ai} & \multicolumn{2}{c}{ai$\to$human}" in tex
    mean = float(forced["mean"])
    assert f"forced\\_coordination & hsp & 37 & {mean:.2f} & {mean:.2f} &" in tex
    if LATEX:
        log = compile_tex(out / "summary.tex", tmp_path / "paper")
        assert "Overfull" not in log and "Table 3:" in pdf_text(tmp_path / "paper", "Table 3:")


def summary(n: int, mean: float) -> Summary:
    spread = n >= 2
    return Summary(n, mean, 1.5 if spread else math.nan, mean - 1.2 if spread else math.nan,
                   mean + 1.9 if spread else math.nan)


def wide_study() -> tuple[list[str], list[str], dict]:
    """Three roles (no two mirror each other), three group keys, a long path among them, specials,
    cells on fewer games, a group of one game and one of none for a metric: the widest tables."""
    roles = ("firefighter", "nurse", "police")
    metrics = ["reward", "constructive", "constructive_required", "constructive_optional", "non_constructive"]
    metrics += [f"{r}_{m}" for r in roles for m in (HELP[0], HELP[2], HELP[1], HELP[3])]
    metrics += [f"{r}_{m}" for r in roles for m in ("pct_triggers", "pct_not_accepted")]
    keys = ["source", "scenario", "team"]
    groups = [("/home/someone/studies/2025/search-and-rescue/runs/house_with_many_rooms_and_a_garden/game-17.json",
               "fire_door", "50% & {x} #1"),
              ("b.json", "kitchen", "solo"), ("c.json", "hall", "ünïcode ~ ^")]
    table = {}
    for k, group in enumerate(groups):
        table[group] = {m: summary(1 if k == 1 else 0 if m.endswith("not_accepted") and k == 2 else
                                   (40 if "pct" not in m else 33), 1234.5678 if m == "reward" else 12.3456 * (k + 1))
                        for m in metrics}
    return keys, metrics, table


def test_wide_tables_are_split_to_fit_the_page_and_say_so(tmp_path):
    keys, metrics, table = wide_study()
    tables = paper_tables(keys, metrics, table)
    assert all(t.width() <= TEXT_WIDTH for t in tables)
    labels = [t.label for t in tables]
    assert len(labels) == len(set(labels)) > 3 and any(label.endswith("-2") for label in labels)
    assert all(re.search(r"Part \d of \d\.", t.caption) for t in tables if t.label[-2] == "-")
    # Every metric of every group is in exactly one table.
    shown = [h for t in tables for h in t.header[len(keys) + 1:]]
    assert len(shown) == len(metrics)
    write_summaries(tmp_path, keys, metrics, table)
    tex = (tmp_path / "summary.tex").read_text()
    assert tex.count(r"\caption{") == tex.count(r"\label{tab:summary-") == len(tables)
    assert r"{c}{firefighter}" in tex and r"$\to$" not in tex  # three roles: each one's given and received
    assert "& given & given req. & received" in tex
    assert "n=33" in tex and "1234.6" not in tex and "1235 & " in tex  # a reward over 1,000 has no decimals


def test_narrow_tables_fit_one_column():
    keys, metrics, table = wide_study()
    narrow = {(g[1],): {m: table[g][m] for m in ("reward", "constructive")} for g in table}
    (only,) = paper_tables(["scenario"], ["reward", "constructive"], narrow)
    assert only.width() <= COLUMN_WIDTH
    assert only.caption.startswith("Task reward and interdependencies per game, by scenario.")


@needs_pdflatex
def test_the_widest_summary_tex_compiles_with_no_overfull_box(tmp_path):
    keys, metrics, table = wide_study()
    write_summaries(tmp_path, keys, metrics, table)
    for paper in ("a4paper", "letterpaper"):
        log = compile_tex(tmp_path / "summary.tex", tmp_path / paper, paper)
        assert "Overfull" not in log, [line for line in log.splitlines() if "Overfull" in line]
    assert "garden/game-17.json" in pdf_text(tmp_path / "a4paper", "garden/game-17.json").replace("\n", "")


def compile_tex(table: Path, folder: Path, paper: str = "a4paper") -> str:
    """pdflatex's log of a 10 pt two-column article that inputs ``table``; fails on any LaTeX error."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "paper.tex").write_text(
        rf"\documentclass[twocolumn,{paper}]{{article}}" "\n" r"\usepackage{booktabs}"
        "\n" r"\begin{document}" "\n" "Some text before the tables.\n" rf"\input{{{table}}}" "\n" r"\end{document}")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    log = (folder / "paper.log").read_text(errors="replace")
    assert done.returncode == 0, log[-3000:]
    return log


def pdf_text(folder: Path, expected: str) -> str:
    """The compiled paper's text by pdftotext (poppler-utils); ``expected`` where it is not installed."""
    if shutil.which("pdftotext") is None:
        return expected
    return subprocess.run(["pdftotext", str(folder / "paper.pdf"), "-"], capture_output=True, text=True).stdout
