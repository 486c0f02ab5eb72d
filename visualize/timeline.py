"""The timeline figure: one lane per agent, steps along time, each interdependence an arrow giver -> receiver,
each block (definitions section 13) an arrow giver -> blocked attempt in a style of its own."""

from __future__ import annotations

import numbers
from typing import Any, Mapping, overload

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch
from matplotlib.ticker import MaxNLocator

from strips_int.analysis.interdependence import CATEGORIES
from strips_int.analysis.report import Report
from strips_int.errors import StripsIntError, argument, printable

from .style import (
    AGENT_COLORS,
    BLOCK_STYLE,
    CATEGORY_STYLE,
    ENVIRONMENT_COLOR,
    ONE_COLUMN,
    RC_PARAMS,
    drawing_area,
    fill,
    legend,
    place_labels,
    report_argument,
    width_argument,
)

ENVIRONMENT = "environment"
#: The environment lane sits this far below the last agent lane (agents are 1 apart): it only holds dots.
ENVIRONMENT_GAP = 0.45
_LABEL = {"fontsize": 5.5, "color": "#333333",
          "bbox": {"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.75}}


def lanes(report: Report) -> list[str]:
    """Lane names top to bottom: the agents, then the environment when it acts."""
    names = list(report.agents)
    if any(step.agent is None for step in report.steps):
        names.append(ENVIRONMENT)
    return names


def lane_colors(names: list[str]) -> dict[str, str]:
    """Each lane's colour: agents in palette order, the environment grey."""
    return {name: ENVIRONMENT_COLOR if name == ENVIRONMENT else AGENT_COLORS[i % len(AGENT_COLORS)]
            for i, name in enumerate(names)}


def lane_rows(names: list[str]) -> dict[str, float]:
    """Each lane's y: agents 1 apart, the environment lane closer (compact)."""
    rows = {name: float(i) for i, name in enumerate(n for n in names if n != ENVIRONMENT)}
    if ENVIRONMENT in names:
        rows[ENVIRONMENT] = len(rows) - 1 + ENVIRONMENT_GAP
    return rows


def game_title(data: Mapping[str, Any]) -> str:
    """``forced_coordination: player0 (ai), player1 (human)`` from :meth:`Report.to_dict`: layout, agents, roles."""
    meta = data["meta"]
    roles = meta.get("roles") or {}
    where = printable(meta.get("layout") or meta.get("scenario") or data["problem"])
    who = ", ".join(f"{a} ({printable(roles[a])})" if a in roles else a for a in data["agents"])
    return f"{where}: {who}"


def parse_window(text: str) -> tuple[int, int]:
    """``T0:T1`` as two time steps (either side may be empty: from the start, to the end)."""
    start, sep, end = text.partition(":")
    try:
        window = (int(start) if start else 0, int(end) if end else 2**31)
    except ValueError:
        window = (1, 0)
    if not sep or window[0] > window[1]:
        raise StripsIntError(text, None, "a time window is T0:T1 with integers T0 <= T1")
    return window


@overload
def plot_timeline(report: Report, width: float = ..., window: tuple[int, int] | None = ..., *,
                  ax: None = None) -> Figure: ...
@overload
def plot_timeline(report: Report, width: float = ..., window: tuple[int, int] | None = ..., *, ax: Axes) -> Axes: ...
def plot_timeline(report: Report, width: float = ONE_COLUMN, window: tuple[int, int] | None = None, *,
                  ax: Axes | None = None) -> Figure | Axes:
    """Draw ``report`` as a timeline, one paper column (3.4 in) wide; arrows carry ``gid``
    ``interdependence:<i>:<category>``, blocks ``block:<i>`` (black, dash-dotted, a cross at the attempt).
    Returns the new figure, or ``ax`` when given one to draw in (``width`` is then the axes', the legend inside
    them).

    Sub-tasks are dots, navigation steps small ticks, environment steps dots
    in a compact lane of their own. Action labels are placed so that none
    collides with another or with another's leader line (the steps of
    interdependencies first; a label above the first level has a leader line
    down to its dot); labels with no free place are left out and the title
    says how many. ``window`` keeps the steps with ``T0 <= t <= T1`` and the
    interdependencies with both ends inside. The title breaks only between
    agents, never inside a name.

    Parameters:
        report: the game's report.
        width: the figure's width in inches (one paper column by default).
        window: ``(T0, T1)``: only the steps and interdependencies within.
        ax: matplotlib axes to draw in, instead of a figure of its own.

    Returns:
        The new figure, or ``ax``.
    """
    report_argument("plot_timeline", report)
    width_argument("plot_timeline", width)
    argument("plot_timeline", "window", window, window is None or (
        isinstance(window, (tuple, list)) and len(window) == 2
        and all(isinstance(t, numbers.Integral) and not isinstance(t, bool) and 0 <= t < 2**63 for t in window)
        and window[0] <= window[1]), "None or (T0, T1), whole numbers 0 <= T0 <= T1")
    data = report.to_dict()
    names = lanes(report)
    row = lane_rows(names)
    colors = lane_colors(names)
    roles = data["meta"].get("roles") or {}
    t0, t1 = window or (min((s.t for s in report.steps), default=0), max((s.t for s in report.steps), default=0))
    visible = [s for s in report.steps if t0 <= s.t <= t1]
    if not visible:
        raise StripsIntError(report.source, None, f"no step in the time window {t0}:{t1}")
    t1 = min(t1, max(s.t for s in visible))
    items = [(i, item) for i, item in enumerate(data["interdependencies"])
             if t0 <= item["giver"]["t"] and item["receiver"]["t"] <= t1]
    subtasks = {i for tasks in report.tasks.values() for i in tasks.subtasks}
    with matplotlib.rc_context(RC_PARAMS):
        own = ax is None
        figure, ax, width = drawing_area(ax, width, 1.15 + 0.62 * len(report.agents))
        for name in names:
            steps = [s for s in visible if (s.agent or ENVIRONMENT) == name]
            moves = [s.t for s in steps if s.index not in subtasks and s.agent is not None]
            tasks = [s.t for s in steps if s.index in subtasks or s.agent is None]
            ax.axhline(row[name], color="#D9D9D9", linewidth=0.5, zorder=0)
            ax.scatter(moves, [row[name]] * len(moves), marker="|", s=8, color="#BFBFBF", linewidths=0.5, zorder=1)
            ax.scatter(tasks, [row[name]] * len(tasks), s=6 if name == ENVIRONMENT else 8, color=colors[name],
                       zorder=3, edgecolors="none")
        for i, item in items:
            giver, receiver = item["giver"], item["receiver"]
            arrow = FancyArrowPatch((giver["t"], row[giver["agent"] or ENVIRONMENT]),
                                    (receiver["t"], row[receiver["agent"] or ENVIRONMENT]), arrowstyle="-|>",
                                    mutation_scale=5, linewidth=0.7, alpha=0.85, connectionstyle="arc3,rad=0.15",
                                    zorder=2, **CATEGORY_STYLE[item["category"]])
            arrow.set_gid(f"interdependence:{i}:{item['category']}")
            ax.add_patch(arrow)
        blocks = [(i, block) for i, block in enumerate(data["blocks"])
                  if t0 <= block["giver"]["t"] and block["attempt"]["t"] <= t1]
        for i, block in blocks:
            giver, attempt = block["giver"], block["attempt"]
            arrow = FancyArrowPatch((giver["t"], row[giver["agent"]]), (attempt["t"], row[attempt["agent"]]),
                                    arrowstyle="-|>", mutation_scale=5, linewidth=0.7, alpha=0.85,
                                    connectionstyle="arc3,rad=-0.15", zorder=2, **BLOCK_STYLE)
            arrow.set_gid(f"block:{i}")
            ax.add_patch(arrow)
        if blocks:
            ax.scatter([b["attempt"]["t"] for _, b in blocks], [row[b["attempt"]["agent"]] for _, b in blocks],
                       marker="x", s=10, color=BLOCK_STYLE["color"], linewidths=0.6, zorder=4)
        present = {c: sum(item["category"] == c for _, item in items) for c in CATEGORIES}
        handles = [Line2D([], [], label=f"{c} ({present[c]})", linewidth=1.0, **CATEGORY_STYLE[c]) for c in CATEGORIES]
        if blocks:
            handles.append(Line2D([], [], label=f"blocks ({len(blocks)})", linewidth=1.0, **BLOCK_STYLE))
        legend(figure, ax, own, handles, ncol=3, handlelength=1.8, columnspacing=1.0)
        ax.set_yticks([row[n] for n in names])
        ax.set_yticklabels([f"{n}\n({printable(roles[n])})" if n in roles else ("env." if n == ENVIRONMENT else n)
                            for n in names])
        ax.set_ylim(max(row.values()) + 0.25, -0.75)
        ax.set_xlim(t0 - 0.01 * (t1 - t0 + 1) - 0.5, t1 + 0.01 * (t1 - t0 + 1) + 0.5)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
        ax.set_xlabel("time step")
        ax.tick_params(axis="y", length=0)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        span = f"t {t0}-{t1}: " if window else ""
        head = fill(game_title(data), width)
        title = ax.set_title(f"{head}\n{span}{len(items)} interdependencies", loc="left")
        ends = {item[end]["index"] for _, item in items for end in ("giver", "receiver")}
        candidates = sorted((s for s in visible if s.index in subtasks), key=lambda s: (s.index not in ends, s.t))
        labels = [(s.t, row[s.agent or ENVIRONMENT], s.action.name, _LABEL) for s in candidates]
        _, dropped = place_labels(figure, ax, labels, offsets=(2.5, 9.5, 16.5))
        if dropped:  # a short tail on the last line: the layout the labels were placed in stays
            title.set_text(f"{title.get_text()}, {dropped} labels left out")
    return figure if own else ax
