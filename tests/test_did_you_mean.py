"""Every name a user types gets a "did you mean" when it is close to one there is, and messages name what is meant
(issue 43): subcommands, packaged domains, options, choices; ``plot summary STUDYDIR`` names summary.csv; the joint
plan not planned names ``--plans``; the layouts an error counts are those ``rc --all-layouts`` classifies; a Hanabi
game that stops early is said to be unfinished."""

from __future__ import annotations

import json
import re

from helpers import EXAMPLES, ROOT

from strips_int.cli import main
from strips_int.grounders import registered, start_names

KIT_PASS = str(EXAMPLES / "kit-pass.trace.json")


def error_of(capsys, *argv: str) -> str:
    """What ``strips-int ARGV`` writes on standard error; it must exit 2 (a usage error exits through argparse)."""
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    return capsys.readouterr().err


def test_a_mistyped_subcommand_says_which_was_meant(capsys):
    assert "invalid choice: 'chek'" in (err := error_of(capsys, "chek", "sar", KIT_PASS))
    assert "; did you mean check? (usage: strips-int --help)" in err
    assert "did you mean summary?" in error_of(capsys, "plot", "sumary", "x.csv")


def test_a_mistyped_packaged_domain_says_which_was_meant(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (no file named overcoked here)
    packaged = ", ".join(sorted(p.stem for p in (ROOT / "domains").glob("*.pddl")))
    assert error_of(capsys, "check", "overcoked", KIT_PASS) == (
        f"error: overcoked: no such file, nor a packaged domain (did you mean overcooked? packaged: {packaged})\n")


def test_a_mistyped_option_or_choice_says_which_was_meant(capsys):
    assert error_of(capsys, "check", "sar", KIT_PASS, "--jsn") == (
        "strips-int check: error: unrecognized arguments: --jsn; did you mean --json? "
        "(usage: strips-int check --help)\n")
    err = error_of(capsys, "check", "sar", KIT_PASS, "--jsno", "--plto", "out.png")
    assert "--jsno: did you mean --json?; --plto: did you mean --plot?" in err
    assert "argument --rules: need old or new, not 'nwe'; did you mean new?" in error_of(
        capsys, "check", "overcooked", KIT_PASS, "--rules", "nwe")
    assert "did you mean" not in error_of(capsys, "check", "sar", KIT_PASS, "--zzzzzz")


def test_plot_summary_of_a_study_folder_names_its_summary_csv(capsys, tmp_path):
    study = tmp_path / "study"
    assert main(["evaluate", "sar", KIT_PASS, "--out", str(study), "--jobs", "1"]) == 0
    capsys.readouterr()
    assert error_of(capsys, "plot", "summary", str(study), "--out", str(tmp_path / "s.png")) == (
        f"error: {study}: is a folder, not a summary table: give the study's summary.csv ({study / 'summary.csv'})\n")
    assert main(["plot", "summary", str(study / "summary.csv"), "--out", str(tmp_path / "s.png")]) == 0


def test_an_unknown_layout_counts_the_layouts_all_layouts_classifies(capsys):
    err = error_of(capsys, "rc", "--layout", "cramped_rom")
    count = int(re.search(r"\((\d+) known, and (\d+) old names of them; or give a grid file\)", err).group(1))
    assert "did you mean cramped_room?" in err
    assert count == len(start_names(registered()["overcooked"]))


def test_a_joint_plan_not_planned_says_how_to_ask_for_one(capsys):
    assert main(["rc", "--layout", "cramped_room"]) == 0
    out = capsys.readouterr().out
    assert "joint problem: unknown (not planned: the verdict needs no joint plan (to have one, ask for K: --plans K " \
           "on the command line, plans=K in Python))" in out


def test_a_hanabi_game_that_stops_early_is_said_to_be_unfinished(capsys, tmp_path):
    game = json.loads((ROOT / "examples" / "hanabi" / "random-3p.json").read_text())
    short = tmp_path / "short.json"
    short.write_text(json.dumps({**game, "actions": game["actions"][:6]}))
    assert main(["check", "hanabi", str(short)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == ("  goal: 1/25 facts reached: (firework red r1); the game is unfinished: its record stops "
                        "before the game's end")
    assert main(["check", "hanabi", str(ROOT / "examples" / "hanabi" / "random-3p.json")]) == 0
    assert "unfinished" not in capsys.readouterr().out  # it ended: the final round was over
