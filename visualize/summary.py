"""The batch summary figure: per group, mean Int_cons (its required and optional parts stacked, definitions section 10)
and Int_non-cons with 95 % CIs, and task reward beside it; two paper columns (7.0 in) wide.

Each group says once how many games it has (``n=`` in its label); a bar or
point that rests on fewer games says so itself; a group of one game has no
interval. The table is checked as it is read: a count is a whole number, a
mean and an interval's ends are finite (NaN where ``summary.csv`` has none:
no game, or under two), an interval's low end is not above its high end; a
table of more than :data:`MAX_GROUPS` groups is refused before anything is
drawn (one row per group: beyond that no one reads the figure, and its height
outgrows what can be saved).
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure, SubFigure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from strips_int.errors import StripsIntError, brief, path_argument, printable
from strips_int.files import read_text

from .style import RC_PARAMS, TWO_COLUMNS, new_figure, width_argument

#: The parts of Int_cons, stacked (their means add up to Int_cons's), and Int_non-cons: metric, label, colour.
#: Blue and orange (Okabe and Ito), told apart in colour-blind vision and in grey print; non-constructive grey.
PARTS = (("constructive_required", r"$\mathrm{Int}_{\mathrm{cons,req}}$", "#0072B2"),
         ("constructive_optional", r"$\mathrm{Int}_{\mathrm{cons,opt}}$", "#E69F00"))
NON_CONSTRUCTIVE = ("non_constructive", r"$\mathrm{Int}_{\mathrm{non\text{-}cons}}$", "#8C8C8C")
REWARD_COLOR = "#000000"
_BAR = 0.34  # bar thickness, in group rows
#: The most groups one summary figure draws: a figure of 100 groups is some 37 inches tall; one of thousands
#: would take minutes and more memory than a figure can be saved in.
MAX_GROUPS = 100
#: The largest magnitude of a number drawn: far beyond any count, percentage or reward (a larger one would
#: overflow the axes' limits).
MAX_VALUE = 1e15

Row = dict[str, float]


def read_summary(path: str | Path) -> tuple[list[str], dict[str, dict[str, Row]]]:
    """``summary.csv`` of ``strips_int.evaluate``: the group keys and {group label: {metric: row}}.

    Anything else (binary, cut short, a cell over the csv module's field limit, a value no summary holds,
    more than :data:`MAX_GROUPS` groups) is an error naming the line.
    """
    path = Path(path)
    if path.is_dir():  # a study's folder: name the file in it that is meant
        raise StripsIntError(str(path), None, "is a folder, not a summary table: give the study's summary.csv ("
                             + str(path / "summary.csv") + ("" if (path / "summary.csv").is_file() else ", not there")
                             + ")")
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
    table: dict[str, dict[str, Row]] = {}
    try:
        fields = reader.fieldnames or []
        if "metric" not in fields:
            raise StripsIntError(str(path), "header", "not a strips_int summary.csv (no 'metric' column)")
        keys = fields[: fields.index("metric")]
        for row in reader:
            line = reader.line_num
            group = " / ".join(printable(_cell(row, k, path, line)) for k in keys)
            if group not in table and len(table) == MAX_GROUPS:
                raise StripsIntError(str(path), f"line {line}", f"more than {MAX_GROUPS} groups to draw: plot a "
                                     "summary grouped by fewer keys, or a part of its rows")
            table.setdefault(group, {})[printable(_cell(row, "metric", path, line))] = _summary_row(row, path, line)
    except csv.Error as exc:
        raise StripsIntError(str(path), f"line {reader.line_num}", f"not a strips_int summary.csv ({exc})") from None
    return [printable(key) for key in keys], table


def _cell(row: dict[str | None, str | None], key: str, path: Path, line: int) -> str:
    value = row.get(key)
    if value is None:
        raise StripsIntError(str(path), f"line {line}", f"no {key!r} value (the row is cut short)")
    return value


def _summary_row(row: dict[str | None, str | None], path: Path, line: int) -> Row:
    """A metric's n, mean and interval, checked: n a whole number, the others finite or NaN (no value)."""
    cells = {k: _number(_cell(row, k, path, line), k, path, line) for k in ("n", "mean", "ci_low", "ci_high")}
    n, low, high = cells["n"], cells["ci_low"], cells["ci_high"]
    if not (n >= 0 and n.is_integer()):
        raise StripsIntError(str(path), f"line {line}", f"n is {brief(row['n'])}, not a count of games")
    if math.isnan(cells["mean"]) and n > 0:
        raise StripsIntError(str(path), f"line {line}", f"mean is {brief(row['mean'])} over {int(n)} games")
    if math.isnan(low) != math.isnan(high):
        raise StripsIntError(str(path), f"line {line}", "ci_low and ci_high must both be numbers, or both nan "
                             "(no interval)")
    if low > high:
        raise StripsIntError(str(path), f"line {line}", f"ci_low {brief(row['ci_low'])} is above ci_high "
                             f"{brief(row['ci_high'])}")
    return cells


def _number(text: str, key: str, path: Path, line: int) -> float:
    """A cell's number: finite and at most :data:`MAX_VALUE` in size, or NaN (no value)."""
    try:
        value = float(text)
    except ValueError:
        value = math.inf
    if not (math.isnan(value) or abs(value) <= MAX_VALUE):
        raise StripsIntError(str(path), f"line {line}", f"{key} is {brief(text)}, not a finite number of at most "
                             f"{MAX_VALUE:g} in size")
    return value


