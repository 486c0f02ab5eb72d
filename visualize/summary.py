"""The batch summary figure: per group, mean Int_cons (and its required and optional parts, SPEC section 10)
and Int_non-cons with 95 % CIs, and task reward beside it.

Every point says how many games it rests on (``n=``); a point from fewer
than two games has no interval. The table is checked as it is read: a count
is a whole number, a mean and an interval's ends are finite (NaN where
``summary.csv`` has none: no game, or under two), an interval's low end is
not above its high end; a table of more than :data:`MAX_GROUPS` groups is
refused before anything is drawn (one row per group: beyond that no one
reads the figure, and its height outgrows what can be saved).
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from strips_int.errors import StripsIntError, brief, printable
from strips_int.files import read_text

from .style import CATEGORY_STYLE, RC_PARAMS, new_figure

_PANELS = (("constructive", "Int_cons", CATEGORY_STYLE["constructive"]["color"]),
           ("constructive_required", "Int_cons,req", "#009E73"),  # SPEC section 10
           ("constructive_optional", "Int_cons,opt", "#56B4E9"),
           ("non_constructive", "Int_non-cons", CATEGORY_STYLE["looping"]["color"]))
#: The most groups one summary figure draws: a figure of 100 groups is some 65 inches tall and takes 15-30 s
#: to draw; one of thousands would take minutes and more memory than a figure can be saved in.
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


def plot_summary(path: str | Path, width: float = 7.0) -> Figure:
    """Left: Int_cons and Int_non-cons per group; right: reward; points are means, bars 95 % CIs.

    Each error bar has ``gid`` ``<metric>:<group>``, and its ``n=`` text ``n:<metric>:<group>``.
    """
    keys, table = read_summary(path)
    groups = list(table)
    if not groups:
        raise StripsIntError(str(path), None, "no groups in the summary")
    with matplotlib.rc_context(RC_PARAMS):
        figure = new_figure(width, 1.0 + 0.16 * len(_PANELS) * len(groups))  # room for an n= label per bar
        left, right = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": (2, 1)})
        y = list(range(len(groups)))
        for offset, (metric, label, color) in zip((-0.3, -0.1, 0.1, 0.3), _PANELS):
            _bars(left, groups, table, metric, [v + offset for v in y], color, label)
        _bars(right, groups, table, "reward", y, "#333333", "reward")
        left.set_yticks(y)
        left.set_yticklabels(groups)
        left.set_ylim(len(groups) - 0.5, -0.5)
        left.set_xlabel("interdependencies per game")
        figure.legend(*left.get_legend_handles_labels(), loc="outside lower center", ncol=2, frameon=False)
        right.set_xlabel("task reward")
        left.set_title(" / ".join(keys) + ": mean and 95 % bootstrap CI", loc="left")
        for ax in (left, right):
            ax.grid(axis="x", color="#E5E5E5", linewidth=0.5)
            ax.set_axisbelow(True)
            ax.margins(x=0.22)  # room for the n= texts
    return figure


def _bars(ax, groups, table, metric, y, color, label) -> None:
    for i, (group, at) in enumerate(zip(groups, y)):
        cell = table[group].get(metric)
        if cell is None or cell["n"] == 0:
            continue
        spread = cell["n"] >= 2 and not math.isnan(cell["ci_low"])
        # (an interval of very few resamples may leave out its mean: the bar then reaches out to the mean)
        error = [[max(cell["mean"] - cell["ci_low"], 0)], [max(cell["ci_high"] - cell["mean"], 0)]] if spread else None
        bar = ax.errorbar(cell["mean"], at, xerr=error, fmt="o", color=color, markersize=3, capsize=2,
                          linewidth=0.8, label=label if i == 0 else None)
        for artist in bar.get_children():
            artist.set_gid(f"{metric}:{group}")
        end = max(cell["ci_high"], cell["mean"]) if spread else cell["mean"]
        text = ax.annotate(f"n={int(cell['n'])}", (end, at), xytext=(3, 0), textcoords="offset points",
                           va="center", fontsize=5.5, color=color)
        text.set_gid(f"n:{metric}:{group}")
