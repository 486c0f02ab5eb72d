"""The summary tables' sums hold as printed (issue 43): Int_cons = Int_cons,req + Int_cons,opt in every row of
``summary.tex`` and ``summary.md``; with two roles, each direction of help is printed once; the text report says
what its agent columns count."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from helpers import EXAMPLES, SAR, SHARED_DATA

from strips_int.batch.summary import adding_up
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.cli.check import main as check_main

COLE = SHARED_DATA / "user-study" / "cole"


def test_parts_are_rounded_so_that_they_add_up_to_the_rounded_total():
    # The user-study's counter_circuit/cole group: 286/35 = 1/35 + 285/35 (8.171 = 0.029 + 8.143), which
    # summary.tex printed 8.2 = 0.0 + 8.1, each rounded alone.
    assert adding_up(286 / 35, [1 / 35, 285 / 35], 1) == ["0.0", "8.2"]
    assert adding_up(286 / 35, [1 / 35, 285 / 35], 2) == ["0.03", "8.14"]
    assert adding_up(0.07, [0.035, 0.035], 2) == ["0.04", "0.03"]  # each alone: 0.04 + 0.04 = 0.08
    assert adding_up(11.4118, [11.4118, 0.0], 1) == ["11.4", "0.0"]
    assert adding_up(3.0, [1.0, 1.0], 1) == ["1.0", "1.0"]  # parts that are not the total's: each alone


def rows_add_up(tex: str, md: str) -> int:
    """How many rows of the first summary.tex table and of summary.md were checked; each must add up as printed."""
    checked = 0
    head = md.splitlines()[2].split(" | ")
    at = [head.index(name) for name in ("Int_cons", "Int_cons,req", "Int_cons,opt")]
    for line in md.splitlines()[4:]:
        cells = line.split(" | ")
        total, req, opt = (Decimal(cells[i].split()[0]) for i in at)
        assert total == req + opt, line
        checked += 1
    first = tex.split(r"\end{table")[0]
    for line in re.findall(r"^.* & \d+ & (?:[\d.]+|-) & ([\d.]+) & ([\d.]+) & ([\d.]+) & [\d.]+ \\\\$", first, re.M):
        total, req, opt = map(Decimal, line)
        assert total == req + opt, line
        checked += 1
    return checked


def test_a_sar_study_adds_up_as_printed(tmp_path):
    out = tmp_path / "study"
    assert evaluate_main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1", "--group-by", "scenario"]) == 0
    tex, md = (out / "summary.tex").read_text(), (out / "summary.md").read_text()
    assert rows_add_up(tex, md) == 8  # four groups, in both tables
    assert "rounded so that they add up to the total as printed" in tex
    assert "Int_cons,req and Int_cons,opt are rounded so that they add up to Int_cons as printed." in md


@pytest.mark.skipif(not COLE.is_dir(), reason="needs ../shared/data")
def test_the_user_study_adds_up_as_printed_and_prints_each_direction_once(tmp_path):
    out = tmp_path / "study"
    assert evaluate_main(["overcooked", str(COLE), "--out", str(out), "--jobs", "2"]) == 0
    tex, md = (out / "summary.tex").read_text(), (out / "summary.md").read_text()
    assert rows_add_up(tex, md) == 4
    assert r"counter\_circuit & cole & 35 & 80.6 & 8.2 & 0.0 & 8.2 & 1.2 \\" in tex  # was 8.2 & 0.0 & 8.1
    header = md.splitlines()[2]
    assert header.count("Int_cons") == 3 + 4 and "received" not in header
    assert "human→ai Int_cons | human→ai Int_cons,req | ai→human Int_cons | ai→human Int_cons,req" in header
    assert header.endswith("| human→ai blocks | ai→human blocks |")  # blocks too (definitions section 13)
    assert r"\multicolumn{3}{c}{} & human$\to$ai & ai$\to$human \\" in tex
    assert "interdependences" not in tex + md


def test_the_text_report_says_what_its_agent_columns_count(capsys):
    assert check_main(["sar", str(EXAMPLES / "fire-out.trace.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    note = lines.index("  per agent, interdependencies of every category given and received, and the required ones "
                       "(-req):")
    assert lines[note + 1].split()[-4:] == ["given", "received", "given-req", "received-req"]
