"""The object-influence graph (SPEC section 7) drawn left to right by time, nodes coloured by agent."""

from __future__ import annotations

import matplotlib
import networkx as nx
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from strips_int.causal import influence_trajectory
from strips_int.errors import StripsIntError
from strips_int.report import Report

from .style import CATEGORY_STYLE, RC_PARAMS
from .timeline import ENVIRONMENT, lane_colors, lanes


def plot_influence(report: Report, obj: str | None = None, since: int = 0, width: float = 7.0) -> Figure:
    """The causal links among the steps that mention ``obj`` (every step when None) from time ``since``.

    Nodes sit at (time, agent lane); grey edges are causal links (``gid``
    ``link:<giver>-><receiver>``), and a link that is part of an
    interdependence is drawn in its category's style.
    """
    graph = influence_trajectory(report.graph, obj, since)
    if graph.number_of_nodes() == 0:
        raise StripsIntError(report.source, None, f"no step mentions {obj!r} at or after t={since}")
    names = lanes(report)
    row = {name: i for i, name in enumerate(names)}
    colour = lane_colors(names)
    category = {(i.giver.index, i.receiver.index): i.category for i in report.interdependencies}
    position = {}
    for node, data in graph.nodes(data=True):
        lane = data["agent"] or ENVIRONMENT
        position[node] = (data["t"], row[lane] + 0.12 * (data["index"] % 3 - 1))  # spread same-time steps
    with matplotlib.rc_context(RC_PARAMS):
        figure = Figure(figsize=(width, 0.9 + 0.6 * len(names)))
        ax = figure.subplots()
        edges = sorted({(u, v) for u, v in graph.edges()})
        for u, v in edges:
            style = CATEGORY_STYLE.get(category.get((u, v)), {"color": "#BFBFBF", "linestyle": "-"})
            collection = nx.draw_networkx_edges(graph, position, edgelist=[(u, v)], ax=ax, arrows=True,
                                                arrowsize=6, width=0.8, edge_color=style["color"],
                                                style=style["linestyle"], node_size=12)
            for artist in collection if isinstance(collection, list) else [collection]:
                artist.set_gid(f"link:{u}->{v}")
        nodes = sorted(graph.nodes)
        nx.draw_networkx_nodes(graph, position, nodelist=nodes, ax=ax, node_size=14,
                               node_color=[colour[graph.nodes[n]["agent"] or ENVIRONMENT] for n in nodes])
        handles = [Line2D([], [], marker="o", linestyle="", color=colour[n], markersize=4, label=n) for n in names]
        handles += [Line2D([], [], label=c, linewidth=1.2, **s) for c, s in CATEGORY_STYLE.items()]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=len(handles), frameon=False)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names)
        ax.set_ylim(len(names) - 0.5, -0.5)
        ax.tick_params(left=True, bottom=True, labelleft=True, labelbottom=True)
        ax.set_xlabel("environment time step")
        what = f"object {obj}" if obj else "all objects"
        ax.set_title(f"{report.problem}: influence of {what} from t={since} "
                     f"({graph.number_of_nodes()} steps, {len(edges)} links)", loc="left")
    return figure
