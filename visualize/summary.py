"""The batch summary figure: per group, mean Int_cons (and its required and optional parts, SPEC section 10)
and Int_non-cons with 95 % CIs, and task reward beside it.

Every point says how many games it rests on (``n=``); a point from fewer
than two games has no interval.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from strips_int.errors import StripsIntError, brief

from .style import CATEGORY_STYLE, RC_PARAMS, new_figure

_PANELS = (("constructive", "Int_cons", CATEGORY_STYLE["constructive"]["color"]),
           ("constructive_required", "Int_cons,req", "#009E73"),  # SPEC section 10
           ("constructive_optional", "Int_cons,opt", "#56B4E9"),
           ("non_constructive", "Int_non-cons", CATEGORY_STYLE["looping"]["color"]))


def read_summary(path: str | Path) -> tuple[list[str], dict[str, dict[str, dict[str, float]]]]:
    """``summary.csv`` of ``strips_int.evaluate``: the group keys and {group label: {metric: row}}.

    Anything else (binary, cut short, a cell over the csv module's field limit) is an error.
    """
    path = Path(path)
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            fields = reader.fieldnames or []
            if "metric" not in fields:
                raise StripsIntError(str(path), "header", "not a strips_int summary.csv (no 'metric' column)")
            keys = fields[: fields.index("metric")]
            table: dict[str, dict[str, dict[str, float]]] = {}
            for line, row in enumerate(reader, start=2):
                table.setdefault(" / ".join(_cell(row, k, path, line) for k in keys), {})[
                    _cell(row, "metric", path, line)] = {
                    k: _number(_cell(row, k, path, line), path, line) for k in ("n", "mean", "ci_low", "ci_high")}
    except OSError as exc:
        raise StripsIntError(str(path), None, f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise StripsIntError(str(path), None, "not a strips_int summary.csv (not UTF-8 text)") from None
    except csv.Error as exc:
        raise StripsIntError(str(path), None, f"not a strips_int summary.csv ({exc})") from None
    return keys, table


def _cell(row: dict[str | None, str | None], key: str, path: Path, line: int) -> str:
    value = row.get(key)
    if value is None:
        raise StripsIntError(str(path), f"line {line}", f"no {key!r} value (the row is cut short)")
    return value


def _number(text: str, path: Path, line: int) -> float:
    try:
        return float(text)
    except ValueError:
        raise StripsIntError(str(path), f"line {line}", f"not a number: {brief(text)}") from None


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
        error = [[cell["mean"] - cell["ci_low"]], [cell["ci_high"] - cell["mean"]]] if spread else None
        bar = ax.errorbar(cell["mean"], at, xerr=error, fmt="o", color=color, markersize=3, capsize=2,
                          linewidth=0.8, label=label if i == 0 else None)
        for artist in bar.get_children():
            artist.set_gid(f"{metric}:{group}")
        end = cell["ci_high"] if spread else cell["mean"]
        text = ax.annotate(f"n={int(cell['n'])}", (end, at), xytext=(3, 0), textcoords="offset points",
                           va="center", fontsize=5.5, color=color)
        text.set_gid(f"n:{metric}:{group}")
