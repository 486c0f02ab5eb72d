"""The timeline figure: one lane per agent, steps along time, each interdependence an arrow giver -> receiver."""

from __future__ import annotations

import matplotlib
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch
from matplotlib.ticker import MaxNLocator

from strips_int.interdependence import CATEGORIES
from strips_int.report import Report

from .style import AGENT_COLORS, CATEGORY_STYLE, ENVIRONMENT_COLOR, RC_PARAMS

ENVIRONMENT = "environment"


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


def plot_timeline(report: Report, width: float = 7.0, max_labels: int = 40) -> Figure:
    """Draw ``report`` as a timeline; arrows carry ``gid`` ``interdependence:<i>:<category>``.

    Sub-tasks are dots, labelled with their action (at most ``max_labels``
    labels, evenly thinned); navigation steps are small ticks; environment
    steps sit in their own lane.
    """
    names = lanes(report)
    row = {name: i for i, name in enumerate(names)}
    colors = lane_colors(names)
    roles = report.meta.get("roles") or {}
    subtasks = {i for tasks in report.tasks.values() for i in tasks.subtasks}
    with matplotlib.rc_context(RC_PARAMS):
        figure = Figure(figsize=(width, 0.9 + 0.55 * len(names)))
        ax = figure.subplots()
        for name in names:
            steps = [s for s in report.steps if (s.agent or ENVIRONMENT) == name]
            moves = [s.t for s in steps if s.index not in subtasks and s.agent is not None]
            tasks = [s for s in steps if s.index in subtasks or s.agent is None]
            ax.axhline(row[name], color="#D9D9D9", linewidth=0.5, zorder=0)
            ax.scatter(moves, [row[name]] * len(moves), marker="|", s=12, color="#BFBFBF", linewidths=0.6, zorder=1)
            ax.scatter([s.t for s in tasks], [row[name]] * len(tasks), s=10, color=colors[name], zorder=3,
                       edgecolors="none")
        labelled = sorted(subtasks)
        for index in labelled[:: max(1, -(-len(labelled) // max_labels))]:
            step = report.steps[index]
            ax.annotate(step.action.name, (step.t, row[step.agent or ENVIRONMENT]), xytext=(0, 4),
                        textcoords="offset points", rotation=60, fontsize=5, ha="left", va="bottom", color="#333333")
        for i, verdict in enumerate(report.interdependencies):
            giver, receiver = verdict.giver, verdict.receiver
            start, end = (giver.t, row[giver.agent or ENVIRONMENT]), (receiver.t, row[receiver.agent or ENVIRONMENT])
            arrow = FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=6, linewidth=0.8, alpha=0.85,
                                    connectionstyle="arc3,rad=0.15", zorder=2, **CATEGORY_STYLE[verdict.category])
            arrow.set_gid(f"interdependence:{i}:{verdict.category}")
            ax.add_patch(arrow)
        counts = report.counts
        handles = [Line2D([], [], label=f"{c} ({counts[c]})", linewidth=1.2, **CATEGORY_STYLE[c]) for c in CATEGORIES]
        handles += [Line2D([], [], marker="o", linestyle="", color="#333333", markersize=3, label="sub-task"),
                    Line2D([], [], marker="|", linestyle="", color="#BFBFBF", markersize=5, label="navigation")]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=5, frameon=False)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels([f"{n} ({roles[n]})" if n in roles else n for n in names])
        ax.set_ylim(len(names) - 0.4, -0.6)
        last = max([s.t for s in report.steps], default=0)
        ax.set_xlim(-0.5, last + 0.5)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("environment time step")
        ax.set_title(f"{report.problem}: {counts['interdependencies']} interdependencies", loc="left", pad=28)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
    return figure