def plot_summary(path: str | Path, width: float = TWO_COLUMNS, *, fig: Figure | SubFigure | None = None
                 ) -> Figure | SubFigure:
    """Left: per group, a bar of Int_cons split into its required and optional parts and a bar of
    Int_non-cons, each with the 95 % CI of its mean; right: task reward. Two columns wide (7.0 in).
    It draws two axes: in a new figure, or in ``fig`` when given (a figure or a subfigure of the caller's,
    say ``plt.figure().subfigures(2, 1)[0]``, with the legend below the axes); returns the figure drawn in.

    Counts start at 0. Each bar, error bar and point has ``gid`` ``<metric>:<group>``; an ``n=`` text
    (``gid`` ``n:<metric>:<group>``) marks only a metric resting on fewer games than its group.

    Parameters:
        path: a study's ``summary.csv``.
        width: the figure's width in inches (two paper columns by default).
        fig: a matplotlib figure or subfigure to draw the two axes in, instead of a figure of its own.

    Returns:
        The new figure, or ``fig``.
    """
    width_argument("plot_summary", width)
    keys, table = read_summary(path_argument("plot_summary", "path", path))
    groups = list(table)
    if not groups:
        raise StripsIntError(str(path), None, "no groups in the summary")
    games = {g: int(max((c["n"] for c in table[g].values()), default=0)) for g in groups}
    with matplotlib.rc_context(RC_PARAMS):
        figure = new_figure(width, 0.95 + 0.36 * len(groups)) if fig is None else fig
        left, right = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": (2, 1)})
        y = list(range(len(groups)))
        for i, group in enumerate(groups):
            cells, n = table[group], games[group]
            start = 0.0
            for metric, _, color in PARTS:  # stacked: the parts' means add up to Int_cons's
                cell = cells.get(metric)
                if cell and cell["n"] and cell["mean"] > 0:
                    bar = left.barh(i - _BAR / 2 - 0.02, cell["mean"], _BAR, left=start, color=color, linewidth=0)
                    bar.patches[0].set_gid(f"{metric}:{group}")
                    start += cell["mean"]
            _interval(left, cells.get("constructive"), i - _BAR / 2 - 0.02, "constructive", group, n)
            metric, _, color = NON_CONSTRUCTIVE
            cell = cells.get(metric)
            if cell and cell["n"]:
                bar = left.barh(i + _BAR / 2 + 0.02, cell["mean"], _BAR, color=color, linewidth=0)
                bar.patches[0].set_gid(f"{metric}:{group}")
                _interval(left, cell, i + _BAR / 2 + 0.02, metric, group, n)
            reward = cells.get("reward")
            if reward and reward["n"]:
                point = right.plot([reward["mean"]], [i], "o", color=REWARD_COLOR, markersize=3.5)[0]
                point.set_gid(f"reward:{group}")
                _interval(right, reward, i, "reward", group, n)
        left.set_yticks(y)
        left.set_yticklabels([f"{g} (n={games[g]})" for g in groups])
        left.set_ylim(len(groups) - 0.5, -0.5)
        left.set_xlim(0, None)
        left.set_xlabel("interdependencies per game (mean)")
        right.set_xlabel("task reward (mean)")
        left.set_title(" / ".join(keys) + ": means and 95 % bootstrap CIs", loc="left")
        for ax in (left, right):
            ax.grid(axis="x", color="#E5E5E5", linewidth=0.5)
            ax.set_axisbelow(True)
            ax.tick_params(axis="y", length=0)
        left.margins(x=0.08)
        left.set_xlim(0, None)
        handles = [Patch(color=color, label=label) for _, label, color in (*PARTS, NON_CONSTRUCTIVE)]
        handles.append(Line2D([], [], color="#333333", marker="|", markersize=5, linewidth=0.8,
                              label="95 % CI of the mean"))
        if isinstance(figure.figure.get_layout_engine(), ConstrainedLayoutEngine):  # room made below the axes
            legend = figure.legend(handles=handles, loc="outside lower center", ncol=len(handles), frameon=False,
                                   handlelength=1.4, columnspacing=1.2)
        else:  # a caller's figure of another layout: inside the bars' axes
            legend = left.legend(handles=handles, loc="best", framealpha=0.8, handlelength=1.4)
        for label in legend.get_texts():  # the one text set as mathtext: this module's own labels, no input
            label.set_parse_math(True)
    return figure


def _interval(ax, cell, at: float, metric: str, group: str, games: int) -> None:
    """The 95 % CI of ``cell``'s mean as a horizontal error bar at ``at`` (none under two games), and an
    ``n=`` text where the cell rests on fewer games than its group."""
    if not cell or not cell["n"]:
        return
    end = cell["mean"]
    if cell["n"] >= 2 and not math.isnan(cell["ci_low"]):
        # (an interval of very few resamples may leave out its mean: the bar then reaches out to the mean)
        error = [[max(cell["mean"] - cell["ci_low"], 0)], [max(cell["ci_high"] - cell["mean"], 0)]]
        bar = ax.errorbar(cell["mean"], at, xerr=error, fmt="none", ecolor="#333333", capsize=1.5, linewidth=0.7)
        for artist in bar.get_children():
            artist.set_gid(f"{metric}:{group}")
        end = max(cell["ci_high"], cell["mean"])
    if int(cell["n"]) != games:
        text = ax.annotate(f"n={int(cell['n'])}", (end, at), xytext=(2, 0), textcoords="offset points",
                           va="center", fontsize=5.5, color="#333333")
        text.set_gid(f"n:{metric}:{group}")
