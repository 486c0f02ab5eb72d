"""The object-influence graph (definitions section 7): one object's trajectory, or the whole game in agent lanes."""

from __future__ import annotations

from collections import Counter
from typing import overload

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from strips_int.analysis.causal import influence_trajectory
from strips_int.analysis.report import Report
from strips_int.errors import StripsIntError, argument, number_argument, of_type

from .style import (CATEGORY_STYLE, ONE_COLUMN, RC_PARAMS, TWO_COLUMNS, drawing_area, fill, legend,
                    place_labels, report_argument, width_argument)
from .timeline import ENVIRONMENT, game_title, lane_colors, lane_rows, lanes

_LABEL = {"fontsize": 5.5, "color": "#333333"}
#: A causal link that is no interdependence.
CAUSAL_STYLE = {"color": "#BFBFBF", "linestyle": "-"}
#: The most steps of one object that one paper column holds with their labels.
ONE_COLUMN_STEPS = 7


def busiest_object(report: Report) -> str:
    """The object named by most interdependencies (ties: by name): the default trajectory to draw."""
    named = Counter(o for item in report.to_dict()["interdependencies"] for o in item["objects"])
    if not named:
        raise StripsIntError(report.source, None, "no interdependence names an object; give one or ask for all steps")
    return min(named, key=lambda o: (-named[o], o))


@overload
def plot_influence(report: Report, obj: str | None = ..., since: int = ..., width: float | None = ...,
                   whole: bool = ..., *, ax: None = None) -> Figure: ...
@overload
def plot_influence(report: Report, obj: str | None = ..., since: int = ..., width: float | None = ...,
                   whole: bool = ..., *, ax: Axes) -> Axes: ...
def plot_influence(report: Report, obj: str | None = None, since: int = 0, width: float | None = None,
                   whole: bool = False, *, ax: Axes | None = None) -> Figure | Axes:
    """The causal links among the steps that mention ``obj`` from time ``since``.

    One object (``obj``, or :func:`busiest_object` when None): its steps in
    time order, evenly spaced left to right on their agent's lane, each
    labelled ``t:action`` where there is room; one paper column (3.4 in)
    wide for up to 7 steps, two columns (7.0 in) for more. ``whole`` draws
    every step instead, at its time on its agent's lane, unlabelled, two
    columns wide; there a link between two steps of one lane (an agent's own
    chain) is left to the lane and only links across lanes are drawn, so the
    help between agents stands out (the title counts both). Grey edges are
    causal links (``gid`` ``link:<giver>-><receiver>``); a link that is an
    interdependence is drawn in its category's style. The legend lists the
    causal links and the categories present. ``width`` overrides the width. Returns the new figure, or
    ``ax`` when given one to draw in (the legend inside it).

    Parameters:
        report: the game's report.
        obj: the object to follow (default: the one with most steps).
        since: the first time step.
        width: the figure's width in inches, instead of one or two columns by the steps.
        whole: every step of every object, unlabelled.
        ax: matplotlib axes to draw in, instead of a figure of its own.

    Returns:
        The new figure, or ``ax``.
    """
    report_argument("plot_influence", report)
    argument("plot_influence", "obj", obj, obj is None or isinstance(obj, str), "None or an object's name")
    number_argument("plot_influence", "since", since, 0, 2**63, whole=True)
    width_argument("plot_influence", width, optional=True)
    of_type("plot_influence", "whole", whole, bool, "True or False")
    import networkx as nx  # (here: the HTML report and the other figures need no networkx)

    data = report.to_dict()
    obj = None if whole else obj or busiest_object(report)
    graph = influence_trajectory(report.graph, obj, since)
    if graph.number_of_nodes() == 0:
        raise StripsIntError(report.source, None, f"no step mentions {obj!r} at or after t={since}")
    names = [n for n in lanes(report) if any((graph.nodes[v]["agent"] or ENVIRONMENT) == n for v in graph)]
    row = lane_rows(names)
    colour = lane_colors(lanes(report))
    category = {(i["giver"]["index"], i["receiver"]["index"]): i["category"] for i in data["interdependencies"]}
    order = sorted(graph.nodes, key=lambda n: (graph.nodes[n]["t"], graph.nodes[n]["index"]))
    position = {n: (graph.nodes[n]["t"] if whole else rank, row[graph.nodes[n]["agent"] or ENVIRONMENT])
                for rank, n in enumerate(order)}
    edges = sorted({(u, v) for u, v in graph.edges()})
    drawn = [(u, v) for u, v in edges if not whole or position[u][1] != position[v][1] or (u, v) in category]
    present = [c for c in CATEGORY_STYLE if any(category.get(e) == c for e in edges)]
    steps = len(order)
    width = width or (TWO_COLUMNS if whole or steps > ONE_COLUMN_STEPS else ONE_COLUMN)
    with matplotlib.rc_context(RC_PARAMS):
        own = ax is None
        figure, ax, width = drawing_area(ax, width, 1.2 + 0.6 * len(names))
        for u, v in drawn:
            style = CATEGORY_STYLE.get(category.get((u, v)), CAUSAL_STYLE)
            collection = nx.draw_networkx_edges(graph, position, edgelist=[(u, v)], ax=ax, arrows=True,
                                                arrowsize=5, width=0.7 if (u, v) in category else 0.5,
                                                edge_color=style["color"], style=style["linestyle"], node_size=10,
                                                connectionstyle="arc3,rad=0.2")
            for artist in collection if isinstance(collection, list) else [collection]:
                artist.set_gid(f"link:{u}->{v}")
                artist.set_zorder(2 if (u, v) in category else 1)  # the help between agents on top
        nx.draw_networkx_nodes(graph, position, nodelist=order, ax=ax, node_size=6 if whole else 14,
                               node_color=[colour[graph.nodes[n]["agent"] or ENVIRONMENT] for n in order])
        handles = [Line2D([], [], linewidth=1.0, label="causal link" + (" across lanes" if whole else ""),
                          **CAUSAL_STYLE)] if len(drawn) > sum(e in category for e in drawn) else []
        handles += [Line2D([], [], linewidth=1.0, label=c, **CATEGORY_STYLE[c]) for c in present]
        legend(figure, ax, own, handles, ncol=len(handles))
        ax.set_yticks([row[n] for n in names])
        ax.set_yticklabels(["env." if n == ENVIRONMENT else n for n in names])
        ax.set_ylim(max(row.values()) + 0.4, -0.8)
        ax.tick_params(left=False, bottom=whole, labelleft=True, labelbottom=whole)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        if whole:
            ax.set_xlabel("time step")
        else:
            ax.set_xlim(-1.3, steps + 0.3)
            ax.spines["bottom"].set_visible(False)
        what = f"object {obj}" if obj else "all objects"
        links = f"{len(edges)} links" + (f" ({len(edges) - len(drawn)} within one lane, not drawn)" if whole else "")
        ax.set_title(fill(f"{game_title(data)}\ninfluence of {what} from t={since}: {steps} steps, {links}", width),
                     loc="left")
        if not whole:
            labels = [(*position[n], f"{graph.nodes[n]['t']}:{graph.nodes[n]['action'][1:].split()[0]}", _LABEL)
                      for n in order]
            place_labels(figure, ax, labels, offsets=(3.0, -3.0, 10.0, -10.0))
    return figure if own else ax
