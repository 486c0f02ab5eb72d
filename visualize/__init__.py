"""Figures for papers: interdependence timelines, object-influence graphs, batch summaries; GraphML export.

Installed as ``strips_int.visualize``. Every function returns a matplotlib
``Figure`` (no pyplot state); :func:`save` writes PNG, PDF or SVG without
timestamps, so the same input gives the same bytes.
"""

from .graphml import graphml_graph, write_graphml
from .influence import plot_influence
from .style import save
from .summary import plot_summary
from .timeline import plot_timeline

__all__ = ["graphml_graph", "plot_influence", "plot_summary", "plot_timeline", "save", "write_graphml"]
