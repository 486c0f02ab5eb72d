"""The batch summary figure: per group, mean Int_cons (and its required and optional parts) and Int_non-cons
with 95 % CIs, and task reward beside it."""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from strips_int.errors import StripsIntError

from .style import CATEGORY_STYLE, RC_PARAMS

_PANELS = (("constructive", "Int_cons", CATEGORY_STYLE["constructive"]["color"]),
           ("constructive_required", "Int_cons,req", "#009E73"),  # SPEC section 10
           ("constructive_optional", "Int_cons,opt", "#56B4E9"),
           ("non_constructive", "Int_non-cons", CATEGORY_STYLE["looping"]["color"]))


def read_summary(path: str | Path) -> tuple[list[str], dict[str, dict[str, dict[str, float]]]]:
    """``summary.csv`` of ``strips_int.evaluate``: the group keys and {group label: {metric: row}}."""
    path = Path(path)
    try:
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            fields = reader.fieldnames or []
            if "metric" not in fields:
                raise StripsIntError(str(path), "header", "not a strips_int summary.csv (no 'metric' column)")
            keys = fields[: fields.index("metric")]
            table: dict[str, dict[str, dict[str, float]]] = {}
            for line, row in enumerate(reader, start=2):
                label = " / ".join(row[k] for k in keys)
                try:
                    table.setdefault(label, {})[row["metric"]] = {
                        k: float(row[k]) for k in ("n", "mean", "ci_low", "ci_high")}
                except ValueError as exc:
                    raise StripsIntError(str(path), f"line {line}", f"not a number: {exc}") from None
    except OSError as exc:
        raise StripsIntError(str(path), None, f"cannot read: {exc.strerror}") from None
    return keys, table


def plot_summary(path: str | Path, width: float = 7.0) -> Figure:
    """Left: Int_cons, Int_cons,req, Int_cons,opt and Int_non-cons per group; right: reward; points are means,
    bars 95 % CIs.

    Each error bar has ``gid`` ``<metric>:<group>``.
    """
    keys, table = read_summary(path)
    groups = list(table)
    if not groups:
        raise StripsIntError(str(path), None, "no groups in the summary")
    with matplotlib.rc_context(RC_PARAMS):
        figure = Figure(figsize=(width, 0.8 + 0.28 * len(groups)))
        left, right = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": (2, 1)})
        y = list(range(len(groups)))
        for offset, (metric, label, color) in zip((-0.3, -0.1, 0.1, 0.3), _PANELS):
            _bars(left, groups, table, metric, [v + offset for v in y], color, label)
        _bars(right, groups, table, "reward", y, "#333333", "reward")
        left.set_yticks(y)
        left.set_yticklabels(groups)
        left.set_ylim(len(groups) - 0.5, -0.5)
        left.set_xlabel("interdependencies per game")
        left.legend(loc="best", frameon=False)
        right.set_xlabel("task reward")
        left.set_title(" / ".join(keys) + ": mean and 95 % bootstrap CI", loc="left")
        for ax in (left, right):
            ax.grid(axis="x", color="#E5E5E5", linewidth=0.5)
            ax.set_axisbelow(True)
    return figure


def _bars(ax, groups, table, metric, y, color, label) -> None:
    for i, (group, at) in enumerate(zip(groups, y)):
        cell = table[group].get(metric)
        if cell is None or cell["n"] == 0:
            continue
        bar = ax.errorbar(cell["mean"], at, xerr=[[cell["mean"] - cell["ci_low"]], [cell["ci_high"] - cell["mean"]]],
                          fmt="o", color=color, markersize=3, capsize=2, linewidth=0.8, label=label if i == 0 else None)
        for artist in bar.get_children():
            artist.set_gid(f"{metric}:{group}")
