"""Every figure function draws into a caller's axes (``ax=``), or figure for the summary's two axes (``fig=``), and
returns it (issue 43): figures go into one's own subplots, a notebook's grid, a subfigure."""

from __future__ import annotations

import pytest
from helpers import EXAMPLES, SAR
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from strips_int import analyze
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.visualize import plot_agents, plot_influence, plot_summary, plot_timeline


@pytest.fixture(scope="module")
def report():
    """fire-out: two constructive interdependences firefighter1 -> nurse1 (kit and kitchen)."""
    return analyze("sar", EXAMPLES / "fire-out.trace.json")


def grid() -> tuple[Figure, list]:
    """A caller's figure of 2 x 2 subplots, as ``plt.subplots(2, 2)`` makes it (without pyplot)."""
    figure = Figure(figsize=(10, 7), layout="constrained")
    FigureCanvasAgg(figure)
    return figure, list(figure.subplots(2, 2).flat)


def gids(ax, prefix: str) -> list[str]:
    return sorted(g for g in (a.get_gid() for a in ax.get_children()) if g and g.startswith(prefix))


def test_each_one_axes_figure_draws_into_a_given_subplot_and_returns_it(report):
    figure, (one, two, three, spare) = grid()
    assert plot_timeline(report, ax=one) is one
    assert plot_agents([report.to_dict()], ax=two) is two
    assert plot_influence(report, ax=three) is three
    assert len(figure.axes) == 4  # no axes added, none left out
    assert gids(one, "interdependence:") == ["interdependence:0:constructive", "interdependence:1:constructive"]
    assert gids(two, "agents:") == ["agents:firefighter1->nurse1:constructive:2"]
    assert gids(three, "link:")
    assert not spare.has_data() and not gids(spare, "")
    assert [t.get_text() for t in one.get_legend().get_texts()] == ["constructive (2)", "looping (0)", "irrelevant (0)"]
    assert not figure.legends  # each legend is its axes', not the caller's figure's
    figure.draw_without_rendering()


def test_a_figure_of_its_own_is_as_before_when_no_axes_is_given(report):
    figure = plot_timeline(report)
    assert isinstance(figure, Figure) and len(figure.axes) == 1
    assert figure.get_figwidth() == pytest.approx(3.4)
    assert [t.get_text() for t in figure.legends[0].get_texts()][0] == "constructive (2)"


def test_a_bare_figure_without_a_canvas_can_be_drawn_into(report):
    figure = Figure(figsize=(4, 3))  # no canvas: the labels are placed by measuring text all the same
    ax = figure.subplots()
    assert plot_timeline(report, ax=ax) is ax
    assert any(t.get_text() == "extinguish" for t in ax.texts)


def test_the_summary_draws_its_two_axes_into_a_given_subfigure(tmp_path, report):
    out = tmp_path / "study"
    assert evaluate_main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1", "--group-by", "scenario"]) == 0
    figure = Figure(figsize=(7, 7), layout="constrained")
    FigureCanvasAgg(figure)
    top, bottom = figure.subfigures(2, 1)
    assert plot_summary(out / "summary.csv", fig=top) is top
    assert plot_timeline(report, ax=bottom.subplots()) is not None
    assert len(top.axes) == 2 and len(bottom.axes) == 1 and len(figure.axes) == 3
    assert any((p.get_gid() or "").startswith("reward:") for p in top.axes[1].get_lines())
    assert top.legends and "95 % CI of the mean" in [t.get_text() for t in top.legends[0].get_texts()]
    plain = Figure(figsize=(7, 3))  # a figure without constrained layout: the legend goes inside the bars' axes
    FigureCanvasAgg(plain)
    plot_summary(out / "summary.csv", fig=plain)
    assert not plain.legends and plain.axes[0].get_legend() is not None
    figure.draw_without_rendering()
