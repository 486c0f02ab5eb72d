"""``plot summary`` of a table it should not trust (issue 31): values no summary holds are one line naming the
line, text is drawn as it is (no mathtext, control characters shown, no matplotlib warning), and a table of
more groups than a figure can show is refused before anything is drawn."""

from __future__ import annotations

import os
import xml.dom.minidom
from pathlib import Path

import pytest
from fuzz_inputs import check_cli, run_cli, written

from strips_int.errors import StripsIntError, printable
from strips_int.visualize.summary import MAX_GROUPS, plot_summary, read_summary

HEADER = "layout,metric,n,mean,sd,ci_low,ci_high\n"


def plot(tmp_path: Path, rows: str, suffix: str = ".png"):
    table = written(tmp_path / "summary.csv", HEADER + rows)
    return table, run_cli("strips_int.plot", "summary", str(table), "--out", str(tmp_path / f"figure{suffix}"))


BAD_VALUES = [
    ("a,constructive,3,1.0,0.5,1.5,0.5", "line 2: ci_low '1.5' is above ci_high '0.5'"),
    ("a,constructive,3,1.0,0.5,-inf,inf", "line 2: ci_low is '-inf', not a finite number"),
    ("a,reward,3,1e308,0.5,0.5,1.5", "line 2: mean is '1e308', not a finite number of at most 1e+15 in size"),
    ("a,constructive,3,nan,0.5,0.5,1.5", "line 2: mean is 'nan' over 3 games"),
    ("a,constructive,-3,1.0,0.5,0.5,1.5", "line 2: n is '-3', not a count of games"),
    ("a,constructive,2.5,1.0,0.5,0.5,1.5", "line 2: n is '2.5', not a count of games"),
    ("a,constructive,3,1.0,0.5,nan,1.5", "line 2: ci_low and ci_high must both be numbers, or both nan"),
]


@pytest.mark.parametrize("row, message", BAD_VALUES)
def test_a_value_no_summary_holds_is_one_error_naming_its_line(tmp_path, row, message):
    table = written(tmp_path / "summary.csv", HEADER + row + "\n")
    with pytest.raises(StripsIntError) as caught:
        read_summary(table)
    assert str(caught.value).startswith(f"{table}: {message}")


def test_plot_summary_of_an_interval_upside_down_is_one_line(tmp_path):
    """It was ``internal error: ValueError: 'xerr' must not contain negative values``."""
    row, message = BAD_VALUES[0]
    table, result = plot(tmp_path, row + "\n")
    assert check_cli(result, codes=(2,)) == [f"error: {table}: {message}"]


def test_an_interval_that_leaves_out_its_mean_is_drawn(tmp_path):
    """A bootstrap of one resample (``--resamples 1``) may: the bar reaches out to the mean."""
    _, table = read_summary(written(tmp_path / "summary.csv", HEADER + "a,constructive,3,1.0,0.5,1.2,1.5\n"))
    figure = plot_summary(tmp_path / "summary.csv")
    assert table["a"]["constructive"]["ci_low"] == 1.2 and figure.axes


GROUPS = ["a\x00b", "$\\frac{$", "esc\x1b[31m", "1$ and 2$", "line\nbreak"]


def test_group_names_are_drawn_as_they_are(tmp_path):
    """A NUL gave exit 0 with two matplotlib warnings, a ``$`` mathtext that failed to parse: now each draws,
    silently, into well-formed SVG, its control characters as visible escapes."""
    rows = "".join(f'"{group}",constructive,3,1.0,0.5,0.5,1.5\n' for group in GROUPS)
    _, result = plot(tmp_path, rows, ".svg")
    assert check_cli(result, codes=(0,)) == [] and result.stderr == b"", result.stderr
    svg = (tmp_path / "figure.svg").read_text()
    xml.dom.minidom.parseString(svg)
    for group in GROUPS:
        assert printable(group).replace("&", "&amp;") in svg


def test_more_groups_than_a_figure_shows_is_refused_before_drawing(tmp_path):
    """20,000 groups ran past 60 s or died of MemoryError."""
    rows = "".join(f"g{k},{metric},3,1.0,0.5,0.5,1.5\n" for k in range(20_000) for metric in ("constructive", "reward"))
    table, result = plot(tmp_path, rows)
    assert check_cli(result, codes=(2,)) == [f"error: {table}: line {2 * MAX_GROUPS + 2}: more than {MAX_GROUPS} "
                                             "groups to draw: plot a summary grouped by fewer keys, or a part of "
                                             "its rows"]
    assert not (tmp_path / "figure.png").exists()


def test_a_fifo_as_the_table_is_refused_at_once(tmp_path):
    fifo = tmp_path / "summary.csv"
    os.mkfifo(fifo)
    result = run_cli("strips_int.plot", "summary", str(fifo), "--out", str(tmp_path / "figure.png"), timeout=30)
    assert check_cli(result, codes=(2,)) == [f"error: {fifo}: cannot read: not a regular file (a device, FIFO or "
                                             "socket)"]
