"""Figures for papers: interdependence timelines, agent graphs, object-influence graphs, batch summaries;
a self-contained HTML page per game; GraphML export.

Installed as ``strips_int.visualize``. Every function returns a matplotlib
``Figure`` (no pyplot state) laid out so that a plain ``savefig`` keeps every
text inside, or draws into the caller's axes (``ax=``; ``fig=`` for the summary's two)
and returns them; :func:`save` writes PNG, PDF or SVG without timestamps, so the
same input gives the same bytes.
"""

from .agents import agent_counts, by_category, plot_agents
from .graphml import graphml_graph, write_graphml
from .html import html_report, write_html
from .influence import plot_influence
from .style import save
from .summary import plot_summary
from .timeline import parse_window, plot_timeline

__all__ = ["agent_counts", "by_category", "graphml_graph", "html_report", "parse_window", "plot_agents",
           "plot_influence", "plot_summary", "plot_timeline", "save", "write_graphml", "write_html"]
